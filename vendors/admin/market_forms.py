"""The forms of a chip's prices and measured results on the vendor's change page
(vendors/admin/profile.py): an amount typed as the source gives it, in a currency, per what;
a result's value in a unit of its metric's kind (a unit of the wrong kind is a form error)."""

from django import forms

from chips import units
from chips.market import DatePrecision, Price, Result
from claims.admin.editing import PositionedInlineForm
from claims.admin.evidence import CitesEvidence

from ..event_dates import EventDateError, event_date_text, parse_event_date
from .profile_forms import NamesChip, QuantityField, chosen

DATE_HELP = "As the source dates it: a day (2026-05-18) or a month (2026-06); empty when it gives none."


class AsOfField(forms.CharField):
    """The date a price or result applies from, typed as a day or a month; cleans to (date, precision)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("widget", forms.TextInput(attrs={"size": 10, "placeholder": "2026-05-18"}))
        super().__init__(required=False, **kwargs)

    def to_python(self, value):
        value = super().to_python(value)
        if value in self.empty_values:
            return None
        try:
            date, precision = parse_event_date(value)
        except EventDateError as error:
            raise forms.ValidationError(str(error), code="invalid") from error
        if precision not in (DatePrecision.DAY, DatePrecision.MONTH):
            raise forms.ValidationError(
                f"“{value[:40]}” is a year: type the month (2026-06) or the day (2026-06-14).", code="year"
            )
        return date, precision

    def has_changed(self, initial, data):
        try:
            return self.to_python(initial) != self.to_python(data)
        except forms.ValidationError:
            return True


class DatedForm(NamesChip, CitesEvidence, PositionedInlineForm):
    as_of = AsOfField(label="As of", help_text=DATE_HELP)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.as_of is not None:
            self.initial["as_of"] = event_date_text(self.instance.as_of, self.instance.as_of_precision)

    def clean(self):
        cleaned = super().clean()
        if "as_of" in cleaned:
            typed = cleaned["as_of"]
            cleaned["as_of"], self.instance.as_of_precision = typed if typed else (None, DatePrecision.DAY)
        return cleaned


def _positive(value, what):
    if value is not None and value <= 0:
        raise forms.ValidationError(
            f"{what} is more than zero, not {units.plain(value)}.", code="not_positive"
        )
    return value


class PriceForm(DatedForm):
    amount = QuantityField(
        max_digits=18,
        decimal_places=6,
        help_text="As the source gives it, e.g. 98.32 (no currency sign).",
        error_messages={"invalid": "Type the amount as the source gives it, e.g. 98.32, without a sign."},
        widget=forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
    )

    def row_name(self):
        """“MI300X — TensorWave”, by its chip and provider."""
        chip = chosen(self, "chip") or self["chip"].value() or ""
        provider = chosen(self, "provider") or self["provider"].value() or ""
        return " — ".join(part for part in (str(chip).strip(), str(provider).strip()) if part)

    def clean_amount(self):
        return _positive(self.cleaned_data["amount"], "A price")

    class Meta:
        model = Price
        fields = [
            "chip", "provider", "offer", "kind", "amount", "currency", "per", "chips_per_unit", "region",
            "as_of", "vendor_stated", "difference_note", "verified_on", "sources", "evidence", "position",
        ]  # fmt: skip
        widgets = {
            "difference_note": forms.Textarea(attrs={"rows": 2, "cols": 30}),
            "chip": forms.TextInput(attrs={"size": 12}),
            "provider": forms.TextInput(attrs={"size": 12}),
            "offer": forms.TextInput(attrs={"size": 24}),
            "region": forms.TextInput(attrs={"size": 12}),
        }


class ResultForm(DatedForm):
    value = QuantityField(
        max_digits=18,
        decimal_places=6,
        help_text="As the source gives it, e.g. 13212.5.",
        error_messages={"invalid": "Type the value as the source gives it, e.g. 13212.5."},
        widget=forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
    )

    def row_name(self):
        """“MI300X — Llama 2 70B”, by its chip and workload."""
        chip = chosen(self, "chip") or self["chip"].value() or ""
        workload = chosen(self, "workload") or self["workload"].value() or ""
        return " — ".join(part for part in (str(chip).strip(), str(workload).strip()) if part)

    def clean_value(self):
        return _positive(self.cleaned_data["value"], "A measured value")

    class Meta:
        model = Result
        fields = [
            "chip", "system", "chips_in_system", "suite", "suite_version", "workload", "scenario",
            "metric", "value", "unit", "counted", "division", "availability", "submitter", "as_of",
            "vendor_stated", "verified_on", "sources", "evidence", "position",
        ]  # fmt: skip
        widgets = {
            "chip": forms.TextInput(attrs={"size": 12}),
            "system": forms.TextInput(attrs={"size": 24}),
            "workload": forms.TextInput(attrs={"size": 20}),
        }
