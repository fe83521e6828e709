"""Side-by-side tables built from the data editors already keep, in a fixed number of queries."""

import re
from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Prefetch, Q

from vendors.models import SCORE_MAX, Fact, Score, Source, Vendor
from vendors.selectors import Footnotes, active_axes

from .models import (
    MAX_VENDORS,
    MIN_VENDORS,
    Assessment,
    Comparison,
    ComparisonFAQ,
    ComparisonVendor,
    Criterion,
)

SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,200}$")


def _cited():
    return Prefetch("sources", queryset=Source.objects.order_by(), to_attr="cited")


@dataclass
class Cell:
    items: list = field(default_factory=list)  # facts, a score or an assessment
    leader: bool = False
    vendor: object = None  # the column's vendor, named in each cell when a phone stacks the table

    @property
    def value(self):
        """The number that decides the row's leader, if the cell has one."""
        item = self.items[0] if self.items else None
        return getattr(item, "mark", None) or getattr(item, "value", None) if item else None


@dataclass
class Row:
    label: str
    kind: str  # "facts", "score", "total", "lane", "assessment"
    cells: list
    note: str = ""
    group: str = "glance"  # "glance", "scores", "lane" or "criteria": the table's sections


def mark_leaders(row):
    """Mark the cells holding the row's highest number; every tied cell leads."""
    numbers = [cell.value for cell in row.cells if isinstance(cell.value, int)]
    if len(numbers) < 2:
        return row
    best = max(numbers)
    for cell in row.cells:
        cell.leader = cell.value == best
    return row


@dataclass
class Table:
    vendors: list
    rows: list
    sources: list
    verified_on: list  # per column: the oldest verified date among the vendor's facts
    total_max: int
    entries: list = field(default_factory=list)

    @property
    def verified_columns(self):
        return list(zip(self.vendors, self.verified_on, strict=True))


def published_vendors_by_slug(slugs):
    """The published vendors named, in the order asked; None if any is missing or unpublished."""
    found = {v.slug: v for v in Vendor.objects.published().filter(slug__in=slugs).select_related("lane")}
    if len(found) != len(slugs):
        return None
    return [found[slug] for slug in slugs]


def build_table(vendors, *, criteria=(), notes=None):
    """Rows for every at-a-glance attribute, every active axis, the total, the lane and the criteria.

    A vendor with nothing under an attribute gets an empty cell, which reads "not stated".
    """
    notes = notes or Footnotes()
    ids = [vendor.pk for vendor in vendors]
    column = {pk: i for i, pk in enumerate(ids)}
    facts = list(
        Fact.objects.filter(vendor_id__in=ids)
        .select_related("attribute")
        .prefetch_related(_cited())
        .order_by("attribute__position", "attribute__name", "position", "pk")
    )
    scores = list(
        Score.objects.filter(vendor_id__in=ids, axis__is_active=True)
        .select_related("axis")
        .prefetch_related(_cited())
    )
    axes = active_axes()

    by_attribute = {}
    for fact in facts:
        by_attribute.setdefault(fact.attribute, [Cell() for _ in vendors])[
            column[fact.vendor_id]
        ].items.append(fact)
    by_axis = {axis.pk: [Cell() for _ in vendors] for axis in axes}
    for score in scores:
        by_axis[score.axis_id][column[score.vendor_id]].items.append(score)

    rows = [Row(attribute.name, "facts", cells) for attribute, cells in by_attribute.items()]
    rows += [mark_leaders(Row(axis.name, "score", by_axis[axis.pk], group="scores")) for axis in axes]
    totals = []
    for i in range(len(vendors)):
        values = [cells[i].items[0].value for cells in by_axis.values() if cells[i].items]
        totals.append(Cell(items=[_Total(sum(values))] if values else []))
    rows.append(mark_leaders(Row(f"Total / {SCORE_MAX * len(axes)}", "total", totals, group="scores")))
    rows.append(Row("Lane", "lane", [Cell(items=[vendor.lane]) for vendor in vendors], group="lane"))
    rows += [_criterion_row(criterion, vendors, column, by_attribute, by_axis) for criterion in criteria]

    for row in rows:
        for vendor, cell in zip(vendors, row.cells, strict=True):
            cell.vendor = vendor
            for item in cell.items:
                if hasattr(item, "cited"):
                    notes.cite(item)
    verified = {}
    for fact in facts:
        if fact.verified_on:
            current = verified.get(fact.vendor_id)
            verified[fact.vendor_id] = min(current, fact.verified_on) if current else fact.verified_on
    return Table(
        vendors=vendors,
        rows=rows,
        sources=notes.sources,
        verified_on=[verified.get(pk) for pk in ids],
        total_max=SCORE_MAX * len(axes),
    )


@dataclass
class _Total:
    value: int


def _criterion_row(criterion, vendors, column, by_attribute, by_axis):
    if criterion.attribute_id:
        cells = next(
            (cells for attribute, cells in by_attribute.items() if attribute.pk == criterion.attribute_id),
            [Cell() for _ in vendors],
        )
        return Row(
            criterion.name,
            "facts",
            [Cell(items=list(c.items)) for c in cells],
            note=str(criterion.attribute),
            group="criteria",
        )
    if criterion.axis_id:
        cells = by_axis.get(criterion.axis_id, [Cell() for _ in vendors])
        return mark_leaders(
            Row(
                criterion.name,
                "score",
                [Cell(items=list(c.items)) for c in cells],
                note=str(criterion.axis),
                group="criteria",
            )
        )
    cells = [Cell() for _ in vendors]
    for assessment in criterion.ordered_assessments:
        if assessment.vendor_id in column:
            cells[column[assessment.vendor_id]].items.append(assessment)
    return mark_leaders(Row(criterion.name, "assessment", cells, group="criteria"))


def comparison_queryset(*, preview=False):
    queryset = Comparison.objects.all() if preview else Comparison.objects.published()
    return queryset.prefetch_related(
        Prefetch(
            "entries",
            queryset=ComparisonVendor.objects.select_related("vendor__lane"),
            to_attr="ordered_entries",
        ),
        Prefetch(
            "criteria",
            queryset=Criterion.objects.select_related("attribute", "axis").prefetch_related(
                Prefetch(
                    "assessments",
                    queryset=Assessment.objects.prefetch_related(_cited()),
                    to_attr="ordered_assessments",
                )
            ),
            to_attr="ordered_criteria",
        ),
        Prefetch("faqs", queryset=ComparisonFAQ.objects.prefetch_related(_cited()), to_attr="ordered_faqs"),
        _cited(),
    )


def editorial_table(comparison):
    """The comparison's table, its published vendors only, footnotes numbered in page order."""
    entries = [entry for entry in comparison.ordered_entries if entry.vendor.is_public]
    notes = Footnotes()
    table = build_table(
        [entry.vendor for entry in entries], criteria=comparison.ordered_criteria, notes=notes
    )
    for faq in comparison.ordered_faqs:
        notes.cite(faq)
    notes.cite(comparison)
    table.entries = entries
    return table


def editorial_for_exact_set(vendors):
    """A published editorial comparison of exactly these vendors, if there is one."""
    ids = [vendor.pk for vendor in vendors]
    return (
        Comparison.objects.published()
        .annotate(
            size=Count("entries", distinct=True),
            matching=Count("entries", filter=Q(entries__vendor_id__in=ids), distinct=True),
        )
        .filter(size=len(ids), matching=len(ids))
        .order_by("title")
        .first()
    )


COMPARISONS_ON_A_PROFILE = 6


def comparisons_for(vendor):
    """Published comparisons for a vendor's profile: those that include it first, then others.

    The reference profile lists a comparison it is not part of (Cerebras vs Groq vs
    SambaNova on AWS Trainium's page), so the others follow, up to a handful.
    """
    includes = Exists(ComparisonVendor.objects.filter(comparison=OuterRef("pk"), vendor=vendor))
    return list(
        Comparison.objects.published()
        .annotate(includes_vendor=includes)
        .order_by("-includes_vendor", "title")[:COMPARISONS_ON_A_PROFILE]
    )


class SelectionError(ValueError):
    """A visitor's choice of vendors that cannot be compared, in words they can act on."""


def canonical_slugs(raw):
    """Validate the visitor's picks and return them in the one order every URL uses.

    Duplicates collapse; the count must be 2 to 5; each must look like a vendor address.
    Whether each exists and is published is checked afterwards (a 404 either way).
    """
    slugs = []
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
