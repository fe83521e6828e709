"""Figures derived from a chip's cited values, each with its arithmetic written out: a price per
chip-hour from an instance's price, dollars per PFLOP-hour at a stated precision, memory per
dollar-hour, results per chip and per dollar, compute per watt.

The one rule for what may be derived: only from inputs that cite a source and are not stale
(claims.freshness), counted per chip, exact (a spec the source bounds, “up to 18 PFLOPS”, is a
ceiling, not a figure to divide by), of one precision, and in one currency. A figure with an
input missing, stale, uncited, bounded or of another precision is not derived at all: pages say nothing
rather than something unsupported. Every surface (chip page, /chips/, comparison, API,
downloads) reads these through ``Chip.derived`` of the published document.

Arithmetic is done by pint on Decimals (chips/quantities.py's registry), never in floats.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import TYPE_CHECKING, Any, Final

from claims.freshness import fresh_until

from . import quantities
from .market_documents import Price, Result, money

if TYPE_CHECKING:
    from .documents import Chip, Spec

DIGITS: Final = 3  # a derived figure is shown to three significant digits: no more than its inputs hold
HOURLY: Final = {"instance-hour", "chip-hour"}


@dataclass(frozen=True)
class Derived:
    """One derived figure: what it is, its value and unit, and how it was computed from which rows."""

    key: str  # unique on a chip: "chip-hour-12", "pflop-hour-FP8", "memory-per-dollar", ...
    label: str  # “Dollars per PFLOP-hour, FP8”
    value: Decimal  # rounded to DIGITS significant digits
    unit: str  # “USD per PFLOP-hour”
    shown: str  # “$0.57 per PFLOP-hour”
    arithmetic: str  # “$1.50 per chip-hour / 2.61 PFLOPS FP8”
    inputs: tuple[Any, ...]  # the document's rows it rests on (prices, specs, results), cited

    @property
    def sources(self) -> list[Any]:
        """Every source its inputs cite, once, in the order the inputs cite them."""
        seen: dict[int, Any] = {}
        for row in self.inputs:
            for source in row.cited:
                seen.setdefault(source.pk, source)
        return list(seen.values())


def usable(row: Any) -> bool:
    """Whether a row may be an input: cited, and not stale by the one rule."""
    return bool(row.sources) and not row.is_stale


def usable_until(row: Any) -> dt.datetime | None:
    """Until when ``row`` may be an input, by the calendar: None when it may not be now
    (uncited or stale). What the indexes /chips/ sorts on keep beside each value, so that a
    sort never uses a value the page would not (a source's problem found after the publish is
    the one thing they cannot know until the next)."""
    return fresh_until(row.verified_on) if usable(row) and row.verified_on else None


def per_chip_hour(price: Price) -> Decimal | None:
    """A price's amount per chip-hour, exactly: as stated, or an instance's over its chips;
    None for a price per unit or of an instance whose chips are not stated."""
    if price.per == "chip-hour":
        return price.value
    if price.per == "instance-hour" and price.chips_per_unit:
        q = quantities.registry().Quantity
        hourly = q(price.value, f"{price.currency} / hour") / q(Decimal(price.chips_per_unit), "chip")
        return Decimal(hourly.to(f"{price.currency} / hour / chip").magnitude)
    return None


def rounded(value: Decimal) -> Decimal:
    """To DIGITS significant digits, whole numbers too: 2,972,812.5 tokens is 2,970,000."""
    if not value:
        return value
    return value.quantize(Decimal(1).scaleb(value.adjusted() + 1 - DIGITS), rounding=ROUND_HALF_EVEN)


def _text(value: Decimal) -> str:
    return quantities.text(rounded(value))


@dataclass(frozen=True)
class HourPrice:
    """A price per chip-hour a page may use: the price row, its amount per chip-hour, and
    whether that amount is derived (from an instance's price) or stated."""

    price: Price
    amount: Decimal

    @property
    def derived(self) -> bool:
        return self.price.per != "chip-hour"

    @property
    def shown(self) -> str:
        written = money(rounded(self.amount) if self.derived else self.amount, self.price.currency)
        return f"{written} per chip-hour"


def hour_prices(prices: Iterable[Price]) -> list[HourPrice]:
    """Every usable price per chip-hour, stated or derived, cheapest first."""
    found = []
    for price in prices:
        amount = per_chip_hour(price)
        if amount is not None and usable(price):
            found.append(HourPrice(price=price, amount=amount))
    return sorted(found, key=lambda row: (row.price.currency, row.amount))


def lowest_on_demand(prices: Iterable[Price], currency: str = "USD") -> HourPrice | None:
    """The lowest usable on-demand price per chip-hour in ``currency``: what /chips/ shows, and
    what a chip's per-dollar figures divide by."""
    rows = [
        row for row in hour_prices(prices) if row.price.kind == "on-demand" and row.price.currency == currency
    ]
    return rows[0] if rows else None


def _per_chip(specs: Sequence[Spec], kind: str) -> list[Spec]:
    """The usable, exact per-chip specs of ``kind``."""
    return [
        spec
        for spec in specs
        if spec.kind == kind and spec.scope == "chip" and not spec.qualifier and usable(spec)
    ]


def derived_of(chip: Chip) -> list[Derived]:
    """Every figure derivable from ``chip``'s usable rows, in a fixed order."""
    figures = [_chip_hour(row) for row in hour_prices(chip.prices) if row.derived]
    cheapest = lowest_on_demand(chip.prices)
    computes = _per_chip(chip.specs, "compute")
    if cheapest is not None:
        figures += [_per_pflop_hour(cheapest, spec) for spec in computes]
        figures += [_memory_per_dollar(cheapest, spec) for spec in _per_chip(chip.specs, "memory")[:1]]
    results = [row for row in chip.results if usable(row) and row.chips_in_system and _rate(row)]
    for result in results:
        figures.append(_result_per_chip(result))
        if cheapest is not None:
            figures.append(_result_per_dollar(result, cheapest))
    for power in _per_chip(chip.specs, "power")[:1]:
        figures += [_compute_per_watt(spec, power) for spec in computes]
    return figures


def _chip_hour(row: HourPrice) -> Derived:
    price = row.price
    return Derived(
        key=f"chip-hour-{price.id}",
        label=f"Price per chip-hour, {price.provider} {price.kind_label.lower()}",
        value=rounded(row.amount),
        unit=f"{price.currency} per chip-hour",
        shown=row.shown,
        arithmetic=f"{money(price.amount, price.currency)} per instance-hour / {price.chips_per_unit} chips",
        inputs=(price,),
    )


def _precision(spec: Spec) -> str:
    return ", ".join(part for part in (spec.precision, spec.sparsity) if part)


def _per_pflop_hour(cheapest: HourPrice, spec: Spec) -> Derived:
    q = quantities.registry().Quantity
    currency = cheapest.price.currency
    pflops = spec.value if spec.display_unit == "PFLOPS" else spec.sort_key
    cost = (q(cheapest.amount, f"{currency} / hour") / q(pflops, "PFLOPS")).to(
        f"{currency} / (PFLOPS * hour)"
    )
    value = Decimal(cost.magnitude)
    return Derived(
        key=f"pflop-hour-{spec.id}",
        label=f"Dollars per PFLOP-hour, {_precision(spec)}",
        value=rounded(value),
        unit=f"{currency} per PFLOP-hour",
        shown=f"{money(rounded(value), currency)} per PFLOP-hour",
        arithmetic=(
            f"{cheapest.shown} ({cheapest.price.provider}) / "
            f"{quantities.text(pflops)} PFLOPS {_precision(spec)}"
        ),
        inputs=(cheapest.price, spec),
    )


def _memory_per_dollar(cheapest: HourPrice, spec: Spec) -> Derived:
    gigabytes = spec.sort_key  # memory in its kind's unit, GB
    value = gigabytes / cheapest.amount
    currency = cheapest.price.currency
    return Derived(
        key="memory-per-dollar",
        label="Memory per dollar-hour",
        value=rounded(value),
        unit=f"GB per {currency} per hour",
        shown=f"{_text(value)} GB per {money('1', currency)} per hour",
        arithmetic=f"{spec.divided_as} / {cheapest.shown} ({cheapest.price.provider})",
        inputs=(spec, cheapest.price),
    )


def _rate(result: Result) -> bool:
    from . import units

    return units.METRICS[result.metric].per_chip


def _result_per_chip(result: Result) -> Derived:
    value = Decimal(result.value) / Decimal(result.chips_in_system or 1)
    return Derived(
        key=f"result-per-chip-{result.id}",
        label=f"{result.benchmark}, per chip",
        value=rounded(value),
        unit=f"{result.unit} per chip",
        shown=f"{_text(value)} {result.unit} per chip",
        arithmetic=f"{result.shown} / {quantities.text(str(result.chips_in_system))} chips",
        inputs=(result,),
    )


def _result_per_dollar(result: Result, cheapest: HourPrice) -> Derived:
    q = quantities.registry().Quantity
    currency = cheapest.price.currency
    counted = result.unit.split("/")[0]  # “tokens” of “tokens/s”
    rate = q(Decimal(result.value), "1 / s") / q(Decimal(result.chips_in_system or 1), "chip")
    per_money = (rate / q(cheapest.amount, f"{currency} / hour / chip")).to(f"1 / {currency}")
    value = Decimal(per_money.magnitude)
    return Derived(
        key=f"result-per-dollar-{result.id}",
        label=f"{result.benchmark}, per dollar",
        value=rounded(value),
        unit=f"{counted} per {currency}",
        shown=f"{_text(value)} {counted} per {money('1', currency)}",
        arithmetic=(
            f"{result.shown} / {result.chips_in_system} chips × 3,600 s / {cheapest.shown} "
            f"({cheapest.price.provider})"
        ),
        inputs=(result, cheapest.price),
    )


def _compute_per_watt(spec: Spec, power: Spec) -> Derived:
    q = quantities.registry().Quantity
    teraflops = q(spec.sort_key, "PFLOPS").to("TFLOPS").magnitude
    watts = power.sort_key
    value = Decimal(teraflops) / watts
    return Derived(
        key=f"compute-per-watt-{spec.id}",
        label=f"Compute per watt, {_precision(spec)}",
        value=rounded(value),
        unit="TFLOPS per W",
        shown=f"{_text(value)} TFLOPS per W",
        arithmetic=(
            f"{quantities.text(Decimal(teraflops))} TFLOPS {_precision(spec)} / {quantities.text(watts)} W"
        ),
        inputs=(spec, power),
    )
