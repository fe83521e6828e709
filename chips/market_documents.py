"""A chip's prices and measured results in a published profile (chips/market.py's rows): parts
of each chip of the document (chips/documents.py, ``Chip.prices`` and ``Chip.results``), and
what the chip page, /chips/, the comparison, the API and the downloads read of them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Final, Literal

from pydantic import Field, computed_field, field_validator

from claims.documents import Verified
from claims.models import display_date

from . import quantities, units
from .market import Currency, PriceKind, PricePer

type PriceKindValue = Literal[
    "on-demand", "reserved-1y", "reserved-3y", "spot", "capacity-block", "list-price"
]
type PerValue = Literal["instance-hour", "chip-hour", "unit"]
type MetricValue = Literal["throughput", "time_to_train", "scaling", "ratio"]
KIND_TEXT: Final = {str(value): str(label) for value, label in PriceKind.choices}
PER_TEXT: Final = {str(value): str(label) for value, label in PricePer.choices}
CURRENCY_SIGN: Final = {"USD": "$", "EUR": "€", "GBP": "£"}


def _plain(value: Any) -> Any:
    """A working copy's Decimal as the source wrote it (98.32, 50000): what a version keeps."""
    return units.plain(value) if isinstance(value, Decimal) else value


def money(amount: Decimal | str, currency: str) -> str:
    """“$98.32”, “$1.50”, “$50,000”, “JPY 1,200”: an amount as pages write it, to the source's
    digits, and to the cent where it has any (a source's “$1.50” is kept as 1.5)."""
    value = quantities.figure(str(amount)) if isinstance(amount, str) else amount
    places = value.normalize().as_tuple().exponent
    if value != value.to_integral_value() and isinstance(places, int) and -places < 2:
        value = value.quantize(Decimal("0.01"))
    written = format(value, ",f")
    sign = CURRENCY_SIGN.get(currency)
    return f"{sign}{written}" if sign else f"{currency} {written}"


def price_text(amount: Decimal | str, currency: str, per: str) -> str:
    """“$98.32 per instance-hour”: a price as pages write it (``amount`` as the source wrote it)."""
    return f"{money(amount, currency)} {PER_TEXT[per]}"


def price_row_text(row: Mapping[str, Any]) -> str:
    """“$2.50 per chip-hour” from a price row's fields as the database keeps them (2.500000, a
    revision's): what the admin's history writes of a price."""
    return price_text(units.plain(Decimal(str(row["amount"]))), row["currency"], row["per"])


class Dated(Verified):
    """What a price and a result share: the chip, its date (to the day or the month, or none)."""

    chip: str = Field(description="The chip's name, e.g. “MI300X”.")
    as_of: dt.date | None = Field(None, description="The date it applies from, as its source dates it.")
    as_of_precision: Literal["day", "month", ""] = Field(
        "day", description="How much of ``as_of`` the source states: day or month."
    )
    vendor_stated: bool = Field(description="As stated by the chip's vendor, not by others.")

    @computed_field(description="The date as pages show it, e.g. “18 May 2026”; empty when none.")  # type: ignore[prop-decorator]
    @property
    def display_as_of(self) -> str:
        return display_date(self.as_of, self.as_of_precision or "day") if self.as_of else ""


class Price(Dated):
    """One offer's price as its source gives it (amount, currency, per what, chips per instance)."""

    provider: str = Field(description="Who sells it, e.g. “AWS”.")
    offer: str = Field(description="The offer as the provider names it, e.g. “EC2 p5.48xlarge”.")
    kind: PriceKindValue = Field(description="How it is bought: on-demand, reserved-1y, reserved-3y, spot, …")
    amount: str = Field(description="The amount as the source gives it, a decimal string, e.g. “98.32”.")
    currency: str = Field(description="ISO 4217 code, e.g. “USD”.")
    per: PerValue = Field(description="What the amount pays for: instance-hour, chip-hour or unit.")
    chips_per_unit: int | None = Field(
        None, description="How many chips the offer's instance or unit holds; null: not stated."
    )
    region: str = Field("", description="Where the source says it applies; empty when it does not.")
    difference_note: str = Field(
        "", description="Why another source gives this offer another price; empty when none differs."
    )

    plain_amount = field_validator("amount", mode="before")(_plain)

    @field_validator("currency")
    @classmethod
    def _known_currency(cls, code: str) -> str:
        if code not in Currency.values:
            raise ValueError(f"“{code}” is not a currency the site knows.")
        return code

    @property
    def value(self) -> Decimal:
        return Decimal(self.amount)

    @property
    def sources_differ(self) -> bool:
        """Another source gives this offer another price (the editors' note says which and why)."""
        return bool(self.difference_note.strip())

    @property
    def shown(self) -> str:
        """“$98.32 per instance-hour”."""
        return price_text(self.amount, self.currency, self.per)

    @property
    def kind_label(self) -> str:
        return KIND_TEXT[self.kind]

    @property
    def hourly(self) -> bool:
        return self.per != "unit"

    @property
    def label(self) -> str:
        return f"{self.provider}, {self.offer}"

    @property
    def cited_as(self) -> str:
        return f"{self.chip}: {self.provider} {self.kind_label.lower()}"

    @property
    def anchor(self) -> str:
        return f"notes-price-{self.id}"


class Result(Dated):
    """One measured value of a named benchmark on a named system, as its source reports it."""

    system: str = Field(description="The system measured.")
    chips_in_system: int | None = Field(None, description="How many of the chip it ran on; null: not stated.")
    suite: str = Field("", description="The benchmark suite, e.g. “MLPerf Inference”; empty for none.")
    suite_version: str = Field("", description="The suite's version, e.g. “v5.0”.")
    workload: str = Field(description="What ran, e.g. “Llama 2 70B”.")
    scenario: str = Field("", description="E.g. “Offline”; empty when none is stated.")
    metric: MetricValue = Field(description="What is counted: throughput, time_to_train, scaling or ratio.")
    value: str = Field(description="The value as the source gives it, a decimal string.")
    unit: str = Field(description="Its unit, e.g. “tokens/s”, “minutes”.")
    counted: str = Field("", description="The source's own name for what it counts, e.g. “output tokens/s”.")
    division: Literal["closed", "open", ""] = Field("", description="MLPerf's division, where stated.")
    availability: Literal["available", "preview", "research", ""] = Field(
        "", description="Whether the system measured can be bought, where stated."
    )
    submitter: str = Field("", description="Who measured or submitted it.")

    plain_value = field_validator("value", mode="before")(_plain)

    @property
    def benchmark(self) -> str:
        """“MLPerf Inference v5.0, Llama 2 70B, Offline”."""
        suite = " ".join(part for part in (self.suite, self.suite_version) if part)
        return ", ".join(part for part in (suite, self.workload, self.scenario) if part)

    @property
    def metric_label(self) -> str:
        return units.METRICS[self.metric].label

    @property
    def shown(self) -> str:
        """“1,042,110 tokens/s”."""
        return f"{quantities.text(self.value)} {self.unit}"

    @property
    def label(self) -> str:
        return self.benchmark

    @property
    def cited_as(self) -> str:
        return f"{self.chip}: {self.benchmark}"

    @property
    def anchor(self) -> str:
        return f"notes-result-{self.id}"
