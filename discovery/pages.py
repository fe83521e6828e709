"""Discovery's stored pages (infra/stored/): robots.txt, the sitemap and the feeds."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from editorial.pages import declare, surface
from vendors.models import Lane, VendorVersion

from .sitemaps import page_paths

URL_NAMES = ("robots", "sitemap", "sitemap_section", "feed", "vendor_feed", "lane_feed")


def vendor_paths(version: VendorVersion) -> list[str]:
    return [reverse("vendor_feed", args=[version.slug])]


def fixed_paths() -> Iterator[str]:
    yield from (reverse("robots"), reverse("sitemap"), reverse("feed"))
    yield from page_paths()
    for slug in Lane.objects.order_by("position", "name").values_list("slug", flat=True):
        yield reverse("lane_feed", args=[slug])


PAGES = surface(url_names=URL_NAMES, fixed=fixed_paths, per_item={"vendor": vendor_paths})


def register() -> None:
    declare(PAGES)
