"""Verification: “Mark verified today”, and the staleness queue of every verified row.

The queue is one list per kind (facts, events, scores, chip specs, availability dates, chip
prices, measured results: the last two in staleness_market.py) under one menu, each with the
same rule (VerifiableQuerySet.stale()), the same columns and the same ways out: an “Edit”
link to the row itself on its vendor's page (``#fact-12``), a “Mark verified today” button on
each row, and the action for the rows ticked.
"""

from django.conf import settings
from django.contrib import admin, messages
from django.db.models import F, Model, Prefetch, Q
from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from chips import quantities, units
from chips.models import (
    Availability,
    Price,
    Result,
    Spec,
    SpecCitation,
    StaleAvailability,
    StalePrice,
    StaleResult,
    StaleSpec,
)
from chips.selectors import difference_text
from claims.freshness import verified_moment
from claims.models import VerifiableQuerySet
from claims.quotes import missing_quote_text
from infra.admin_input import ValidatesInitial

from ..models import Event, Fact, Score, StaleEvent, StaleFact, StaleScore
from ..publishing import VerifiedModel
from ..services import mark_verified

MARK_VERIFIED_LABEL = "Mark verified today"
VERIFY_ROW = "verify_row"


def plural(count, singular, plural=None):
    return f"{count} {singular if count == 1 else (plural or singular + 's')}"


def _days_since(day, *, today=None):
    return ((today or timezone.localdate()) - day).days


def row_anchor(obj):
    """The id of ``obj``'s row on its vendor's change page (templates/admin/editorial/edit_inline/)."""
    return f"{obj._meta.concrete_model._meta.model_name}-{obj.pk}"


def row_edit_url(obj):
    """``obj``'s own row on its vendor's change page."""
    return reverse("admin:vendors_vendor_change", args=[obj.vendor_id]) + "#" + row_anchor(obj)


# The kinds of row the queue lists, in its menu's order: (proxy, concrete model, keyword for mark_verified).
QUEUES: list[tuple[type[Model], VerifiedModel, str]] = [
    (StaleFact, Fact, "facts"),
    (StaleEvent, Event, "events"),
    (StaleScore, Score, "scores"),
    (StaleSpec, Spec, "specs"),
    (StaleAvailability, Availability, "availability"),
    (StalePrice, Price, "prices"),
    (StaleResult, Result, "results"),
]


def queue_nouns(label):
    """(singular, plural) of a queue's kind, from its plural label (“facts”, “chip specs”)."""
    concrete = next(concrete for _, concrete, _ in QUEUES if concrete._meta.verbose_name_plural == label)
    return str(concrete._meta.verbose_name), str(label)


def queue_counts(user, *, verified_by=None):
    """[(label, count, url)] for each kind ``user`` may view: one COUNT query each. With
    ``verified_by``, only the rows that user last verified."""
    mine = {"verified_by": verified_by} if verified_by is not None else {}
    return [
        (
            concrete._meta.verbose_name_plural,
            concrete.objects.filter(**mine).stale().count(),
            reverse(f"admin:{proxy._meta.app_label}_{proxy._meta.model_name}_changelist"),
        )
        for proxy, concrete, _ in QUEUES
        if user.has_perm(f"{concrete._meta.app_label}.view_{concrete._meta.model_name}")
        or user.has_perm(f"{concrete._meta.app_label}.change_{concrete._meta.model_name}")
    ]


class StaleQueueAdmin(ValidatesInitial, admin.ModelAdmin):
    """One kind of the staleness queue: rows not verified within settings.FRESHNESS_DAYS or
    citing a source with a problem, oldest first.

    Rows are edited on their vendor's page (where revisions are kept), so this list has no
    add, change or delete form of its own. It uses the concrete model's permissions (a
    proxy's own are not created), which the Editor and Publisher groups already hold.
    """

    change_list_template = "admin/vendors/staleness/change_list.html"
    list_display_links = None
    list_filter = [
        ("vendor", admin.RelatedOnlyFieldListFilter),
        ("vendor__lane", admin.RelatedOnlyFieldListFilter),
    ]
    actions = ["mark_verified_today"]
    list_per_page = 100
    tie_break: list[str]  # each queue's own order after the vendor, e.g. the attribute's position
    item_fields: list[str] = []  # what names the row beside its vendor, e.g. the attribute

    @property
    def concrete(self):
        return self.model._meta.concrete_model

    @property
    def kind(self):
        return self.concrete._meta.verbose_name_plural  # "facts"

    def get_list_display(self, request):
        return [
            "vendor",
            *self.item_fields,
            "short_value",
            "verified_on",
            "verified_by",
            "days_since_verified",
            "why",
            "edit_link",
            *(["verify_button"] if self.has_change_permission(request) else []),
        ]

    def get_ordering(self, request):
        return [F("verified_on").asc(nulls_first=True), "vendor__name", *self.tie_break, "pk"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        assert isinstance(queryset, VerifiableQuerySet)  # the concrete model's own manager's
        return queryset.stale().with_source_problems()

    def changelist_view(self, request, extra_context=None):
        if request.method == "POST" and VERIFY_ROW in request.POST:
            return self._verify_one(request)
        days = settings.FRESHNESS_DAYS
        context = {
            "title": f"Staleness queue: {self.kind} not verified in the last {days} days, oldest first",
            "queue_menu": queue_counts(request.user),
            "queue_kind": self.kind,
            "queue_item": self.concrete._meta.verbose_name,
            **(extra_context or {}),
        }
        return super().changelist_view(request, context)

    # Permissions: a proxy model's own codenames are not used; the concrete model's are.

    def _perm(self, action):
        return f"{self.concrete._meta.app_label}.{action}_{self.concrete._meta.model_name}"

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm(self._perm("view")) or self.has_change_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return request.user.has_perm(self._perm("change"))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """A row is edited on its vendor's page, so that the change is kept in its revisions."""
        obj = self.get_object(request, object_id)
        if obj is None or not self.has_view_permission(request, obj):
            return redirect(
                reverse(f"admin:{self.model._meta.app_label}_{self.model._meta.model_name}_changelist")
            )
        return redirect(row_edit_url(obj))

    # Columns.

    @admin.display(description="days since verified", ordering=F("verified_on").desc(nulls_last=True))
    def days_since_verified(self, obj):
        return "never verified" if obj.verified_on is None else _days_since(obj.verified_on)

    @admin.display(description="source checks")
    def why(self, obj):
        """What the checks of the row's sources found, in words (its age is the column before):
        a problem found after the row was verified, which is why it is here (a source dead or
        moved, or no longer saying the row's quote), or a changed page."""
        reasons = []
        verified = verified_moment(obj.verified_on, obj.verified_at)
        for source in obj.checked_sources:
            if source.problem_at and (verified is None or source.problem_at > verified):
                reasons.append(source.problem_text)
            elif source.text_changed_text:
                reasons.append(source.text_changed_text)
        for citation in getattr(obj, "missing_quotes", ()):
            if verified is None or citation.quote_missing_at > verified:
                reasons.append(missing_quote_text(citation.quote))
        return format_html_join("", "<div>{}</div>", ((reason,) for reason in reasons))

    @admin.display(description="edit")
    def edit_link(self, obj):
        return format_html('<a href="{}">Edit</a>', row_edit_url(obj))

    @admin.display(description="verify")
    def verify_button(self, obj):
        # A button of the list's own form (it carries the CSRF token); changelist_view reads it.
        return format_html(
            '<button type="submit" class="button" name="{}" value="{}">{}</button>',
            VERIFY_ROW,
            obj.pk,
            MARK_VERIFIED_LABEL,
        )

    # Verifying.

    def _mark(self, request, rows):
        keyword = next(name for proxy, _, name in QUEUES if proxy is self.model)
        counts, vendor_pks = mark_verified(user=request.user, **{keyword: rows})
        singular = self.concrete._meta.verbose_name
        messages.success(
            request,
            f"Marked {plural(counts[self.concrete], singular)} verified today on "
            f"{plural(len(vendor_pks), 'vendor')}.",
        )

    def _verify_one(self, request):
        """The row's own “Mark verified today” button; a row that is gone (or a forged value) is named."""
        pk = request.POST[VERIFY_ROW]
        rows = self.concrete.objects.filter(pk=int(pk)) if pk.isdigit() else self.concrete.objects.none()
        if not self.has_change_permission(request):
            messages.error(request, "You may look at this queue but not mark rows verified.")
        elif not rows.exists():
            messages.error(request, f"That {self.concrete._meta.verbose_name} no longer exists.")
        else:
            self._mark(request, rows)
        return HttpResponseRedirect(request.get_full_path())

    @admin.action(description=MARK_VERIFIED_LABEL, permissions=["change"])
    def mark_verified_today(self, request, queryset):
        self._mark(request, queryset)


@admin.register(StaleFact)
class StaleFactAdmin(StaleQueueAdmin):
    item_fields = ["attribute"]
    tie_break = ["attribute__position"]
    list_filter = [*StaleQueueAdmin.list_filter, ("attribute", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["vendor", "attribute", "verified_by"]
    search_fields = ["value", "vendor__name"]

    @admin.display(description="value")
    def short_value(self, obj):
        return Truncator(obj.value).chars(80)


@admin.register(StaleEvent)
class StaleEventAdmin(StaleQueueAdmin):
    item_fields = ["date_text"]
    tie_break = ["date"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["text", "vendor__name"]

    @admin.display(description="date", ordering="date")
    def date_text(self, obj):
        return obj.display_date

    @admin.display(description="what changed")
    def short_value(self, obj):
        return Truncator(obj.text).chars(80)


@admin.register(StaleScore)
class StaleScoreAdmin(StaleQueueAdmin):
    item_fields = ["axis"]
    tie_break = ["axis__position"]
    list_filter = [*StaleQueueAdmin.list_filter, ("axis", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["vendor", "axis", "verified_by"]
    search_fields = ["reason", "vendor__name"]

    @admin.display(description="score")
    def short_value(self, obj):
        reason = Truncator(obj.reason).chars(60)
        return f"{obj.value}" + (f": {reason}" if reason else "")


@admin.register(StaleSpec)
class StaleSpecAdmin(StaleQueueAdmin):
    item_fields = ["chip", "kind"]
    tie_break = ["chip", "position"]
    list_filter = [*StaleQueueAdmin.list_filter, "kind", "scope"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "vendor__name"]

    def get_list_filter(self, request):
        return [*super().get_list_filter(request), SourcesDifferFilter]

    def get_list_display(self, request):
        shown = super().get_list_display(request)
        return [*shown[: shown.index("why")], "sources_differ_text", *shown[shown.index("why") :]]

    def get_queryset(self, request):
        """Stale specs, and specs whose sources differ with no note settling it (chips/stated.py)."""
        everything = admin.ModelAdmin.get_queryset(self, request)
        assert isinstance(everything, VerifiableQuerySet)
        unsettled = Q(sources_differ=True, difference_note="")
        queue = everything.filter(Q(pk__in=everything.stale().values("pk")) | unsettled)
        return queue.with_source_problems().prefetch_related(
            Prefetch("speccitation_set", queryset=SpecCitation.objects.select_related("source"))
        )

    @admin.display(description="value")
    def short_value(self, obj):
        counted = f", {obj.get_scope_display().lower()}" if obj.scope != "chip" else ""
        figure = quantities.Quantity(obj.kind, units.plain(obj.quantity), obj.unit, obj.qualifier)
        sparsity = quantities.SPARSITY_WORDS[obj.sparse]
        precision = f" {obj.precision}{' ' + sparsity if sparsity else ''}" if obj.precision else ""
        return f"{figure.as_given()}{precision}{counted}"

    @admin.display(description="sources differ")
    def sources_differ_text(self, obj):
        """“Trainium3 memory capacity: 144 GiB (AWS …) vs 144 GB (Tom's Hardware)” until a note settles it."""
        return difference_text(obj) if obj.sources_differ and not obj.difference_note else ""


class SourcesDifferFilter(admin.SimpleListFilter):
    """The chip specs whose cited sources state other figures, with no note settling it yet."""

    title = "sources differ"
    parameter_name = "sources_differ"

    def lookups(self, request, model_admin):
        return [("yes", "Sources differ, not settled")]

    def queryset(self, request, queryset):
        return queryset.filter(sources_differ=True, difference_note="") if self.value() == "yes" else queryset


@admin.register(StaleAvailability)
class StaleAvailabilityAdmin(StaleQueueAdmin):
    item_fields = ["chip", "stage"]
    tie_break = ["chip", "month"]
    list_filter = [*StaleQueueAdmin.list_filter, "stage"]
    list_select_related = ["vendor", "verified_by"]
    search_fields = ["chip", "vendor__name"]

    @admin.display(description="month", ordering="month")
    def short_value(self, obj):
        return f"{obj.month:%b %Y}"
