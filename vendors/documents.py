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
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.db.models import F
from django.db.models.fields.files import FieldFile
from django.urls import reverse
from pydantic import (
    Field,
    computed_field,
    field_validator,
)

from chips.documents import Availability, Chip, Spec, chips_of
from chips.market_documents import Price, Result
from claims.documents import (
    Claim,
    Part,
    PublishedDocument,
    Verified,
)
from claims.models import display_date
from claims.verification import PageVerification, page_verification
from infra.stored import expires, recording, shows

from .models import score_total
from .models.versions import profile_url

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from chips import models as chip_rows  # a working copy's chip rows

    from . import models as working
    from .models import VendorVersion  # the working copy's rows, which share these classes' names


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
        return profile_url(self.slug)

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
        yield from self.prices
        yield from self.results

    @property
    def specs(self) -> list[Spec]:
        return [spec for chip in self.chips for spec in chip.specs]

    @property
    def availability(self) -> list[Availability]:
        return [row for chip in self.chips for row in chip.availability]

    @property
    def prices(self) -> list[Price]:
        return [row for chip in self.chips for row in chip.prices]

    @property
    def results(self) -> list[Result]:
        return [row for chip in self.chips for row in chip.results]

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
            working.Fact
            | working.Event
            | working.Score
            | working.FAQ
            | chip_rows.Spec
            | chip_rows.Availability
            | chip_rows.Price
            | chip_rows.Result
        ] = [
            *vendor.facts.all(),
            *vendor.events.all(),
            *vendor.scores.all(),
            *vendor.faqs.all(),
            *vendor.specs.all(),
            *vendor.availability.all(),
            *vendor.prices.all(),
            *vendor.results.all(),
        ]
        return cls.model_validate(
            {
                "vendor": vendor,
                "facts": list(vendor.facts.all()),
                "events": list(vendor.events.all()),
                "scores": sorted(vendor.scores.all(), key=lambda s: (s.axis.position, s.axis.name)),
                "faqs": list(vendor.faqs.all()),
                "chips": chips_of(
                    vendor.specs.all(), vendor.availability.all(), vendor.prices.all(), vendor.results.all()
                ),
                "sources": cls.cited_by(rows),
            }
        )


class PublishedScores(PublishedDocument):
    """A published profile's scores and the sources it cites, without the rest of its document:
    what the lists (rankings, lanes, the vendor list) read to mark scores that are stale. Each
    score is ``stale`` as the whole document says it (the one rule, claims/freshness.py)."""

    scores: list[Score]

    def claims(self) -> Iterable[Claim]:
        yield from self.scores


def chips_parts(version: Any) -> dict[str, Any]:
    """The chips' part of a version's document: as read ``with_chips``, or from the whole."""
    read = version.__dict__
    if "chips_part" in read:
        parts = (read["vendor_part"], read["chips_part"], read["sources_part"])
    else:
        parts = tuple(version.document.get(name) for name in ("vendor", "chips", "sources"))
    return {"vendor": parts[0], "chips": parts[1] or [], "sources": parts[2] or {}}


class PublishedChips(PublishedDocument):
    """A published profile's vendor and chips and the sources it cites, without the rest of its
    document: what a page of many vendors' chips (what fits) reads. Each chip's rows are cited
    and stale as the whole document says them (the one rule, claims/freshness.py)."""

    vendor: Vendor
    chips: list[Chip] = Field(default_factory=list)

    def claims(self) -> Iterable[Claim]:
        for chip in self.chips:
            yield from (*chip.specs, *chip.availability, *chip.prices, *chip.results)


# The parts of a published document that ``PublishedChips`` reads, as a version's columns of them.
CHIPS_PARTS = {
    "chips_part": "document__chips",
    "vendor_part": "document__vendor",
    "sources_part": "document__sources",
}


document_of = VendorDocument.of  # the profile pages, API, downloads and corrections read through it


class LiveProfiles:
    """The chip pages' catalogue (chips.catalogue): the live profiles hold the live chips."""

    def live_versions(self) -> QuerySet[VendorVersion]:
        from .models import VendorVersion

        return VendorVersion.objects.live()

    def with_chips(self, version_ids: Iterable[int]) -> QuerySet[VendorVersion]:
        """The versions of ``version_ids`` with the chips' parts of their documents only."""
        from .models import VendorVersion

        parts = {name: F(path) for name, path in CHIPS_PARTS.items()}
        only = VendorVersion.objects.defer("document", "history", "changes")
        return only.filter(pk__in=version_ids).annotate(**parts)

    def document_of(self, version: Any, *, chips: Collection[str] | None = None) -> PublishedChips:
        """A live version's chips' part (its vendor, its chips and the sources), parsed once:
        from those parts alone when it was read ``with_chips``. With ``chips`` (slugs), only
        those chips, parsed each time (the rest of a vendor's chips is what most of the part
        costs to parse, and a comparison shows one). A stored page reading it shows that part
        only (``chips_key``), not the rest of the document."""
        parsed: PublishedChips | None = version.__dict__.get("_parsed_chips")
        if parsed is None and chips is not None:
            parts = chips_parts(version)
            parts["chips"] = [chip for chip in parts["chips"] if chip.get("slug") in chips]
            parsed = PublishedChips.parse(parts)
        elif parsed is None:
            parsed = version._parsed_chips = PublishedChips.parse(chips_parts(version))
        if recording():
            shows(version.chips_key)
            expires(parsed.turns_stale_at)
        return parsed
