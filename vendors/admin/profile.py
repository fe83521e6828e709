"""A whole vendor profile on one admin page: facts, chips, events, scores, FAQs and their sources."""

import datetime as dt
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.utils.text import Truncator

from editorial import services as workflow
from editorial.workflow import SAVE_FIELDSET, EditorialAdmin, EditorialForm

from .. import units
from ..authoring import logo_warnings
from ..event_dates import EventDateError, event_date_text, parse_event_date
from ..images import LogoField
from ..models import (
    FAQ,
    Attribute,
    Availability,
    Axis,
    Event,
    Fact,
    Score,
    Spec,
    Stage,
    Vendor,
    chip_taken_by,
    logo_upload_to,
)
from ..services import mark_verified
from .editing import (
    ChecksChangedRowsOnly,
    CitedInline,
    FillsPositions,
    PositionedInlineForm,
    ResolvesChoicesOnce,
)
from .evidence import CitesEvidence
from .importing import ImportsCSV
from .sections import CARD_TABLE, SECTIONED_CHANGE_FORM, ErrorEntry, InSections
from .staleness import MARK_VERIFIED_LABEL, plural


def chosen(form, name):
    """What a row holds in ``name`` as the editor sent it (cleaned), else as saved; None when
    neither says (a field that failed to clean on a new row). Costs no query: a chosen row
    was fetched to clean it, a saved one with its row (the inlines' select_related)."""
    value = getattr(form, "cleaned_data", {}).get(name)
    if value in (None, ""):
        value = getattr(form.instance, name, None)  # an unset relation raises AttributeError
    return None if value in (None, "") else value


class FactForm(CitesEvidence, PositionedInlineForm):
    def row_name(self):
        """How the error summary names the row: by its attribute (“Memory”)."""
        return str(attribute) if (attribute := chosen(self, "attribute")) else ""

    class Meta:
        model = Fact
        fields = ["attribute", "value", "vendor_stated", "verified_on", "sources", "evidence", "position"]
        widgets = {"value": forms.Textarea(attrs={"rows": 2, "cols": 40})}


class UnitField(forms.CharField):
    """A spec's unit, offered as a list; one the site does not know is refused with the
    units it does (vendors/units.py), and one of the wrong dimension by ``Spec.clean``."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.Select(choices=[("", "---------"), *((u, u) for u in units.UNITS)]))
        super().__init__(**kwargs)

    def validate(self, value):
        super().validate(value)
        if value and value not in units.UNITS:
            raise forms.ValidationError(
                f"“{value[:20]}” is not a unit the site knows. Use one of: {', '.join(units.UNITS)}.",
                code="invalid_choice",
            )


class NamesChip:
    """A row of a chip (a spec, an availability date), named by the chip's name."""

    def clean_chip(self):
        """A chip's address (its name's slug) is one vendor's: another's is refused by name.
        Asked only of a row whose chip name was typed or changed (a query each)."""
        name = self.cleaned_data["chip"].strip()
        if "chip" in self.changed_data and name:
            vendor_id = self.instance.vendor_id  # set by the inline formset before cleaning
            if (other := chip_taken_by(name, vendor_id)) is not None:
                raise forms.ValidationError(f"{name} is already a chip of {other}.", code="chip_taken")
        return name


class SpecForm(NamesChip, CitesEvidence, PositionedInlineForm):
    unit = UnitField(max_length=8, help_text="The unit as the source gives it.")
    quantity = forms.DecimalField(
        max_digits=16,
        decimal_places=6,
        help_text="The number as the source gives it, e.g. 144 or 7.37.",
        error_messages={"invalid": "Type the number as the source gives it, e.g. 144 or 7.37."},
        widget=forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
    )

    def row_name(self):
        """“Trainium3 — Memory capacity”, by its chip and what it measures."""
        chip = chosen(self, "chip") or self["chip"].value() or ""
        kind = chosen(self, "kind") or self["kind"].value()
        label = units.KINDS[kind].label if kind in units.KINDS else ""
        return " — ".join(part for part in (str(chip).strip(), label) if part)

    class Meta:
        model = Spec
        fields = [
            "chip", "kind", "quantity", "unit", "scope", "precision", "sparse", "vendor_stated",
            "verified_on", "sources", "evidence", "position",
        ]  # fmt: skip
        widgets = {"chip": forms.TextInput(attrs={"size": 14})}

    def clean_quantity(self):
        quantity = self.cleaned_data["quantity"]
        if quantity is not None and quantity <= 0:
            raise forms.ValidationError(
                f"A spec's number is more than zero, not {units.plain(quantity)}.", code="not_positive"
            )
        return quantity


class MonthField(forms.CharField):
    """A month typed as 2025-10 (vendors/event_dates.py reads it); it cleans to its first day."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"size": 8, "placeholder": "2025-10"}))
        super().__init__(**kwargs)

    def prepare_value(self, value):
        return f"{value:%Y-%m}" if isinstance(value, dt.date) else value

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            day, precision = parse_event_date(value)
        except EventDateError as error:
            raise forms.ValidationError(str(error).replace("a date", "a month"), code="invalid") from error
        if precision != Event.Precision.MONTH:
            raise forms.ValidationError(
                f"“{value[:40]}”: availability is dated to the month; type the year and month, e.g. 2025-10.",
                code="not_a_month",
            )
        return day

    def has_changed(self, initial, data):
        try:
            return self.to_python(self.prepare_value(initial)) != self.to_python(data)
        except forms.ValidationError:
            return True


class AvailabilityForm(NamesChip, CitesEvidence, PositionedInlineForm):
    month = MonthField(label="Month", help_text="The month the chip reached the stage, e.g. 2025-10.")

    def row_name(self):
        """“MI355X — Generally available”, by its chip and stage."""
        chip = chosen(self, "chip") or self["chip"].value() or ""
        stage = chosen(self, "stage") or self["stage"].value()
        label = Stage(stage).label if stage in Stage.values else ""
        return " — ".join(part for part in (str(chip).strip(), label) if part)

    class Meta:
        model = Availability
        fields = ["chip", "stage", "month", "vendor_stated", "verified_on", "sources", "evidence", "position"]
        widgets = {"chip": forms.TextInput(attrs={"size": 14})}


class EventDateField(forms.CharField):
    """An event's date typed as text (vendors/event_dates.py); it cleans to ``(date, precision)``."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"size": 10, "placeholder": "2024-06"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            return parse_event_date(value)
        except EventDateError as error:
            raise forms.ValidationError(str(error), code="invalid") from error

    def has_changed(self, initial, data):
        try:
            return self.to_python(initial) != self.to_python(data)
        except forms.ValidationError:
            return True


class EventForm(CitesEvidence, PositionedInlineForm):
    date = EventDateField(
        label="Date",
        help_text="Type a year (2024), a month (2024-06) or a day (2024-06-14): the page shows it as typed.",
    )

    def row_name(self):
        """“Event 2024-06”, as the date was typed; a date refused names nothing (“Event 1”)."""
        typed = self["date"].value()
        return f"Event {typed}" if typed and "date" not in self.errors else ""

    class Meta:
        model = Event
        fields = ["date", "text", "verified_on", "sources", "evidence", "position"]
        widgets = {"text": forms.Textarea(attrs={"rows": 2, "cols": 60})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.date is not None:
            self.initial["date"] = event_date_text(self.instance.date, self.instance.precision)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("date"):
            # The precision is how the date was typed; it goes onto the row with the date.
            cleaned["date"], self.instance.precision = cleaned["date"]
        return cleaned


class ScoreForm(CitesEvidence, ChecksChangedRowsOnly, forms.ModelForm):
    markdown_fields = ["reason"]  # checked for readers of assistive technology (vendors/authoring.py)

    def row_name(self):
        """“Score Software”, by its axis."""
        return f"Score {axis}" if (axis := chosen(self, "axis")) else ""

    class Meta:
        model = Score
        fields = ["axis", "value", "reason", "verified_on", "sources", "evidence"]
        widgets = {"reason": forms.Textarea(attrs={"rows": 2, "cols": 50})}

    def clean_axis(self):
        """A score kept on a retired axis stays editable; a new one must use an active axis."""
        axis = self.cleaned_data["axis"]
        if not axis.is_active and axis.pk != self.instance.axis_id:
            raise forms.ValidationError(f"“{axis}” is no longer an active axis: pick an active one.")
        return axis


class FAQForm(CitesEvidence, PositionedInlineForm):
    markdown_fields = ["answer"]

    def row_name(self):
        """“FAQ “What is AWS Trainium?””, by its question (shortened)."""
        question = chosen(self, "question") or self["question"].value()
        return f"FAQ “{Truncator(question).chars(48)}”" if question else ""

    class Meta:
        model = FAQ
        fields = ["question", "answer", "sources", "evidence", "position"]
        widgets = {"answer": forms.Textarea(attrs={"rows": 3, "cols": 60})}


class ProfileInline(CitedInline):
    """A part of the profile: a table on a wide screen, a card per row on a phone."""

    template = CARD_TABLE


class ShowsVerifier:
    """For an inline: who last verified each row, read-only, without a query per row."""

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("verified_by")


class FactInline(ShowsVerifier, ProfileInline):
    model = Fact
    form = FactForm
    verbose_name_plural = "At a glance"
    autocomplete_fields = ["attribute"]
    readonly_fields = ["verified_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("attribute")  # each row's title names it

    def get_extra(self, request, obj=None, **kwargs):
        """A new profile starts with one empty row per at-a-glance attribute (see VendorAdmin)."""
        return len(standard_attributes()) if is_new(obj) else 0


def is_new(vendor):
    """On the add page: None when opened, the unsaved vendor when posted."""
    return vendor is None or vendor.pk is None


def standard_attributes():
    """The at-a-glance labels every profile shares, in the order pages show them."""
    return list(Attribute.objects.all())


class SpecInline(ShowsVerifier, ProfileInline):
    """A vendor's chips, one number a row: the rows naming the same chip make up that chip."""

    model = Spec
    form = SpecForm
    verbose_name = "spec"
    verbose_name_plural = "Chips"
    readonly_fields = ["verified_by"]


class AvailabilityInline(ShowsVerifier, ProfileInline):
    """When each chip was announced, in preview, generally available: one stage a row, to the month."""

    model = Availability
    form = AvailabilityForm
    verbose_name = "availability date"
    verbose_name_plural = "Chip availability"
    readonly_fields = ["verified_by"]


class EventInline(ShowsVerifier, ProfileInline):
    model = Event
    form = EventForm
    verbose_name_plural = "What changed"
    readonly_fields = ["verified_by"]


class ScoreInline(ShowsVerifier, ProfileInline):
    model = Score
    form = ScoreForm
    readonly_fields = ["verified_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("axis")  # each row's title names it

    def get_extra(self, request, obj=None, **kwargs):
        """One empty row, axis filled in, for each active axis the vendor has no score on."""
        return len(unscored_axes(obj))


def unscored_axes(vendor):
    axes = Axis.objects.filter(is_active=True)
    if vendor is not None and vendor.pk:
        axes = axes.exclude(scores__vendor=vendor)
    return list(axes)


class FAQInline(ProfileInline):
    model = FAQ
    form = FAQForm
    verbose_name = "FAQ"
    verbose_name_plural = "FAQs"


class VendorAdminForm(EditorialForm):
    markdown_fields = ["summary", "what_it_is", "best_for", "watch_out", "verdict"]

    class Meta:
        model = Vendor
        fields = [
            "name", "slug", "company", "lane", "logo", "logo_alt", "summary", "what_it_is", "best_for",
            "watch_out", "verdict", "alternative_blurb",
        ]  # fmt: skip
        widgets = {
            field: forms.Textarea(attrs={"rows": 3, "cols": 80})
            for field in ["what_it_is", "best_for", "watch_out"]
        }

        # A new upload is checked, re-encoded and stored while the form is cleaned.
        field_classes = {"logo": partial(LogoField, upload_to=logo_upload_to)}


@admin.register(Vendor)
class VendorAdmin(ImportsCSV, InSections, ResolvesChoicesOnce, FillsPositions, EditorialAdmin):
    form = VendorAdminForm
    item_noun = "profile"  # “editor2 has this profile open since 19:13”
    change_form_template = SECTIONED_CHANGE_FORM
    list_display = ["name", "company", "lane", "updated_at"]
    list_filter = ["lane"]
    list_select_related = ["lane"]
    search_fields = ["name", "company", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    autocomplete_fields = ["lane"]
    readonly_fields = ["created_at", "updated_at"]
    date_hierarchy = "updated_at"
    fieldsets = [
        ("Profile", {"fields": ["name", "slug", "company", "lane", "logo", "logo_alt"]}),
        (
            "Summary and verdict",
            {
                "fields": ["summary", "what_it_is", "best_for", "watch_out", "verdict", "alternative_blurb"],
                "description": "Markdown is allowed in the summary, takeaways and verdict.",
            },
        ),
        ("This save", {"fields": SAVE_FIELDSET}),
    ]
    # The page shows them in section_order; the chips come last here, so that the forms of the
    # inlines that were there before keep their places in the page's context.
    inlines = [FactInline, EventInline, ScoreInline, FAQInline, SpecInline, AvailabilityInline]
    section_order = [
        "Profile",
        "Summary and verdict",
        "At a glance",
        "Chips",
        "Chip availability",
        "What changed",
        "Scores",
        "FAQs",
        "This save",
    ]
    actions = [*EditorialAdmin.actions, "mark_verified_today"]

    def authoring_warnings(self, forms_on_page):
        warnings = super().authoring_warnings(forms_on_page)
        form = forms_on_page[0][1]
        has_logo = bool(form.files.get("logo")) or (
            bool(form.instance.logo) and not form.data.get("logo-clear")
        )
        logo = form["logo_alt"]
        return [
            ErrorEntry("Logo", message, f"#{logo.id_for_label}")
            for message in logo_warnings(
                has_logo=has_logo, text_alternative=logo.value() or "", name=form["name"].value() or ""
            )
        ] + warnings

    def get_formset_kwargs(self, request, obj, inline, prefix):
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, ScoreInline):
            kwargs["initial"] = [{"axis": axis.pk} for axis in unscored_axes(obj)]
        elif isinstance(inline, FactInline) and is_new(obj):
            # Rows left as they start (attribute chosen, nothing typed) are not saved.
            kwargs["initial"] = [{"attribute": attribute.pk} for attribute in standard_attributes()]
        return kwargs

    def save_formset(self, request, form, formset, change):
        # A verified date entered by hand is vouched for by whoever entered it.
        for row in formset.forms:
            if "verified_on" in getattr(row, "changed_data", ()) and hasattr(row.instance, "verified_by_id"):
                row.instance.verified_by = request.user if row.cleaned_data.get("verified_on") else None
        super().save_formset(request, form, formset, change)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # A date typed in is a verification like “Mark verified today”: it reaches the live
        # page at once for facts whose content is unchanged (editorial.services.refresh_verification).
        workflow.refresh_verification(obj=form.instance, user=request.user)

    @admin.action(description=MARK_VERIFIED_LABEL, permissions=["change"])
    def mark_verified_today(self, request, queryset):
        counts, vendor_pks = mark_verified(user=request.user, vendors=queryset)
        messages.success(
            request,
            f"Marked {plural(counts[Vendor], 'vendor')} verified today: "
            f"{plural(counts[Fact], 'fact')}, {plural(counts[Event], 'event')}, "
            f"{plural(counts[Score], 'score')}, {plural(counts[Spec], 'chip spec')} "
            f"and {plural(counts[Availability], 'availability date')}.",
        )
