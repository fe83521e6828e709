"""A chip's own page, /chips/<slug>/: for a reader deciding what to buy or rent. Its specs with
their evidence, availability, prices (and how they moved, over every published version of its
vendor), measured results and the figures derived from them, each row's sources numbered as
notes as on the profile (claims/footnotes.py).

Read from the live published document only (``selectors.live_chip``); the price history reads
the prices kept with each version already published (``VersionPrice``), never a draft's. A
stored page (chips/pages.py): it shows its vendor's document, so its vendor's publish renders
it again.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from claims.documents import Note
from claims.footnotes import Footnotes
from infra.stored import shows

from . import prices as derivation
from .catalogue import catalogue
from .documents import Chip
from .market import VersionPrice
from .market_documents import KIND_TEXT, money
from .price_chart import Chart, PricePoint, price_chart
from .selectors import LiveChip, live_chip

CHART_CURRENCY = "USD"


@dataclass(frozen=True)
class DerivedRow:
    """A derived figure with the notes of its inputs' sources, as numbered on this page."""

    figure: derivation.Derived
    notes: list[Note]


@dataclass
class PriceHistory:
    """The chart's points (oldest first) and what was left out of it, in words."""

    points: list[PricePoint] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)
    chart: Chart | None = None

    @property
    def first_day(self) -> dt.date | None:
        return self.points[0].day if self.points else None

    @property
    def last_day(self) -> dt.date | None:
        return self.points[-1].day if self.points else None

    @property
    def lowest(self) -> str:
        return min(self.points, key=lambda point: point.amount).shown if self.points else ""

    @property
    def highest(self) -> str:
        return max(self.points, key=lambda point: point.amount).shown if self.points else ""


@dataclass
class ChipPage:
    live: LiveChip
    notes: Footnotes
    derived: list[DerivedRow]
    not_derived: str
    history: PriceHistory
    others: list[Chip]

    @property
    def chip(self) -> Chip:
        return self.live.chip

    @property
    def compare_url(self) -> str:
        others = ",".join(chip.slug for chip in self.others[:3])
        query = f"{self.chip.slug},{others}" if others else self.chip.slug
        return f"{reverse('chips:compare')}?chips={query}"

    @property
    def has_vendor_stated(self) -> bool:
        chip = self.chip
        return any(
            row.vendor_stated
            for rows in (chip.specs, chip.availability, chip.prices, chip.results)
            for row in rows
        )


def price_rows(chip: LiveChip, *, now: dt.datetime | None = None) -> list[dict[str, Any]]:
    """The chip's prices in every version of its vendor published by ``now``, oldest version
    first: one query, however many versions and prices."""
    rows = (
        VersionPrice.objects.filter(
            chip__slug=chip.slug,
            chip__version__item_id=chip.version.item_id,
            chip__version__published_at__lte=now or timezone.now(),
        )
        .order_by("chip__version__published_at", "chip__version__number", "pk")
        .values(
            "price_id",
            "provider",
            "offer",
            "kind",
            "per",
            "currency",
            "per_chip_hour",
            "as_of",
            published_at=F("chip__version__published_at"),
        )
    )
    return [dict(row) for row in rows]


def _shown(amount: Decimal, per: str) -> str:
    """An amount per chip-hour as pages write it: as stated, or an instance's over its chips
    to three significant digits (derived: no more digits than the inputs hold)."""
    if per == "chip-hour":
        return money(amount.normalize(), CHART_CURRENCY)
    return money(derivation.rounded(amount).normalize(), CHART_CURRENCY)


def _label(row: dict[str, Any]) -> str:
    return f"{row['provider']}, {row['offer']} ({KIND_TEXT[row['kind']].lower()})"


def price_history(rows: list[dict[str, Any]]) -> PriceHistory:
    """One point per offer, amount per chip-hour and date: the date the source gives, or else
    the day the first version with that amount was published. Prices per unit, of an instance
    whose chips are not stated, or in another currency are left out, and said so."""
    history = PriceHistory()
    labels = {row["price_id"]: _label(row) for row in rows}  # the newest version's words
    per_unit, unstated, other_currency = set(), set(), set()
    seen: dict[tuple[int, Decimal, dt.date | None], PricePoint] = {}
    for row in rows:
        if row["per"] == "unit":
            per_unit.add(row["price_id"])
        elif row["per_chip_hour"] is None:
            unstated.add(row["price_id"])
        elif row["currency"] != CHART_CURRENCY:
            other_currency.add(row["price_id"])
        else:
            key = (row["price_id"], row["per_chip_hour"], row["as_of"])
            if key not in seen:  # rows come oldest version first: the first is when it was published
                day = row["as_of"] or timezone.localdate(row["published_at"])
                seen[key] = PricePoint(
                    series=labels[row["price_id"]],
                    amount=row["per_chip_hour"],
                    day=day,
                    dated_by_source=row["as_of"] is not None,
                    shown=_shown(row["per_chip_hour"], row["per"]),
                )
    history.points = sorted(seen.values(), key=lambda point: (point.day, point.series))
    for count, words in (
        (len(per_unit), "per unit (a purchase, not an hour)"),
        (len(unstated), "per instance-hour of an instance whose chips are not stated"),
        (len(other_currency), "in a currency other than US dollars"),
    ):
        if count:
            history.left_out.append(f"{count} offer{'s' if count > 1 else ''} priced {words}")
    history.chart = price_chart(history.points, money=lambda amount: money(amount, CHART_CURRENCY))
    return history


def not_derived_reason(chip: Chip) -> str:
    """Why no figure could be derived, briefly: an input missing, or uncited or stale."""
    reasons = []
    hourly = [price for price in chip.prices if price.hourly]
    if not hourly:
        reasons.append("no price per hour is stated")
    elif not any(derivation.usable(price) for price in hourly):
        reasons.append("its prices per hour cite no source or are not recently verified")
    if not chip.results:
        reasons.append("no measured result is stated")
    elif not any(derivation.usable(result) for result in chip.results):
        reasons.append("its results cite no source or are not recently verified")
    per_chip = {spec.kind for spec in chip.specs if spec.scope == "chip" and derivation.usable(spec)}
    if not {"compute", "power"} <= per_chip:
        reasons.append("no cited, recently verified compute and power per chip are both stated")
    return (
        f"None can be derived: {'; '.join(reasons)}. Figures are derived only from cited values "
        f"verified in the last {settings.FRESHNESS_DAYS} days."
    )


def build_page(live: LiveChip) -> ChipPage:
    """Everything the chip's page shows, its rows' sources numbered in page order."""
    chip = live.chip
    notes = Footnotes()
    for row in [*chip.specs, *chip.availability, *chip.prices, *chip.results]:
        notes.cite(row)
    derived = []
    for figure in chip.derived:
        numbered = {note.number: note for row in figure.inputs for note in row.notes}
        derived.append(DerivedRow(figure=figure, notes=[numbered[n] for n in sorted(numbered)]))
    document = catalogue().document_of(live.version)  # parsed once: the one drawn already
    return ChipPage(
        live=live,
        notes=notes,
        derived=derived,
        not_derived="" if derived else not_derived_reason(chip),
        history=price_history(price_rows(live)),
        others=[other for other in document.chips if other.slug != chip.slug],
    )


def chip_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A live chip's page; a chip that is not live (a draft's, or none) is a 404."""
    live = live_chip(slug)
    if live is None:
        raise Http404("No published chip has this address.")
    # What it shows is its vendor's published document, now and in every version published
    # so far (the price history): its vendor's publish renders it again (vendors.pages).
    shows(live.version.chips_key)
    return render(request, "chips/chip_detail.html", {"page": build_page(live)})
