"""Each download as a file: its bytes, type and name, built the same way for the download
itself and for the size the /data/ page lists."""

import datetime as dt
import json
from dataclasses import dataclass

from django.urls import reverse

from infra import tabular
from vendors.documents import document_of

from . import exports, selectors

JSON_TYPE = "application/json"
FORMATS = ("csv", "json")


@dataclass
class File:
    content: bytes
    content_type: str
    filename: str
    href: str  # its address
    updated: object = None  # when the newest live version it holds went live

    @property
    def label(self):
        return self.filename.rsplit(".", 1)[-1].upper()

    @property
    def size(self):
        return len(self.content)


def json_file(data, filename, href):
    # Compact, so that the C encoder writes it: a browser or jq lays it out for reading.
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    return File(text.encode(), JSON_TYPE, filename, href)


def csv_file(header_and_rows, filename, href):
    header, rows = header_and_rows
    return File(tabular.csv_text(header, rows).encode(), tabular.CONTENT_TYPE, filename, href)


def profile_file(version, format, *, axes, url):
    name = f"chipsite-vendor-{version.slug}.{format}"
    href = reverse("opendata:vendor", args=[version.slug, format])
    if format == "json":
        return json_file(exports.profile_export(version, axes=axes, url=url), name, href)
    values = exports.profile_values(document_of(version), axes=axes)
    return csv_file(exports.values_csv_rows(values), name, href)


def comparison_file(version, page, columns, format, *, axes, url):
    name = f"chipsite-comparison-{version.slug}.{format}"
    href = reverse("opendata:comparison", args=[version.slug, format])
    if format == "json":
        return json_file(exports.comparison_export(version, page, columns, axes=axes, url=url), name, href)
    values = exports.comparison_values(page, columns, axes=axes)
    return csv_file(exports.values_csv_rows(values), name, href)


def rankings_file(entries, format, *, axes, url):
    name = f"chipsite-rankings.{format}"
    href = reverse("opendata:rankings", args=[format])
    if format == "json":
        return json_file(exports.rankings_export(entries, axes=axes, url=url), name, href)
    return csv_file(exports.rankings_csv_rows(entries, axes=axes), name, href)


def chips_file(values, format, *, url):
    """Every value of every live chip (``exports.chip_values``), as CSV or JSON."""
    name = f"chipsite-chips.{format}"
    href = reverse("opendata:chips", args=[format])
    if format == "json":
        return json_file(exports.chips_export(values, url=url), name, href)
    return csv_file(exports.chips_csv_rows(values), name, href)


def prices_file(values, format, *, url):
    """Every price of every live chip (``exports.price_values``), as CSV or JSON."""
    name = f"chipsite-prices.{format}"
    href = reverse("opendata:prices", args=[format])
    if format == "json":
        return json_file(exports.prices_export(values, url=url), name, href)
    return csv_file(exports.prices_csv_rows(values), name, href)


def results_file(values, format, *, url):
    """Every measured result of every live chip (``exports.result_values``), as CSV or JSON."""
    name = f"chipsite-results.{format}"
    href = reverse("opendata:results", args=[format])
    if format == "json":
        return json_file(exports.results_export(values, url=url), name, href)
    return csv_file(exports.results_csv_rows(values), name, href)


def site_data(*, axes, url, rankings):
    """Everything visitors can read now, in one document: lanes, the rankings, every live
    profile and every live editorial comparison, each value with its sources and dates."""
    versions = list(selectors.vendor_versions_with_documents())
    comparisons = list(selectors.live_comparisons())
    pages = selectors.read_comparisons(comparisons)
    columns = selectors.comparison_columns(pages)
    updated = max((v.published_at for v in [*versions, *comparisons]), default=None)
    paths = exports.Paths()

    def without_licence(data):
        data.pop("licence")
        return data

    return {
        "licence": exports.LICENCE,
        "licence_note": exports.LICENCE_NOTE,
        "title": "chipsite: AI-chip vendors, scores and comparisons",
        "url": url("/"),
        "updated": updated.isoformat() if updated else None,
        "scale": exports.scale(axes),
        "lanes": [
            {"name": lane.name, "slug": lane.slug, "vendors": lane.vendor_count}
            for lane in selectors.lanes_with_vendor_counts()
        ],
        "rankings": rankings,
        "vendors": [
            without_licence(exports.profile_export(v, axes=axes, url=url, paths=paths)) for v in versions
        ],
        "comparisons": [
            without_licence(exports.comparison_export(version, page, columns[page.pk], axes=axes, url=url))
            for version, page in zip(comparisons, pages, strict=True)
        ],
    }


def site_file(*, axes, url, rankings):
    data = site_data(axes=axes, url=url, rankings=rankings)
    file = json_file(data, "chipsite.json", reverse("opendata:site"))
    file.updated = dt.datetime.fromisoformat(data["updated"]) if data["updated"] else None
    return file


def profile_listing(versions, *, axes, url):
    """(version, its files) for each live profile on a page of /data/."""
    return [
        (version, [profile_file(version, f, axes=axes, url=url) for f in FORMATS]) for version in versions
    ]


def comparison_listing(*, axes, url):
    """(version, when its data last changed, its files) for each live editorial comparison."""
    versions = list(selectors.live_comparisons())
    pages = selectors.read_comparisons(versions)
    columns = selectors.comparison_columns(pages)
    return [
        (
            version,
            # The file holds its vendors' values too: it changes when any of them does.
            max([version.published_at, *(column.published_at for column in columns[page.pk])]),
            [comparison_file(version, page, columns[page.pk], f, axes=axes, url=url) for f in FORMATS],
        )
        for version, page in zip(versions, pages, strict=True)
    ]
