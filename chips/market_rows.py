"""What /chips/ and the chip comparison show of a chip's prices, derived figures and results:
the lowest on-demand price's row, dollars per PFLOP-hour at FP8, derived figures put side by
side only under the same label, and results side by side only for the same benchmark.

Everything here reads the published documents' chips (``LiveChip``), never the working copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from .documents import Spec
from .market_documents import Result
from .prices import Derived, HourPrice
from .selectors import LiveChip

# Derived figures' key families (the key without its row's id), in the order rows are shown.
FAMILIES: Final = (
    "chip-hour",
    "pflop-hour",
    "memory-per-dollar",
    "result-per-chip",
    "result-per-dollar",
    "compute-per-watt",
)


def family(key: str) -> str:
    """“pflop-hour” of “pflop-hour-12”: what derived figures of one kind share."""
    return next((name for name in FAMILIES if key == name or key.startswith(f"{name}-")), key)


def input_spec(figure: Derived) -> Spec | None:
    """The spec a derived figure rests on (a compute figure for dollars per PFLOP-hour)."""
    return next((row for row in figure.inputs if isinstance(row, Spec)), None)


def pflop_hour_fp8(figures: Sequence[Derived]) -> Derived | None:
    """The chip's dollars per PFLOP-hour at FP8: of a dense (or unstated) figure before a
    sparse one, which counts compute a dense model does not get; then the cheapest."""
    fp8 = [
        figure
        for figure in figures
        if family(figure.key) == "pflop-hour" and (spec := input_spec(figure)) and spec.precision == "FP8"
    ]

    def order(figure: Derived) -> tuple[bool, object]:
        spec = input_spec(figure)
        return (bool(spec and spec.sparse), figure.value)

    return min(fp8, key=order, default=None)


@dataclass
class PricedChip:
    """A chip as the comparison shows its prices: its lowest on-demand price per chip-hour,
    how many prices it has, and its derived figures (each computed once)."""

    chip: LiveChip
    lowest: HourPrice | None
    count: int
    derived: list[Derived]


def priced(chips: Sequence[LiveChip]) -> list[PricedChip]:
    return [
        PricedChip(
            chip=chip,
            lowest=chip.chip.lowest_on_demand,
            count=len(chip.chip.prices),
            derived=chip.chip.derived,
        )
        for chip in chips
    ]


@dataclass
class DerivedRow:
    """One derived figure under one label (“Dollars per PFLOP-hour, FP8, dense”), a cell a chip."""

    label: str
    cells: list[Derived | None]


def derived_rows(chips: Sequence[PricedChip]) -> list[DerivedRow]:
    """Each label of a derived figure two or more of ``chips`` share (all of them when only one
    chip is asked), in family order: like is only ever beside like. A chip with two figures
    under one label shows its first."""
    labels: dict[str, str] = {}
    for chip in chips:
        for figure in chip.derived:
            labels.setdefault(figure.label, family(figure.key))
    order = {name: n for n, name in enumerate(FAMILIES)}
    rows = []
    for label in sorted(labels, key=lambda label: (order.get(labels[label], len(order)), label)):
        cells = [next((f for f in chip.derived if f.label == label), None) for chip in chips]
        if sum(cell is not None for cell in cells) >= min(2, len(chips)):
            rows.append(DerivedRow(label=label, cells=cells))
    return rows


@dataclass
class ResultGroup:
    """One benchmark's results, a list a chip (empty where the chip has none)."""

    benchmark: str
    cells: list[list[Result]]


@dataclass
class Results:
    """The comparison's results: benchmarks two or more chips share, side by side, and each
    chip's other results under its own name."""

    shared: list[ResultGroup] = field(default_factory=list)
    only: list[tuple[LiveChip, list[Result]]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.shared) or any(rows for _, rows in self.only)


def results_of(chips: Sequence[LiveChip]) -> Results:
    """Results grouped by ``Result.benchmark``: a benchmark is side by side only when at least
    two chips have it; one only a chip has is listed under that chip."""
    benchmarks: dict[str, set[str]] = {}
    for chip in chips:
        for result in chip.chip.results:
            benchmarks.setdefault(result.benchmark, set()).add(chip.slug)
    shared = [name for name, slugs in benchmarks.items() if len(slugs) >= 2]
    groups = [
        ResultGroup(
            benchmark=name,
            cells=[[row for row in chip.chip.results if row.benchmark == name] for chip in chips],
        )
        for name in shared
    ]
    only = [(chip, [row for row in chip.chip.results if row.benchmark not in shared]) for chip in chips]
    return Results(shared=groups, only=[(chip, rows) for chip, rows in only if rows])
