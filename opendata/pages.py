"""The downloads' stored files (infra/stored/). A profile's or comparison's files follow
its publish; the rankings follow any list entry. /data/ and the whole-site file are built
from everything, seconds at 10,000 vendors: they show ``dump``, which a publish only marks
as due, and the worker's periodic sweep builds them again (infra/stored/). The chips' files
(their values, prices and results) follow any publish that changes a chip (``CHIPS_KEY``: a
chip's prices and results are part of it) and every vendor they hold."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from comparisons.models import ComparisonVersion
from editorial.pages import declare, surface
from vendors.models import VendorVersion

from .files import FORMATS

URL_NAMES = (
    "opendata:index",
    "opendata:site",
    "opendata:rankings",
    "opendata:chips",
    "opendata:prices",
    "opendata:results",
    "opendata:vendor",
    "opendata:comparison",
)


def vendor_paths(version: VendorVersion) -> list[str]:
    return [reverse("opendata:vendor", args=[version.slug, format]) for format in FORMATS]


def comparison_paths(version: ComparisonVersion) -> list[str]:
    return [reverse("opendata:comparison", args=[version.slug, format]) for format in FORMATS]


def fixed_paths() -> Iterator[str]:
    yield from (reverse("opendata:index"), reverse("opendata:site"))
    yield from (reverse("opendata:rankings", args=[format]) for format in FORMATS)
    for name in ("opendata:chips", "opendata:prices", "opendata:results"):
        yield from (reverse(name, args=[format]) for format in FORMATS)


PAGES = surface(
    url_names=URL_NAMES,
    fixed=fixed_paths,
    per_item={"vendor": vendor_paths, "comparison": comparison_paths},
)


def register() -> None:
    declare(PAGES)
