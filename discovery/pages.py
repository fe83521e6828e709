"""Discovery's stored pages (infra/stored/): robots.txt, the sitemap and the feeds."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from editorial.pages import Pages, declare, surface
from vendors.models import Lane, VendorVersion

from .search import keys as search_keys
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


def no_paths() -> Iterator[str]:
    yield from ()


# Results pages are never stored, but cached: what a publish changes of them (search/keys.py).
SEARCH = Pages(
    url_names=(),
    every_path=no_paths,
    page_keys={"vendor": search_keys.changed, "comparison": search_keys.changed},
)


def register() -> None:
    declare(PAGES)
    declare(SEARCH)
