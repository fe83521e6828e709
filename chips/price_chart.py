# mypy: disallow-untyped-defs, disallow-incomplete-defs
"""A chip's prices over time as a chart drawn on the server: the arithmetic only (scales, ticks,
where each point and label goes), no HTML and no database. The template
(templates/chips/includes/price_chart.html) writes the SVG from a ``Chart``.

The scale and tick helpers (``Scale``, ``nice_ticks``, ``month_ticks``) know nothing of prices,
so another chart (a scatter of chips on /chips/trends/) can place its points with them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Final

# The drawing's own units (its viewBox): small enough that a 12-unit label stays readable when
# the chart is 300 px wide on a phone, and the stylesheet caps its width on a desktop.
WIDTH: Final = 360
HEIGHT: Final = 220
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 12, 30  # room for the $ labels and the dates
SERIES_CLASSES: Final = 6  # series-0 … series-5 in site.css, then round again
STEPS: Final = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))  # times a power of ten
MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class Scale:
    """A linear map of ``domain`` (low, high) onto ``span`` (from, to) in drawing units; a
    domain of one value maps it to the middle of the span."""

    domain: tuple[float, float]
    span: tuple[float, float]

    def __call__(self, value: float) -> float:
        low, high = self.domain
        start, end = self.span
        if high == low:
            return round((start + end) / 2, 1)
        return round(start + (value - low) / (high - low) * (end - start), 1)


@dataclass(frozen=True)
class Tick:
    at: float  # where it is drawn, in drawing units
    label: str


def nice_ticks(low: Decimal, high: Decimal, *, at_most: int = 5) -> list[Decimal]:
    """Round values from at or below ``low`` to at or above ``high``, a step of 1, 2, 2.5 or 5
    times a power of ten apart, no more than ``at_most`` of them (0, 2.5, 5, 7.5 for 0 to 7)."""
    if high < low:
        low, high = high, low
    if high == low:
        high = low + (abs(low) or Decimal(1))
    raw = (high - low) / max(at_most - 1, 1)
    power = Decimal(1).scaleb(raw.adjusted())
    step = next(
        power * m
        for m in (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))
        if power * m >= raw
    )
    while True:
        first = (low / step).to_integral_value(rounding="ROUND_FLOOR") * step
        ticks = [first]
        while ticks[-1] < high:
            ticks.append(ticks[-1] + step)
        if len(ticks) <= at_most:
            return [tick.normalize() if tick else Decimal(0) for tick in ticks]
        step *= 2


def _month_index(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


def _month(index: int) -> dt.date:
    return dt.date(index // 12, index % 12 + 1, 1)


def month_ticks(first: dt.date, last: dt.date, *, at_most: int = 4) -> list[dt.date]:
    """First days of months from the month of ``first`` to past ``last``, 1, 2, 3, 6 or a
    multiple of 12 months apart, no more than ``at_most`` of them (a year step starts in January)."""
    start, end = _month_index(first), _month_index(last) + 1
    for step in (1, 2, 3, 6, *(12 * n for n in range(1, 100))):
        begin = start - start % step  # on a month the step divides: Jan, Apr, Jul, Oct for 3
        count = -(-(end - begin) // step) + 1
        if count <= at_most:
            return [_month(begin + n * step) for n in range(count)]
    return [_month(start), _month(end)]


def month_label(day: dt.date, *, years_only: bool = False) -> str:
    """“Mar 2026”, or “2026” when the ticks are a year or more apart."""
    return str(day.year) if years_only else f"{MONTHS[day.month - 1]} {day.year}"


def day_number(day: dt.date) -> float:
    return float(day.toordinal())


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
    x: float
    y: float
    series_class: str


@dataclass(frozen=True)
class Series:
    label: str
    series_class: str
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
    months = month_ticks(days[0], days[-1])
    x = Scale((day_number(months[0]), day_number(months[-1])), (chart.left, chart.right))
    years_only = len(months) > 1 and _month_index(months[1]) - _month_index(months[0]) >= 12
    chart.x_ticks = [Tick(x(day_number(day)), month_label(day, years_only=years_only)) for day in months]
    amounts = nice_ticks(Decimal(0), max(point.amount for point in points))
    y = Scale((0.0, float(amounts[-1])), (chart.bottom, chart.top))
    chart.y_ticks = [Tick(y(float(amount)), money(amount)) for amount in amounts]
    labels = list(dict.fromkeys(point.series for point in points))
    classes = {label: f"series-{n % SERIES_CLASSES}" for n, label in enumerate(labels)}
    ordered = sorted(points, key=lambda point: (labels.index(point.series), point.day))
    chart.points = [
        Placed(point, x(day_number(point.day)), y(float(point.amount)), classes[point.series])
        for point in ordered
    ]
    for label in labels:
        mine = [placed for placed in chart.points if placed.point.series == label]
        path = " ".join(f"{p.x},{p.y}" for p in mine) if len(mine) > 1 else ""
        chart.series.append(Series(label=label, series_class=classes[label], path=path))
    return chart
