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

Domain rules are its methods: staleness (vendors/freshness.py), the page's verified date
(vendors/verification.py) and the total over the active axes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, Self

from django.conf import settings
from django.db.models.fields.files import FieldFile
from django.urls import reverse
from django.utils import timezone
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    computed_field,
    field_validator,
    model_validator,
)

from infra.stored import expires, recording, shows

from . import units
from .freshness import is_stale, stale_before
from .models import QUOTE_MAX, Stage, Support, citations_of, display_date, score_total
from .verification import PageVerification, page_verification

if TYPE_CHECKING:
    from . import models as working  # the working copy's rows, which share these classes' names

SCHEMA: Final = 2


class Part(BaseModel):
    """A part of a published document: immutable, read from the working copy's attributes."""

    model_config = ConfigDict(frozen=True, from_attributes=True, extra="ignore")

    @property
    def pk(self) -> int:
        return self.id  # type: ignore[attr-defined]


def related_rows(value: Any) -> Any:
    """A related manager (a working copy's child rows) as the list of its rows."""
    return list(value.all()) if hasattr(value, "all") else value


def _ids(value: Any) -> Any:
    """A related manager (the working copy's citations) as the ids it holds, lowest first."""
    if hasattr(value, "all"):
        return sorted(row.pk for row in value.all())
    return value


class Source(Part):
    """A document cited: as readers see it, and since when its checks found a problem."""

    title: str
    publisher: str
    url: str = Field(description="The document's address (http or https).")
    accessed_on: dt.date | None = Field(description="When an editor last read it.")
    archive_url: str = Field("", description="An archived copy of the document; empty when there is none.")
    problem_at: dt.datetime | None = Field(
        None, description="When the site's checks found the document gone or moved; null when fine."
    )
    _pk: int = PrivateAttr(0)

    @property
    def pk(self) -> int:
        return self._pk


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


@dataclass(frozen=True)
class Note:
    """One footnote of a row on a page: the source's number there, the source, and what it says."""

    number: int
    source: Source
    evidence: Evidence


type SupportValue = Literal["full", "partial", "contradicts"]


class Evidence(Part):
    """What one cited source says for a row: its own words, and how far they support it."""

    source: int = Field(description="The id of the source (a key of the document's sources).")
    quote: str = Field("", max_length=QUOTE_MAX, description="The source's own words; empty when none.")
    support: SupportValue = Field(
        "full", description="Whether the source supports the row fully, only partly, or contradicts it."
    )

    @property
    def partial(self) -> bool:
        return self.support == "partial"

    @property
    def contradicts(self) -> bool:
        return self.support == "contradicts"

    @property
    def support_text(self) -> str:
        """How the page says it: empty for full support (what a citation means by default)."""
        return "" if self.support == "full" else str(Support(self.support).label)


def _evidence_of(row: Any) -> list[dict[str, Any]]:
    """A working copy's row's citations (prefetched: evidence_prefetch) that say more than
    “this source supports it”: a quote, or partial or contradicting support. Citations that
    say nothing more are left out, so a document built before evidence existed reads the same."""
    citations = getattr(row, citations_of(type(row))).all()
    return [
        {"source": citation.source_id, "quote": citation.quote, "support": citation.support}
        for citation in sorted(citations, key=lambda citation: citation.source_id)
        if citation.quote or citation.support != Support.FULL
    ]


class _WithEvidence:
    """A working copy's row read by attributes (aliases included), with its ``evidence``."""

    def __init__(self, row: Any) -> None:
        self.evidence = _evidence_of(row)
        self._row = row

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, name)


class Claim(Part):
    """A row that cites sources. ``cited`` and ``notes`` are filled on read (page order)."""

    id: int
    sources: list[int] = Field(
        description="The ids of the sources it cites (keys of the document's sources)."
    )
    evidence: list[Evidence] = Field(
        default_factory=list,
        description="What cited sources say: each citation with a quote or with partial or "
        "contradicting support, by source id; a cited source not listed fully supports it.",
    )
    _cited: list[Source] = PrivateAttr(default_factory=list)
    _notes: list[Note] = PrivateAttr(default_factory=list)

    normalise_sources = field_validator("sources", mode="before")(_ids)

    @model_validator(mode="before")
    @classmethod
    def _working_evidence(cls, data: Any) -> Any:
        """A working copy's row (from attributes) brings its evidence from its citations."""
        if isinstance(data, dict) or not hasattr(data, "_meta"):
            return data
        return _WithEvidence(data)

    @property
    def cited(self) -> list[Source]:
        return self._cited

    def evidence_from(self, source: int) -> Evidence:
        """The evidence of the citation of ``source``: full support and no quote unless it says more."""
        for found in self.evidence:
            if found.source == source:
                return found
        return Evidence(source=source)

    @property
    def citations(self) -> list[tuple[Source, Evidence]]:
        """Each cited source with what it says for the row (a comparison lists them in full)."""
        return [(source, self.evidence_from(source.pk)) for source in self._cited]

    @property
    def notes(self) -> list[Note]:
        """Its footnotes, once a page has numbered them (vendors.selectors.Footnotes)."""
        return self._notes

    @property
    def cited_as(self) -> str:
        """How a note names the row: its label (“Memory”), date or question."""
        return ""

    @property
    def anchor(self) -> str:
        """The id of the row's own note when its sources are grouped (vendors.selectors.Footnotes)."""
        return f"notes-{type(self).__name__.lower()}-{self.id}"


class Verified(Claim):
    """A claim an editor checks against its sources, stale by the one rule."""

    verified_on: dt.date | None = Field(description="When an editor last checked it; null when never.")
    verified_at: dt.datetime | None = Field(None, description="The moment of that check, when known.")
    _stale: bool = PrivateAttr(True)

    @computed_field(  # type: ignore[prop-decorator]  # mypy takes no decorator over @property
        description="Never verified, not within the freshness window, or citing a source "
        "whose checks found a problem after it was verified."
    )
    @property
    def stale(self) -> bool:
        return self._stale

    @property
    def is_stale(self) -> bool:
        return self._stale


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


@dataclass(frozen=True)
class Changes:
    """A working copy's differences from the live document, as its preview marks them:
    ``rows`` is {list name: {row id: "new" or "changed"}} (``facts``, ``events``, ...),
    ``fields`` the names of the item's own fields that differ, ``removed`` the rows gone."""

    rows: dict[str, dict[int, str]] = field(default_factory=dict)
    fields: frozenset[str] = frozenset()
    removed: int = 0

    def of(self, kind: str, pk: int | None = None) -> str:
        """ "new", "changed" or "" for row ``pk`` of the list ``kind`` ("facts"), or for the
        item's own field ``kind`` ("summary") when no ``pk`` is given."""
        if pk is None:
            return "changed" if kind in self.fields else ""
        return self.rows.get(kind, {}).get(pk, "")

    @property
    def count(self) -> int:
        return sum(len(marks) for marks in self.rows.values()) + len(self.fields) + self.removed


class PublishedDocument(Part):
    """What every kind of published document is (profiles here, comparisons in their app):
    schema 2, the sources it cites by id, and rows that cite them. On read each row gets its
    cited sources and, when it is verified, whether it is stale today (vendors/freshness.py)."""

    model_config = ConfigDict(frozen=True, from_attributes=True, extra="forbid", populate_by_name=True)

    schema_: Literal[2] = Field(SCHEMA, alias="schema", description="This document's schema version.")
    sources: dict[int, Source] = Field(description="Every source cited, by id.")

    def claims(self) -> Iterable[Claim]:
        """Every row that cites sources."""
        raise NotImplementedError

    @model_validator(mode="after")
    def _resolve(self) -> Self:
        for pk, source in self.sources.items():
            source._pk = pk
        cutoff = stale_before()
        for row in self.claims():
            cited = [self.sources[pk] for pk in row.sources]
            row._cited = cited
            if isinstance(row, Verified):
                row._stale = is_stale(
                    verified_on=row.verified_on,
                    verified_at=row.verified_at,
                    problems=(source.problem_at for source in cited),
                    cutoff=cutoff,
                )
        return self

    def as_json(self) -> dict[str, Any]:
        """What a version stores."""
        return self.model_dump(mode="json", by_alias=True, exclude_computed_fields=True)

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Self:
        return cls.model_validate(data)

    @classmethod
    def of(cls, version: Any) -> Self:
        """The one way to read a published version: parsed once, kept on the version. A stored
        page being rendered records that it shows this item, until a row of it turns stale."""
        parsed: Self | None = getattr(version, "_parsed_document", None)
        if parsed is None:
            parsed = cls.parse(version.document)
            version._parsed_document = parsed  # a cache the model does not declare
        if recording():  # only a stored page's render needs to know; other reads skip the work
            if not getattr(version, "archived", False):  # read_as_archived() said what it shows
                shows(version.page_key)
            expires(parsed.turns_stale_at)
        return parsed

    @property
    def turns_stale_at(self) -> dt.datetime | None:
        """The next moment one of its fresh rows turns stale by the calendar (the start of the day
        after its freshness window ends, in the site's time zone), or None."""
        days = dt.timedelta(days=settings.FRESHNESS_DAYS + 1)
        days_due = [
            row.verified_on + days
            for row in self.claims()
            if isinstance(row, Verified) and not row.is_stale and row.verified_on is not None
        ]
        if not days_due:
            return None
        return dt.datetime.combine(min(days_due), dt.time.min, tzinfo=timezone.get_current_timezone())

    def changes_from(self, live: Self | None) -> Changes:
        """What a preview of this working copy marks against the live document ``live``:
        each list of rows by id (new or changed), and the fields of its own part that differ."""
        if live is None:
            return Changes()
        rows: dict[str, dict[int, str]] = {}
        fields: set[str] = set()
        removed = 0
        for name in type(self).model_fields:
            mine, theirs = getattr(self, name), getattr(live, name)
            if isinstance(mine, Part) and isinstance(theirs, Part):
                old, new = theirs.model_dump(), mine.model_dump()
                fields |= {key for key in new if new[key] != old.get(key)}
            elif isinstance(mine, list) and all(hasattr(row, "id") for row in [*mine, *theirs]):
                before = {row.id: row.model_dump() for row in theirs}
                now = {row.id: row.model_dump() for row in mine}
                rows[name] = {
                    pk: "new" if pk not in before else "changed"
                    for pk, dump in now.items()
                    if before.get(pk) != dump
                }
                removed += len(before.keys() - now.keys())
        return Changes(rows=rows, fields=frozenset(fields), removed=removed)

    @staticmethod
    def cited_by(rows: Iterable[Any]) -> dict[int, Any]:
        """The sources a working copy's rows cite, by id in id order (for ``build``)."""
        return dict(sorted({source.pk: source for row in rows for source in row.sources.all()}.items()))


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
        """Facts verified: the oldest verified date among the facts (vendors/verification.py)."""
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
