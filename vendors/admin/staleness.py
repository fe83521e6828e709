"""Verification: “Mark verified today”, and the staleness queue of facts gone stale."""

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import F
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.text import Truncator

from editorial.admin_input import ValidatesInitial

from ..models import Fact, StaleFact
from ..services import mark_verified

MARK_VERIFIED_LABEL = "Mark verified today"


def plural(count, singular, plural=None):
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def _days_since(day, *, today=None):
    return ((today or timezone.localdate()) - day).days


@admin.register(StaleFact)
class StaleFactAdmin(ValidatesInitial, admin.ModelAdmin):
    """The staleness queue: facts not verified within settings.FRESHNESS_DAYS, oldest first.

    Rows are edited on their vendor's page (where revisions are kept), so this list has no
    add, change or delete form of its own: its “Edit” link and its action are the way in.
    It uses the Fact permissions, which the Editor and Publisher groups already hold.
    """

    list_display = [
        "vendor",
        "attribute",
        "short_value",
        "verified_on",
        "verified_by",
        "days_since_verified",
        "edit_link",
    ]
    list_display_links = None
    list_filter = [
        ("vendor", admin.RelatedOnlyFieldListFilter),
        ("vendor__lane", admin.RelatedOnlyFieldListFilter),
        ("attribute", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["vendor", "attribute", "verified_by"]
    search_fields = ["value", "vendor__name"]
    ordering = [F("verified_on").asc(nulls_first=True), "vendor__name", "attribute__position", "pk"]
    actions = ["mark_verified_today"]
    list_per_page = 100

    def get_queryset(self, request):
        return super().get_queryset(request).stale()

    def changelist_view(self, request, extra_context=None):
        days = settings.FRESHNESS_DAYS
        title = f"Staleness queue: facts not verified in the last {days} days, oldest first"
        return super().changelist_view(request, {"title": title, **(extra_context or {})})

    # Permissions: a proxy model's own codenames are not used; the Fact ones are.

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm("vendors.view_fact") or self.has_change_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm("vendors.change_fact")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A fact is edited on its vendor's page, so that the change is kept in its revisions."""
        fact = self.get_object(request, object_id)
        if fact is None or not self.has_view_permission(request, fact):
            return redirect(reverse("admin:vendors_stalefact_changelist"))
        return redirect(self._edit_url(fact))

    # Columns.

    @admin.display(description="value")
    def short_value(self, obj):
        return Truncator(obj.value).chars(80)

    @admin.display(description="days since verified", ordering=F("verified_on").desc(nulls_last=True))
    def days_since_verified(self, obj):
        return "never verified" if obj.verified_on is None else _days_since(obj.verified_on)

    @admin.display(description="edit")
    def edit_link(self, obj):
        return format_html('<a href="{}">Edit</a>', self._edit_url(obj))

    @staticmethod
    def _edit_url(fact):
        return reverse("admin:vendors_vendor_change", args=[fact.vendor_id]) + "#facts-group"

    # The action.

    @admin.action(description=MARK_VERIFIED_LABEL, permissions=["change"])
    def mark_verified_today(self, request, queryset):
        counts, vendor_pks = mark_verified(user=request.user, facts=queryset)
        messages.success(
            request,
            f"Marked {plural(counts[Fact], 'fact')} verified today on {plural(len(vendor_pks), 'vendor')}.",
        )
