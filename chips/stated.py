"""What a source states for a chip spec: the figures of the spec's dimension read from a
citation's words (“144 GB”, “4.9 TB/sec”, “2,517 TFLOPS”, “10 petaFLOPS”, “9,216 chips”),
and whether one of them is the spec's value within the rounding of the figures as written.

A source differs when its words state figures of the spec's dimension and none of them is the
spec's value: 144 GB is not 144 GiB (154.6 GB rounds to 155, not 144), while 2.52 PFLOPs is
2,517 TFLOPS written to two places. Words stating no figure of the dimension say nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from . import quantities, units

_PREFIXES: Final = {
    "kilo": "k", "mega": "M", "giga": "G", "tera": "T", "peta": "P", "exa": "E",
    "kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti",
}  # fmt: skip
_NUMBER: Final = r"(?<![\w.,])(?P<n>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_RATE: Final = r"(?P<rate>\s?/\s?s(?:ec(?:ond)?)?\b|ps\b|\s+per\s+second\b)?"
_UNIT: Final = (
    r"(?:(?:(?:MX)?FP\d+|BF16|INT8|TF32|dense|sparse)\s)?"  # “4,614 FP8 TFLOPs”
    r"(?:(?P<fp>[kKMGTPE]|(?i:kilo|mega|giga|tera|peta|exa))-?(?i:flop(?:s\b|/s\b)))"
    r"|(?:(?P<bp>[KMGT]i|[kKMGTPE]|(?i:kilo|mega|giga|tera|peta|exa|kibi|mebi|gibi|tebi))"
    r"(?:B|(?i:bytes?))" + _RATE + r")"
    r"|(?:(?P<wp>k|M)?W\b|(?P<wword>(?i:kilo)?)(?i:watts?\b))"
    r"|(?P<nm>nm\b|(?i:nanomet(?:er|re)s?\b))"
    r"|(?P<count>(?:[A-Za-z][\w-]*\s){0,2}(?i:chips|accelerators|[GTXLN]PUs|RDUs)\b)"
)
# “1 million chips”: a number word after the figure multiplies it.
_MULTIPLIERS: Final = {"thousand": 3, "million": 6, "billion": 9}  # powers of ten
_MULTIPLIER: Final = r"(?:\s(?P<mult>(?i:thousand|million|billion)))?"
_FIGURE: Final = re.compile(_NUMBER + _MULTIPLIER + r"(?:\s|\u00a0|-)?(?:" + _UNIT + r")")


@dataclass(frozen=True)
class Stated:
    """A figure a source's words give: its number as written (“144”, “2.52”) and its unit."""

    quantity: str
    unit: str

    @property
    def shown(self) -> str:
        return f"{quantities.text(self.quantity)} {self.unit}"


def _prefix(written: str | None) -> str:
    if not written:
        return ""
    word = _PREFIXES.get(written.lower())
    if word:
        return word
    return "k" if written == "K" else written


def _unit_of(match: re.Match[str]) -> str:
    """The unit a matched figure is written in, spelled as the site spells it (TB/s, PFLOPS)."""
    found = match.groupdict()
    if found["count"]:
        return "chips"
    if found["nm"]:
        return "nm"
    if found["fp"]:
        return f"{_prefix(found['fp'])}FLOPS"
    if found["bp"]:
        return f"{_prefix(found['bp'])}B" + ("/s" if found["rate"] else "")
    return "kW" if found["wp"] == "k" or found["wword"] else ("MW" if found["wp"] == "M" else "W")


def read(words: str, kind: str) -> list[Stated]:
    """The figures of ``kind``'s dimension in ``words``, in their order."""
    dimension = units.registry().Unit(units.KINDS[kind].unit).dimensionality
    figures = []
    for match in _FIGURE.finditer(words or ""):
        unit = _unit_of(match)
        if units.registry().Unit(unit).dimensionality != dimension:
            continue
        quantity = Decimal(match["n"].replace(",", ""))
        if match["mult"]:  # “1 million” is written to the million: 1E+6, not 1000000
            quantity = quantity.scaleb(_MULTIPLIERS[match["mult"].lower()])
        figures.append(Stated(quantity=str(quantity), unit=unit))
    return figures


def _within(written: Decimal, other: Decimal) -> bool:
    """Whether ``other`` rounds to ``written`` at the last digit ``written`` gives."""
    return other.quantize(Decimal(1).scaleb(int(written.as_tuple().exponent))) == written


def agrees(stated: Stated, quantity: str | Decimal, unit: str) -> bool:
    """Whether ``stated`` is ``quantity`` ``unit`` within the rounding of either figure as written."""
    mine, theirs = quantities.figure(quantity), Decimal(stated.quantity)
    return _within(theirs, quantities.exactly(mine, unit, stated.unit)) or _within(
        mine, quantities.exactly(theirs, stated.unit, unit)
    )


def stated_for(words: str, kind: str, quantity: str | Decimal, unit: str) -> Stated | None:
    """What ``words`` state for a spec: the figure that is its value if one is, else the first
    figure of its dimension, else None (they state none)."""
    figures = read(words, kind)
    return next((f for f in figures if agrees(f, quantity, unit)), figures[0] if figures else None)


def differs(said: Iterable[Stated | None], quantity: str | Decimal, unit: str) -> bool:
    """Whether a source states another value than the spec's (beyond rounding)."""
    return any(s is not None and not agrees(s, quantity, unit) for s in said)
