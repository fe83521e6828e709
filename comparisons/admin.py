"""A comparison is edited on one page: its text, vendors, criteria, assessments and FAQs."""

from functools import partial

from django import forms
from django.contrib import admin
from django.contrib.admin.checks import InlineModelAdminChecks
from django.contrib.admin.options import flatten_fieldsets
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.db.models import Case, Count, OuterRef, Subquery, When
from django.forms.models import BaseModelFormSet, modelform_defines_fields, modelformset_factory

from editorial.workflow import SAVE_FIELDSET, EditorialAdmin, EditorialForm
from vendors.admin import CitedInline, CitesSources, FillsPositions, PositionedInlineForm, ResolvesChoicesOnce
from vendors.models import Vendor

from .models import (
    MAX_VENDORS,
    MIN_VENDORS,
    Assessment,
    Comparison,
    ComparisonFAQ,
    ComparisonVendor,
    Criterion,
)

# --- the comparison's own fields -------------------------------------------------------


class ComparisonAdminForm(EditorialForm):
    class Meta:
        model = Comparison
        fields = [
            "title", "slug", "summary", "intro", "verdict", "sources", "verified_on",
        ]  # fmt: skip
        widgets = {
            "summary": forms.TextInput(attrs={"size": 100}),
            "intro": forms.Textarea(attrs={"rows": 5, "cols": 80}),
            "verdict": forms.Textarea(attrs={"rows": 4, "cols": 80}),
        }


# Returned by get_fieldsets() rather than set as ``fieldsets``: the admin's check (E013)
# refuses a many-to-many with its own through table there, though the form saves it.
FIELDSETS = [
    (None, {"fields": ["title", "slug", "summary"]}),
    (
        "Page",
        {
            "fields": ["intro", "verdict", "sources"],
            "description": "Markdown is allowed in the intro and verdict. Sources back the page's own text.",
        },
    ),
    ("Verification", {"fields": ["verified_on"]}),
    ("This save", {"fields": SAVE_FIELDSET}),
]


# --- vendors: two to five, in column order ---------------------------------------------


class ComparedVendorsFormSet(forms.BaseInlineFormSet):
    default_error_messages = {
        "too_few_forms": "A comparison needs at least %(num)d vendors.",
        "too_many_forms": "A comparison can have at most %(num)d vendors.",
    }


class ComparisonVendorForm(PositionedInlineForm):
    class Meta:
        model = ComparisonVendor
        fields = ["vendor", "position", "pick_if"]
        widgets = {"pick_if": forms.TextInput(attrs={"size": 60})}


class ComparisonVendorInline(admin.TabularInline):
    model = ComparisonVendor
    form = ComparisonVendorForm
    formset = ComparedVendorsFormSet
    autocomplete_fields = ["vendor"]
    extra = 0
    min_num = MIN_VENDORS
    max_num = MAX_VENDORS

    def get_formset(self, request, obj=None, **kwargs):
        return super().get_formset(request, obj, validate_min=True, validate_max=True, **kwargs)


# --- criteria: the table's rows --------------------------------------------------------


class CriterionForm(PositionedInlineForm):
    class Meta:
        model = Criterion
        fields = ["name", "position", "attribute", "axis"]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("attribute") and cleaned.get("axis"):
            # On the field, so the model's own check of the pair is skipped, not said twice.
            self.add_error(
                "axis", "A criterion shows an attribute's values or an axis's scores, not both: clear one."
            )
        return cleaned


class CriterionInline(admin.TabularInline):
    model = Criterion
    form = CriterionForm
    autocomplete_fields = ["attribute"]
    extra = 0


# --- assessments: one vendor on one criterion ------------------------------------------


def compared_vendors(comparison):
    """The comparison's vendors in column order; none for a comparison not saved yet."""
    if comparison is None or comparison.pk is None:
        return Vendor.objects.none()
    order = list(comparison.entries.values_list("vendor_id", flat=True))
    return Vendor.objects.filter(pk__in=order).order_by(
        Case(*(When(pk=pk, then=i) for i, pk in enumerate(order)), default=len(order))
    )


class AssessmentForm(forms.ModelForm):
    class Meta:
        model = Assessment
        fields = ["criterion", "vendor", "value", "mark", "reason", "vendor_stated", "sources"]
        widgets = {
            "value": forms.TextInput(attrs={"size": 30}),
            "reason": forms.Textarea(attrs={"rows": 2, "cols": 40}),
        }


class AssessmentFormSet(BaseModelFormSet):
    """The assessments of one comparison, which hang off its criteria rather than off it.

    Takes the arguments of an inline formset, so the admin can show it as one.
    """

    def __init__(self, data=None, files=None, instance=None, save_as_new=False, prefix=None, **kwargs):
        self.instance = instance
        queryset = kwargs.pop("queryset", None)
        if queryset is None:
            queryset = self.model._default_manager.all()
        if instance is None or instance.pk is None:
            queryset = queryset.none()
        else:
            column = ComparisonVendor.objects.filter(
                comparison=OuterRef("criterion__comparison"), vendor=OuterRef("vendor")
            ).values("position")[:1]
            queryset = (
                queryset.filter(criterion__comparison=instance)
                .annotate(column=Subquery(column))
                .order_by("criterion__position", "criterion__pk", "column", "pk")
            )
        super().__init__(data, files, prefix=prefix, queryset=queryset, **kwargs)

    @classmethod
    def get_default_prefix(cls):
        return "assessments"


class ThroughCriterionChecks(InlineModelAdminChecks):
    """The inline reaches its parent through ``criterion``, not a foreign key of its own."""

    def _check_exclude_of_parent_model(self, obj, parent_model):
        return []

    def _check_relation(self, obj, parent_model):
        return []


class AssessmentInline(CitedInline):
    """Shown once the comparison exists: its criteria and vendors are the only choices."""

    model = Assessment
    form = AssessmentForm
    formset = AssessmentFormSet
    checks_class = ThroughCriterionChecks
    comparison = None

    def get_formset(self, request, obj=None, **kwargs):
        """Like InlineModelAdmin.get_formset, but a model formset: there is no foreign key to follow."""
        self.comparison = obj  # this inline instance serves this one request
        if "fields" in kwargs:
            fields = kwargs.pop("fields")
        else:
            fields = flatten_fieldsets(self.get_fieldsets(request, obj))
        exclude = [*(self.get_exclude(request, obj) or []), *self.get_readonly_fields(request, obj)]
        can_change = self.has_change_permission(request, obj)
        can_add = self.has_add_permission(request, obj)

        class PermissionProtectedForm(self.form):
            def has_changed(self):
                if not (can_change if self.instance.pk else can_add):
                    return False
                return super().has_changed()

        defaults = {
            "form": PermissionProtectedForm,
            "formset": self.formset,
            "fields": fields,
            "exclude": exclude or None,
            "formfield_callback": partial(self.formfield_for_dbfield, request=request),
            "extra": self.get_extra(request, obj, **kwargs),
            "min_num": self.get_min_num(request, obj, **kwargs),
            "max_num": self.get_max_num(request, obj, **kwargs),
            "can_delete": self.can_delete and self.has_delete_permission(request, obj),
            **kwargs,
        }
        if defaults["fields"] is None and not modelform_defines_fields(defaults["form"]):
            defaults["fields"] = forms.ALL_FIELDS
        return modelformset_factory(self.model, **defaults)

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "criterion":
            comparison = self.comparison
            saved = comparison is not None and comparison.pk is not None
            kwargs["queryset"] = comparison.criteria.all() if saved else Criterion.objects.none()
        elif db_field.name == "vendor":
            kwargs["queryset"] = compared_vendors(self.comparison)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        """Criterion and vendor are plain selects: both are added in the inlines above."""
        formfield = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name in ("criterion", "vendor") and isinstance(
            formfield.widget, RelatedFieldWidgetWrapper
        ):
            formfield.widget = formfield.widget.widget
        return formfield


# --- frequently asked questions --------------------------------------------------------


class ComparisonFAQForm(PositionedInlineForm):
    class Meta:
        model = ComparisonFAQ
        fields = ["question", "answer", "sources", "position"]
        widgets = {"answer": forms.Textarea(attrs={"rows": 3, "cols": 60})}


class ComparisonFAQInline(CitedInline):
    model = ComparisonFAQ
    form = ComparisonFAQForm


# --- the page --------------------------------------------------------------------------


@admin.register(Comparison)
class ComparisonAdmin(ResolvesChoicesOnce, FillsPositions, CitesSources, EditorialAdmin):
    form = ComparisonAdminForm
    list_display = ["title", "vendor_count", "updated_at"]
    list_filter = []
    search_fields = ["title", "summary", "slug"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ComparisonVendorInline, CriterionInline, AssessmentInline, ComparisonFAQInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(vendor_count=Count("entries"))

    @admin.display(description="vendors", ordering="vendor_count")
    def vendor_count(self, obj):
        return obj.vendor_count

    def get_fieldsets(self, request, obj=None):
        return FIELDSETS

    def get_inlines(self, request, obj):
        """Assessments pick from saved criteria and vendors, so they wait until the comparison exists."""
        if obj is None:
            return [inline for inline in self.inlines if inline is not AssessmentInline]
        return self.inlines

    def save_related(self, request, form, formsets, change):
        # Assessments first: they can only name criteria saved before this request, and a
        # criterion deleted in this same request then takes its assessments with it.
        formsets = sorted(formsets, key=lambda formset: not isinstance(formset, AssessmentFormSet))
        super().save_related(request, form, formsets, change)
        # A vendor taken out of the comparison takes its assessments with it; left behind,
        # they could no longer be shown or edited here.
        comparison = form.instance
        _, deleted = (
            Assessment.objects.filter(criterion__comparison=comparison)
            .exclude(vendor__in=comparison.vendors.all())
            .delete()
        )
        if dropped := deleted.get(Assessment._meta.label, 0):
            self.message_user(
                request, f"Deleted {dropped} assessment(s) of vendors no longer in this comparison."
            )
