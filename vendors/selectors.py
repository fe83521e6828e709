"""Reads that span models: what the public pages show, from published versions only.

Visitors never read the editing tables: every page here reads VendorVersion rows whose
time span covers now (``VendorVersion.objects.live()``), and a profile is drawn from
its version's document. A fixed number of queries per page, whatever the catalogue holds.
"""

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, F, OuterRef, Prefetch, Subquery, Window
from django.db.models.functions import Coalesce, RowNumber
from django.template.defaultfilters import date as format_date
from django.utils import timezone

from .documents import read_document
from .models import Axis, Lane, VendorVersion, VersionScore, score_total, total_max

ALTERNATIVES_PER_LANE = 6
CHANGE_LOG_ON_PROFILE = 5


def active_axes():
    return list(Axis.objects.filter(is_active=True))


def live_vendors():
    """The published versions visitors read now, one per live vendor."""
    return VendorVersion.objects.live()


def live_version(*, slug):
    return live_vendors().filter(slug=slug).first()


def with_active_scores(queryset):
    return queryset.prefetch_related(
        Prefetch(
            "scores", queryset=VersionScore.objects.filter(axis__is_active=True), to_attr="active_scores"
        )
    )


@dataclass
class Footnotes:
    """Numbers sources in the order a reader first meets them on the page."""

    sources: list = field(default_factory=list)
    _numbers: dict = field(default_factory=dict)

    def cite(self, item):
        """Give ``item.notes`` a list of (number, source), numbering new sources as they come."""
        notes = []
        for source in sorted(item.cited, key=lambda s: s.pk):
            if source.pk not in self._numbers:
                self.sources.append(source)
                self._numbers[source.pk] = len(self.sources)
            notes.append((self._numbers[source.pk], source))
        item.notes = notes
        return item


@dataclass
class AtAGlanceRow:
    attribute: object
    facts: list


@dataclass
class ScoreRow:
    axis: object
    score: object  # None when the vendor has no score on this axis

    @property
    def value(self):
        return self.score.value if self.score else None


@dataclass
class ChangeLogEntry:
    number: int
    published_at: object
    changes: list
    note: str
    first: bool


@dataclass
class Profile:
    vendor: object
    rows: list
    events: list
    score_rows: list
    total: int | None
    total_max: int
    faqs: list
    sources: list
    verification: object
    same_lane: list
    other_lanes: list
    same_lane_count: int = 0
    more_in_lanes: list = field(default_factory=list)
    stale_count: int = 0  # facts not verified within the last freshness_days
    freshness_days: int = 90
    change_log: list = field(default_factory=list)
    change_count: int = 0
    score_history: list = field(default_factory=list)

    @property
    def events_year(self):
        return max((event.date.year for event in self.events), default=None)

    @property
    def has_scores(self):
        return any(row.score for row in self.score_rows)


def build_profile(document, *, vendor_id, preview=False):
    """Everything the profile page shows, from a document, footnotes numbered in page order.

    ``document`` is the live version's, or the working copy's for an editor's preview.
    """
    page = read_document(document)
    notes = Footnotes()
    rows = []
    for fact in page.facts:
        notes.cite(fact)
        if rows and rows[-1].attribute.pk == fact.attribute.pk:
            rows[-1].facts.append(fact)
        else:
            rows.append(AtAGlanceRow(attribute=fact.attribute, facts=[fact]))
    events = [notes.cite(event) for event in page.events]
    axes = active_axes()
    by_axis = {
        score.axis.pk: notes.cite(score) for score in page.scores if score.axis.pk in {a.pk for a in axes}
    }
    score_rows = [ScoreRow(axis=axis, score=by_axis.get(axis.pk)) for axis in axes]
    faqs = [notes.cite(faq) for faq in page.faqs]
    profile = Profile(
        vendor=page.vendor,
        rows=rows,
        events=events,
        score_rows=score_rows,
        total=score_total(row.value for row in score_rows if row.score),
        total_max=total_max(len(axes)),
        faqs=faqs,
        sources=notes.sources,
        verification=page.verification,
        same_lane=[],
        other_lanes=[],
        stale_count=sum(fact.is_stale for fact in page.facts),
        freshness_days=settings.FRESHNESS_DAYS,
    )
    _add_alternatives(profile, vendor_id=vendor_id, lane_id=page.vendor.lane.pk)
    _add_history(profile, vendor_id=vendor_id, axes=axes)
    return profile


def _add_alternatives(profile, *, vendor_id, lane_id):
    # At most a few per lane, so that a profile stays the same size however many vendors
    # the site holds; the lane's own page lists the rest.
    others = list(
        live_vendors()
        .exclude(item_id=vendor_id)
        .select_related("lane")
        .annotate(
            rank_in_lane=Window(RowNumber(), partition_by=[F("lane_id")], order_by=[F("name").asc()]),
            in_lane=Window(Count("pk"), partition_by=[F("lane_id")]),
        )
        .filter(rank_in_lane__lte=ALTERNATIVES_PER_LANE)
        .order_by("lane__position", "lane__name", "name")
    )
    profile.same_lane = [v for v in others if v.lane_id == lane_id]
    profile.other_lanes = [v for v in others if v.lane_id != lane_id]
    profile.same_lane_count = next((v.in_lane for v in others if v.lane_id == lane_id), 0)
    profile.more_in_lanes = list(
        {
            v.lane_id: v.lane for v in others if v.lane_id != lane_id and v.in_lane > ALTERNATIVES_PER_LANE
        }.values()
    )


def change_log(*, vendor_id, limit=None):
    """The published content changes of a vendor, newest first (verification-only versions left out)."""
    versions = (
        VendorVersion.objects.filter(item_id=vendor_id, content_changed=True)
        .past()
        .values("number", "published_at", "changes", "note")
    )
    entries = []
    for row in versions[:limit] if limit else versions:
        entries.append(ChangeLogEntry(first=row["number"] == 1, **row))
    return entries


def score_history(*, vendor_id, axes):
    """“Software: 3 until Oct 2026, then 4” for each active axis whose published score changed."""
    rows = (
        VersionScore.objects.filter(version__item_id=vendor_id, version__published_at__lte=timezone.now())
        .order_by("version__published_at", "version__number")
        .values_list("version_id", "version__published_at", "axis_id", "value")
    )
    versions, marks = [], {}
    for version_id, published_at, axis_id, value in rows:
        if not versions or versions[-1][0] != version_id:
            versions.append((version_id, published_at))
        marks[(version_id, axis_id)] = value
    lines = []
    for axis in axes:
        spans = []  # [value, went live]
        for version_id, published_at in versions:
            value = marks.get((version_id, axis.pk))
            if value is not None and (not spans or spans[-1][0] != value):
                spans.append([value, published_at])
        if len(spans) < 2:
            continue
        parts = [
            f"{value} until {format_date(timezone.localtime(spans[i + 1][1]), 'M Y')}"
            for i, (value, _) in enumerate(spans[:-1])
        ]
        lines.append(f"{axis.name}: {', '.join(parts)}, then {spans[-1][0]}")
    return lines


def _add_history(profile, *, vendor_id, axes):
    if vendor_id is None:
        return
    profile.change_log = change_log(vendor_id=vendor_id, limit=CHANGE_LOG_ON_PROFILE + 1)
    profile.score_history = score_history(vendor_id=vendor_id, axes=axes)


RANKING_SORTS = {"name": "name", "lane": "lane__position", "total": "total", "verified": "verified_on"}


def rankings(*, sort="-total", axes):
    """Live vendors with their active scores and totals, sorted on the server.

    ``sort`` is a key of RANKING_SORTS or ``axis-<slug>``, with a leading "-" for
    descending. Vendors with no value sort last either way. Returns (vendors, sort
    actually used): an unknown sort falls back to the default.
    """
    queryset = with_active_scores(live_vendors().select_related("lane"))
    descending = sort.startswith("-")
    key = sort.removeprefix("-")
    axis_slugs = {f"axis-{axis.slug}": axis for axis in axes}
    if key in axis_slugs:
        queryset = queryset.annotate(
            sort_value=Subquery(
                VersionScore.objects.filter(version=OuterRef("pk"), axis=axis_slugs[key]).values("value")[:1]
            )
        )
        expression = F("sort_value")
    elif key in RANKING_SORTS:
        expression = F(RANKING_SORTS[key])
    else:
        return rankings(sort="-total", axes=axes)[0], None
    ordered = expression.desc(nulls_last=True) if descending else expression.asc(nulls_last=True)
    vendors = list(queryset.order_by(ordered, "name"))
    for vendor in vendors:
        by_axis = {score.axis_id: score for score in vendor.active_scores}
        vendor.score_cells = [by_axis.get(axis.pk) for axis in axes]
    return vendors, sort


def active_total_max():
    return total_max(Axis.objects.filter(is_active=True).count())


def lanes_with_vendor_counts():
    live = (
        live_vendors()
        .filter(lane=OuterRef("pk"))
        .order_by()
        .values("lane")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Lane.objects.annotate(vendor_count=Coalesce(Subquery(live), 0)).order_by("position", "name")


def lane_vendors(lane):
    return list(live_vendors().filter(lane=lane).order_by(F("total").desc(nulls_last=True), "name"))
