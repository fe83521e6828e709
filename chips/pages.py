"""The chip pages' stored pages (infra/stored/), declared once: /chips/ and the trends over
time (/chips/trends/ and its CSV) are stored, and a publish that changes any vendor's chips
changes them (``CHIPS_KEY``: every live chip at once, the
chip list and its downloads). editorial.pages acts on it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from editorial.models import PublishedVersion
from editorial.pages import Pages, declare

from .models import VersionChip
from .selectors import CHIPS_KEY, live_chips

URL_NAMES = ("chips:list", "chips:trends", "chips:trends_csv")  # /chips/fit/ is asked on demand


def every_path() -> list[str]:
    return [reverse(name) for name in URL_NAMES]


def _shown(value: Any) -> Any:
    """``value`` without the moments of its rows' checks (``verified_at``): the chips' pages
    print the day (``verified_on``), and a later moment the same day only moves when a row
    turns stale, which the page's expiry, taken from the earlier moment, renders it again for."""
    if isinstance(value, dict):
        return {key: _shown(item) for key, item in value.items() if key != "verified_at"}
    if isinstance(value, list):
        return [_shown(item) for item in value]
    return value


def _chips(version: PublishedVersion | None) -> list[Any]:
    document = getattr(version, "document", None)
    return _shown(document.get("chips", [])) if document else []


def _chips_part(version: PublishedVersion | None) -> tuple[Any, ...] | None:
    """What a page reading the chips part of the document shows (vendors.documents.CHIPS_PARTS)."""
    document = getattr(version, "document", None)
    if not document:
        return None
    return tuple(_shown(document.get(part)) for part in ("vendor", "chips", "sources"))


def page_keys(before: PublishedVersion | None, after: PublishedVersion | None) -> set[str]:
    """Every live chip's pages when the chips of the published document changed; the pages
    reading the vendor's chips part when that part changed."""
    keys = {CHIPS_KEY} if _chips(before) != _chips(after) else set()
    if _chips_part(before) != _chips_part(after):
        keys |= {version.chips_key for version in (before, after) if version is not None}
    return keys


PAGES = Pages(url_names=URL_NAMES, every_path=every_path, page_keys={"vendor": page_keys})


def chip_paths() -> list[str]:
    """Every live chip's own page, /chips/<slug>/ (one query)."""
    slugs = live_chips().order_by("slug").values_list("slug", flat=True).distinct()
    return [reverse("chips:detail", args=[slug]) for slug in slugs]


def version_chip_paths(version: PublishedVersion) -> list[str]:
    """A newly published version's chips' pages, rendered at its publish. Each shows its
    vendor's document (``version.page_key``, recorded as it is read), so no key of its own."""
    slugs = VersionChip.objects.filter(version_id=version.pk).values_list("slug", flat=True)
    return [reverse("chips:detail", args=[slug]) for slug in slugs]


CHIP_PAGES = Pages(
    url_names=("chips:detail",), every_path=chip_paths, item_paths={"vendor": version_chip_paths}
)


def register() -> None:
    declare(PAGES)
    declare(CHIP_PAGES)
