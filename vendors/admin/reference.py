"""The shared vocabulary and sources: lanes, attributes, axes, sources, site settings."""

from django.contrib import admin
from django.db.models import Count

from editorial.pages import vocabulary_changed
from infra.admin_input import ValidatesInitial

from ..models import Attribute, Axis, Lane, SiteSettings
from ..publishing import refresh_totals
from ..selectors import AXES_DESCRIPTIONS_KEY, AXES_KEY, SITE_TEXT_KEY


class ChangesPublicPages(ValidatesInitial):
    """For the shared vocabulary visitors' pages show live (lane names and descriptions,
    axes, attribute order, site text): a save or delete makes every cached page fresh, and
    renders again the stored pages that show it: those that read it (``shown_as``, the key
    its selector records), or every one (lanes and attributes are on every page)."""

    shown_as: str | None = None

    def pages_showing(self, form=None) -> list[str] | None:
        """The keys of the stored pages this save changes; None for every page."""
        return [self.shown_as] if self.shown_as else None

    def _changed(self, form=None):
        vocabulary_changed(self.pages_showing(form))  # None: every stored page (lanes, attributes)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        self._changed(form if change else None)

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        self._changed()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        self._changed()


@admin.register(Lane)
class LaneAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["name", "slug", "position", "vendor_count"]
    list_editable = ["position"]
    list_filter = []
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return (
            super().get_queryset(request).annotate(vendor_count=Count("vendors")).order_by("position", "name")
        )

    @admin.display(description="vendors", ordering="vendor_count")
    def vendor_count(self, obj):
        return obj.vendor_count


@admin.register(Attribute)
class AttributeAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["name", "slug", "position"]
    list_editable = ["position"]
    list_filter = []
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Axis)
class AxisAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["name", "slug", "position", "is_active"]
    list_editable = ["position", "is_active"]
    list_filter = ["is_active"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}

    # An axis's name is on the pages that read the active axes, its description only on those
    # that print it (described_axes); its place, its slug or whether it counts reorder and
    # re-total every list and profile: every page.
    SHOWN_ON = {"name": AXES_KEY, "description": AXES_DESCRIPTIONS_KEY}

    def pages_showing(self, form=None):
        if form is None or not set(form.changed_data) <= set(self.SHOWN_ON):
            return None
        return sorted(self.SHOWN_ON[name] for name in form.changed_data)

    # Totals are the sum over the active axes: turning an axis on or off changes every
    # published total at once, so the stored totals the lists sort on follow.
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        refresh_totals()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        refresh_totals()


@admin.register(SiteSettings)
class SiteSettingsAdmin(ChangesPublicPages, admin.ModelAdmin):
    shown_as = SITE_TEXT_KEY
    list_display = ["__str__", "cta_heading"]
    list_filter = []
    search_fields = ["cta_heading", "callout_text"]

    def has_add_permission(self, request):
        return not SiteSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
