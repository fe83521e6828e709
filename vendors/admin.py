from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import AutocompleteSelectMultiple
from django.db.models import Count, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.html import format_html_join

from editorial.workflow import PUBLISHING_FIELDSET, EditorialAdmin, EditorialForm

from .images import clean_logo
from .models import FAQ, Attribute, Axis, Citation, Event, Fact, Lane, Score, SiteSettings, Source, Vendor

admin.site.site_header = "chipsite editorial admin"
admin.site.site_title = "chipsite admin"
admin.site.index_title = "Profiles, scores and sources"
# Profile pages carry wide inline tables: give them the whole width.
admin.site.enable_nav_sidebar = False


@admin.register(Lane)
class LaneAdmin(admin.ModelAdmin):
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
class AttributeAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "position"]
    list_editable = ["position"]
    list_filter = []
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Axis)
class AxisAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "position", "is_active"]
    list_editable = ["position", "is_active"]
    list_filter = ["is_active"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Source)
class SourceAdmin(admin.ModelAdmin):
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
            for citation in relation.related_model.objects.filter(source=obj).select_related("cited")
        ]
        if not rows:
            return "Nothing: this source can be deleted."
        return format_html_join("", "<div>{}: {} — {}</div>", rows)


def citation_relations():
    """Every citation table that points at Source, whichever app defines it."""
    return [rel for rel in Source._meta.related_objects if issubclass(rel.related_model, Citation)]


def _owner(cited):
    """The vendor or comparison a cited row belongs to, for the editor's list."""
    for path in ("vendor", "comparison", "criterion.comparison"):
        owner = cited
        for name in path.split("."):
            owner = getattr(owner, name, None)
        if owner is not None:
            return owner
    return cited


class CitesSources:
    """For a ModelAdmin or inline: ``sources`` gets an autocomplete with an “add source” button.

    The citation tables are explicit (their foreign key to Source is PROTECT), which
    the admin would otherwise refuse to show as a form field.
    """

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        if db_field.name == "sources":
            kwargs.setdefault(
                "widget", AutocompleteSelectMultiple(db_field, self.admin_site, using=kwargs.get("using"))
            )
            kwargs.setdefault("queryset", Source.objects.all())
            kwargs.setdefault("required", False)
            return db_field.formfield(**kwargs)
        return super().formfield_for_manytomany(db_field, request, **kwargs)


class CitedInline(CitesSources, admin.TabularInline):
    """An inline whose rows cite sources through an autocomplete with an “add source” button."""

    extra = 0


class PositionedInlineForm(forms.ModelForm):
    """Position may be left empty: the row then goes after the others, in the order entered."""

    position = forms.IntegerField(min_value=0, required=False)


# The inlines name their fields on the form, not with ``fields``: the admin's check
# refuses a many-to-many with its own through table there, though the form saves it.
class FactForm(PositionedInlineForm):
    class Meta:
        model = Fact
        fields = ["attribute", "value", "vendor_stated", "verified_on", "sources", "position"]
        widgets = {"value": forms.Textarea(attrs={"rows": 2, "cols": 40})}


class EventForm(PositionedInlineForm):
    class Meta:
        model = Event
        fields = ["date", "precision", "text", "sources", "position"]
        widgets = {"text": forms.Textarea(attrs={"rows": 2, "cols": 60})}


class ScoreForm(forms.ModelForm):
    class Meta:
        model = Score
        fields = ["axis", "value", "reason", "sources"]
        widgets = {"reason": forms.Textarea(attrs={"rows": 2, "cols": 50})}

    def clean_axis(self):
        """A score kept on a retired axis stays editable; a new one must use an active axis."""
        axis = self.cleaned_data["axis"]
        if not axis.is_active and axis.pk != self.instance.axis_id:
            raise forms.ValidationError(f"“{axis}” is no longer an active axis: pick an active one.")
        return axis


class FAQForm(PositionedInlineForm):
    class Meta:
        model = FAQ
        fields = ["question", "answer", "sources", "position"]
        widgets = {"answer": forms.Textarea(attrs={"rows": 3, "cols": 60})}


class FactInline(CitedInline):
    model = Fact
    form = FactForm
    autocomplete_fields = ["attribute"]


class EventInline(CitedInline):
    model = Event
    form = EventForm


class ScoreInline(CitedInline):
    model = Score
    form = ScoreForm

    def get_extra(self, request, obj=None, **kwargs):
        """One empty row, axis filled in, for each active axis the vendor has no score on."""
        return len(unscored_axes(obj))


def unscored_axes(vendor):
    axes = Axis.objects.filter(is_active=True)
    if vendor is not None and vendor.pk:
        axes = axes.exclude(scores__vendor=vendor)
    return list(axes)


class FAQInline(CitedInline):
    model = FAQ
    form = FAQForm


class VendorAdminForm(EditorialForm):
    class Meta:
        model = Vendor
        fields = [
            "name", "slug", "company", "lane", "logo", "summary", "what_it_is", "best_for",
            "watch_out", "verdict", "alternative_blurb", "status", "published_at", "verified_on",
        ]  # fmt: skip
        widgets = {
            field: forms.Textarea(attrs={"rows": 3, "cols": 80})
            for field in ["what_it_is", "best_for", "watch_out"]
        }

    def clean_logo(self):
        logo = self.cleaned_data.get("logo")
        # Only a new upload is checked and re-encoded; a kept logo is already clean.
        if logo and hasattr(logo, "content_type"):
            return clean_logo(logo)
        return logo


class FillsPositions:
    """For a ModelAdmin: inline rows left without a position go last, in the order entered."""

    def save_formset(self, request, form, formset, change):
        instances = formset.save(commit=False)
        for removed in formset.deleted_objects:
            removed.delete()
        if "position" in formset.form.base_fields:
            self._fill_positions(formset, instances)
        for instance in instances:
            instance.save()
        formset.save_m2m()

    @staticmethod
    def _fill_positions(formset, instances):
        """Rows without a position go after the highest one, in the order they were entered."""
        taken = [
            f.cleaned_data["position"]
            for f in formset.forms
            if f.cleaned_data and f.cleaned_data.get("position") is not None
        ]
        siblings = formset.model.objects.filter(**{formset.fk.name: formset.instance})
        taken += list(siblings.values_list("position", flat=True))
        next_position = max(taken, default=0) + 1
        for instance in instances:
            if instance.position is None:
                instance.position = next_position
                next_position += 1


@admin.register(Vendor)
class VendorAdmin(FillsPositions, EditorialAdmin):
    form = VendorAdminForm
    list_display = ["name", "company", "lane", "status", "published_at", "verified_on", "updated_at"]
    list_filter = ["status", "lane", "verified_on"]
    list_select_related = ["lane"]
    search_fields = ["name", "company", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["lane"]
    readonly_fields = ["created_at", "updated_at"]
    date_hierarchy = "updated_at"
    fieldsets = [
        (None, {"fields": ["name", "slug", "company", "lane", "logo"]}),
        (
            "Profile",
            {
                "fields": ["summary", "what_it_is", "best_for", "watch_out", "verdict", "alternative_blurb"],
                "description": "Markdown is allowed in the summary, takeaways and verdict.",
            },
        ),
        ("Publishing", {"fields": PUBLISHING_FIELDSET}),
    ]
    inlines = [FactInline, EventInline, ScoreInline, FAQInline]

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, ScoreInline):
            kwargs["initial"] = [{"axis": axis.pk} for axis in unscored_axes(obj)]
        return kwargs


@admin.register(SiteSettings)
class SiteSettingsAdmin(admin.ModelAdmin):
    list_display = ["__str__", "cta_heading"]
    list_filter = []
    search_fields = ["cta_heading", "callout_text"]

    def has_add_permission(self, request):
        return not SiteSettings.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False
