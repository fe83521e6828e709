"""Reads that span models: what the public pages show, from published versions only.

Visitors never read the editing tables: every page here reads VendorVersion rows whose
time span covers now (``VendorVersion.objects.live()``), and a profile is drawn from
its version's document. A fixed number of queries per page, whatever the catalogue holds.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NotRequired, TypedDict

from django.conf import settings
from django.db import connection
from django.db.models import (
    Count,
    F,
    OuterRef,
    QuerySet,
    Subquery,
    Window,
)
from django.db.models.functions import Coalesce, RowNumber
from django.template.defaultfilters import date as format_date
from django.utils import timezone

from chips import documents as chip_documents
from claims.documents import Source
from claims.verification import PageVerification
from editorial.services import HistoryEntry
from infra.cache import cached
from infra.fixed import FixedRead
from infra.stored import shows, unrecorded

from . import alternatives, documents
from .alternatives import Reason
from .documents import VendorDocument
from .footnotes import MARKERS_PER_CLAIM, Footnotes  # noqa: F401  (MARKERS_PER_CLAIM is read from here too)
from .models import Axis, Lane, SiteSettings, VendorVersion, VersionScore, total_max
from .models.versions import VendorVersionQuerySet

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

ALTERNATIVES_PER_LANE = 6
CHANGE_LOG_ON_PROFILE = 5


class VendorCount(TypedDict):
    vendor_count: int  # live vendors in the lane


class ScoreCells(TypedDict):
    score_cells: list[VersionScore | None]  # one per active axis, None where it has no score


class VendorHistoryEntry(HistoryEntry):
    scores: NotRequired[dict[str, int]]  # {axis pk: value} as published (vendors.publishing)


if TYPE_CHECKING:
    type LaneWithCount = WithAnnotations[Lane, VendorCount]
    type ScoredVersion = WithAnnotations[VendorVersion, ScoreCells]


AXES_KEY = "axes"  # a stored page that reads the active axes (their names, order and number)
AXES_DESCRIPTIONS_KEY = "axes-descriptions"  # ... and prints their descriptions too
SITE_TEXT_KEY = "site-text"  # ... that reads the site's text (SiteSettings)
LANE_COUNTS_KEY = "lane-counts"  # ... that prints how many live vendors each lane has


_ACTIVE_AXES = FixedRead(lambda: Axis.objects.filter(is_active=True))


def active_axes() -> list[Axis]:
    shows(AXES_KEY)
    return cached("active-axes", _ACTIVE_AXES)


def described_axes() -> list[Axis]:
    """The active axes, for a page that prints their descriptions: an edited description renders
    again these pages alone, not every page that reads the axes' names."""
    shows(AXES_DESCRIPTIONS_KEY)
    return active_axes()


def site_settings() -> SiteSettings:
    shows(SITE_TEXT_KEY)
    return cached("site-settings", SiteSettings.load)


def live_vendors(*, at: dt.datetime | None = None) -> VendorVersionQuerySet:
    """The published versions visitors read now (or ``at``), one per live vendor."""
    return VendorVersion.objects.live(at=at)


def live_version(*, slug: str, change_log: bool = False) -> VendorVersion | None:
    """The live version at ``slug``; a stored page that asks shows it, and goes when it goes,
    whether or not it reads the document. One that reads its ``change_log`` alone (name,
    address, lane, history) shows that part, which a verification leaves as it was."""
    version = live_vendors().filter(slug=slug).first()
    if version is not None:
        shows(version.history_key if change_log else version.page_key)
    return version


def published_version(*, slug: str, number: int, banner: bool = True) -> VendorVersion | None:
    """Version ``number`` of the vendor that has (or had) address ``slug``, at its permanent
    address: one visitors could read in its time, while the vendor is live now. A scheduled
    version is not there yet; an unpublished vendor takes all its versions down with it. Without
    the ``banner`` (a citation file), the live version's page reads as the others do."""
    ever = VendorVersion.objects.filter(slug=slug).values("item_id")
    version = (
        VendorVersion.objects.past()
        .filter(number=number, item_id__in=ever)
        .filter(item_id__in=live_vendors().values("item_id"))
        .first()
    )
    return version.read_as_archived(banner=banner) if version is not None else None


@dataclass
class Alternative:
    """Another vendor on a profile, with why a reader might look at it (vendors/alternatives.py)."""

    version: VendorVersion
    reasons: list[Reason] = field(default_factory=list)


@dataclass
class AtAGlanceRow:
    attribute: documents.Attribute
    facts: list[documents.Fact]


@dataclass
class ScoreRow:
    axis: Axis
    score: documents.Score | None  # None when the vendor has no score on this axis

    @property
    def value(self) -> int | None:
        return self.score.value if self.score else None


@dataclass
class ChangeLogEntry:
    number: int
    published_at: dt.datetime
    changes: list[str]
    note: str
    first: bool


@dataclass
class Profile:
    vendor: documents.Vendor
    rows: list[AtAGlanceRow]
    events: list[documents.Event]
    score_rows: list[ScoreRow]
    total: int | None
    total_max: int
    faqs: list[documents.FAQ]
    sources: list[Source]
    verification: PageVerification
    same_lane: list[VendorVersion]
    other_lanes: list[VendorVersion]
    footnotes: Footnotes = field(default_factory=Footnotes)
    alternatives_same: list[Alternative] = field(default_factory=list)  # same_lane, with reasons
    alternatives_other: list[Alternative] = field(default_factory=list)  # other_lanes, with reasons
    same_lane_count: int = 0
    more_in_lanes: list[LaneWithCount] = field(default_factory=list)
    stale_count: int = 0  # stale facts (claims/freshness.py)
    freshness_days: int = 90
    change_log: list[ChangeLogEntry] = field(default_factory=list)
    change_count: int = 0
    score_history: list[str] = field(default_factory=list)
    chips: list[chip_documents.Chip] = field(default_factory=list)  # each with its specs, cited

    @property
    def events_heading(self) -> str:
        """The "What changed" heading, naming the years its events span: "in 2026", "in
        2025 and 2026", "from 2022 to 2026" (never one year over an event of another)."""
        years = sorted({event.date.year for event in self.events if event.date})
        if not years:
            return "What changed"
        first, last = years[0], years[-1]
        if first == last:
            return f"What changed in {last}"
        if last == first + 1:
            return f"What changed in {first} and {last}"
        return f"What changed from {first} to {last}"

    @property
    def has_scores(self) -> bool:
        return any(row.score for row in self.score_rows)

    @property
    def stale_scores(self) -> bool:
        """Whether a score shown carries the stale mark (the document's ``stale``)."""
        return any(row.score and row.score.is_stale for row in self.score_rows)

    @property
    def stale_events(self) -> bool:
        return any(event.is_stale for event in self.events)

    @property
    def has_vendor_stated(self) -> bool:
        """Whether the page shows the vendor-stated mark, and so its legend."""
        return (
            any(fact.vendor_stated for row in self.rows for fact in row.facts)
            or any(spec.vendor_stated for chip in self.chips for spec in chip.specs)
            or any(row.vendor_stated for chip in self.chips for row in chip.availability)
        )


def build_profile(
    page: VendorDocument,
    *,
    vendor_id: int,
    history: Sequence[VendorHistoryEntry] = (),
    live_lane_id: int | None = None,
) -> Profile:
    """Everything the profile page shows, from a document, footnotes numbered in page order.

    ``page`` is the live version's document, or the working copy's for an editor's preview;
    ``history`` the live version's change log.
    """
    notes = Footnotes()
    rows: list[AtAGlanceRow] = []
    for fact in page.facts:
        notes.cite(fact)
        if rows and rows[-1].attribute.pk == fact.attribute.pk:
            rows[-1].facts.append(fact)
        else:
            rows.append(AtAGlanceRow(attribute=fact.attribute, facts=[fact]))
    for chip in page.chips:  # the chips' tables follow the facts: numbers, then availability
        for row in [*chip.specs, *chip.availability]:
            notes.cite(row)
    events = [notes.cite(event) for event in page.events]
    axes = active_axes()
    score_rows = [
        ScoreRow(axis=axis, score=notes.cite(score) if score else None)
        for axis, score in page.scores_on(axes)
    ]
    faqs = [notes.cite(faq) for faq in page.faqs]
    profile = Profile(
        vendor=page.vendor,
        rows=rows,
        events=events,
        score_rows=score_rows,
        total=page.total_on(axes),
        total_max=total_max(len(axes)),
        faqs=faqs,
        sources=notes.sources,
        footnotes=notes,
        verification=page.facts_verified,
        same_lane=[],
        other_lanes=[],
        stale_count=page.stale_facts,
        freshness_days=settings.FRESHNESS_DAYS,
        chips=page.chips,
    )
    _add_alternatives(profile, vendor_id=vendor_id, lane_id=page.vendor.lane.pk, live_lane_id=live_lane_id)
    _add_reasons(profile, page=page, axes=axes)
    if history:
        profile.change_log = change_log(history)[: CHANGE_LOG_ON_PROFILE + 1]
        profile.score_history = score_history(history, axes=axes)
    return profile


def alternatives_by_lane() -> list[tuple[LaneWithCount, list[VendorVersion]]]:
    """Every lane with live vendors, in its order, with its first few live vendors by name
    (one more than a profile shows, so that it can leave itself out): two queries, shared by
    every profile through the cache (infra/cache.py). Each vendor's ``lane`` is its lane, size
    included, and its ``reason_card`` what its reasons on other profiles are made of.

    Bounded whatever the catalogue holds on PostgreSQL: each lane's first names come from
    the (lane, name) index with a LIMIT, all lanes in one UNION ALL. SQLite takes no LIMIT
    inside a UNION, so there a window numbers each lane's names instead.
    """
    lanes = {lane.pk: lane for lane in lanes_with_vendor_counts() if lane.vendor_count}
    if not lanes:
        return []
    shown = live_vendors().defer("history", "changes")
    rows: list[VendorVersion]
    if connection.features.supports_slicing_ordering_in_compound:
        firsts = [shown.filter(lane=pk).order_by("name", "pk")[: ALTERNATIVES_PER_LANE + 1] for pk in lanes]
        rows = list(firsts[0].union(*firsts[1:], all=True))
    else:
        rank = Window(RowNumber(), partition_by=[F("lane_id")], order_by=[F("name").asc(), F("pk").asc()])
        rows = list(
            shown.filter(lane__in=list(lanes)).annotate(rank=rank).filter(rank__lte=ALTERNATIVES_PER_LANE + 1)
        )
    by_lane: dict[int | None, list[VendorVersion]] = {pk: [] for pk in lanes}
    for version in sorted(rows, key=lambda version: (version.name, version.pk)):
        by_lane[version.lane_id].append(version)
    for pk, lane in lanes.items():
        for version in by_lane[pk]:
            version.lane = lane
            # What its reasons on other profiles are made of (vendors/alternatives.py); the
            # document itself is not kept, so the cached list stays small.
            document = VendorDocument.parse(version.__dict__.pop("document"))
            version.reason_card = alternatives.card(document)  # type: ignore[attr-defined]  # cached with it
    return [(lane, by_lane[pk]) for pk, lane in lanes.items()]


def _add_alternatives(profile: Profile, *, vendor_id: int, lane_id: int, live_lane_id: int | None) -> None:
    """At most a few per lane, so that a profile stays the same size however many vendors
    the site holds; the lane's own page lists the rest. ``live_lane_id`` is the lane the
    vendor is counted in among live vendors (None for a draft's preview)."""
    with unrecorded():  # a first build reads every lane's count; a page shows only what follows
        by_lane = cached("alternatives", alternatives_by_lane)
    for lane, versions in by_lane:
        shows(alternatives.lane_key(lane.pk))  # its first few vendors as cards
        if lane.pk == lane_id:
            shows(alternatives.lane_count_key(lane.pk))  # "All 12 other vendors in ..."
        shown = [version for version in versions if version.item_id != vendor_id][:ALTERNATIVES_PER_LANE]
        others = lane.vendor_count - (1 if lane.pk == live_lane_id else 0)
        if lane.pk == lane_id:
            profile.same_lane, profile.same_lane_count = shown, others
        else:
            profile.other_lanes += shown
            if others > ALTERNATIVES_PER_LANE:
                profile.more_in_lanes.append(lane)


def _add_reasons(profile: Profile, *, page: VendorDocument, axes: Sequence[Axis]) -> None:
    """Each alternative shown, with its reasons from its card (kept with the cached list) and
    this page's. A stored page shows what the reasons are made of, not the whole documents:
    another vendor's publish renders this profile again only when it changes them."""
    mine = alternatives.card(page)

    def alternative(version: VendorVersion) -> Alternative:
        other = getattr(version, "reason_card", None)
        if other is None:  # a list cached before cards: no reasons rather than a guess
            return Alternative(version=version)
        shows(*alternatives.keys_shown(version.item_id, mine, axes=axes))
        return Alternative(version=version, reasons=alternatives.reasons(mine, other, axes=axes))

    profile.alternatives_same = [alternative(version) for version in profile.same_lane]
    profile.alternatives_other = [alternative(version) for version in profile.other_lanes]


def change_log(history: Sequence[HistoryEntry]) -> list[ChangeLogEntry]:
    """A live version's ``history`` as change-log entries, newest first (verification-only
    versions make none). It travels with the version: no query."""
    return [
        ChangeLogEntry(
            number=entry["number"],
            published_at=dt.datetime.fromisoformat(entry["published_at"]),
            changes=entry["changes"],
            note=entry["note"],
            first=entry.get("first", entry["number"] == 1),
        )
        for entry in reversed(history)
    ]


def score_history(history: Sequence[VendorHistoryEntry], *, axes: Sequence[Axis]) -> list[str]:
    """“Software: 3 until Oct 2026, then 4” for each active axis whose published score changed."""
    lines = []
    for axis in axes:
        spans: list[tuple[int, dt.datetime]] = []  # (value, went live)
        for entry in history:
            value = entry.get("scores", {}).get(str(axis.pk))
            if value is not None and (not spans or spans[-1][0] != value):
                spans.append((value, dt.datetime.fromisoformat(entry["published_at"])))
        if len(spans) < 2:
            continue
        parts = [
            f"{value} until {format_date(timezone.localtime(spans[i + 1][1]), 'M Y')}"
            for i, (value, _) in enumerate(spans[:-1])
        ]
        lines.append(f"{axis.name}: {', '.join(parts)}, then {spans[-1][0]}")
    return lines


def active_total_max() -> int:
    return total_max(len(active_axes()))


def lanes_with_vendor_counts() -> QuerySet[LaneWithCount]:
    """Every lane in its order, each with ``vendor_count`` live vendors, in one query: the
    counts are read from the (lane, published_at, superseded_at, id) index alone. A stored page
    of them shows the counts alone: a new total or verified date leaves it as it is."""
    shows(LANE_COUNTS_KEY)
    live = (
        live_vendors()
        .filter(lane=OuterRef("pk"))
        .order_by()
        .values("lane")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Lane.objects.annotate(vendor_count=Coalesce(Subquery(live), 0)).order_by("position", "name")
