"""The shared vocabulary and sources: lanes, attributes, axes, sources, site settings."""

from django.contrib import admin
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.html import format_html_join

from editorial.admin_input import ValidatesInitial
from editorial.cache import content_changed

from ..models import (
    Attribute,
    Axis,
    Citation,
    Lane,
    SiteSettings,
    Source,
)
from ..publishing import refresh_totals


class ChangesPublicPages(ValidatesInitial):
    """For the shared vocabulary visitors' pages show live (lane names and descriptions,
    axes, attribute order, site text): a save or delete makes every cached page fresh."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        content_changed()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        content_changed()

    def delete_queryset(self, request, queryset):
        super().delete_queryset(request, queryset)
        content_changed()


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

    # Totals are the sum over the active axes: turning an axis on or off changes every
    # published total at once, so the stored totals the lists sort on follow.
    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        refresh_totals()

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        refresh_totals()


@admin.register(Source)
class SourceAdmin(ValidatesInitial, admin.ModelAdmin):
    list_display = ["title", "publisher", "url", "accessed_on", "citation_count"]
    list_filter = ["accessed_on", "publisher"]
    search_fields = ["title", "publisher", "url"]
    readonly_fields = ["cited_by"]
    fields = ["title", "publisher", "url", "accessed_on", "notes", "cited_by"]

    def get_queryset(self, request):
        counts = [
            Coalesce(
                Subquery(
                    relation.related_model.objects.filter(source=OuterRef("pk"))
                    .order_by()
                    .values("source")
                    .annotate(n=Count("pk"))
                    .values("n")
                ),
                0,
            )
            for relation in citation_relations()
        ]
        return super().get_queryset(request).annotate(citation_count=sum(counts, Value(0)))

    @admin.display(description="citations", ordering="citation_count")
    def citation_count(self, obj):
        return obj.citation_count

    @admin.display(description="cited by")
    def cited_by(self, obj):
        if obj.pk is None:
            return "Nothing yet."
        rows = [
            (_owner(citation.cited), citation._meta.verbose_name.removesuffix(" citation"), citation.cited)
            for relation in citation_relations()
            for citation in relation.related_model.objects.filter(source=obj).select_related(
                *_cited_paths(relation.related_model)
            )
        ]
        if not rows:
            return "Nothing: this source can be deleted."
        return format_html_join("", "<div>{}: {} — {}</div>", rows)


def citation_relations():
    """Every citation table that points at Source, whichever app defines it."""
    return [rel for rel in Source._meta.related_objects if issubclass(rel.related_model, Citation)]


def _cited_paths(citation_model):
    """What naming a citation's row and its owner reads, joined in: one query per table."""
    cited = citation_model._meta.get_field("cited").related_model
    paths = ["cited"]
    for field in cited._meta.concrete_fields:
        if field.is_relation and field.name != "verified_by":
            paths.append(f"cited__{field.name}")
            if field.name == "criterion":
                paths.append("cited__criterion__comparison")
    return paths


def _owner(cited):
    """The vendor or comparison a cited row belongs to, for the editor's list."""
    for path in ("vendor", "comparison", "criterion.comparison"):
        owner = cited
        for name in path.split("."):
            owner = getattr(owner, name, None)
        if owner is not None:
            return owner
    return cited


@admin.register(SiteSettings)
class SiteSettingsAdmin(ChangesPublicPages, admin.ModelAdmin):
    list_display = ["__str__", "cta_heading"]
    list_filter = []
    search_fields = ["cta_heading", "callout_text"]

    def has_add_permission(self, request):
        return not SiteSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
