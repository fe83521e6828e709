"""A comparison is edited on one page: its text, vendors, criteria, assessments and FAQs."""

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import RelatedFieldWidgetWrapper
from django.db.models import Count, Model, Q

from claims.admin.editing import (
    AutocompletesKnowChoices,
    ChecksChangedRowsOnly,
    CitedInline,
    CitesSources,
    FillsPositions,
    KnownModelChoiceField,
    PositionedInlineForm,
    ResolvesChoicesOnce,
)
from claims.admin.evidence import CitesEvidence
from claims.admin.sections import CARD_TABLE, SECTIONED_CHANGE_FORM, InSections
from editorial.workflow import SAVE_FIELDSET, EditorialAdmin, EditorialForm

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
    markdown_fields = ["intro", "verdict"]  # checked for accessibility (claims/authoring.py)

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
    ("Comparison", {"fields": ["title", "slug", "summary"]}),
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


class ComparisonVendorInline(AutocompletesKnowChoices, admin.TabularInline):
    model = ComparisonVendor
    template = CARD_TABLE
    form = ComparisonVendorForm
    formset = ComparedVendorsFormSet
    autocomplete_fields = ["vendor"]
    extra = 0
    min_num = MIN_VENDORS
    max_num = MAX_VENDORS

    def get_formset(self, request, obj=None, **kwargs):
        return super().get_formset(request, obj, validate_min=True, validate_max=True, **kwargs)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("vendor", "comparison")  # each row's title


# --- criteria: the table's rows --------------------------------------------------------


class CriterionForm(PositionedInlineForm):
    class Meta:
        model = Criterion
        fields = ["name", "position", "attribute", "axis"]

    def clean(self):
        cleaned = super().clean()
        if cleaned is not None and cleaned.get("attribute") and cleaned.get("axis"):
            # On the field, so the model's own check of the pair is skipped, not said twice.
            self.add_error(
                "axis", "A criterion shows an attribute's values or an axis's scores, not both: clear one."
            )
        return cleaned


class CriterionInline(AutocompletesKnowChoices, admin.TabularInline):
    model = Criterion
    template = CARD_TABLE
    form = CriterionForm
    autocomplete_fields = ["attribute"]
    extra = 0


# --- assessments: one compared vendor on one criterion ---------------------------------


class CompareVendorField(KnownModelChoiceField):
    """A compared vendor's row, named after its vendor."""

    def label_from_instance(self, obj):
        return str(obj.vendor)


class AssessmentForm(CitesEvidence, ChecksChangedRowsOnly, forms.ModelForm):
    markdown_fields = ["reason"]

    class Meta:
        model = Assessment
        fields = ["criterion", "entry", "value", "mark", "reason", "vendor_stated", "sources", "evidence"]
        widgets = {
            "value": forms.TextInput(attrs={"size": 30}),
            "reason": forms.Textarea(attrs={"rows": 2, "cols": 40}),
        }


class AssessmentInline(CitedInline):
    """Shown once the comparison exists: its saved criteria and vendors are the only choices."""

    model = Assessment
    form = AssessmentForm
    template = CARD_TABLE
    comparison = None

    def get_formset(self, request, obj=None, **kwargs):
        self.comparison = obj  # the admin makes its inline instances afresh for each request
        return super().get_formset(request, obj, **kwargs)

    def get_queryset(self, request):
        """In the table's order: by criterion, then by column; each row names both (its title)."""
        return (
            super()
            .get_queryset(request)
            .select_related("criterion", "entry__vendor")
            .order_by("criterion__position", "criterion__pk", "entry__position", "entry__pk", "pk")
        )

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "criterion":
            kwargs["queryset"] = Criterion.objects.filter(comparison=self.comparison)
        elif db_field.name == "entry":
            kwargs["queryset"] = ComparisonVendor.objects.filter(comparison=self.comparison).select_related(
                "vendor"
            )
            kwargs["form_class"] = CompareVendorField
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)
        # Plain selects: both are added in the inlines above, not through a "+" of their own.
        if isinstance(formfield.widget, RelatedFieldWidgetWrapper):
            formfield.widget = formfield.widget.widget
        return formfield


# --- frequently asked questions --------------------------------------------------------


class ComparisonFAQForm(CitesEvidence, PositionedInlineForm):
    markdown_fields = ["answer"]

    class Meta:
        model = ComparisonFAQ
        fields = ["question", "answer", "sources", "evidence", "position"]
        widgets = {"answer": forms.Textarea(attrs={"rows": 3, "cols": 60})}


class ComparisonFAQInline(CitedInline):
    model = ComparisonFAQ
    template = CARD_TABLE
    form = ComparisonFAQForm


# --- the page --------------------------------------------------------------------------


@admin.register(Comparison)
class ComparisonAdmin(InSections, ResolvesChoicesOnce, FillsPositions, CitesSources, EditorialAdmin):
    """One page in sections: a menu, a Save bar in view, each refused field listed, cards on a phone."""

    form = ComparisonAdminForm
    change_form_template = SECTIONED_CHANGE_FORM
    list_display = ["title", "vendor_count", "updated_at"]
    list_filter = []
    search_fields = ["title", "summary", "slug"]
    prepopulated_fields = {"slug": ["title"]}
    readonly_fields = ["created_at", "updated_at"]
    inlines = [ComparisonVendorInline, CriterionInline, AssessmentInline, ComparisonFAQInline]
    section_order = [
        "Comparison",
        "Page",
        "Compared vendors",
        "Criteria",
        "Assessments",
        "Frequently asked questions",
        "Verification",
        "This save",
    ]

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
        # Assessments first: a criterion or vendor removed in this same request then takes
        # its assessments with it (the database cascades), edited or not.
        formsets = sorted(formsets, key=lambda formset: formset.model is not Assessment)
        taken = self._assessments_going_with(formsets)
        super().save_related(request, form, formsets, change)
        if taken:
            self.message_user(request, f"Deleted {taken} assessment(s) of the vendors and criteria removed.")

    @staticmethod
    def _assessments_going_with(formsets):
        """How many assessments the vendors and criteria deleted in this request take with them."""
        removed: dict[type[Model], list[int]] = {ComparisonVendor: [], Criterion: [], Assessment: []}
        for formset in formsets:
            if formset.model in removed:
                removed[formset.model] += [f.instance.pk for f in formset.deleted_forms if f.instance.pk]
        if not (removed[ComparisonVendor] or removed[Criterion]):
            return 0
        return (
            Assessment.objects.filter(
                Q(entry__in=removed[ComparisonVendor]) | Q(criterion__in=removed[Criterion])
            )
            .exclude(pk__in=removed[Assessment])
            .count()
        )
