"""The read API's stored answers (infra/stored/): the detail answers, lanes, axes and the
comparisons, asked without a query string. Lists with filters are answered on demand."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from chips.models import VersionChip
from chips.selectors import live_chips
from comparisons.models import ComparisonVersion
from editorial.pages import declare, surface
from vendors.models import VendorVersion

URL_NAMES = (
    "api:vendor",
    "api:vendor-versions",
    "api:lanes",
    "api:axes",
    "api:comparisons",
    "api:comparison",
    "api:chip",
    "api:openapi-json",
    "api:openapi-view",
)


def vendor_paths(version: VendorVersion) -> list[str]:
    return [reverse("api:vendor", args=[version.slug]), reverse("api:vendor-versions", args=[version.slug])]


def chip_paths(version: VendorVersion) -> list[str]:
    """The chips of a newly live version: rendered at its publish, not when first asked for."""
    slugs = VersionChip.objects.filter(version=version).order_by("position").values_list("slug", flat=True)
    return [reverse("api:chip", args=[slug]) for slug in slugs]


def published_vendor_paths(version: VendorVersion) -> list[str]:
    return [*vendor_paths(version), *chip_paths(version)]


def comparison_paths(version: ComparisonVersion) -> list[str]:
    return [reverse("api:comparison", args=[version.slug])]


def fixed_paths() -> Iterator[str]:
    yield from (reverse("api:openapi-json"), reverse("api:openapi-view"))
    yield from (reverse("api:lanes"), reverse("api:axes"), reverse("api:comparisons"))
    for slug in live_chips().order_by("slug").values_list("slug", flat=True):  # every live chip, in one query
        yield reverse("api:chip", args=[slug])


PAGES = surface(
    url_names=URL_NAMES,
    fixed=fixed_paths,
    per_item={"vendor": vendor_paths, "comparison": comparison_paths},
    at_publish={"vendor": published_vendor_paths, "comparison": comparison_paths},
)


def register() -> None:
    declare(PAGES)
