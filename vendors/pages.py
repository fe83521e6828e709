"""The vendors' stored pages (infra/stored/), declared once (``PAGES``): which addresses are
stored, every one of them for a full render or the export, a live vendor's own, and what a
publish changes for visitors (``page_keys``). editorial.pages acts on it."""

from __future__ import annotations

from collections.abc import Iterator

from django.db.models import Count, Q
from django.urls import reverse

from editorial.pages import Pages, declare

from . import alternatives, selectors
from .documents import PublishedScores, VendorDocument
from .models import Lane, VendorVersion

URL_NAMES = (
    "vendors:rankings",
    "vendors:list",
    "vendors:detail",
    "vendors:changes",
    "vendors:version",
    "vendors:citation",
    "vendors:lanes",
    "vendors:lane",
)
CITATION_FORMATS = ("bib", "json")
# Which vendors are live, and at which address: what a page that lists every live vendor by
# address alone shows (the sitemap's pages). A vendor going live, going away or moving changes
# it; a new total, lane or verified date does not ("entries" covers those).
LIVE_VENDORS_KEY = "live-vendors"


def version_paths(slug: str, number: int) -> list[str]:
    return [
        reverse("vendors:version", args=[slug, number]),
        *(reverse("vendors:citation", args=[slug, number, format]) for format in CITATION_FORMATS),
    ]


def item_paths(version: VendorVersion) -> list[str]:
    """A live version's own pages: its profile, change log and its version's page."""
    return [
        reverse("vendors:detail", args=[version.slug]),
        reverse("vendors:changes", args=[version.slug]),
        *version_paths(version.slug, version.number),
    ]


def every_path() -> Iterator[str]:
    yield from (reverse("vendors:rankings"), reverse("vendors:list"), reverse("vendors:lanes"))
    for slug in Lane.objects.order_by("position", "name").values_list("slug", flat=True):
        yield reverse("vendors:lane", args=[slug])
    live = VendorVersion.objects.live().values_list("item_id", "slug")
    slugs = dict(live)
    for slug in slugs.values():
        yield reverse("vendors:detail", args=[slug])
        yield reverse("vendors:changes", args=[slug])
    numbers = VendorVersion.objects.past().filter(item_id__in=slugs).values_list("item_id", "number")
    for item_id, number in numbers.order_by("item_id", "number"):
        yield from version_paths(slugs[item_id], number)


def entry(version: VendorVersion | None) -> tuple | None:
    """What lists show of a vendor (rankings, lanes, alternatives, comparisons' columns)."""
    if version is None:
        return None
    return (
        version.slug,
        version.name,
        version.company,
        version.lane_id,
        version.alternative_blurb,
        version.total,
        version.verified_on,
        version.unverified_facts,
        version.fact_count,
        # Each axis's score: lists print it, and it can move while the total stays.
        tuple(version.scores.order_by("axis_id").values_list("axis_id", "value")),
        scores_standing(version),
    )


def scores_standing(version: VendorVersion) -> tuple:
    """Which of its scores lists mark stale now, and whether each was ever verified
    (``listings.add_scores_verified``): “5 scores not yet verified” goes at a verification."""
    document = version.document or {}
    part = PublishedScores.parse(
        {"scores": document.get("scores") or [], "sources": document.get("sources") or {}}
    )
    return tuple((score.axis.id, score.stale, score.verified_on is None) for score in part.scores)


def page_keys(before: VendorVersion | None, after: VendorVersion | None) -> set[str]:
    """The vendor's own document always; the lists it is in when its entry changed (a new
    total, name, lane or verified date); every profile's alternatives of its lane only when its
    card changed (name, lane, blurb: not a total) and it is among the lane's first few, and its
    lane's own profiles when the lane's count moved; the profiles giving reasons for it only
    where those reasons can change; the feeds when the change is in the change log; and its
    change log's pages when what they show of it changed (not at a verification)."""
    version = after or before
    assert version is not None
    keys = {version.page_key}
    if before is None or after is None or before.slug != after.slug:
        keys.add(version.archive_key)  # its versions' pages go live, go away or move
        keys.add(LIVE_VENDORS_KEY)
    if entry(before) != entry(after):
        keys |= {"entries", *(f"lane-{v.lane_id}" for v in (before, after) if v is not None)}
    keys |= _alternatives_keys(before, after)
    if after is None or after.content_changed:
        keys |= {"changes", *(f"lane-changes-{v.lane_id}" for v in (before, after) if v is not None)}
    if change_log(before) != change_log(after):
        keys.add(version.history_key)
    return keys


def change_log(version: VendorVersion | None) -> tuple | None:
    """What the vendor's change log pages show of it (its page, feed and API list)."""
    if version is None:
        return None
    return (version.slug, version.name, version.lane_id, version.history)


def _alternatives_keys(before: VendorVersion | None, after: VendorVersion | None) -> set[str]:
    """What other profiles' alternatives show of the vendor that changed: its card where it is
    among its lane's first few, its lane's count, and its reasons where they can change."""
    both = [v for v in (before, after) if v is not None]
    keys = set()
    if alternatives.card_entry(before) != alternatives.card_entry(after):
        keys |= {alternatives.lane_key(v.lane_id) for v in among_first_cards(both) if v.lane_id}
    if before is None or after is None or before.lane_id != after.lane_id:  # a lane's count moved
        keys |= {
            selectors.LANE_COUNTS_KEY,
            *(alternatives.lane_count_key(v.lane_id) for v in both if v.lane_id),
        }
    before_card, after_card = (alternatives.reason_inputs(_document(v)) for v in (before, after))
    return keys | alternatives.keys_changed(both[0].item_id, before_card, after_card)


def among_first_cards(versions: list[VendorVersion]) -> list[VendorVersion]:
    """Those of ``versions`` (one vendor's, before and after a publish) that are among their
    lane's first few live vendors by name, the other vendors as they are now: the cards every
    profile lists (``selectors.alternatives_by_lane``). One query. A name tied with another's
    counts as first: a card is never missed."""
    shown = [version for version in versions if version.lane_id is not None]
    if not shown:
        return []
    ahead = (
        selectors.live_vendors()
        .exclude(item_id=shown[0].item_id)
        .aggregate(
            **{
                f"v{n}": Count("pk", filter=Q(lane=version.lane_id, name__lt=version.name))
                for n, version in enumerate(shown)
            }
        )
    )
    return [version for n, version in enumerate(shown) if ahead[f"v{n}"] <= selectors.ALTERNATIVES_PER_LANE]


def _document(version: VendorVersion | None) -> VendorDocument | None:
    return VendorDocument.parse(version.document) if version is not None and version.document else None


PAGES = Pages(
    url_names=URL_NAMES,
    every_path=every_path,
    item_paths={"vendor": item_paths},
    page_keys={"vendor": page_keys},
)


def register() -> None:
    declare(PAGES)
