"""One way to write a quantity: every page, table, chart, API answer, download, change log and
admin diff writes a spec's number through this module.

A figure is kept as the source wrote it (its decimal string: “144”, “4.9”, “2,517” kept as
2517) with its unit and qualifier (“over 10 PFLOPS”). A conversion is computed in Decimal on
pint's registry (chips/units.py's definitions, GiB exactly 2**30 B), never in binary floats:

- a conversion by a power of ten (TFLOPS to PFLOPS, kW to W) is exact and kept exact:
  2,517 TFLOPS is 2.517 PFLOPS;
- any other (GiB to GB) is rounded to the significant digits of the figure as written, never
  coarser than its whole part: 144 GiB is 155 GB, 192 GiB is 206 GB.

Pages group thousands (“9,216 chips”); the API and the downloads write plain numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from typing import Final

import pint

from . import units

# How a qualifier reads before its figure (chips.models.Qualifier holds the same values).
QUALIFIER_WORDS: Final = {"": "", "about": "about", "at_least": "at least", "over": "over", "up_to": "up to"}
SPARSITY_WORDS: Final = {None: "", True: "sparse", False: "dense"}


@cache
def registry() -> pint.UnitRegistry[Decimal]:
    """pint on Decimals, with the site's own units (chips/units.py's DEFINITIONS)."""
    decimal_units: pint.UnitRegistry[Decimal] = pint.UnitRegistry(
        None, autoconvert_offset_to_baseunit=False, case_sensitive=True, non_int_type=Decimal
    )
    for line in units.DEFINITIONS.strip().splitlines():
        decimal_units.define(line)
    return decimal_units


def figure(quantity: str | Decimal | int) -> Decimal:
    """The figure as written (“2,517” → 2517, Decimal("144.000000") → 144), exponent-free."""
    value = units.number(quantity)
    if isinstance(quantity, Decimal) or "." not in str(quantity):
        value = value.normalize()
        if value == value.to_integral_value():  # 1E+3 is written 1000: four figures
            value = value.quantize(Decimal(1))
    return value


@cache
def factor(unit: str, to: str) -> Decimal:
    """How many ``to`` one ``unit`` is, exactly (GiB to GB: 1.073741824)."""
    return Decimal(registry().Quantity(Decimal(1), unit).to(to).magnitude)


def is_exact(unit: str, to: str) -> bool:
    """Whether converting ``unit`` to ``to`` only moves the decimal point (a power of ten)."""
    return factor(unit, to).normalize().as_tuple().digits == (1,)


def significant_digits(value: Decimal) -> int:
    return len(value.as_tuple().digits) if value else 1


def rounded(value: Decimal, digits: int) -> Decimal:
    """``value`` to ``digits`` significant digits, never coarser than its whole part."""
    if not value:
        return value
    whole = value.adjusted() + 1  # the digits before the point
    places = max(digits, whole) - whole
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def exactly(quantity: str | Decimal, unit: str, to: str) -> Decimal:
    """``quantity`` ``unit`` in ``to``, unrounded (a sort key: 144 GiB is 154.618822656 GB)."""
    return figure(quantity) * factor(unit, to)


def convert(quantity: str | Decimal, unit: str, to: str) -> Decimal:
    """``quantity`` ``unit`` in ``to`` as it is written anywhere: exact by a power of ten, else
    rounded to the figure's significant digits (144 GiB → 155 GB; 2517 TFLOPS → 2.517 PFLOPS)."""
    given = figure(quantity)
    value = exactly(given, unit, to)
    if unit == to or is_exact(unit, to):
        return _tidy(value)
    return _tidy(rounded(value, significant_digits(given)))


def _tidy(value: Decimal) -> Decimal:
    """Without trailing zeros past the point and without an exponent (288, 7.37, 1000)."""
    value = value.normalize()
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def text(value: Decimal | str, *, grouped: bool = True) -> str:
    """A number as it is written: no float noise, no trailing zeros, no exponent; thousands
    grouped on pages (“9,216”), plain in data (“9216”)."""
    value = _tidy(figure(value) if isinstance(value, str) else value)
    return format(value, ",f" if grouped else "f")


def number(value: Decimal) -> int | float:
    """A Decimal as a JSON number without binary noise: an int when whole, else the float
    whose shortest form is the Decimal's digits (154.6, never 154.61882265600002)."""
    value = _tidy(value)
    return int(value) if value == value.to_integral_value() else float(format(value, "f"))


def with_qualifier(figure_text: str, qualifier: str) -> str:
    """“over 10 PFLOPS”: the qualifier's words before the figure."""
    words = QUALIFIER_WORDS.get(qualifier or "", "")
    return f"{words} {figure_text}" if words else figure_text


@dataclass(frozen=True)
class Quantity:
    """A spec's number as its source gave it, and in its kind's unit."""

    kind: str
    quantity: str
    unit: str
    qualifier: str = ""

    @property
    def given(self) -> Decimal:
        return figure(self.quantity)

    @property
    def kind_unit(self) -> str:
        return units.KINDS[self.kind].unit

    @property
    def sort_key(self) -> Decimal:
        """The exact value in the kind's unit: what sorting, filtering and bar lengths use."""
        return exactly(self.given, self.unit, self.kind_unit)

    @property
    def value(self) -> Decimal:
        """The value in the kind's unit as it is written (155 for 144 GiB)."""
        return convert(self.given, self.unit, self.kind_unit)

    def as_given(self, *, grouped: bool = True, qualified: bool = True) -> str:
        """“144 GiB”, “over 10 PFLOPS”, “9,216 chips” (“9216 chips” when not ``grouped``)."""
        written = f"{text(self.given, grouped=grouped)} {self.unit}"
        return with_qualifier(written, self.qualifier) if qualified else written

    def converted(self, *, grouped: bool = True) -> str:
        """“155 GB” when the source used another unit than the kind's, else empty."""
        if self.unit == self.kind_unit:
            return ""
        return f"{text(self.value, grouped=grouped)} {self.kind_unit}"
