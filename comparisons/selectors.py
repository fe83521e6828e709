"""Side-by-side tables built from the vendors' live versions, in a fixed number of queries."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db.models import Min, Q
from django.urls import reverse
from django.utils import timezone

from claims.documents import Claim, Source
from claims.verification import PageVerification
from infra.cache import cached
from infra.fixed import FixedRead
from infra.stored import shows
from vendors import documents
from vendors.models import Axis, VendorVersion, total_max
from vendors.selectors import Footnotes, active_axes, live_vendors

from .columns import ComparedProfile, live_with_parts, with_parts
from .documents import Assessment, ComparisonDocument, Criterion, Entry
from .models import MAX_VENDORS, MIN_VENDORS, ComparisonVersion

SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,200}$")


type CellItem = documents.Fact | documents.Score | Assessment | _Total | documents.Lane


@dataclass
class Cell:
    items: list[CellItem] = field(default_factory=list)  # facts, a score, a total, a lane or an assessment
    leader: bool = False
    # The column's vendor, named in each cell when a phone stacks the table.
    vendor: documents.Vendor | None = None

    @property
    def value(self) -> int | str | None:
        """The number that decides the row's leader, if the cell has one."""
        item = self.items[0] if self.items else None
        return getattr(item, "mark", None) or getattr(item, "value", None) if item else None


@dataclass
class Row:
    label: str
    kind: str  # "facts", "score", "total", "lane", "assessment"
    cells: list[Cell]
    note: str = ""
    group: str = "glance"  # "glance", "scores", "lane" or "criteria": the table's sections
    criterion_id: int | None = None  # a criterion's row: which (a preview marks it when changed)


def mark_leaders(row: Row) -> Row:
    """Mark the cells holding the row's highest number; every tied cell leads."""
    numbers = [cell.value for cell in row.cells if isinstance(cell.value, int)]
    if len(numbers) < 2:
        return row
    best = max(numbers)
    for cell in row.cells:
        cell.leader = cell.value == best
    return row


@dataclass
class AddedLater:
    vendor: VendorVersion  # its live version: name and address
    first_published: dt.datetime | None  # set when it was a column whose profile was not live yet


@dataclass
class Table:
    vendors: list[documents.Vendor]
    rows: list[Row]
    sources: list[Source]
    verified_on: list[PageVerification]  # per column (claims/verification.py)
    total_max: int
    entries: list[Entry] = field(default_factory=list)
    # On a version's page: the vendors the current page compares that this version does not
    # show, each saying why (vendors of its columns whose profiles went live after it, and
    # vendors added to the comparison later).
    added_later: list[AddedLater] = field(default_factory=list)
    footnotes: Footnotes = field(default_factory=Footnotes)  # the Sources list, words included

    @property
    def verified_columns(self) -> list[tuple[documents.Vendor, PageVerification]]:
        return list(zip(self.vendors, self.verified_on, strict=True))

    # Each legend and heading shows only when the table has what it explains.
    @property
    def has_leader(self) -> bool:
        return any(cell.leader for row in self.rows for cell in row.cells)

    @property
    def has_vendor_stated(self) -> bool:
        return any(
            getattr(item, "vendor_stated", False)
            for row in self.rows
            for cell in row.cells
            for item in cell.items
        )

    @property
    def has_picks(self) -> bool:
        return any(entry.pick_if for entry in self.entries)


def live_vendors_by_slug(slugs: Sequence[str]) -> list[VendorVersion] | None:
    """The live versions of the vendors named, in the order asked; None if any is not live."""
    found = {v.slug: v for v in live_with_parts(slugs)}
    if len(found) != len(slugs):
        return None
    return [found[slug] for slug in slugs]


def build_table(
    versions: Sequence[VendorVersion], *, criteria: Sequence[Criterion] = (), notes: Footnotes | None = None
) -> Table:
    """Rows for every at-a-glance attribute, every active axis, the total, the lane and the criteria.

    ``versions`` are the vendors' live versions, one column each. A vendor with nothing
    under an attribute gets an empty cell, which reads "not stated".
    """
    notes = notes or Footnotes()
    pages = [ComparedProfile.of(version) for version in versions]
    vendors = [page.vendor for page in pages]
    column = {vendor.pk: i for i, vendor in enumerate(vendors)}
    axes = active_axes()
    attributes, by_attribute = _fact_cells(pages)
    by_axis = _score_cells(pages, axes)

    rows = [Row(attributes[pk].name, "facts", cells) for pk, cells in by_attribute.items()]
    rows += _score_rows(pages, axes, by_axis)
    rows.append(Row("Lane", "lane", [Cell(items=[vendor.lane]) for vendor in vendors], group="lane"))
    rows += [_criterion_row(criterion, vendors, column, by_attribute, by_axis) for criterion in criteria]
    _cite(rows, vendors, notes)
    return Table(
        vendors=vendors,
        rows=rows,
        sources=notes.sources,
        verified_on=[version.verification for version in versions],
        total_max=total_max(len(axes)),
        footnotes=notes,
    )


def _fact_cells(
    pages: Sequence[ComparedProfile],
) -> tuple[dict[int, documents.Attribute], dict[int, list[Cell]]]:
    """The at-a-glance attributes any column has, and their cells (one a column), in the
    shared vocabulary's order: every vendor's rows in one order, whoever has them."""
    by_attribute: dict[int, list[Cell]] = {}
    attributes: dict[int, documents.Attribute] = {}
    for i, page in enumerate(pages):
        for fact in page.facts:
            attributes.setdefault(fact.attribute.pk, fact.attribute)
            by_attribute.setdefault(fact.attribute.pk, [Cell() for _ in pages])[i].items.append(fact)
    order = sorted(attributes.values(), key=lambda attribute: (attribute.position, attribute.name))
    return attributes, {attribute.pk: by_attribute[attribute.pk] for attribute in order}


def _score_cells(pages: Sequence[ComparedProfile], axes: Sequence[Axis]) -> dict[int, list[Cell]]:
    """Each active axis's cells, one a column (a score on a retired axis is not shown)."""
    by_axis = {axis.pk: [Cell() for _ in pages] for axis in axes}
    for i, page in enumerate(pages):
        for score in page.scores:
            if score.axis.pk in by_axis:
                by_axis[score.axis.pk][i].items.append(score)
    return by_axis


def _score_rows(
    pages: Sequence[ComparedProfile], axes: Sequence[Axis], by_axis: dict[int, list[Cell]]
) -> list[Row]:
    """A row for each active axis, then the total, each with its leaders marked."""
    rows = [mark_leaders(Row(axis.name, "score", by_axis[axis.pk], group="scores")) for axis in axes]
    totals: list[Cell] = []
    for page in pages:
        total = page.total_on(axes)  # the scores on the active axes, as in the rows above
        totals.append(Cell(items=[_Total(total)] if total is not None else []))
    rows.append(mark_leaders(Row(f"Total / {total_max(len(axes))}", "total", totals, group="scores")))
    return rows


def _cite(rows: Sequence[Row], vendors: Sequence[documents.Vendor], notes: Footnotes) -> None:
    """Name each cell's vendor, and number the footnotes of its claims row by row, left to right."""
    for row in rows:
        for vendor, cell in zip(vendors, row.cells, strict=True):
            cell.vendor = vendor
            for item in cell.items:
                if isinstance(item, Claim):
                    notes.cite(item, label=f"{vendor.name}, {row.label}")


@dataclass
class _Total:
    value: int


def _criterion_row(
    criterion: Criterion,
    vendors: list[documents.Vendor],
    column: dict[int, int],
    by_attribute: dict[int, list[Cell]],
    by_axis: dict[int, list[Cell]],
) -> Row:
    if criterion.attribute:
        cells = by_attribute.get(criterion.attribute.pk, [Cell() for _ in vendors])
        return Row(
            criterion.name,
            "facts",
            [Cell(items=list(c.items)) for c in cells],
            note=criterion.attribute.name,
            group="criteria",
            criterion_id=criterion.id,
        )
    if criterion.axis:
        cells = by_axis.get(criterion.axis.pk, [Cell() for _ in vendors])
        return mark_leaders(
            Row(
                criterion.name,
                "score",
                [Cell(items=list(c.items)) for c in cells],
                note=criterion.axis.name,
                group="criteria",
                criterion_id=criterion.id,
            )
        )
    cells = [Cell() for _ in vendors]
    for assessment in criterion.assessments:
        if assessment.vendor_id in column:
            cells[column[assessment.vendor_id]].items.append(assessment)
    return mark_leaders(Row(criterion.name, "assessment", cells, group="criteria", criterion_id=criterion.id))


def live_comparison(*, slug: str) -> ComparisonVersion | None:
    version = ComparisonVersion.objects.live().filter(slug=slug).first()
    if version is not None:
        shows(version.page_key)  # a stored page that asks goes when it goes
    return version


def published_comparison(*, slug: str, number: int) -> ComparisonVersion | None:
    """Version ``number`` of the comparison that has (or had) address ``slug``, at its
    permanent address, while the comparison is live (the rule of vendors.selectors.published_version)."""
    ever = ComparisonVersion.objects.filter(slug=slug).values("item_id")
    version = (
        ComparisonVersion.objects.past()
        .filter(number=number, item_id__in=ever)
        .filter(item_id__in=ComparisonVersion.objects.live().values("item_id"))
        .first()
    )
    return version.read_as_archived() if version is not None else None


def editorial_table(page: ComparisonDocument, *, at: dt.datetime | None = None) -> Table:
    """The comparison's table, its live vendors only, footnotes numbered in page order.

    ``page`` is a ComparisonPage read from a version's document (or a working copy's). With
    ``at``, the vendors' versions that were live then (a comparison version's permanent
    address shows the profiles as they stood when it was published), of vendors live now.
    """
    ids = [entry.vendor_id for entry in page.entries]
    versions = live_vendors().filter(item_id__in=ids)
    if at is not None:
        versions = VendorVersion.objects.live(at=at).filter(item_id__in=versions.values("item_id"))
    live = {version.item_id: version for version in with_parts(versions)}
    entries = [entry for entry in page.entries if entry.vendor_id in live]
    notes = Footnotes()
    table = build_table([live[entry.vendor_id] for entry in entries], criteria=page.criteria, notes=notes)
    for entry, vendor in zip(entries, table.vendors, strict=True):
        entry._vendor = vendor  # the column's vendor, known once its live version is
    for faq in page.faqs:
        notes.cite(faq)
    notes.cite(page.comparison)
    table.entries = entries
    return table


def added_later(table: Table, *, page: ComparisonDocument, current: ComparisonVersion) -> list[AddedLater]:
    """What a version's page (``table``, from its document ``page``) leaves out that the live
    page compares: the columns it held whose profiles were not live when it was published
    (with the date of their first version), then the vendors added to the comparison since
    (``current`` is the live version). Two queries."""
    shown = {entry.vendor_id for entry in table.entries}
    held = [entry.vendor_id for entry in page.entries]
    live = live_vendors().filter(Q(item_id__in=held) | Q(item_id__in=current.vendors.values("pk")))
    now = {version.item_id: version for version in live.defer("document", "history", "changes")}
    # The note changes when one of these vendors goes live, away, or is renamed.
    shows(*(f"{VendorVersion.page_key_prefix()}-{pk}" for pk in {*held, *now}))
    first = dict(
        VendorVersion.objects.filter(item_id__in=[pk for pk in held if pk not in shown and pk in now])
        .order_by()
        .values_list("item_id")
        .annotate(first=Min("published_at"))
    )
    later = [AddedLater(now[pk], first.get(pk)) for pk in held if pk not in shown and pk in now]
    later += sorted(
        (AddedLater(version, None) for pk, version in now.items() if pk not in held),
        key=lambda added: added.vendor.name,
    )
    return later


def editorial_for_exact_set(versions: Sequence[VendorVersion]) -> LiveComparison | None:
    """A live editorial comparison of exactly these vendors, if there is one (the first by
    title): read from the live comparisons every profile shares, so a page naming it goes when
    a comparison is published, changed or taken down."""
    ids = {version.item_id for version in versions}
    shows("comparisons")
    comparisons = cached("live-comparisons", live_comparisons_with_vendors)
    return next((comparison for comparison in comparisons if comparison.vendor_ids == ids), None)


COMPARISONS_ON_A_PROFILE = 6


_LIVE_COMPARISONS = FixedRead(
    lambda at: (
        ComparisonVersion.objects.live(at=at)
        .order_by("title")
        .values_list("title", "slug", "summary", "vendors")
    )
)


def live_comparisons_with_vendors() -> list[LiveComparison]:
    """Every live comparison (title, summary, address) with its vendors' ids: one query,
    shared by every profile through the cache (infra/cache.py). Editorial comparisons are
    written by hand, so there are tens of them, not thousands."""
    rows = _LIVE_COMPARISONS(at=timezone.now())
    comparisons: dict[str, LiveComparison] = {}
    for title, slug, summary, vendor_id in rows:
        entry = comparisons.setdefault(
            slug, LiveComparison(title=title, slug=slug, summary=summary, vendor_ids=set())
        )
        if vendor_id is not None:
            entry.vendor_ids.add(vendor_id)
    return list(comparisons.values())


@dataclass
class LiveComparison:
    """A live editorial comparison as other pages name it: a profile's list of comparisons, and
    the notice on a generated comparison of exactly its vendors."""

    title: str
    slug: str
    summary: str
    vendor_ids: set[int]

    def get_absolute_url(self) -> str:
        return reverse("comparisons:detail", kwargs={"slug": self.slug})


def comparisons_for(vendor_id: int) -> list[LiveComparison]:
    """Live comparisons for a vendor's profile: those that include it first, then others.

    The reference profile lists a comparison it is not part of (Cerebras vs Groq vs
    SambaNova on AWS Trainium's page), so the others follow, up to a handful.
    """
    shows("comparisons")
    comparisons = cached("live-comparisons", live_comparisons_with_vendors)
    ordered = sorted(comparisons, key=lambda c: (vendor_id not in c.vendor_ids, c.title))
    return ordered[:COMPARISONS_ON_A_PROFILE]


class SelectionError(ValueError):
    """A visitor's choice of vendors that cannot be compared, in words they can act on."""


def canonical_slugs(raw: Iterable[str]) -> list[str]:
    """Validate the visitor's picks and return them in the one order every URL uses.

    Duplicates collapse; the count must be 2 to 5; each must look like a vendor address.
    Whether each exists and is published is checked afterwards (a 404 either way).
    """
    slugs: list[str] = []
    for slug in raw:
        slug = slug.strip()
        if not slug:
            continue  # an empty pick is no pick
        if not SLUG.match(slug):
            shown = slug if len(slug) <= 40 else slug[:40] + "…"
            raise SelectionError(f"“{shown}” is not a vendor's address.")
        if slug not in slugs:
            slugs.append(slug)
        if len(slugs) > MAX_VENDORS:
            break
    if len(slugs) < MIN_VENDORS:
        raise SelectionError(
            f"Pick at least {MIN_VENDORS} different vendors to compare (you picked {len(slugs)})."
        )
    if len(slugs) > MAX_VENDORS:
        raise SelectionError(f"Pick at most {MAX_VENDORS} vendors to compare at once.")
    return sorted(slugs)
