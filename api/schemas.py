"""What the API answers, as OpenAPI describes it. Text fields an editor writes are Markdown."""

import datetime as dt

from ninja import Field, Schema


class Error(Schema):
    status: int = Field(description="The HTTP status code, repeated.")
    message: str = Field(description="What went wrong, in words.")


class Source(Schema):
    title: str
    publisher: str
    url: str = Field(description="The document's address (http or https).")
    accessed_on: dt.date | None = Field(description="When an editor last read it.")
    archive_url: str = Field(description="An archived copy of the document; empty when there is none.")


class LaneRef(Schema):
    slug: str
    name: str


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
    lane: LaneRef | None
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


class Fact(Schema):
    attribute: str = Field(description="The at-a-glance label shared by every vendor, e.g. “Memory”.")
    position: int = Field(description="The label's place in the shared order.")
    value: str
    vendor_stated: bool = Field(description="As stated by the vendor, not measured independently.")
    verified_on: dt.date | None
    stale: bool = Field(description="Not verified within the site's freshness window.")
    sources: list[Source]


class Event(Schema):
    date: dt.date | None
    precision: str = Field(description="How much of the date is meant: day, month or year.")
    display_date: str = Field(description="The date as the page shows it, e.g. “Dec 2025”.")
    text: str
    verified_on: dt.date | None
    sources: list[Source]


class Score(Schema):
    axis: str = Field(description="The axis's slug.")
    axis_name: str
    value: int
    reason: str
    verified_on: dt.date | None
    sources: list[Source]


class FAQ(Schema):
    question: str
    answer: str
    sources: list[Source]


class VendorDetail(Schema):
    slug: str
    name: str
    company: str
    lane: LaneRef | None
    summary: str
    what_it_is: str
    best_for: str = Field(description="The key takeaway “Best for”.")
    watch_out: str
    verdict: str
    best_for_line: str = Field(description="The one-line “best for” shown beside other vendors.")
    logo_url: str
    verification: Verification
    version: VersionRef
    facts: list[Fact]
    events: list[Event]
    scores: list[Score] = Field(description="Scores on the active axes, in the axes' order.")
    total: int | None
    total_max: int
    faqs: list[FAQ]
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


class Lane(Schema):
    slug: str
    name: str
    description: str
    position: int
    vendor_count: int = Field(description="Live vendors in the lane.")
    url: str
    vendors_api_url: str = Field(description="The lane's vendors in the API.")


class Axis(Schema):
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


class CellValue(Schema):
    value: str | int | None = Field(description="A fact's value, a score, or the editors' assessment.")
    mark: int | None = Field(description="An assessment's mark, where the editors gave one.")
    reason: str
    vendor_stated: bool
    verified_on: dt.date | None
    sources: list[Source]


class Cell(Schema):
    vendor: str = Field(description="The column's vendor slug.")
    leader: bool = Field(description="Holds the row's highest number.")
    values: list[CellValue] = Field(description="Empty when the vendor has none (“not stated”).")


class Criterion(Schema):
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


class ComparisonDetail(Schema):
    slug: str
    title: str
    summary: str
    intro: str
    verdict: str
    verified_on: dt.date | None
    vendors: list[ComparisonColumn]
    criteria: list[Criterion]
    faqs: list[FAQ]
    sources: list[Source] = Field(description="What the comparison itself cites.")
    version: VersionRef
    url: str
