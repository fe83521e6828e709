"""A chip in a published profile: its specs (a number as the source gave it, with its unit,
scope and precision, cited and verified), its availability (the months it reached each stage),
and the chip they make up. Part of the vendor's document (vendors/documents.py,
``VendorDocument.chips``), and what every chip page reads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import Field, computed_field, field_validator

from claims.documents import Part, Verified
from claims.models import display_date

from . import units
from .models import Stage

if TYPE_CHECKING:
    from . import models as working  # the working copy's rows, which share these classes' names


type SpecKindValue = Literal[
    "memory", "bandwidth", "sram", "sram_bandwidth", "compute", "power", "process", "scale"
]
type ScopeValue = Literal["chip", "system", "pod"]
SCOPE_TEXT: Final = {"chip": "per chip", "system": "per system", "pod": "per pod"}


def _plain_quantity(value: Any) -> Any:
    """A working copy's Decimal as the source wrote it (144, 7.37): what a version keeps."""
    return units.plain(value) if not isinstance(value, str) else value


class Spec(Verified):
    """One number of a chip, kept as the source gave it (quantity and unit), cited and verified."""

    chip: str = Field(description="The chip's name, e.g. “Trainium3”.")
    kind: SpecKindValue = Field(description="What it measures (see units.KINDS).")
    quantity: str = Field(description="The number as the source gives it, e.g. “144”.")
    unit: str = Field(description="The unit as the source gives it, e.g. “GiB”.")
    scope: ScopeValue = Field(description="What it is counted for: per chip, per system or per pod.")
    precision: str = Field("", description="For compute: the number format, e.g. “FP8”; else empty.")
    sparse: bool = Field(False, description="For compute: counted with sparsity.")
    vendor_stated: bool = Field(description="As stated by the vendor, not measured independently.")

    plain_quantity = field_validator("quantity", mode="before")(_plain_quantity)

    @property
    def kind_label(self) -> str:
        return units.KINDS[self.kind].label

    @property
    def measure(self) -> tuple[str, str, str, bool]:
        """What two values must share to be compared: kind, scope, precision, sparsity."""
        return (self.kind, self.scope, self.precision, self.sparse)

    @property
    def label(self) -> str:
        """“Compute, FP8, sparse, per system”: the spec's row name wherever it is shown."""
        parts = [self.kind_label, self.precision, "sparse" if self.sparse else ""]
        label = ", ".join(part for part in parts if part)
        return f"{label}, {SCOPE_TEXT[self.scope]}" if self.scope != "chip" else label

    @property
    def value(self) -> float:
        """The value in its kind's unit (units.KINDS), for comparing, sorting and charts."""
        return units.in_unit_of(self.kind, self.quantity, self.unit)

    @property
    def display_unit(self) -> str:
        return units.KINDS[self.kind].unit

    @property
    def as_given(self) -> str:
        return f"{self.quantity} {self.unit}"

    @property
    def converted(self) -> str:
        """The value in the kind's unit when the source used another (“154.6 GB”), else empty."""
        if self.unit == self.display_unit:
            return ""
        return f"{units.shown(self.value)} {self.display_unit}"

    @property
    def cited_as(self) -> str:
        return f"{self.chip}: {self.label}"

    @property
    def anchor(self) -> str:
        return f"notes-spec-{self.id}"


type StageValue = Literal["announced", "preview", "ga"]
STAGES: Final[dict[str, str]] = {stage: str(label) for stage, label in Stage.choices}  # in order


class Availability(Verified):
    """When a chip reached a stage, to the month, as its sources state: a dated value."""

    chip: str = Field(description="The chip's name, e.g. “MI355X”.")
    stage: StageValue = Field(
        description="The stage reached: announced, preview or ga (generally available)."
    )
    month: dt.date = Field(description="The first day of the month it reached the stage; no day is meant.")
    vendor_stated: bool = Field(description="As stated by the vendor, not reported by others.")

    @property
    def stage_label(self) -> str:
        return STAGES[self.stage]

    @computed_field(description="The month as pages show it, e.g. “Oct 2025”.")  # type: ignore[prop-decorator]
    @property
    def display_month(self) -> str:
        return display_date(self.month, "month")

    @property
    def reached(self) -> int:
        """How far along the stage is (announced 0, preview 1, generally available 2)."""
        return list(STAGES).index(self.stage)

    @property
    def label(self) -> str:
        return self.stage_label

    @property
    def cited_as(self) -> str:
        return f"{self.chip}: {self.stage_label}"

    @property
    def anchor(self) -> str:
        return f"notes-availability-{self.id}"


class Chip(Part):
    """A chip of the profile: its name, its address, its numbers in the editors' order, and
    the stages it has reached, in the order it reached them."""

    name: str
    slug: str = Field(description="The chip's address under /chips/.")
    specs: list[Spec]
    availability: list[Availability] = Field(
        default_factory=list,
        description="Each stage it reached (announced, preview, generally available) with its month; "
        "none in documents before them.",
    )

    @property
    def stage(self) -> Availability | None:
        """The furthest stage it has reached (the latest month among equals): what /chips/ shows."""
        return max(self.availability, key=lambda row: (row.reached, row.month), default=None)

    def spec(self, kind: str, scope: str = "chip") -> Spec | None:
        """Its highest value of ``kind`` counted for ``scope``: what /chips/ shows of it, and
        sorts by (chips.selectors.value_of asks the database the same)."""
        values = [row for row in self.specs if row.kind == kind and row.scope == scope]
        return max(values, key=lambda row: row.value, default=None)


def chips_of(
    specs: Iterable[working.Spec], availability: Iterable[working.Availability] = ()
) -> list[dict[str, Any]]:
    """A working copy's specs, in their order, grouped into chips by name; then each chip's
    availability, oldest month first (a chip with no spec yet comes after those with one)."""
    chips: dict[str, dict[str, Any]] = {}

    def chip(row: working.Spec | working.Availability) -> dict[str, Any]:
        empty = {"name": row.chip, "slug": row.chip_slug, "specs": [], "availability": []}
        return chips.setdefault(row.chip_slug, empty)

    for spec in specs:
        chip(spec)["specs"].append(spec)
    for row in sorted(availability, key=lambda row: (row.month, row.position, row.pk)):
        chip(row)["availability"].append(row)
    return list(chips.values())
