"""What chips offer against when they became available: the points of /chips/trends/ and of
its download, one chart a measure (memory, memory bandwidth, compute at FP8, at FP4 or FP6,
dollars per PFLOP-hour), each point a live chip at the month it became available.

A chip's month is its earliest “generally available” month, else its earliest “announced”
month (a chip only in preview is dated by its announcement too), and each point says which.
A chip with neither is left out of every chart, and the page names it. Values are the
published document's (per chip only); the price per PFLOP-hour is the figure chips/prices.py
derives from the chip's lowest fresh on-demand price and its compute at one precision.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from django.urls import reverse

from . import charts, quantities, units
from .documents import Availability, Spec
from .prices import Derived
from .selectors import LiveChip

FP8: Final = ("FP8", "MXFP8", "Block FP8")
FP4_FP6: Final = ("FP4", "FP6/FP4", "FP6")
SPARSITY_ORDER: Final = (False, True, None)  # dense, sparse, not stated
DATED_BY: Final = {"ga": "generally available", "announced": "announced"}


def available(chip: LiveChip) -> Availability | None:
    """The month a chip is dated by: its earliest “ga” row, else its earliest “announced” row."""
    for stage in ("ga", "announced"):
        rows = [row for row in chip.availability if row.stage == stage]
        if rows:
            return min(rows, key=lambda row: row.month)
    return None


def chip_href(slug: str) -> str:
    """A chip's own page, /chips/<slug>/."""
    return reverse("chips:detail", kwargs={"slug": slug})


def series_name(precision: str, sparse: bool | None) -> str:
    """“FP8, dense”, “MXFP8, sparse”, “FP4, sparsity not stated”; empty for a measure of one series."""
    if not precision:
        return ""
    return f"{precision}, {quantities.SPARSITY_WORDS[sparse] or 'sparsity not stated'}"


@dataclass(frozen=True)
class Point:
    """One chip's value on one chart, with what the page, the table and the download say of it."""

    chart: str
    chip: LiveChip
    dated: Availability
    series: str  # its precision (and sparsity), or empty
    value: Decimal  # exactly, in ``unit``: where it is drawn
    written_value: Decimal  # in ``unit`` as it is written anywhere (144 GiB is 155 GB): the download's
    written: str  # as its source gave it (“192 GiB”, “over 10 PFLOPS”), or the derived figure
    converted: str  # in ``unit`` when the source used another (“206 GB”), else empty
    unit: str
    sources: tuple[Any, ...]  # claims.documents.Source
    derived: str = ""  # a derived figure's arithmetic
    precision: str = ""
    sparsity: str = ""

    @property
    def href(self) -> str:
        return chip_href(self.chip.slug)

    @property
    def dated_by(self) -> str:
        return DATED_BY[self.dated.stage]

    @property
    def month(self) -> dt.date:
        return self.dated.month

    @property
    def label(self) -> str:
        """What the point's tooltip says: “MI355X (AMD Instinct): 2.5 PFLOPS, FP8, dense;
        generally available Jun 2025”."""
        series = f", {self.series}" if self.series else ""
        return (
            f"{self.chip.name} ({self.chip.vendor.name}): {self.written}{series}; "
            f"{self.dated_by} {self.dated.display_month}"
        )


def _spec_point(chart: str, chip: LiveChip, dated: Availability, spec: Spec, series: str) -> Point:
    return Point(
        chart=chart,
        chip=chip,
        dated=dated,
        series=series,
        value=spec.sort_key,
        written_value=spec.value,
        written=spec.as_given,
        converted=spec.converted,
        unit=spec.display_unit,
        sources=tuple(spec.cited),
        precision=spec.precision,
        sparsity=spec.sparsity,
    )


def _highest_of(chip: LiveChip, kind: str) -> Callable[[str, Availability], list[Point]]:
    def points(chart: str, dated: Availability) -> list[Point]:
        spec = chip.spec(kind)
        return [_spec_point(chart, chip, dated, spec, "")] if spec is not None else []

    return points


def _compute_at(chip: LiveChip, precisions: tuple[str, ...]) -> Callable[[str, Availability], list[Point]]:
    """The chip's highest per-chip compute of each precision and sparsity of ``precisions``."""

    def points(chart: str, dated: Availability) -> list[Point]:
        best: dict[tuple[str, bool | None], Spec] = {}
        for spec in chip.specs:
            if spec.kind == "compute" and spec.scope == "chip" and spec.precision in precisions:
                kept = best.get((spec.precision, spec.sparse))
                if kept is None or spec.sort_key > kept.sort_key:
                    best[(spec.precision, spec.sparse)] = spec
        return [
            _spec_point(chart, chip, dated, spec, series_name(precision, sparse))
            for (precision, sparse), spec in best.items()
        ]

    return points


def _pflop_hours(chip: LiveChip) -> Callable[[str, Availability], list[Point]]:
    def points(chart: str, dated: Availability) -> list[Point]:
        found: list[Derived] = [row for row in chip.chip.derived if row.key.startswith("pflop-hour")]
        made = []
        for row in found:
            spec = next(part for part in row.inputs if isinstance(part, Spec))
            made.append(
                Point(
                    chart=chart,
                    chip=chip,
                    dated=dated,
                    series=series_name(spec.precision, spec.sparse),
                    value=row.value,
                    written_value=row.value,
                    written=row.shown,
                    converted="",
                    unit=row.unit,
                    sources=tuple(row.sources),
                    derived=row.arithmetic,
                    precision=spec.precision,
                    sparsity=spec.sparsity,
                )
            )
        return made

    return points


@dataclass(frozen=True)
class Measure:
    """One chart: what it plots, in which unit, and how a chip's points are found."""

    key: str
    title: str
    unit: str
    axis: str  # the value axis' label
    about: str  # what the page says under its heading
    points: Callable[[LiveChip], Callable[[str, Availability], list[Point]]]
    precisions: tuple[str, ...] = ()  # the order of its series


MEASURES: Final = (
    Measure(
        "memory", "Memory per chip", units.KINDS["memory"].unit, "Memory per chip (GB)",
        "The chip's highest stated memory capacity, per chip.",
        lambda chip: _highest_of(chip, "memory"),
    ),
    Measure(
        "bandwidth", "Memory bandwidth per chip", units.KINDS["bandwidth"].unit,
        "Memory bandwidth per chip (TB/s)",
        "The chip's highest stated memory bandwidth, per chip (off-die memory, not on-chip SRAM).",
        lambda chip: _highest_of(chip, "bandwidth"),
    ),
    Measure(
        "compute-fp8", "Compute per chip at FP8", units.KINDS["compute"].unit, "Compute per chip (PFLOPS)",
        "FP8, MXFP8 and Block FP8 are different number formats, so each is a series of its own; "
        "figures counted with sparsity and dense figures are series of their own too.",
        lambda chip: _compute_at(chip, FP8), FP8,
    ),
    Measure(
        "compute-fp4-fp6", "Compute per chip at FP4 and FP6", units.KINDS["compute"].unit,
        "Compute per chip (PFLOPS)",
        "FP4, FP6 and figures given for FP6 and FP4 together are series of their own, as are "
        "figures counted with sparsity and dense ones.",
        lambda chip: _compute_at(chip, FP4_FP6), FP4_FP6,
    ),
    Measure(
        "pflop-hour", "Dollars per PFLOP-hour (derived)", "USD per PFLOP-hour", "Dollars per PFLOP-hour",
        "Derived, not stated by any source: the chip's lowest fresh on-demand price per chip-hour "
        "today divided by its compute at one precision (each precision a series). It is today's "
        "price against the month the chip became available, not the price at launch.",
        _pflop_hours,
    ),
)  # fmt: skip


@dataclass
class Series:
    index: int
    name: str
    points: list[Point] = field(default_factory=list)

    @property
    def shape(self) -> str:
        return charts.SHAPES[self.index % len(charts.SHAPES)]

    @property
    def tone(self) -> int:
        return self.index % charts.TONES

    @property
    def swatch(self) -> str:
        """The legend's marker, on a 16-unit square."""
        return charts.marker(self.shape, Decimal(8), Decimal(8))


@dataclass
class Chart:
    measure: Measure
    series: list[Series]
    plot: charts.Plot

    @property
    def points(self) -> list[Point]:
        """Every point, by month then chip."""
        return sorted(
            (point for row in self.series for point in row.points),
            key=lambda point: (point.month, point.chip.name.lower(), point.series),
        )

    @property
    def drawn(self) -> list[tuple[charts.Placed, Point]]:
        """Each point where it is drawn, in the order of ``plot.points``."""
        return list(zip(self.plot.points, [p for row in self.series for p in row.points], strict=True))

    @property
    def has_announced(self) -> bool:
        return any(point.dated.stage == "announced" for point in self.points)


def _series_order(measure: Measure, name: str) -> tuple[int, str, int]:
    """The measure's precisions in its order (others by name), then dense, sparse, not stated."""
    precision, _, sparsity = name.partition(", ")
    known = measure.precisions
    rank = known.index(precision) if precision in known else len(known)
    words = [quantities.SPARSITY_WORDS[s] or "sparsity not stated" for s in SPARSITY_ORDER]
    return (rank, precision, words.index(sparsity) if sparsity in words else len(words))


def chart_of(measure: Measure, chips: Iterable[tuple[LiveChip, Availability]]) -> Chart:
    by_series: dict[str, list[Point]] = {}
    for chip, dated in chips:
        for point in measure.points(chip)(measure.key, dated):
            by_series.setdefault(point.series, []).append(point)
    names = sorted(by_series, key=lambda name: _series_order(measure, name))
    series = [Series(index=n, name=name, points=by_series[name]) for n, name in enumerate(names)]
    placed = [(point.month, point.value, row.index) for row in series for point in row.points]
    return Chart(measure=measure, series=series, plot=charts.plot(placed))


@dataclass
class Trends:
    charts: list[Chart]
    undated: list[tuple[LiveChip, str]]  # live chips with no month announced or GA, and their pages


def trends(chips: Iterable[LiveChip]) -> Trends:
    """Every chart of /chips/trends/ from ``chips`` (live, drawn)."""
    dated, undated = [], []
    for chip in chips:
        month = available(chip)
        if month is None:
            undated.append(chip)
        else:
            dated.append((chip, month))
    return Trends(
        charts=[chart_of(measure, dated) for measure in MEASURES],
        undated=[(chip, chip_href(chip.slug)) for chip in undated],
    )


CSV_HEADER: Final = (
    "chart", "chip", "vendor", "month", "dated_by", "value", "unit", "as_given", "precision",
    "sparsity", "derived_from", "source_urls",
)  # fmt: skip


def csv_rows(found: Trends) -> list[list[str]]:
    """One row a point, chart by chart: its value written plainly in the chart's unit, the
    figure as given, and its sources' addresses separated by spaces."""
    return [
        [
            chart.measure.key,
            point.chip.name,
            point.chip.vendor.name,
            point.month.strftime("%Y-%m"),
            point.dated_by,
            quantities.text(point.written_value, grouped=False),
            point.unit,
            point.written,
            point.precision,
            point.sparsity,
            point.derived,
            " ".join(source.url for source in point.sources),
        ]
        for chart in found.charts
        for point in chart.points
    ]
