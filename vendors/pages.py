"""The vendors' stored pages (infra/stored/), declared once (``PAGES``): which addresses are
stored, every one of them for a full render or the export, a live vendor's own, and what a
publish changes for visitors (``page_keys``). editorial.pages acts on it."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from editorial.pages import Pages, declare

from . import alternatives
from .documents import VendorDocument
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
    )


def page_keys(before: VendorVersion | None, after: VendorVersion | None) -> set[str]:
    """The vendor's own document always; the lists it is in when its entry changed (a new
    total, name, lane or verified date), every profile's alternatives of its lane only when its
    card changed (name, lane, blurb: not a total), and the feeds when the change is in the
    change log."""
    version = after or before
    assert version is not None
    keys = {version.page_key}
    if before is None or after is None or before.slug != after.slug:
        keys.add(version.archive_key)  # its versions' pages go live, go away or move
        keys.add(LIVE_VENDORS_KEY)
    if entry(before) != entry(after):
        keys |= {"entries", *(f"lane-{v.lane_id}" for v in (before, after) if v is not None)}
    if alternatives.card_entry(before) != alternatives.card_entry(after):
        keys |= {alternatives.lane_key(v.lane_id) for v in (before, after) if v is not None and v.lane_id}
    if alternatives.reason_inputs(_document(before)) != alternatives.reason_inputs(_document(after)):
        keys.add(alternatives.page_key(version.item_id))  # other profiles' reasons for it
    if after is None or after.content_changed:
        keys |= {"changes", *(f"lane-changes-{v.lane_id}" for v in (before, after) if v is not None)}
    return keys


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
