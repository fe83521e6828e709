"""How many chips a model's weights need: /chips/fit/.

For a model of N billion parameters at B bits a weight, the weights take N × B / 8 GB (a
billion bytes are a GB). A KV cache (GB) and an overhead (percent) may be added. Each live
chip with a per-chip memory figure then needs ceil(size / memory) chips, the arithmetic
written out with the memory figure's sources. Decimal throughout: no float ever rounds a
chip count up or down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_EVEN, Decimal
from typing import Any, Final

from django import forms
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from infra.rows import Row

from . import quantities
from .documents import Spec

MAX_PARAMS: Final = Decimal(100_000)  # billion parameters
MAX_BITS: Final = Decimal(64)
MAX_KV_CACHE: Final = Decimal(10_000_000)  # GB
MAX_OVERHEAD: Final = Decimal(1000)  # percent


class FitForm(forms.Form):
    """A model's size: required parameters and bits a weight, optional KV cache and overhead."""

    params = forms.DecimalField(
        label="Parameters (billions)",
        min_value=Decimal("0.001"),
        max_value=MAX_PARAMS,
        max_digits=12,
        decimal_places=3,
        error_messages={
            "required": "Give the model's parameters, in billions (70 for a 70B model).",
            "invalid": "Parameters must be a number of billions, such as 70 or 405.",
            "min_value": "Parameters must be more than 0.",
            "max_value": f"Parameters must be at most {quantities.text(MAX_PARAMS)} billion.",
        },
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal", "placeholder": "70"}),
    )
    bits = forms.DecimalField(
        label="Bits per weight",
        min_value=Decimal(1),
        max_value=MAX_BITS,
        max_digits=6,
        decimal_places=3,
        error_messages={
            "required": "Give the bits per weight (16 for BF16, 8 for FP8, 4 for FP4).",
            "invalid": "Bits per weight must be a number from 1 to 64, such as 16, 8 or 4.",
            "min_value": "Bits per weight must be from 1 to 64.",
            "max_value": "Bits per weight must be from 1 to 64.",
        },
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal", "placeholder": "16"}),
    )
    kv_cache = forms.DecimalField(
        label="KV cache (GB, optional)",
        required=False,
        min_value=Decimal(0),
        max_value=MAX_KV_CACHE,
        max_digits=12,
        decimal_places=3,
        error_messages={
            "invalid": "The KV cache must be a number of GB, such as 40.",
            "min_value": "The KV cache must be 0 GB or more.",
            "max_value": f"The KV cache must be at most {quantities.text(MAX_KV_CACHE)} GB.",
        },
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )
    overhead = forms.DecimalField(
        label="Overhead (percent, optional)",
        required=False,
        min_value=Decimal(0),
        max_value=MAX_OVERHEAD,
        max_digits=7,
        decimal_places=3,
        error_messages={
            "invalid": "The overhead must be a number of percent, such as 10.",
            "min_value": "The overhead must be 0 percent or more.",
            "max_value": f"The overhead must be at most {quantities.text(MAX_OVERHEAD)} percent.",
        },
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )

    def messages(self) -> list[str]:
        """Each field's message; each names its field (“Bits per weight must be from 1 to 64.”)."""
        return [str(error) for errors in self.errors.values() for error in errors]


def gb(value: Decimal) -> str:
    return f"{quantities.text(value)} GB"


@dataclass(frozen=True)
class Size:
    """The memory a model takes, and how it was added up."""

    params: Decimal
    bits: Decimal
    kv_cache: Decimal | None
    overhead: Decimal | None

    @property
    def weights(self) -> Decimal:
        """N billion parameters × B bits / 8 bits a byte, in GB."""
        return self.params * self.bits / 8

    @property
    def total(self) -> Decimal:
        total = self.weights + (self.kv_cache or 0)
        if self.overhead:
            total += total * self.overhead / 100
        return total

    @property
    def steps(self) -> list[str]:
        """The sum written out: “405 billion × 16 bits / 8 = 810 GB of weights”, then each addition."""
        p, b = quantities.text(self.params), quantities.text(self.bits)
        steps = [f"{p} billion parameters × {b} bits / 8 bits a byte = {gb(self.weights)} of weights"]
        running = self.weights
        if self.kv_cache is not None:
            running += self.kv_cache
            steps.append(f"{gb(self.weights)} + {gb(self.kv_cache)} of KV cache = {gb(running)}")
        if self.overhead is not None:
            before, running = running, running + running * self.overhead / 100
            steps.append(f"{gb(before)} + {quantities.text(self.overhead)}% overhead = {gb(running)}")
        return steps

    @property
    def weights_only(self) -> bool:
        return self.kv_cache is None and self.overhead is None


def quotient_text(quotient: Decimal) -> str:
    """A quotient to two decimals (4.22), or to as many more as keep a fraction visible
    (4.001 needs 5 chips, never “4.00, so 5 chips”)."""
    for places in range(2, 10):
        shown = quotient.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
        exact = quotient == quotient.to_integral_value()
        if exact or shown != shown.to_integral_value():
            return quantities.text(quotient.to_integral_value() if exact else shown)
    return quantities.text(quotient)


NEEDED_SLOT = "<!--needed-->"  # where a chip's kept row of /chips/fit/ takes the chips needed
ARITHMETIC_SLOT = "<!--arithmetic-->"  # and the arithmetic, for the model asked


def memory_figures(memory: Spec | None) -> dict[str, str]:
    """What a chip's kept row keeps of its per-chip memory figure (chips/rows.py FIT): its exact
    value in GB (a Decimal, as text) and the figure as the arithmetic divides by it; nothing for
    a chip that states none (or none above 0)."""
    if memory is None or memory.sort_key <= 0:
        return {}
    return {"memory": str(memory.sort_key), "divided_as": memory.divided_as}


def needed(size: Size, memory: Decimal) -> int:
    return int((size.total / memory).to_integral_value(rounding=ROUND_CEILING))


def arithmetic(size: Size, memory: Decimal, divided_as: str) -> str:
    """“810 GB / 192 GB = 4.22, so 5 chips”: the memory in GB as the site writes it. A figure
    given in another unit is divided as the source gave it, its exact GB beside it (“810 GB /
    144 GiB (154.6 GB) = 5.24”), so the division written is the one made."""
    count = needed(size, memory)
    chips = "1 chip" if count == 1 else f"{quantities.text(Decimal(count))} chips"
    return f"{gb(size.total)} / {divided_as} = {quotient_text(size.total / memory)}, so {chips}"


@dataclass(frozen=True)
class Counted:
    """A chip counted against the model: its kept row, the chips needed and the arithmetic
    written into its slots."""

    html: SafeString
    needed: int
    sort: tuple[str, str]  # its name, then its vendor's, for chips needing as many


def fits(rows: Sequence[Row], size: Size) -> tuple[list[Counted], list[dict[str, Any]]]:
    """Each chip's kept row (``Row.data``: ``memory_figures`` with its name, vendor and page)
    with a memory figure, by the chips it needs then name; and the chips that state none, by
    name (their ``data``)."""
    counted, unstated = [], []
    for row in rows:
        data = row.data
        if "memory" not in data:
            unstated.append(data)
            continue
        memory = Decimal(data["memory"])
        count = needed(size, memory)
        html = row.html.replace(NEEDED_SLOT, str(count), 1).replace(
            ARITHMETIC_SLOT, escape(arithmetic(size, memory, data["divided_as"])), 1
        )
        counted.append(Counted(mark_safe(html), count, (data["name"].lower(), data["vendor"].lower())))  # noqa: S308
    counted.sort(key=lambda chip: (chip.needed, chip.sort))
    unstated.sort(key=lambda data: data["name"].lower())
    return counted, unstated
