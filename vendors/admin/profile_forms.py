"""The forms of a profile's rows on the vendor's change page (vendors/admin/profile.py): facts,
chips' specs and availability, events, scores and FAQs, with the fields typed into them. Each
form names its row for the page's error summary (``row_name``)."""

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING

from django import forms
from django.utils.text import Truncator

from chips import quantities, units
from chips.models import Availability, Spec, Stage, chip_taken_by
from claims.admin.editing import ChecksChangedRowsOnly, PositionedInlineForm
from claims.admin.evidence import CitesEvidence

from ..event_dates import EventDateError, event_date_text, parse_event_date
from ..models import FAQ, Event, Fact, Score

if TYPE_CHECKING:
    ChipRowPart = forms.ModelForm  # what NamesChip is mixed into
else:
    ChipRowPart = object


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
    units it does (chips/units.py), and one of the wrong dimension by ``Spec.clean``."""

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


class NamesChip(ChipRowPart):
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


class QuantityField(forms.DecimalField):
    """A spec's number, shown as the source wrote it (288, never 288.000000: chips/quantities.py)."""

    def prepare_value(self, value):
        return quantities.text(value, grouped=False) if isinstance(value, Decimal) else value


class SparsitySelect(forms.NullBooleanSelect):
    """Whether a compute figure is counted with sparsity: as a source says, or not stated."""

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.choices = [("unknown", "Not stated"), ("true", "Sparse"), ("false", "Dense")]


class SpecForm(NamesChip, CitesEvidence, PositionedInlineForm):
    unit = UnitField(max_length=8, help_text="The unit as the source gives it.")
    sparse = forms.NullBooleanField(
        required=False,
        widget=SparsitySelect,
        help_text="For compute: sparse or dense only where a source says so.",
    )
    quantity = QuantityField(
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
            "chip", "kind", "qualifier", "quantity", "unit", "scope", "precision", "sparse",
            "vendor_stated", "difference_note", "verified_on", "sources", "evidence", "position",
        ]  # fmt: skip
        widgets = {
            "chip": forms.TextInput(attrs={"size": 14}),
            "difference_note": forms.Textarea(attrs={"rows": 2, "cols": 30}),
        }

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
    markdown_fields = ["reason"]  # checked for readers of assistive technology (claims/authoring.py)

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
