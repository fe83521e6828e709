"""The comparisons' stored pages (infra/stored/), declared once (``PAGES``): which addresses
are stored, every one of them for a full render or the export, a live comparison's own, and
what a publish changes for visitors (``page_keys``). editorial.pages acts on it."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import reverse

from editorial.pages import Pages, declare

from .models import ComparisonVersion

URL_NAMES = ("comparisons:list", "comparisons:detail", "comparisons:version", "comparisons:citation")
CITATION_FORMATS = ("bib", "json")


def version_paths(slug: str, number: int) -> list[str]:
    return [
        reverse("comparisons:version", args=[slug, number]),
        *(reverse("comparisons:citation", args=[slug, number, format]) for format in CITATION_FORMATS),
    ]


def item_paths(version: ComparisonVersion) -> list[str]:
    return [reverse("comparisons:detail", args=[version.slug]), *version_paths(version.slug, version.number)]


def every_path() -> Iterator[str]:
    yield reverse("comparisons:list")
    slugs = dict(ComparisonVersion.objects.live().values_list("item_id", "slug"))
    for slug in slugs.values():
        yield reverse("comparisons:detail", args=[slug])
    numbers = ComparisonVersion.objects.past().filter(item_id__in=slugs).values_list("item_id", "number")
    for item_id, number in numbers.order_by("item_id", "number"):
        yield from version_paths(slugs[item_id], number)


def entry(version: ComparisonVersion | None) -> tuple | None:
    """What other pages show of a comparison: profiles and the list name it with its summary."""
    if version is None:
        return None
    return (
        version.slug,
        version.title,
        version.summary,
        sorted(version.vendors.values_list("pk", flat=True)),
    )


def page_keys(before: ComparisonVersion | None, after: ComparisonVersion | None) -> set[str]:
    version = after or before
    assert version is not None
    keys = {version.page_key}
    if before is None or after is None or before.slug != after.slug:
        keys.add(version.archive_key)  # its versions' pages go live, go away or move
    if entry(before) != entry(after):
        keys.add("comparisons")  # every profile lists a few comparisons, the list all of them
    if after is None or after.content_changed:
        keys.add("changes")  # the site's feed
    return keys


PAGES = Pages(
    url_names=URL_NAMES,
    every_path=every_path,
    item_paths={"comparison": item_paths},
    page_keys={"comparison": page_keys},
)


def register() -> None:
    declare(PAGES)
