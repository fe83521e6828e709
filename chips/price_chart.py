# mypy: disallow-untyped-defs, disallow-incomplete-defs
"""A chip's prices over time as a chart drawn on the server: where each price and label goes,
no HTML and no database. The template (templates/chips/chip_detail.html) writes the SVG from a
``Chart``. The scales and ticks are the ones every chart of chips uses (chips/charts.py); here
the time axis is to the day, since a price is dated to the day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

from .charts import (
    SHAPES,
    Linear,
    coordinate,
    marker,
    month_label,
    month_number,
    month_of,
    month_ticks,
    value_ticks,
)

# The drawing's own units (its viewBox): small enough that a 12-unit label stays readable when
# the chart is 300 px wide on a phone, and the stylesheet caps its width on a desktop.
WIDTH: Final = 360
HEIGHT: Final = 220
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 12, 30  # room for the $ labels and the dates
SIZE: Final = Decimal(4)  # a marker's centre to its edge
SERIES_CLASSES: Final = 6  # series-0 … series-5 in site.css, then round again


@dataclass(frozen=True)
class Tick:
    at: str  # where it is drawn along its axis, in drawing units
    label: str
    anchor: str = "end"  # its label's text-anchor: the $ labels end at the axis


def day_number(day: dt.date) -> Decimal:
    return Decimal(day.toordinal())


@dataclass(frozen=True)
class PricePoint:
    """One price at one date: which offer (``series``: its label), the amount per chip-hour,
    the date, and whether that date is the source's (``as_of``) or the version's publish date."""

    series: str
    amount: Decimal
    day: dt.date
    dated_by_source: bool
    shown: str = ""  # the amount as the page writes it (“$4.92”)


@dataclass(frozen=True)
class Placed:
    point: PricePoint
    x: str
    y: str
    series_class: str
    marker: str  # the ``d`` of its series' marker (chips/charts.py): shape as well as colour


@dataclass(frozen=True)
class Series:
    label: str
    series_class: str
    swatch: str  # its marker in the legend's 12-unit square
    path: str  # the polyline's points, "x,y x,y", oldest first; empty for a single point


@dataclass
class Chart:
    """Everything the template draws, in drawing units."""

    width: int
    height: int
    left: int
    right: int  # the plot's right edge
    top: int
    bottom: int  # the plot's bottom edge (the x axis)
    points: list[Placed] = field(default_factory=list)
    series: list[Series] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)

    @property
    def has_hollow(self) -> bool:
        return any(not placed.point.dated_by_source for placed in self.points)


def price_chart(points: Sequence[PricePoint], *, money: Callable[[Decimal], str]) -> Chart | None:
    """The chart of ``points`` (prices per chip-hour over time), or None with no point. The
    price axis starts at zero, so a line's rise is never exaggerated; ``money`` writes its labels."""
    if not points:
        return None
    chart = Chart(width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM)
    days = sorted(point.day for point in points)
    first, last = month_number(days[0]), month_number(days[-1]) + 1  # the months' starts around them
    months, step = month_ticks(first, last, at_most=4)
    start, end = day_number(month_of(first)), day_number(month_of(last))
    x = Linear(start, end, Decimal(chart.left), Decimal(chart.right))
    for n in months:
        at = x(day_number(month_of(n)))
        anchor = "end" if at > chart.right - 24 else "middle"  # a label at the right edge stays inside
        chart.x_ticks.append(Tick(coordinate(at), month_label(n, step), anchor))
    amounts = value_ticks(max(point.amount for point in points), count=4)
    y = Linear(Decimal(0), amounts[-1], Decimal(chart.bottom), Decimal(chart.top))
    chart.y_ticks = [Tick(coordinate(y(amount)), money(amount)) for amount in amounts]
    labels = list(dict.fromkeys(point.series for point in points))
    classes = {label: f"series-{n % SERIES_CLASSES}" for n, label in enumerate(labels)}
    shapes = {label: SHAPES[n % len(SHAPES)] for n, label in enumerate(labels)}
    ordered = sorted(points, key=lambda point: (labels.index(point.series), point.day))
    same = _same_place(ordered)
    for point in ordered:
        at_x, at_y = x(day_number(point.day)) + same[id(point)], y(point.amount)
        path = marker(shapes[point.series], at_x, at_y, SIZE)
        chart.points.append(Placed(point, coordinate(at_x), coordinate(at_y), classes[point.series], path))
    for label in labels:
        mine = [placed for placed in chart.points if placed.point.series == label]
        path = " ".join(f"{p.x},{p.y}" for p in mine) if len(mine) > 1 else ""
        swatch = marker(shapes[label], Decimal(6), Decimal(6), SIZE)
        chart.series.append(Series(label=label, series_class=classes[label], swatch=swatch, path=path))
    return chart


def _same_place(points: Sequence[PricePoint]) -> dict[int, Decimal]:
    """How far right of its place each point is drawn: offers with the same price on the same
    day sit side by side, so that none hides another."""
    groups: dict[tuple[dt.date, Decimal], list[PricePoint]] = {}
    for point in points:
        groups.setdefault((point.day, point.amount), []).append(point)
    return {
        id(point): (Decimal(n) - Decimal(len(group) - 1) / 2) * SIZE * 2
        for group in groups.values()
        for n, point in enumerate(group)
    }
