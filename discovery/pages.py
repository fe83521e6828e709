"""Discovery's stored pages (infra/stored/): robots.txt, the sitemap and the feeds."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from infra import stored
from vendors.models import Lane, VendorVersion

from .sitemaps import page_paths

URL_NAMES = ("robots", "sitemap", "sitemap_section", "feed", "vendor_feed", "lane_feed")


def vendor_paths(version: VendorVersion) -> list[str]:
    return [reverse("vendor_feed", args=[version.slug])]


def every_path() -> Iterator[str]:
    yield from (reverse("robots"), reverse("sitemap"), reverse("feed"))
    yield from page_paths()
    for slug in VendorVersion.objects.live().order_by("slug").values_list("slug", flat=True):
        yield reverse("vendor_feed", args=[slug])
    for slug in Lane.objects.order_by("position", "name").values_list("slug", flat=True):
        yield reverse("lane_feed", args=[slug])


def register() -> None:
    stored.store_url_names(*URL_NAMES)
    stored.register_paths(every_path)
    stored.register_item_paths("vendor", vendor_paths)
