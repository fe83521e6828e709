"""Units, done once: what each kind of chip spec measures, the units it may be given in, and
the one conversion every page, filter, chart and download uses.

pint parses and converts, on a registry of its own: pint's default definitions count a byte
as dimensionless (a number of bits), so "144 GB" would have the dimension of "8 chips". Here
information, compute and a count of chips are dimensions of their own, and a value given in
the wrong dimension for its spec, or in a unit nobody defined, is refused with a message.

A value is kept as the source gave it (quantity and unit); chips/quantities.py converts it to
the kind's unit in Decimal (GiB to GB, TFLOPS to PFLOPS) and writes it, the one way every
surface does.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from typing import Final

import pint

DEFINITIONS: Final = """
kilo- = 1e3 = k-
mega- = 1e6 = M-
giga- = 1e9 = G-
tera- = 1e12 = T-
peta- = 1e15 = P-
exa- = 1e18 = E-
nano- = 1e-9 = n-
kibi- = 2**10 = Ki-
mebi- = 2**20 = Mi-
gibi- = 2**30 = Gi-
tebi- = 2**40 = Ti-
byte = [information] = B
second = [time] = s
FLOP = [compute]
FLOPS = FLOP / second
watt = [power] = W
meter = [length] = m
chip = [chips] = _ = chips
minute = 60 * second = min
hour = 60 * minute = h
token = [tokens]
sample = [samples]
query = [queries]
percent = 0.01 = %
times = 1 = x
USD = [USD]
EUR = [EUR]
GBP = [GBP]
JPY = [JPY]
CNY = [CNY]
"""

# The units an editor may give, as they are written: what the form offers and accepts.
UNITS: Final = ("GB", "GiB", "MB", "MiB", "TB", "TB/s", "GB/s", "PFLOPS", "TFLOPS", "W", "kW", "nm", "chips")


@dataclass(frozen=True)
class Kind:
    """What one kind of spec measures: its name, its dimension, and the unit it is shown in."""

    label: str
    dimension: str  # capacity, bandwidth, compute, power, length or count
    unit: str  # the unit values are compared and charted in
    higher_is_better: bool = True

    @property
    def units(self) -> list[str]:
        """The units of ``UNITS`` this kind may be given in."""
        return [unit for unit in UNITS if _dimensionality(unit) == _dimensionality(self.unit)]


KINDS: Final = {
    "memory": Kind("Memory capacity", "capacity", "GB"),
    "bandwidth": Kind("Memory bandwidth", "bandwidth", "TB/s"),
    "sram": Kind("On-chip SRAM", "capacity", "MB"),
    # The on-chip SRAM's own bandwidth (Groq's LPUs): never sorted or charted beside the
    # bandwidth of memory off the die (HBM, GDDR, DRAM), which is tens of times lower.
    "sram_bandwidth": Kind("On-chip SRAM bandwidth", "bandwidth", "TB/s"),
    "compute": Kind("Compute", "compute", "PFLOPS"),
    "power": Kind("Power", "power", "W", higher_is_better=False),
    "process": Kind("Process", "length", "nm", higher_is_better=False),
    # What a scale counts, never ranked together: the chips of one scale-up domain (a rack, an
    # UltraServer, a pod on one interconnect) and the most chips one cluster can join.
    "scale": Kind("Scale-up domain", "count", "chips"),
    "cluster": Kind("Cluster limit", "count", "chips"),
}


@dataclass(frozen=True)
class Metric:
    """What a measured result counts, and the units it may be given in (the first is its own)."""

    label: str
    units: tuple[str, ...]
    higher_is_better: bool = True
    per_chip: bool = False  # a rate the chips of a system add up to: divided by them, it is per chip


METRICS: Final = {
    "throughput": Metric("Throughput", ("tokens/s", "samples/s", "queries/s"), per_chip=True),
    "time_to_train": Metric("Time to train", ("minutes", "hours"), higher_is_better=False),
    "scaling": Metric("Scaling efficiency", ("%",)),
    "ratio": Metric("Ratio to another system", ("x",)),
}
RESULT_UNITS: Final = tuple(unit for metric in METRICS.values() for unit in metric.units)
# How a result's unit is read by pint (DEFINITIONS): “tokens/s” is token / second.
RESULT_PINT: Final = {
    "tokens/s": "token / s",
    "samples/s": "sample / s",
    "queries/s": "query / s",
    "minutes": "minute",
    "hours": "hour",
    "%": "percent",
    "x": "times",
}


def metric_choices() -> list[tuple[str, str]]:
    return [(key, metric.label) for key, metric in METRICS.items()]


class UnitError(ValueError):
    """A unit or a number that cannot be used, with the message an editor or reader is shown."""


@cache
def registry() -> pint.UnitRegistry[float]:
    units: pint.UnitRegistry[float] = pint.UnitRegistry(
        None, autoconvert_offset_to_baseunit=False, case_sensitive=True
    )
    for line in DEFINITIONS.strip().splitlines():
        units.define(line)
    return units


@cache
def _dimensionality(unit: str) -> object:
    return registry().Unit(unit).dimensionality


def number(text: str | Decimal | int | float) -> Decimal:
    """A decimal number from ``text`` ("144", "7.37"), or UnitError saying what is wrong."""
    try:
        value = Decimal(str(text).strip().replace(",", ""))
    except InvalidOperation:
        raise UnitError(f"“{text}” is not a number.") from None
    if not value.is_finite():
        raise UnitError(f"“{text}” is not a number.")
    return value


def check(kind: str, unit: str) -> None:
    """Raise UnitError unless ``unit`` is a known unit of ``kind``'s dimension."""
    spec = KINDS.get(kind)
    if spec is None:
        raise UnitError(f"“{kind}” is not a kind of spec.")
    if unit not in UNITS:
        raise UnitError(f"“{unit}” is not a unit the site knows. Use one of: {', '.join(UNITS)}.")
    if unit not in spec.units:
        raise UnitError(
            f"{spec.label} is a {spec.dimension}: give it in {', '.join(spec.units)}, not {unit}."
        )


def check_result(metric: str, unit: str) -> None:
    """Raise UnitError unless ``unit`` measures what ``metric`` counts (pint's dimensions:
    a time to train is never given in tokens per second)."""
    kind = METRICS.get(metric)
    if kind is None:
        raise UnitError(f"“{metric}” is not a kind of result.")
    if unit not in RESULT_PINT:
        raise UnitError(f"“{unit}” is not a unit the site knows. Use one of: {', '.join(RESULT_UNITS)}.")
    if _dimensionality(RESULT_PINT[unit]) != _dimensionality(RESULT_PINT[kind.units[0]]):
        raise UnitError(f"{kind.label} is given in {', '.join(kind.units)}, not {unit}.")


def plain(quantity: Decimal) -> str:
    """A quantity as the source wrote it, without trailing zeros: 144, 7.37, 0.5."""
    return format(quantity.normalize(), "f")
