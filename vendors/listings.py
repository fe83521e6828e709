"""The lists' reads: rankings (editorial or by a reader's weights), lane pages and the
vendor list, each a queryset of live versions read a page at a time by ``page_of``
(infra/rows/pages.py: the page's keys from the sort indexes alone however deep the page,
each vendor a ``Listed`` beside its kept row, with the count, in one query); the API and
the downloads, which read whole versions, page with KeysFirstPaginator. The profile's
reads, and what every page shares, are in vendors/selectors.py."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import reduce
from typing import TYPE_CHECKING, Any, cast

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import (
    Count,
    ExpressionWrapper,
    F,
    FilteredRelation,
    IntegerField,
    Q,
    QuerySet,
    Value,
    Window,
)
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.safestring import SafeString
from django.utils.translation import ngettext

from editorial.models import VersionQuerySet
from infra.fixed import FixedRead
from infra.rows.pages import KeptRowsPaginator
from infra.stored import expires, shows

from .documents import PublishedScores
from .models import Axis, Lane, VendorVersion, VersionScore
from .models.versions import VendorVersionQuerySet, profile_url
from .selectors import ScoreCells, live_vendors

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    type ScoredVersion = WithAnnotations[VendorVersion, ScoreCells]


class KeysFirstPaginator(Paginator):  # of VendorVersion (Paginator takes no [] at run time)
    """Reads a page's keys first, then the page's rows by key (a "deferred join").

    However deep the page, the keys come from the sort index alone (an index-only scan:
    the sort indexes carry the live-span columns), and only the page's own rows are read.
    """

    object_list: QuerySet[VendorVersion]

    def page(self, number: int | str) -> Page[VendorVersion]:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        keys = self.object_list.values("pk")[bottom:top]
        # Django's hook for the Page class, which django-stubs does not declare.
        page: Page[VendorVersion] = self._get_page(  # type: ignore[attr-defined]
            self.object_list.filter(pk__in=keys), number, self
        )
        return page


class Listed:
    """A vendor as a page of a list reads it beside its kept row (vendors/rows.py): its version's
    key, slug and name, and what its list computes with (``weighted``); never a model instance."""

    READ = ("pk", "slug", "name")
    every: int  # how many the list holds in all (infra/rows/pages.py)
    row: SafeString  # its kept row (vendors/rows.py)

    def __init__(self, **read: Any) -> None:
        self.__dict__.update(read)
        self.pk: int = read["pk"]
        self.slug: str = read["slug"]
        self.name: str = read["name"]

    def get_absolute_url(self) -> str:
        return profile_url(self.slug)


def page_of(
    versions: QuerySet[VendorVersion], *, per_page: int, number: Any, weighted: bool = False
) -> Page[Listed]:
    """Page ``number`` of a list of ``versions`` whose rows are kept (vendors/rows.py), each read
    as ``Listed`` (with ``weighted``, a ranking by a reader's weights), with the count of all:
    one query (two with ``weighted``: its keys and scores, then its items by key)."""
    read = (*Listed.READ, "weighted") if weighted else Listed.READ
    return KeptRowsPaginator(versions, per_page, read=read, record=Listed).get_page(number)


# What a listed version's stale scores are read from: its document's scores and sources, in the
# same query as its row (``with_scores_read``), so marking them costs no query however many rows.
SCORES_READ = {
    "published_scores": KeyTransform("scores", "document"),
    "published_sources": KeyTransform("sources", "document"),
}


def with_scores_read[QS: QuerySet[VendorVersion]](queryset: QS) -> QS:
    """``queryset`` with what ``add_scores_verified`` reads of each version's document."""
    return queryset.annotate(**SCORES_READ)


@dataclass(frozen=True)
class ScoresVerified:
    """How a listed vendor's scores stand by the one stale rule (claims/freshness.py), as its
    published document answers it, the API's ``stale``: how many are stale, and how many of
    those were never verified. Lists show ``text`` beside the facts' verified date, so a row
    never claims a date its scores do not have."""

    stale: int = 0
    never: int = 0

    @property
    def text(self) -> str:
        """“5 scores not yet verified” when none of the stale ones was ever verified (as
        facts say it), else “2 scores not recently verified” (the stale mark's words)."""
        if not self.stale:
            return ""
        if self.never == self.stale:
            words = ngettext(
                "%(count)d score not yet verified", "%(count)d scores not yet verified", self.stale
            )
        else:
            words = ngettext(
                "%(count)d score not recently verified", "%(count)d scores not recently verified", self.stale
            )
        return words % {"count": self.stale}

    @property
    def title(self) -> str:
        """Why, as the stale mark's title says it of a fact."""
        if self.never == self.stale:
            return "Never verified"
        return (
            f"Not verified in the last {settings.FRESHNESS_DAYS} days, "
            "or citing a source whose checks found a problem since"
        )


def add_scores_verified(versions: Iterable[VendorVersion], *, axes: Sequence[Axis]) -> None:
    """Give each version of a page (read ``with_scores_read``) its ``scores_verified``: its
    scores on ``axes`` (the active ones, those its total counts) that are stale. No query. A
    stored page showing them is rendered again when one of them turns stale by the calendar."""
    shown = {axis.pk for axis in axes}
    for version in versions:
        read = version.__dict__  # with_scores_read's annotations, which the model does not declare
        part = PublishedScores.parse(
            {"scores": read["published_scores"] or [], "sources": read["published_sources"] or {}}
        )
        expires(part.turns_stale_at)
        stale = [score for score in part.scores if score.axis.id in shown and score.stale]
        version.scores_verified = ScoresVerified(  # type: ignore[attr-defined]  # given to the page's rows
            stale=len(stale), never=sum(score.verified_on is None for score in stale)
        )


# What a page of a list reads of each vendor beside its kept row (vendors/rows.py): which version it
# is, and its name and total for the reader's ranking and the filters.
LISTED = ("pk", "item_id", "slug", "name", "total", "lane")


def _ranked() -> VersionQuerySet[VendorVersion]:
    """The scored live vendors, each read as far as a page of the rankings reads it."""
    return live_vendors().scored().only(*LISTED)


RANKING_SORTS = {"name": "name", "lane": "lane__position", "total": "total", "verified": "verified_on"}


def rankings(
    *, sort: str = "-total", axes: Sequence[Axis]
) -> tuple[VersionQuerySet[VendorVersion], str | None]:
    """Scored live vendors sorted on the server, as a queryset to paginate (the unscored are
    listed apart: ``not_scored_yet``).

    ``sort`` is a key of RANKING_SORTS or ``axis-<slug>``, with a leading "-" for
    descending. Vendors with no value sort last either way. Returns (vendors, sort
    actually used): an unknown sort falls back to the default.
    """
    shows("entries")  # a stored page of it shows every live vendor's entry
    queryset = _ranked()
    descending = sort.startswith("-")
    key = sort.removeprefix("-")
    axis_slugs = {f"axis-{axis.slug}": axis for axis in axes}
    if key in axis_slugs:
        # A LEFT JOIN on the axis's score (indexed on axis, value), so vendors it has not
        # scored stay in the list, last.
        queryset = queryset.annotate(
            axis_score=FilteredRelation("scores", condition=Q(scores__axis=axis_slugs[key]))
        ).annotate(sort_value=F("axis_score__value"))
        expression = F("sort_value")
    elif key in RANKING_SORTS:
        expression = F(RANKING_SORTS[key])
    else:
        return rankings(sort="-total", axes=axes)[0], None
    ordered = expression.desc(nulls_last=True) if descending else expression.asc(nulls_last=True)
    return queryset.order_by(ordered, "name", "pk"), sort


def ranked_then_not_scored() -> VersionQuerySet[VendorVersion]:
    """Every live vendor in one query, for the downloads: the scored in the rankings' default
    order (best total first), then those not scored yet, by name (a null total sorts last)."""
    shows("entries")
    return (
        live_vendors()
        .select_related("lane")
        .defer("document", "history", "changes")
        .order_by(F("total").desc(nulls_last=True), "name", "pk")
    )


def weighted_rankings(*, weights: Mapping[int, int], axes: Sequence[Axis]) -> VersionQuerySet[VendorVersion]:
    """Scored live vendors ordered by a reader's weights (vendors/weights.py), as a queryset to
    paginate; the unscored are listed apart (``not_scored_yet``).

    Each version gets ``weighted``: the sum of weight × score over the active axes (a score
    it lacks counts 0). Ties fall back to the editorial total, then the name, then the id, so
    the same weights give the same order to anyone.
    """
    shows("entries")
    queryset = _ranked()
    terms = []
    for axis in axes:
        weight = weights.get(axis.pk, 0)
        if not weight:
            continue
        name = f"weighted_axis_{axis.pk}"
        queryset = queryset.alias(**{name: FilteredRelation("scores", condition=Q(scores__axis=axis))})
        terms.append(Coalesce(F(f"{name}__value"), 0) * Value(weight))
    weighted_sum = reduce(operator.add, terms) if terms else Value(0)
    return queryset.annotate(weighted=ExpressionWrapper(weighted_sum, output_field=IntegerField())).order_by(
        F("weighted").desc(), F("total").desc(), "name", "pk"
    )


def add_score_cells(versions: Iterable[VendorVersion], *, axes: Sequence[Axis]) -> list[ScoredVersion]:
    """Give each version of a page its ``score_cells``, one per active axis: one query."""
    scored = cast("list[ScoredVersion]", list(versions))  # each is given its score_cells here
    scores = {}
    for score in VersionScore.objects.filter(version__in=scored, axis__in=axes):
        scores[(score.version_id, score.axis_id)] = score
    for version in scored:
        version.score_cells = [scores.get((version.pk, axis.pk)) for axis in axes]
    return scored


def lane_vendors(lane: Lane) -> VersionQuerySet[VendorVersion]:
    """A lane's scored live vendors, best total first, as a queryset to paginate (its unscored
    ones are listed apart: ``not_scored_yet``)."""
    shows(f"lane-{lane.pk}")
    return _ranked().filter(lane=lane).order_by(F("total").desc(nulls_last=True), "name", "pk")


NOT_SCORED_SHOWN = 50


@dataclass
class NotScoredYet:
    """The live vendors a ranking leaves out, by name, with how many there are: at most
    NOT_SCORED_SHOWN of them (the vendor list has the rest), so a ranking's page stays the
    same size however many vendors wait for scores."""

    vendors: list[Listed]
    count: int
    rows: list[SafeString] = field(default_factory=list)  # their kept rows (vendors/rows.py)

    @property
    def more(self) -> int:
        return self.count - len(self.vendors)


def not_scored_yet(*, lane: Lane | None = None) -> NotScoredYet:
    """Live vendors without a total (in ``lane`` if given), by name: one query, however many
    (each row carries the whole count, a window computed before the LIMIT)."""
    shows(f"lane-{lane.pk}" if lane else "entries")
    now = timezone.now()
    read = _NOT_SCORED_IN_LANE(at=now, lane=lane.pk) if lane is not None else _NOT_SCORED(at=now)
    rows = [Listed(**row) for row in read]
    return NotScoredYet(vendors=rows, count=rows[0].every if rows else 0)


def _not_scored(versions: VendorVersionQuerySet) -> QuerySet[VendorVersion, dict[str, Any]]:
    """``not_scored_yet``'s read of ``versions``: their rows are kept (vendors/rows.py)."""
    read = versions.not_scored().values(*Listed.READ, every=Window(Count("pk"))).order_by("name", "pk")
    return read[:NOT_SCORED_SHOWN]


_NOT_SCORED = FixedRead(lambda at: _not_scored(live_vendors(at=at)))
_NOT_SCORED_IN_LANE = FixedRead(lambda at, lane: _not_scored(live_vendors(at=at).filter(lane_id=lane)))
