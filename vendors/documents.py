"""The published document of a vendor profile: one typed schema, read by every surface.

A version stores its document as JSON (``VendorVersion.document``). It is built from the
working copy at publish (``VendorDocument.build``), validated, stored, and parsed once on
read (``document_of``): the profile and version pages, comparisons, the read API (whose
response schemas are these models), the downloads, search, JSON-LD and corrections all
read this, and none maps the JSON again.

Pydantic, not dataclasses: the same class validates at publish, parses on read, writes
JSON, builds itself from the working copy's rows (``from_attributes``), and gives the API
its OpenAPI schema, so a new field is declared once. Stored documents of schema 1 (before
``schema`` was written) were migrated to 2 (vendors/migrations/0012).

Domain rules are its methods: staleness (claims/freshness.py), the page's verified date
(claims/verification.py) and the total over the active axes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol

from django.conf import settings
from django.db.models.fields.files import FieldFile
from django.urls import reverse
from pydantic import (
    Field,
    computed_field,
    field_validator,
)

from claims.documents import (
    Claim,
    Part,
    PublishedDocument,
    Verified,
)
from claims.verification import PageVerification, page_verification

from . import units
from .models import Stage, display_date, score_total

if TYPE_CHECKING:
    from . import models as working  # the working copy's rows, which share these classes' names


class Lane(Part):
    id: int
    name: str
    slug: str

    def get_absolute_url(self) -> str:
        return reverse("vendors:lane", kwargs={"slug": self.slug})


class Attribute(Part):
    """An at-a-glance label shared by every vendor, in the shared order."""

    id: int
    name: str = Field(description="e.g. “Memory”.")
    position: int = Field(description="The label's place in the shared order.")

    def __str__(self) -> str:
        return self.name


class Axis(Part):
    id: int
    name: str
    slug: str = Field("", description="The axis's slug (see /api/v1/axes/); empty in documents before it.")

    def __str__(self) -> str:
        return self.name


class Fact(Verified):
    attribute: Attribute
    value: str
    vendor_stated: bool = Field(description="As stated by the vendor, not measured independently.")

    @property
    def cited_as(self) -> str:
        return self.attribute.name


class Event(Verified):
    date: dt.date | None
    precision: str = Field(description="How much of the date is meant: day, month or year.")
    text: str

    @computed_field(description="The date as the page shows it, e.g. “Dec 2025”.")  # type: ignore[prop-decorator]
    @property
    def display_date(self) -> str:
        return display_date(self.date, self.precision) if self.date else ""

    @property
    def cited_as(self) -> str:
        return f"What changed, {self.display_date}"


class Score(Verified):
    axis: Axis
    value: int
    reason: str

    @property
    def cited_as(self) -> str:
        return f"Score: {self.axis.name}"


class FAQ(Claim):
    question: str
    answer: str

    @property
    def cited_as(self) -> str:
        return self.question


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
        sorts by (vendors.chip_selectors.value_of asks the database the same)."""
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


def _file_name(value: Any) -> Any:
    return (value.name or "") if isinstance(value, FieldFile) else value


class Vendor(Part):
    """The vendor's own fields as published. Text an editor writes is Markdown."""

    id: int
    name: str
    slug: str
    company: str = Field(title="Company")
    lane: Lane
    logo: str = Field(description="The logo's path under the media URL; empty when there is none.")
    logo_alt: str = Field(
        default="", description="The logo's text alternative as the editor wrote it; see logo_text."
    )
    summary: str = Field(title="Summary")
    what_it_is: str = Field(title="What it is")
    best_for: str = Field(title="Best for", description="The key takeaway “Best for”.")
    watch_out: str = Field(title="Watch out")
    verdict: str = Field(title="Verdict")
    alternative_blurb: str = Field(
        title="Best for (one line)", description="The one-line “best for” shown beside other vendors."
    )

    logo_name = field_validator("logo", mode="before")(_file_name)

    def get_absolute_url(self) -> str:
        return reverse("vendors:detail", kwargs={"slug": self.slug})

    def described(self) -> list[tuple[str, Any]]:
        """(label, value) for each field the schema gives a title: what a download lists
        of the vendor itself, so a new field reaches it by being declared here."""
        return [
            (info.title, getattr(self, name))
            for name, info in type(self).model_fields.items()
            if info.title and getattr(self, name) not in ("", None)
        ]

    @property
    def logo_text(self) -> str:
        """What a screen reader reads for the logo: the editor's text, else “<name> logo”."""
        return self.logo_alt or f"{self.name} logo"

    @property
    def logo_url(self) -> str:
        return f"{settings.MEDIA_URL}{self.logo}" if self.logo else ""

    def __str__(self) -> str:
        return self.name


class HasAxis(Protocol):
    pk: int


class VendorDocument(PublishedDocument):
    """A profile as published (schema 2)."""

    vendor: Vendor
    facts: list[Fact] = Field(description="In the shared order of the at-a-glance labels.")
    events: list[Event]
    scores: list[Score] = Field(description="Every score as published, on any axis, in the axes' order.")
    faqs: list[FAQ]
    chips: list[Chip] = Field(
        default_factory=list,
        description="The vendor's chips and their numbers; none in documents before them.",
    )

    def claims(self) -> Iterable[Claim]:
        yield from self.facts
        yield from self.events
        yield from self.scores
        yield from self.faqs
        yield from self.specs
        yield from self.availability

    @property
    def specs(self) -> list[Spec]:
        return [spec for chip in self.chips for spec in chip.specs]

    @property
    def availability(self) -> list[Availability]:
        return [row for chip in self.chips for row in chip.availability]

    @property
    def facts_verified(self) -> PageVerification:
        """Facts verified: the oldest verified date among the facts (claims/verification.py)."""
        return page_verification(fact.verified_on for fact in self.facts)

    @property
    def stale_facts(self) -> int:
        return sum(fact.is_stale for fact in self.facts)

    def scores_on[A: HasAxis](self, axes: Sequence[A]) -> list[tuple[A, Score | None]]:
        """(axis, score or None) for each of ``axes``, in their order: the scores every page,
        the API and the downloads show, whatever axes the version was published with."""
        by_axis = {score.axis.id: score for score in self.scores}
        return [(axis, by_axis.get(axis.pk)) for axis in axes]

    def total_on(self, axes: Sequence[HasAxis]) -> int | None:
        """The sum of the scores on ``axes`` (the active ones), None when it has none."""
        return score_total(score.value for _, score in self.scores_on(axes) if score)

    @classmethod
    def build(cls, vendor: working.Vendor) -> VendorDocument:
        """The document of a working copy whose rows are prefetched (vendors.publishing)."""
        rows: list[
            working.Fact | working.Event | working.Score | working.FAQ | working.Spec | working.Availability
        ] = [
            *vendor.facts.all(),
            *vendor.events.all(),
            *vendor.scores.all(),
            *vendor.faqs.all(),
            *vendor.specs.all(),
            *vendor.availability.all(),
        ]
        return cls.model_validate(
            {
                "vendor": vendor,
                "facts": list(vendor.facts.all()),
                "events": list(vendor.events.all()),
                "scores": sorted(vendor.scores.all(), key=lambda s: (s.axis.position, s.axis.name)),
                "faqs": list(vendor.faqs.all()),
                "chips": chips_of(vendor.specs.all(), vendor.availability.all()),
                "sources": cls.cited_by(rows),
            }
        )


document_of = VendorDocument.of  # the profile pages, API, downloads and corrections read through it
