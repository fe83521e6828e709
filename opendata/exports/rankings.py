"""The rankings' download: one entry per live vendor, in the editorial order."""

import itertools

from django.urls import reverse

from vendors.models import total_max

from .common import LICENCE, Paths, iso, scale

RANKING_COLUMNS = ["position", "vendor", "company", "lane", "total", "total_max"]
LAST_COLUMNS = ["facts_verified", "facts_not_verified", "scores_stale", "scores_never_verified", "url"]


def ranking_entries(versions, scores, *, axes, url):
    """The rankings in the editorial order, one entry per live vendor: a scored vendor has its
    place, one not scored yet none (``position`` null, an empty cell), as the page lists it apart."""
    paths = Paths()
    out_of = total_max(len(axes))
    places = itertools.count(1)
    return [
        {
            "position": next(places) if version.is_scored else None,
            "vendor": version.name,
            "slug": version.slug,
            "company": version.company,
            "lane": version.lane.name if version.lane else "",
            "total": version.total,
            "total_max": out_of,
            "scores": {axis.name: scores.get((version.pk, axis.pk)) for axis in axes},
            "facts_verified": iso(version.verified_on),
            "facts_not_verified": version.unverified_facts,
            # The stale rule's answer for its scores (the API's ``stale``), as the page says it.
            "scores_stale": version.scores_verified.stale,
            "scores_never_verified": version.scores_verified.never,
            "url": url(paths.profile(version.slug)),
        }
        for version in versions
    ]


def rankings_export(entries, *, axes, url):
    return {
        "licence": LICENCE,
        "title": "AI chip companies: the rankings, on chipsite",
        "url": url(reverse("vendors:rankings")),
        "scale": scale(axes),
        "vendors": entries,
    }


def rankings_csv_rows(entries, *, axes):
    header = RANKING_COLUMNS + [axis.name for axis in axes] + LAST_COLUMNS
    rows = [
        [entry[column] for column in RANKING_COLUMNS]
        + [entry["scores"][axis.name] for axis in axes]
        + [entry[column] for column in LAST_COLUMNS]
        for entry in entries
    ]
    return header, rows
