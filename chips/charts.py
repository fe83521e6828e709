"""The geometry of a chart of values against months, drawn on the server as SVG: the scales,
the ticks, and where each point and its marker go. Pure: numbers in, coordinates out, no
database and no template (chips/trends.py gives it points; the template writes the SVG).

Values are Decimals and stay Decimals: a coordinate is rounded to a tenth of a unit of the
viewBox, which is all a screen can show, and written without an exponent.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_EVEN, Decimal
from typing import Final

from . import quantities

TENTH: Final = Decimal("0.1")
STEPS: Final = (Decimal(1), Decimal(2), Decimal("2.5"), Decimal(5), Decimal(10))  # of a power of ten
MONTH_STEPS: Final = (1, 2, 3, 6, 12, 24, 60, 120)  # months between the ticks of the month axis
SHAPES: Final = ("circle", "square", "triangle", "diamond")  # a series' marker, by its index
TONES: Final = 6  # the colours of static/css/site.css's ``.trend-tone-N``, by a series' index


@dataclass(frozen=True)
class Frame:
    """The viewBox and the margins around the plotting area, in the viewBox's units."""

    width: int = 480
    height: int = 300
    left: int = 64  # room for the value axis' tick labels
    right: int = 16
    top: int = 36  # room for the value axis' label above it
    bottom: int = 56  # room for the month axis' tick labels and its label

    @property
    def plot_left(self) -> int:
        return self.left

    @property
    def plot_right(self) -> int:
        return self.width - self.right

    @property
    def plot_top(self) -> int:
        return self.top

    @property
    def plot_bottom(self) -> int:
        return self.height - self.bottom

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


def coordinate(value: Decimal) -> str:
    """A coordinate as the SVG is given it: to a tenth, without trailing zeros (“12.5”, “40”)."""
    return quantities.text(value.quantize(TENTH, rounding=ROUND_HALF_EVEN), grouped=False)


@dataclass(frozen=True)
class Linear:
    """Maps ``low``..``high`` of the data to ``start``..``end`` of the viewBox (``end`` may be
    below ``start``: the value axis grows upwards)."""

    low: Decimal
    high: Decimal
    start: Decimal
    end: Decimal

    def __call__(self, value: Decimal) -> Decimal:
        if self.high == self.low:
            return (self.start + self.end) / 2
        return self.start + (value - self.low) * (self.end - self.start) / (self.high - self.low)


def month_number(day: dt.date) -> int:
    """A month as a count of months (Jan 2025 is one after Dec 2024): the month axis' unit."""
    return day.year * 12 + day.month - 1


def month_of(number: int) -> dt.date:
    return dt.date(number // 12, number % 12 + 1, 1)


def nice_step(span: Decimal, count: int) -> Decimal:
    """The smallest step of 1, 2, 2.5 or 5 times a power of ten that covers ``span`` in at most
    ``count`` steps."""
    if span <= 0:
        return Decimal(1)
    rough = span / count
    power = Decimal(1).scaleb(rough.adjusted())
    return next(power * step for step in STEPS if power * step >= rough)


def value_ticks(highest: Decimal, count: int = 5) -> list[Decimal]:
    """The value axis' ticks: from 0 up to the first nice step at or above ``highest``."""
    step = nice_step(highest, count)
    steps = (highest / step).to_integral_value(rounding=ROUND_CEILING) if highest > 0 else Decimal(1)
    return [(step * n).normalize() for n in range(int(steps) + 1)]


def month_ticks(first: int, last: int, at_most: int = 6) -> tuple[list[int], int]:
    """The month axis' ticks between month numbers ``first`` and ``last``: every 1, 2, 3, 6,
    12... months, whichever first gives no more than ``at_most``, on months that divide by
    the step (a year's ticks fall in January). Returns the ticks and the step."""
    for step in MONTH_STEPS:
        ticks = [n for n in range(first, last + 1) if n % step == 0]
        if len(ticks) <= at_most:
            return ticks, step
    step = MONTH_STEPS[-1]
    return [n for n in range(first, last + 1) if n % step == 0], step


def month_label(number: int, step: int) -> str:
    """“2025” on a yearly axis, “Oct 2025” on a finer one."""
    month = month_of(number)
    return str(month.year) if step >= 12 else month.strftime("%b %Y")


@dataclass(frozen=True)
class Tick:
    at: str  # its coordinate along its axis
    label: str
    minor: bool  # every other tick: left out where the chart is narrow


@dataclass(frozen=True)
class Placed:
    """A point where it is drawn: its coordinates, its series' index and its marker's path."""

    x: str
    y: str
    series: int
    marker: str  # the ``d`` of an SVG path

    @property
    def shape(self) -> str:
        return SHAPES[self.series % len(SHAPES)]

    @property
    def tone(self) -> int:
        return self.series % TONES


@dataclass(frozen=True)
class Plot:
    frame: Frame
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    points: list[Placed]  # in the order given


def marker(shape: str, x: Decimal, y: Decimal, size: Decimal = Decimal(6)) -> str:
    """The ``d`` of a marker of ``shape`` centred on (``x``, ``y``), ``size`` from its centre
    to its edge: shapes as well as colours tell the series apart, for readers who see no colour."""
    c = coordinate
    if shape == "square":
        s = size * Decimal("0.85")
        return f"M{c(x - s)} {c(y - s)}H{c(x + s)}V{c(y + s)}H{c(x - s)}Z"
    if shape == "triangle":
        return f"M{c(x)} {c(y - size)}L{c(x + size)} {c(y + size * Decimal('0.8'))}H{c(x - size)}Z"
    if shape == "diamond":
        return f"M{c(x)} {c(y - size)}L{c(x + size)} {c(y)}L{c(x)} {c(y + size)}L{c(x - size)} {c(y)}Z"
    # a circle, as two arcs
    arc = f"a{c(size)} {c(size)} 0 1 0"
    return f"M{c(x - size)} {c(y)}{arc} {c(size * 2)} 0{arc} {c(-size * 2)} 0Z"


def plot(points: Sequence[tuple[dt.date, Decimal, int]], frame: Frame | None = None) -> Plot:
    """Where each of ``points`` (month, value, series index) is drawn on ``frame``, with the
    ticks of both axes. The month axis runs a month beyond the first and last point (three
    when all share one month), the value axis from 0 to a nice step above the highest value.
    Points of several series in one month sit a little apart, so that none hides another."""
    frame = frame or Frame()
    if not points:  # nothing to place: no axis to draw (a chart no live chip has a value for)
        return Plot(frame=frame, x_ticks=[], y_ticks=[], points=[])
    months = [month_number(month) for month, _, _ in points]
    first, last = min(months), max(months)
    pad = 3 if first == last else 1
    x = Linear(Decimal(first - pad), Decimal(last + pad), Decimal(frame.plot_left), Decimal(frame.plot_right))
    y_values = value_ticks(max((value for _, value, _ in points), default=Decimal(0)))
    y = Linear(Decimal(0), y_values[-1], Decimal(frame.plot_bottom), Decimal(frame.plot_top))
    ticks, step = month_ticks(first - pad + 1, last + pad - 1)
    series = sorted({index for _, _, index in points})
    nudge = {index: (Decimal(n) - Decimal(len(series) - 1) / 2) * 4 for n, index in enumerate(series)}
    placed = []
    for number, (_, value, index) in zip(months, points, strict=True):
        at_x, at_y = x(Decimal(number)) + nudge[index], y(value)
        shape = SHAPES[index % len(SHAPES)]
        placed.append(Placed(coordinate(at_x), coordinate(at_y), index, marker(shape, at_x, at_y)))
    return Plot(
        frame=frame,
        x_ticks=[
            Tick(coordinate(x(Decimal(n))), month_label(n, step), minor=i % 2 == 1)
            for i, n in enumerate(ticks)
        ],
        y_ticks=[  # counted from the top, so the highest tick is never left out
            Tick(coordinate(y(value)), quantities.text(value), minor=(len(y_values) - 1 - i) % 2 == 1)
            for i, value in enumerate(y_values)
        ],
        points=placed,
    )
