"""Reads that span models: what the public pages show, in as few queries as the page needs."""

from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Count, F, OuterRef, Prefetch, Q, Subquery, Sum, Window
from django.db.models.functions import RowNumber

from .models import FAQ, SCORE_MAX, Axis, Event, Fact, Score, Source, Vendor, stale_before


def active_axes():
    return list(Axis.objects.filter(is_active=True))


def public_vendors(*, preview=False):
    """Published vendors; every vendor for an editor who may preview drafts."""
    return Vendor.objects.all() if preview else Vendor.objects.published()


def with_total(queryset):
    """Annotate each vendor's total over the active axes (None when it has no scores)."""
    return queryset.annotate(total=Sum("scores__value", filter=Q(scores__axis__is_active=True)))


def with_active_scores(queryset):
    return queryset.prefetch_related(
        Prefetch(
            "scores",
            queryset=Score.objects.filter(axis__is_active=True).select_related("axis"),
            to_attr="active_scores",
        )
    )


def profile_queryset(*, preview=False):
    cited = Prefetch("sources", queryset=Source.objects.order_by(), to_attr="cited")
    return (
        public_vendors(preview=preview)
        .select_related("lane")
        .prefetch_related(
            Prefetch(
                "facts",
                queryset=Fact.objects.select_related("attribute")
                .prefetch_related(cited)
                .order_by("attribute__position", "attribute__name", "position", "pk"),
                to_attr="ordered_facts",
            ),
            Prefetch("events", queryset=Event.objects.prefetch_related(cited), to_attr="ordered_events"),
            Prefetch(
                "scores",
                queryset=Score.objects.filter(axis__is_active=True)
                .select_related("axis")
                .prefetch_related(cited),
                to_attr="active_scores",
            ),
            Prefetch("faqs", queryset=FAQ.objects.prefetch_related(cited), to_attr="ordered_faqs"),
        )
    )


ALTERNATIVES_PER_LANE = 6


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
class Profile:
    vendor: Vendor
    rows: list
    events: list
    score_rows: list
    total: int | None
    total_max: int
    faqs: list
    sources: list
    verified_on: object
    same_lane: list
    other_lanes: list
    same_lane_count: int = 0
    more_in_lanes: list = field(default_factory=list)
    stale_count: int = 0  # facts not verified within the last freshness_days
    freshness_days: int = 90

    @property
    def events_year(self):
        return max((event.date.year for event in self.events), default=None)

    @property
    def has_scores(self):
        return any(row.score for row in self.score_rows)


def build_profile(vendor, *, preview=False):
    """Everything the profile page shows, footnotes numbered in page order."""
    notes = Footnotes()
    rows = []
    cutoff = stale_before()
    for fact in vendor.ordered_facts:
        notes.cite(fact)
        # The same rule as Fact.objects.stale(), on the facts already fetched.
        fact.is_stale = fact.verified_on is None or fact.verified_on < cutoff
        if rows and rows[-1].attribute.pk == fact.attribute_id:
            rows[-1].facts.append(fact)
        else:
            rows.append(AtAGlanceRow(attribute=fact.attribute, facts=[fact]))
    events = [notes.cite(event) for event in vendor.ordered_events]
    axes = active_axes()
    by_axis = {score.axis_id: notes.cite(score) for score in vendor.active_scores}
    score_rows = [ScoreRow(axis=axis, score=by_axis.get(axis.pk)) for axis in axes]
    faqs = [notes.cite(faq) for faq in vendor.ordered_faqs]
    scored = [row.value for row in score_rows if row.score]
    # A page is only as fresh as its least recently checked fact: it claims no date while
    # one of its facts was never checked, and the page-level date only when it has no facts.
    fact_dates = [fact.verified_on for fact in vendor.ordered_facts]
    if not fact_dates:
        verified_on = vendor.verified_on
    elif None in fact_dates:
        verified_on = None
    else:
        verified_on = min(fact_dates)
    # At most a few per lane, so that a profile stays the same size however many vendors
    # the site holds; the lane's own page lists the rest.
    others = list(
        public_vendors(preview=preview)
        .exclude(pk=vendor.pk)
        .select_related("lane")
        .annotate(
            rank_in_lane=Window(RowNumber(), partition_by=[F("lane_id")], order_by=[F("name").asc()]),
            in_lane=Window(Count("pk"), partition_by=[F("lane_id")]),
        )
        .filter(rank_in_lane__lte=ALTERNATIVES_PER_LANE)
        .order_by("lane__position", "lane__name", "name")
    )
    return Profile(
        vendor=vendor,
        rows=rows,
        events=events,
        score_rows=score_rows,
        total=sum(scored) if scored else None,
        total_max=SCORE_MAX * len(axes),
        faqs=faqs,
        sources=notes.sources,
        verified_on=verified_on,
        stale_count=sum(fact.is_stale for fact in vendor.ordered_facts),
        freshness_days=settings.FRESHNESS_DAYS,
        same_lane=[v for v in others if v.lane_id == vendor.lane_id],
        other_lanes=[v for v in others if v.lane_id != vendor.lane_id],
        same_lane_count=next((v.in_lane for v in others if v.lane_id == vendor.lane_id), 0),
        more_in_lanes=list(
            {
                v.lane_id: v.lane
                for v in others
                if v.lane_id != vendor.lane_id and v.in_lane > ALTERNATIVES_PER_LANE
            }.values()
        ),
    )


RANKING_SORTS = {"name": "name", "lane": "lane__position", "total": "total", "verified": "verified_on"}


def rankings(*, sort="-total", axes):
    """Published vendors with their active scores and totals, sorted on the server.

    ``sort`` is a key of RANKING_SORTS or ``axis-<slug>``, with a leading "-" for
    descending. Vendors with no value sort last either way. Returns (vendors, sort
    actually used): an unknown sort falls back to the default.
    """
    queryset = with_active_scores(with_total(Vendor.objects.published().select_related("lane")))
    descending = sort.startswith("-")
    key = sort.removeprefix("-")
    axis_slugs = {f"axis-{axis.slug}": axis for axis in axes}
    if key in axis_slugs:
        queryset = queryset.annotate(
            sort_value=Subquery(
                Score.objects.filter(vendor=OuterRef("pk"), axis=axis_slugs[key]).values("value")[:1]
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


def total_max():
    return SCORE_MAX * Axis.objects.filter(is_active=True).count()


def lanes_with_vendor_counts():
    from django.db.models import Count

    from .models import Lane

    published = Vendor.objects.published().values("pk")
    return Lane.objects.annotate(vendor_count=Count("vendors", filter=Q(vendors__in=published))).order_by(
        "position", "name"
    )


def lane_vendors(lane):
    return list(
        with_total(Vendor.objects.published().filter(lane=lane)).order_by(
            F("total").desc(nulls_last=True), "name"
        )
    )
