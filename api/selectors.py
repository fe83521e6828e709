"""What the API answers, read from live published versions only, through the pages' own selectors.

Each function returns plain dicts shaped like api/schemas.py (a chip: api/chip_schemas.py),
or None when there is nothing live to show (the view answers 404). The vendor list filters
with the public list's own filterset, so the API and the page can never disagree about what
a filter means.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import EmptyPage, Page, Paginator
from django.http import HttpRequest, QueryDict
from django.urls import reverse

from chips.selectors import CHIPS_KEY, LiveChip, drawn, live_chip, live_chips
from claims.verification import PageVerification
from comparisons.documents import comparison_document_of
from comparisons.models import ComparisonVersion
from comparisons.selectors import editorial_table, live_comparison
from editorial.document_diff import plain
from editorial.models import PublishedVersion
from infra.stored import shows
from vendors.documents import document_of
from vendors.filters import VendorFilter
from vendors.listings import KeysFirstPaginator, add_score_cells
from vendors.models import SCORE_MAX, SCORE_MIN, VendorVersion, total_max
from vendors.selectors import (
    active_axes,
    described_axes,
    lanes_with_vendor_counts,
    live_vendors,
)

from . import chip_schemas

type Answer = dict[str, Any]  # JSON-ready, shaped like one of api/schemas.py

PAGE_PARAMETERS = ("page", "per_page")
MULTIPLE = ("lane",)  # the one filter that takes several values (?lane=a&lane=b)


class BadQuery(ValueError):
    """A query the API cannot answer as asked, in words the caller can act on."""


class NoSuchPage(LookupError):
    pass


# --- Shared pieces -----------------------------------------------------------------------


def _verification(verification: PageVerification) -> Answer:
    """A PageVerification (claims/verification.py) as the API shows it."""
    return {
        "verified_on": verification.oldest,
        "unverified_facts": verification.unverified,
        "facts": verification.facts,
    }


def _version(request: HttpRequest, version: PublishedVersion, *, url: str) -> Answer:
    return {
        "number": version.number,
        "published_at": version.published_at,
        "url": request.build_absolute_uri(url),
    }


def _vendor_version_url(slug: str, number: int) -> str:
    return reverse("vendors:version", kwargs={"slug": slug, "number": number})


def _api_vendor_url(request: HttpRequest, slug: str) -> str:
    return request.build_absolute_uri(reverse("api:vendor", kwargs={"slug": slug}))


def _page[T](paginator: Paginator[T], number: int) -> Page[T]:
    try:
        return paginator.page(number)
    except EmptyPage:
        pages, per_page = paginator.num_pages, paginator.per_page
        raise NoSuchPage(
            f"There is no page {number}: the list has {pages} page{'s' if pages != 1 else ''} of {per_page}."
        ) from None


def _page_links(request: HttpRequest, shown: Page[Any]) -> Answer:
    """Where a page of a list is, and the API addresses of the pages beside it (same query)."""

    def address(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    paginator = shown.paginator
    return {
        "count": paginator.count,
        "page": shown.number,
        "pages": paginator.num_pages,
        "per_page": paginator.per_page,
        "next": address(shown.next_page_number()) if shown.has_next() else None,
        "previous": address(shown.previous_page_number()) if shown.has_previous() else None,
    }


# --- Vendors ---------------------------------------------------------------------------------


def vendor_filter(query: QueryDict) -> VendorFilter:
    """The public vendor list's filterset over the live versions, bound to ``query``."""
    queryset = live_vendors().select_related("lane").defer("document", "history", "changes")
    return VendorFilter(query, queryset=queryset)


def query_problems(filterset: VendorFilter) -> list[str]:
    """What in the query the filterset refuses, and names it does not know, in words."""
    problems = []
    for name, errors in filterset.form.errors.items():
        shown = ", ".join(filterset.data.getlist(name))
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        problems.append(f"{name}: “{shown}” is not a value this list understands ({errors[0]})")
    known = set(filterset.filters) | set(PAGE_PARAMETERS)
    for name in sorted(set(filterset.data) - known):
        problems.append(f"unknown parameter “{name[:40]}” (known: {', '.join(sorted(known))})")
    for name in sorted(set(filterset.data) & known - set(MULTIPLE)):
        values = filterset.data.getlist(name)
        if len(values) > 1:
            problems.append(f"{name} is given {len(values)} times; give it once")
        elif values == [""]:
            problems.append(f"{name} is empty; leave it out or give it a value")
    return problems


def vendor_page(request: HttpRequest, *, page: int, per_page: int) -> Answer:
    """One page of the vendor list, filtered and sorted as the public list does."""
    shows("entries")
    filterset = vendor_filter(request.GET)
    filterset.form.is_valid()
    if problems := query_problems(filterset):
        raise BadQuery("; ".join(problems) + ".")
    paginator = KeysFirstPaginator(filterset.qs, per_page)
    shown = _page(paginator, page)
    axes = filterset.axes
    versions = add_score_cells(shown.object_list, axes=axes)
    shows(*(version.page_key for version in versions))  # each row names its version too
    most = total_max(len(axes))
    return {
        **_page_links(request, shown),
        "results": [
            {
                "slug": version.slug,
                "name": version.name,
                "company": version.company,
                "lane": version.lane,
                "best_for_line": version.alternative_blurb,
                "total": version.total,
                "total_max": most,
                "scores": [
                    {"axis": axis.slug, "value": score.value}
                    for axis, score in zip(axes, version.score_cells, strict=True)
                    if score is not None
                ],
                "verification": _verification(version.verification),
                "version": _version(request, version, url=_vendor_version_url(version.slug, version.number)),
                "url": request.build_absolute_uri(version.get_absolute_url()),
                "api_url": _api_vendor_url(request, version.slug),
            }
            for version in versions
        ],
    }


def _live_vendor(slug: str, *, document: bool = True) -> VendorVersion | None:
    versions = live_vendors().filter(slug=slug)
    return (versions if document else versions.defer("document")).first()


def vendor_detail(request: HttpRequest, *, slug: str) -> Answer | None:
    """A live profile: its live version's document, and what the site says of it now."""
    version = _live_vendor(slug)
    if version is None:
        return None
    page = document_of(version)
    axes = active_axes()
    logo = page.vendor.logo_url
    return {
        **page.as_json(),
        "verification": _verification(page.facts_verified),
        "version": _version(request, version, url=_vendor_version_url(version.slug, version.number)),
        "total": page.total_on(axes),
        "total_max": total_max(len(axes)),
        "active_axes": [axis.slug for axis in axes],
        "logo_url": request.build_absolute_uri("/" + logo.lstrip("/")) if logo else "",
        "url": request.build_absolute_uri(version.get_absolute_url()),
        "versions_url": request.build_absolute_uri(reverse("api:vendor-versions", kwargs={"slug": slug})),
    }


def vendor_versions(request: HttpRequest, *, slug: str) -> Answer | None:
    """The live version's change log (its ``history``), newest first: what the change log page
    lists, a long text's word diff written as text (“a [fast -> faster] chip”)."""
    version = _live_vendor(slug, document=False)
    if version is None:
        return None
    shows(version.history_key)
    axes = active_axes()
    entries = [
        {
            "number": entry["number"],
            "published_at": entry["published_at"],
            "first": entry.get("first", entry["number"] == 1),
            "changes": [plain(line) for line in entry["changes"]],
            "note": entry["note"],
            "scores": [
                {"axis": axis.slug, "value": entry["scores"][str(axis.pk)]}
                for axis in axes
                if str(axis.pk) in entry.get("scores", {})
            ],
            "url": request.build_absolute_uri(_vendor_version_url(version.slug, entry["number"])),
        }
        for entry in reversed(version.history)
    ]
    return {"vendor": version.slug, "count": len(entries), "results": entries}


# --- Chips ------------------------------------------------------------------------------------


def _chip(request: HttpRequest, chip: LiveChip) -> Answer:
    """A live chip as the API shows it: every value, price and result with its cited sources
    drawn out, and the figures derived from them with their arithmetic."""
    vendor, version = chip.vendor, chip.version
    shows(version.page_key)  # it names the live version: a verification's new one too
    derived = chip.chip.derived
    return {
        "slug": chip.slug,
        "name": chip.name,
        "vendor": {
            "slug": vendor.slug,
            "name": vendor.name,
            "url": request.build_absolute_uri(vendor.get_absolute_url()),
            "api_url": _api_vendor_url(request, vendor.slug),
        },
        "url": request.build_absolute_uri(chip.profile_url),
        "api_url": request.build_absolute_uri(reverse("api:chip", kwargs={"slug": chip.slug})),
        "version": _version(request, version, url=_vendor_version_url(vendor.slug, version.number)),
        "specs": [chip_schemas.ChipSpec.of(spec) for spec in chip.specs],
        "availability": [chip_schemas.ChipAvailability.of(row) for row in chip.availability],
        "prices": [chip_schemas.ChipPrice.of(row) for row in chip.chip.prices],
        "results": [chip_schemas.ChipResult.of(row) for row in chip.chip.results],
        "derived": [chip_schemas.ChipDerived.of(figure) for figure in derived],
        "lowest_on_demand": chip_schemas.ChipHourPrice.of(chip.chip.lowest_on_demand, derived),
    }


def chip_page(request: HttpRequest, *, page: int, per_page: int) -> Answer:
    """One page of the live chips, by vendor then in the editors' order: two queries."""
    shows(CHIPS_KEY)
    shown = _page(Paginator(live_chips(), per_page), page)
    return {
        **_page_links(request, shown),
        "results": [_chip(request, chip) for chip in drawn(shown.object_list)],
    }


def chip_detail(request: HttpRequest, *, slug: str) -> Answer | None:
    """A live chip, or None when no live version has a chip at ``slug``."""
    chip = live_chip(slug)
    return _chip(request, chip) if chip is not None else None


# --- Lanes and axes --------------------------------------------------------------------------


def lanes(request: HttpRequest) -> list[Answer]:
    vendors = reverse("api:vendors")
    return [
        {
            "slug": lane.slug,
            "name": lane.name,
            "description": lane.description,
            "position": lane.position,
            "vendor_count": lane.vendor_count,
            "url": request.build_absolute_uri(lane.get_absolute_url()),
            "vendors_api_url": request.build_absolute_uri(f"{vendors}?{urlencode({'lane': lane.slug})}"),
        }
        for lane in lanes_with_vendor_counts()
    ]


def axes() -> list[Answer]:
    return [
        {
            "slug": axis.slug,
            "name": axis.name,
            "description": axis.description,
            "position": axis.position,
            "score_min": SCORE_MIN,
            "score_max": SCORE_MAX,
        }
        for axis in described_axes()
    ]


# --- Comparisons -----------------------------------------------------------------------------


def comparison_list(request: HttpRequest) -> Answer:
    """Every live editorial comparison with its live vendors in column order: two queries."""
    shows("comparisons", "entries")
    versions = list(ComparisonVersion.objects.live().order_by("title").defer("history", "changes"))
    pages = [comparison_document_of(version) for version in versions]
    ids = {entry.vendor_id for page in pages for entry in page.entries}
    live = {
        version.item_id: version
        for version in live_vendors().filter(item_id__in=ids).only("item_id", "slug", "name")
    }
    results = []
    for version, page in zip(versions, pages, strict=True):
        columns = [live[entry.vendor_id] for entry in page.entries if entry.vendor_id in live]
        results.append(
            {
                "slug": version.slug,
                "title": version.title,
                "summary": version.summary,
                "verified_on": page.verified_on,
                "vendors": [
                    {"slug": v.slug, "name": v.name, "api_url": _api_vendor_url(request, v.slug)}
                    for v in columns
                ],
                "version": _version(request, version, url=version.get_absolute_url()),
                "url": request.build_absolute_uri(version.get_absolute_url()),
                "api_url": request.build_absolute_uri(
                    reverse("api:comparison", kwargs={"slug": version.slug})
                ),
            }
        )
    return {"count": len(results), "results": results}


CRITERION_BASES = {"facts": "attribute", "score": "axis", "assessment": "assessment"}


def comparison_detail(request: HttpRequest, *, slug: str) -> Answer | None:
    """A live editorial comparison: its document, its live vendors' columns and its own
    criteria as the page lines them up."""
    version = live_comparison(slug=slug)
    if version is None:
        return None
    page = comparison_document_of(version)
    table = editorial_table(page)
    rows = [row for row in table.rows if row.group == "criteria"]
    # Every source the answer cites: the document's, and those of the vendors' values shown.
    sources = {source.pk: source for source in table.sources}
    return {
        **page.as_json(),
        "sources": {pk: source.model_dump(mode="json") for pk, source in sorted(sources.items())},
        "vendors": [
            {
                "slug": vendor.slug,
                "name": vendor.name,
                "pick_if": entry.pick_if,
                "verification": _verification(verification),
                "api_url": _api_vendor_url(request, vendor.slug),
            }
            for entry, vendor, verification in zip(
                table.entries, table.vendors, table.verified_on, strict=True
            )
        ],
        "table": [
            {
                "name": row.label,
                "based_on": CRITERION_BASES[row.kind],
                "basis": row.note,
                "cells": [
                    {"vendor": vendor.slug, "leader": cell.leader, "values": cell.items}
                    for vendor, cell in zip(table.vendors, row.cells, strict=True)
                ],
            }
            for row in rows
        ],
        "version": _version(request, version, url=version.get_absolute_url()),
        "url": request.build_absolute_uri(version.get_absolute_url()),
    }
