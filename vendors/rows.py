"""The vendors' kept rows (infra/rows/): a vendor's row of the rankings, its card on its lane's
page and its card on the vendor list, each rendered once for a published version and kept with
it, so a page of a list, however it is sorted, filtered or weighted, is its indexed query and the
rows it shows."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

from editorial.events import Changed, Kind
from infra.rows import RowKind, keep, kept_row_lists, kept_rows

from . import listings, selectors
from .models import Axis, VendorVersion, total_max

# Where a ranking by a reader's weights puts its own cell (their place and score), after the name.
YOURS_SLOT = "<!--yours-->"


@dataclass(frozen=True)
class _Batch:
    axes: list[Axis]
    versions: dict[int, VendorVersion]


def _prepare(versions: Sequence[VendorVersion]) -> _Batch:
    """The active axes, and the versions read again with their scores and lane: three queries."""
    axes = selectors.active_axes()
    read = list(
        listings.with_scores_read(
            VendorVersion.objects.filter(pk__in=[v.pk for v in versions])
        ).select_related("lane")
    )
    listings.add_score_cells(read, axes=axes)
    listings.add_scores_verified(read, axes=axes)
    return _Batch(axes=axes, versions={version.pk: version for version in read})


def _live():
    """The versions a list may still show: the live ones."""
    return selectors.live_vendors().order_by().values("pk")


def _template(name: str):
    def render(version: VendorVersion, batch: _Batch) -> str:
        return get_template(name).render(
            {
                "vendor": batch.versions[version.pk],
                "total_max": total_max(len(batch.axes)),
                "slot": mark_safe(YOURS_SLOT),  # noqa: S308
            }
        )

    return render


def _not_scored(*, in_lane: bool):
    def render(version: VendorVersion, batch: _Batch) -> str:
        context = {"vendor": batch.versions[version.pk], "with_lane": not in_lane, "pick": not in_lane}
        return get_template("vendors/rows/not_scored.html").render(context)

    return render


RANKING = RowKind("vendor-ranking", _prepare, _template("vendors/rows/ranking.html"), _live)
LANE = RowKind("vendor-lane", _prepare, _template("vendors/rows/lane.html"), _live)
CARD = RowKind("vendor-card", _prepare, _template("vendors/rows/card.html"), _live)
# The rankings' "Not scored yet" list (its lane and the tick box to compare), and a lane's (neither).
NOT_SCORED = RowKind("vendor-not-scored", _prepare, _not_scored(in_lane=False), _live)
NOT_SCORED_IN_LANE = RowKind("vendor-not-scored-in-lane", _prepare, _not_scored(in_lane=True), _live)


def add_rows(kind: RowKind, versions: Sequence[listings.Listed]) -> None:
    """Give each version of a page its kept ``row`` of ``kind``."""
    for version, row in zip(versions, kept_rows(kind, versions), strict=True):
        version.row = row


def add_lane_rows(versions: Sequence[listings.Listed], *, not_scored: listings.NotScoredYet) -> None:
    """Give each version of a lane's page its kept ``row``, and the lane's vendors not scored yet
    theirs: one query."""
    lane_rows, not_scored.rows = kept_row_lists((LANE, versions), (NOT_SCORED_IN_LANE, not_scored.vendors))
    for version, row in zip(versions, lane_rows, strict=True):
        version.row = row


def add_ranking_rows(
    versions: Sequence[listings.Listed],
    *,
    not_scored: listings.NotScoredYet,
    yours: Sequence[tuple[int, float | None]] | None = None,
) -> None:
    """Give each version of a page its ``row`` of the rankings, with its place and score in the
    reader's ranking (``yours``, one a version) when they gave weights; and the vendors not
    scored yet theirs: one query."""
    ranking_rows, not_scored.rows = kept_row_lists((RANKING, versions), (NOT_SCORED, not_scored.vendors))
    cells = [your_cell(place, score) for place, score in yours] if yours else [""] * len(versions)
    for version, row, cell in zip(versions, ranking_rows, cells, strict=True):
        version.row = mark_safe(row.replace(YOURS_SLOT, cell, 1))  # noqa: S308


TENTH = Decimal("0.1")


def your_cell(place: int, score: float | None) -> SafeString:
    """A row's cell in a reader's ranking: its place, and its score to one decimal."""
    # As ``floatformat:1`` rounds (half up, from the number's shortest decimal form), without its
    # localisation: fifty cells a page, each a number the site's language writes the same way.
    shown = f" {Decimal(str(score)).quantize(TENTH, ROUND_HALF_UP)}" if score is not None else ""
    return mark_safe(f'<td class="num yours"><span class="place">#{int(place)}</span>{shown}</td>')  # noqa: S308


KINDS = (RANKING, LANE, CARD)  # a scored version's rows
NOT_SCORED_KINDS = (CARD, NOT_SCORED, NOT_SCORED_IN_LANE)  # a version not scored yet
log = logging.getLogger(__name__)


def keep_published(event: Changed) -> None:
    """A vendor's version going live now has its rows rendered once the publish commits, so the
    first list to show it reads them (one scheduled for later has them when first asked)."""
    version = event.after
    if (
        event.kind in (Kind.PUBLISHED, Kind.RESTAMPED)
        and event.at is None
        and isinstance(version, VendorVersion)
    ):
        transaction.on_commit(lambda: _keep_all([version]))


def _keep_all(versions: list[VendorVersion]) -> None:
    try:
        for kind in KINDS if all(version.is_scored for version in versions) else NOT_SCORED_KINDS:
            keep(kind, versions)
    except Exception:  # the publish has committed: a row not kept now is rendered when first asked
        log.exception("Rows of %s not kept.", versions)
