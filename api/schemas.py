"""What the API answers, as OpenAPI describes it. Text fields an editor writes are Markdown.

A profile's and a comparison's answers are their published documents (vendors/documents.py,
comparisons/documents.py) with what the site says of them now (their version, addresses,
verification and total): the classes below extend the documents' models, so a field added
to a document is in the API and in OpenAPI with no change here.
"""

import datetime as dt
from collections.abc import Callable
from typing import Any, Self

from ninja import Field, Schema
from pydantic import computed_field

from chips import documents as chip_documents
from chips import quantities
from claims.documents import Evidence, Source, SupportValue, Verified, WordingValue
from comparisons.documents import Assessment, ComparisonDocument
from vendors import documents
from vendors.documents import Fact, Score, VendorDocument


class Error(Schema):
    status: int = Field(description="The HTTP status code, repeated.")
    message: str = Field(description="What went wrong, in words.")


class VersionRef(Schema):
    number: int = Field(description="1 for the first published version, then 2, 3, ...")
    published_at: dt.datetime = Field(description="When this version went live.")
    url: str = Field(
        description="Where to read it: a profile version's permanent address, a comparison's page."
    )


class Verification(Schema):
    verified_on: dt.date | None = Field(
        description="Facts verified: the oldest verified date among the facts (null when none was)."
    )
    unverified_facts: int = Field(description="Facts never verified.")
    facts: int = Field(description="Facts on the page.")


class AxisScore(Schema):
    axis: str = Field(description="The axis's slug (see /api/v1/axes/).")
    value: int


class VendorSummary(Schema):
    slug: str
    name: str
    company: str
    lane: documents.Lane | None
    best_for_line: str = Field(description="The one-line “best for” shown beside other vendors.")
    total: int | None = Field(description="The sum of the scores on the active axes; null when unscored.")
    total_max: int
    scores: list[AxisScore] = Field(description="One per active axis the vendor is scored on.")
    verification: Verification
    version: VersionRef
    url: str = Field(description="The profile page.")
    api_url: str = Field(description="This vendor in the API.")


class VendorPage(Schema):
    count: int = Field(description="Vendors matching the filters, on every page.")
    page: int
    pages: int
    per_page: int
    next: str | None = Field(description="The next page's API address, null on the last page.")
    previous: str | None
    results: list[VendorSummary]


class VendorDetail(VendorDocument):
    """A live profile: its live version's published document, and what the site says of it now."""

    verification: Verification
    version: VersionRef
    total: int | None = Field(description="The sum of the scores on the active axes; null when unscored.")
    total_max: int
    active_axes: list[str] = Field(description="The active axes' slugs, in order (see /api/v1/axes/).")
    logo_url: str
    url: str
    versions_url: str = Field(description="The change log in the API.")


class ChangeLogEntry(Schema):
    number: int
    published_at: dt.datetime
    first: bool = Field(description="The first published version.")
    changes: list[str] = Field(description="What changed since the previous version, in words.")
    note: str = Field(description="The publisher's public note.")
    scores: list[AxisScore] = Field(description="The version's scores on the active axes.")
    url: str = Field(description="The version's permanent page address.")


class ChangeLog(Schema):
    vendor: str = Field(description="The vendor's slug.")
    count: int
    results: list[ChangeLogEntry] = Field(description="Newest first.")


class LaneEntry(Schema):
    slug: str
    name: str
    description: str
    position: int
    vendor_count: int = Field(description="Live vendors in the lane.")
    url: str
    vendors_api_url: str = Field(description="The lane's vendors in the API.")


class AxisEntry(Schema):
    slug: str
    name: str
    description: str
    position: int
    score_min: int
    score_max: int


class ComparisonVendor(Schema):
    slug: str
    name: str
    api_url: str


class ComparisonSummary(Schema):
    slug: str
    title: str
    summary: str
    verified_on: dt.date | None
    vendors: list[ComparisonVendor] = Field(description="Its live vendors, in column order.")
    version: VersionRef
    url: str
    api_url: str


class ComparisonList(Schema):
    count: int
    results: list[ComparisonSummary]


class Cell(Schema):
    vendor: str = Field(description="The column's vendor slug.")
    leader: bool = Field(description="Holds the row's highest number.")
    values: list[Fact | Score | Assessment] = Field(
        description="The vendor's facts or score (from its live profile), or the editors' assessment; "
        "empty when the vendor has none (“not stated”). Sources are the answer's `sources`."
    )


class TableRow(Schema):
    name: str
    based_on: str = Field(description="“attribute”, “axis” or “assessment” (the editors' own).")
    basis: str = Field(description="The attribute's or axis's name; empty for an assessment.")
    cells: list[Cell]


class ComparisonColumn(Schema):
    slug: str
    name: str
    pick_if: str = Field(description="Completes “Pick this if …”.")
    verification: Verification
    api_url: str


class ComparisonDetail(ComparisonDocument):
    """A live editorial comparison: its published document, its live vendors' columns, and the
    rows of its own criteria as the page lines them up. ``sources`` holds every source cited
    by the document or by a value in ``table``."""

    vendors: list[ComparisonColumn] = Field(description="Its live vendors, in column order.")
    table: list[TableRow] = Field(description="Its criteria, one cell per live vendor.")
    version: VersionRef
    url: str


class CitedSource(Source):
    """A source a chip's value cites, with what it says for that value."""

    id: int = Field(description="The source's id.")
    quote: str = Field(description="The source's own words for the value; empty when none.")
    support: SupportValue = Field(
        description="Whether the source supports the value fully, only partly, or contradicts it."
    )
    # As a document's evidence says them (claims.documents.Evidence), described once there.
    wording: WordingValue = Field("quote", description=Evidence.model_fields["wording"].description)
    quote_found: bool | None = Field(None, description=Evidence.model_fields["quote_found"].description)
    quote_checked_at: dt.datetime | None = Field(
        None, description=Evidence.model_fields["quote_checked_at"].description
    )


SAID: set[str] = {"quote", "support", "wording", "quote_found", "quote_checked_at"}  # a CitedSource's


class StatedFigure(Schema):
    """The figure a source's words give for a chip spec (chips/stated.py), as written."""

    value: int | float = Field(description="The number as the words write it, e.g. 144.")
    unit: str = Field(description="Its unit as they write it, e.g. “GB”.")


class ChipCitedSource(CitedSource):
    """A source a chip's spec cites, with what it says for it and the figure its words state."""

    stated: StatedFigure | None = Field(
        None, description="The figure of the spec's kind its words state; null when none was read."
    )


class ChipSpec(chip_documents.Spec):
    """One value of a chip: its document's spec, the value in its kind's unit, and its sources."""

    sources: list[ChipCitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its quote, support and the figure its words state."
    )

    @computed_field(  # type: ignore[prop-decorator]
        description="What it is, as pages name it: “Compute, FP8, sparse, per system”."
    )
    @property
    def label(self) -> str:
        return chip_documents.Spec.label.fget(self)  # type: ignore[attr-defined]

    @computed_field(  # type: ignore[prop-decorator]
        description="The value in its kind's unit (`value_unit`), for comparing: 144 GiB is 155 GB "
        "(a conversion other than by a power of ten is rounded to the figure's significant digits)."
    )
    @property
    def value(self) -> int | float:  # type: ignore[override]  # the document's Decimal, as a JSON number
        return quantities.number(chip_documents.Spec.value.fget(self))  # type: ignore[attr-defined]

    @computed_field(  # type: ignore[prop-decorator]
        description="The figure as the source gave it, as a number (`quantity` in `unit`): 144."
    )
    @property
    def value_as_given(self) -> int | float:
        return quantities.number(quantities.figure(self.quantity))

    @computed_field(  # type: ignore[prop-decorator]
        description="The kind's unit, which `value` is in (GB, TB/s, MB, PFLOPS, W, nm, chips)."
    )
    @property
    def value_unit(self) -> str:
        return self.display_unit

    @classmethod
    def of(cls, spec: chip_documents.Spec) -> Self:
        said = {
            row.source: {"value": quantities.number(quantities.figure(row.quantity)), "unit": row.unit}
            for row in spec.stated
        }
        return _with_sources_drawn(cls, spec, extra=lambda pk: {"stated": said.get(pk)})


def _with_sources_drawn[T: Verified](
    cls: type[T], row: Verified, extra: Callable[[int], dict[str, Any]] = lambda pk: {}
) -> T:
    """The document's ``row`` as ``cls``, its cited sources drawn out, stale as the document says."""
    shaped = cls.model_validate(
        {
            **row.model_dump(exclude={"sources"}, exclude_computed_fields=True),
            "sources": [
                {
                    **source.model_dump(),
                    "id": source.pk,
                    **row.evidence_from(source.pk).model_dump(include=SAID),
                    **extra(source.pk),
                }
                for source in row.cited
            ],
        }
    )
    shaped._stale = row.is_stale
    return shaped


class ChipAvailability(chip_documents.Availability):
    """A stage the chip reached, with its month and its sources."""

    sources: list[CitedSource] = Field(  # type: ignore[assignment]  # the document's ids, drawn out
        description="The sources it cites, each with its words, their support and their check."
    )

    @computed_field(description="The stage as pages name it: “Generally available”.")  # type: ignore[prop-decorator]
    @property
    def stage_label(self) -> str:
        return chip_documents.STAGES[self.stage]

    @classmethod
    def of(cls, row: chip_documents.Availability) -> Self:
        return _with_sources_drawn(cls, row)


class ChipVendor(Schema):
    slug: str
    name: str
    url: str = Field(description="The vendor's profile page.")
    api_url: str = Field(description="The vendor in the API.")


class ChipDetail(Schema):
    """A live chip: its name and address, whose it is, and every value of it with its sources."""

    slug: str = Field(description="The chip's address under /api/v1/chips/.")
    name: str = Field(description="e.g. “Trainium3”.")
    vendor: ChipVendor
    url: str = Field(description="The chip on its vendor's profile page.")
    api_url: str = Field(description="This chip in the API.")
    version: VersionRef = Field(description="The vendor's live version the chip is read from.")
    specs: list[ChipSpec] = Field(description="Its values, in the editors' order.")
    availability: list[ChipAvailability] = Field(
        description="Each stage it reached (announced, preview, ga), oldest month first; "
        "empty when none is stated."
    )


class ChipPage(Schema):
    count: int = Field(description="Live chips, on every page.")
    page: int
    pages: int
    per_page: int
    next: str | None = Field(description="The next page's API address, null on the last page.")
    previous: str | None
    results: list[ChipDetail] = Field(description="By vendor, then in the editors' order.")
