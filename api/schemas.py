"""What the API answers, as OpenAPI describes it. Text fields an editor writes are Markdown.

A profile's and a comparison's answers are their published documents (vendors/documents.py,
comparisons/documents.py) with what the site says of them now (their version, addresses,
verification and total): the classes below extend the documents' models, so a field added
to a document is in the API and in OpenAPI with no change here. A chip's answers are in
api/chip_schemas.py.
"""

import datetime as dt

from ninja import Field, Schema

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
    changes: list[str] = Field(
        description="What changed since the previous version, in words; in a long text the words "
        "changed read “[old -> new]”, “[added: …]” or “[removed: …]”."
    )
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
