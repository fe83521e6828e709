"""A chip in a published profile: its specs (a number as the source gave it, with its unit,
scope and precision, cited and verified), its availability (the months it reached each stage),
and the chip they make up. Part of the vendor's document (vendors/documents.py,
``VendorDocument.chips``), and what every chip page reads.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import Field, ValidationInfo, computed_field, field_validator

from claims.documents import Part, Source, Verified
from claims.models import display_date

from . import prices as derivation
from . import quantities, units
from .market_documents import Price, Result
from .models import Stage

if TYPE_CHECKING:
    from . import market  # the working copy's prices and results
    from . import models as working  # the working copy's rows, which share these classes' names


type SpecKindValue = Literal[
    "memory", "bandwidth", "sram", "sram_bandwidth", "compute", "power", "process", "scale", "cluster"
]
type QualifierValue = Literal["", "about", "at_least", "over", "up_to"]
type ScopeValue = Literal["chip", "system", "pod"]
SCOPE_TEXT: Final = {"chip": "per chip", "system": "per system", "pod": "per pod"}


def _plain_quantity(value: Any) -> Any:
    """A working copy's Decimal as the source wrote it (144, 7.37): what a version keeps."""
    return units.plain(value) if not isinstance(value, str) else value


class StatedValue(Part):
    """The figure a cited source's words give for a spec (chips/stated.py), as written."""

    source: int = Field(description="The id of the source (a key of the document's sources).")
    quantity: str = Field(description="The number as the source's words write it, e.g. “144”.")
    unit: str = Field(description="Its unit as they write it, e.g. “GB”.")
    differs: bool = Field(description="It is not the spec's value within the rounding of either figure.")

    @property
    def shown(self) -> str:
        return f"{quantities.text(self.quantity)} {self.unit}"


class Spec(Verified):
    """One number of a chip, kept as the source gave it (quantity and unit), cited and verified."""

    chip: str = Field(description="The chip's name, e.g. “Trainium3”.")
    kind: SpecKindValue = Field(description="What it measures (see units.KINDS).")
    quantity: str = Field(description="The number as the source gives it, e.g. “144”.")
    unit: str = Field(description="The unit as the source gives it, e.g. “GiB”.")
    qualifier: QualifierValue = Field(
        "", description="How the source bounds it: empty (exact), about, at_least, over or up_to."
    )
    scope: ScopeValue = Field(description="What it is counted for: per chip, per system or per pod.")
    precision: str = Field("", description="For compute: the number format, e.g. “FP8”; else empty.")
    sparse: bool | None = Field(
        None, description="For compute: true counted with sparsity, false dense, null not stated."
    )
    vendor_stated: bool = Field(description="As stated by the vendor, not measured independently.")
    difference_note: str = Field(
        "", description="The editors' note on why its sources' figures differ; settles `sources_differ`."
    )
    stated: list[StatedValue] = Field(
        default_factory=list,
        description="What each cited source's words state for it, where a figure of its kind was read.",
    )
    sources_differ: bool = Field(
        False,
        description="A cited source states another value (beyond rounding) and no editor's note "
        "settles it yet.",
    )

    plain_quantity = field_validator("quantity", mode="before")(_plain_quantity)

    @field_validator("sources_differ", mode="after")
    @classmethod
    def _unsettled(cls, differ: bool, info: ValidationInfo) -> bool:
        """Whether a source's words state another figure (``stated``, chips/stated.py), read
        from the words it keeps, and no editor's note settles it."""
        said: list[StatedValue] = info.data.get("stated", [])
        return any(row.differs for row in said) and not (info.data.get("difference_note") or "").strip()

    @property
    def settled_note(self) -> str:
        """The editor's note settling sources that differ, while they still do: once no cited
        source states another figure, there is nothing for readers to be told."""
        return self.difference_note if any(row.differs for row in self.stated) else ""

    @property
    def figure(self) -> quantities.Quantity:
        return quantities.Quantity(self.kind, self.quantity, self.unit, self.qualifier)

    @property
    def kind_label(self) -> str:
        return units.KINDS[self.kind].label

    @property
    def sparsity(self) -> str:
        """“sparse”, “dense”, or empty when no source says."""
        return quantities.SPARSITY_WORDS[self.sparse]

    @property
    def measure(self) -> tuple[str, str, str, bool | None]:
        """What two values must share to be compared: kind, scope, precision, sparsity."""
        return (self.kind, self.scope, self.precision, self.sparse)

    @property
    def label(self) -> str:
        """“Compute, FP8, sparse, per system”: the spec's row name wherever it is shown."""
        parts = [self.kind_label, self.precision, self.sparsity]
        label = ", ".join(part for part in parts if part)
        return f"{label}, {SCOPE_TEXT[self.scope]}" if self.scope != "chip" else label

    @property
    def value(self) -> Decimal:
        """The value in its kind's unit (units.KINDS) as it is written: 155 for 144 GiB."""
        return self.figure.value

    @property
    def sort_key(self) -> Decimal:
        """The exact value in its kind's unit, for sorting, filtering and bar lengths."""
        return self.figure.sort_key

    @property
    def display_unit(self) -> str:
        return units.KINDS[self.kind].unit

    @property
    def as_given(self) -> str:
        """“over 10 PFLOPS”, “144 GiB”: the figure as the source gave it, with its qualifier."""
        return self.figure.as_given()

    @property
    def divided_as(self) -> str:
        """The figure as arithmetic divides by it: in the kind's unit as written (“192 GB”), or,
        when the source gave another unit, as given with its exact value beside it (“144 GiB
        (154.6 GB)”), so that a division written out is the one made."""
        if self.sort_key == self.value:
            return f"{quantities.text(self.value)} {self.display_unit}"
        exact = quantities.rounded(self.sort_key, 4)
        return f"{self.as_given} ({quantities.text(exact)} {self.display_unit})"

    @property
    def converted(self) -> str:
        """The value in the kind's unit when the source used another (“155 GB”), else empty."""
        return self.figure.converted()

    @property
    def stated_by_source(self) -> list[tuple[Source, StatedValue]]:
        """Each cited source with what its words state, where they state a figure of its kind:
        those stating the spec's own figure first, then those that differ."""
        by_source = {row.source: row for row in self.stated}
        said = [(source, by_source[source.pk]) for source in self.cited if source.pk in by_source]
        return sorted(said, key=lambda pair: pair[1].differs)

    @property
    def stated_figures(self) -> list[tuple[str, list[str]]]:
        """Each figure the cited sources state, once, with the titles of the sources stating it:
        the spec's own figure first. “4.9 TB/s (AWS Neuron docs, Tom's Hardware) vs 4.7 TB/s (NKI guide)”."""
        figures: dict[str, list[str]] = {}
        for source, said in self.stated_by_source:
            figures.setdefault(said.shown, []).append(source.title)
        return list(figures.items())

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
    prices: list[Price] = Field(
        default_factory=list, description="Each offer's price, in the editors' order; none before them."
    )
    results: list[Result] = Field(
        default_factory=list, description="Each measured result, in the editors' order; none before them."
    )

    @property
    def stage(self) -> Availability | None:
        """The furthest stage it has reached (the latest month among equals): what /chips/ shows."""
        return max(self.availability, key=lambda row: (row.reached, row.month), default=None)

    @property
    def derived(self) -> list[derivation.Derived]:
        """Every figure derived from its cited, fresh values, with its arithmetic (chips/prices.py)."""
        return derivation.derived_of(self)

    @property
    def lowest_on_demand(self) -> derivation.HourPrice | None:
        """Its lowest fresh on-demand price per chip-hour in US dollars, stated or derived."""
        return derivation.lowest_on_demand(self.prices)

    def spec(self, kind: str, scope: str = "chip") -> Spec | None:
        """Its highest value of ``kind`` counted for ``scope``: what /chips/ shows of it, and
        sorts by (kept on its VersionChip row when its version is published)."""
        values = [row for row in self.specs if row.kind == kind and row.scope == scope]
        return max(values, key=lambda row: row.sort_key, default=None)


# The kinds /chips/ shows a column of, and sorts and filters by (kept on VersionChip).
SORTED_KINDS = ("memory", "bandwidth", "sram", "compute", "power", "process")


def sort_values(chip: Chip) -> dict[str, float | None]:
    """The chip's highest per-chip value of each of ``SORTED_KINDS`` (``Chip.spec``), in its kind's
    unit: what its VersionSpec rows hold, kept on its VersionChip row."""
    return {
        kind: float(spec.sort_key) if (spec := chip.spec(kind)) is not None else None for kind in SORTED_KINDS
    }


def chips_of(
    specs: Iterable[working.Spec],
    availability: Iterable[working.Availability] = (),
    prices: Iterable[market.Price] = (),
    results: Iterable[market.Result] = (),
) -> list[dict[str, Any]]:
    """A working copy's specs, in their order, grouped into chips by name; then each chip's
    availability, oldest month first, its prices and its results in their order (a chip with
    no spec yet comes after those with one)."""
    chips: dict[str, dict[str, Any]] = {}

    def chip(row: working.Spec | working.Availability | market.Price | market.Result) -> dict[str, Any]:
        empty = {
            "name": row.chip,
            "slug": row.chip_slug,
            "specs": [],
            "availability": [],
            "prices": [],
            "results": [],
        }
        return chips.setdefault(row.chip_slug, empty)

    for spec in specs:
        chip(spec)["specs"].append(spec)
    for row in sorted(availability, key=lambda row: (row.month, row.position, row.pk)):
        chip(row)["availability"].append(row)
    for price in prices:
        chip(price)["prices"].append(price)
    for result in results:
        chip(result)["results"].append(result)
    return list(chips.values())
