"""What every download shares: the licence, how a date and a source are written, the
scoring scale, and the addresses of profiles and versions."""

from django.urls import reverse

from vendors.models import SCORE_MAX, SCORE_MIN, total_max

LICENCE = {
    "name": "Creative Commons Attribution 4.0 International (CC BY 4.0)",
    "id": "CC-BY-4.0",
    "url": "https://creativecommons.org/licenses/by/4.0/",
    "attribution": "chipsite",
}
LICENCE_NOTE = (
    "You may share and adapt this data for any purpose, including commercially, if you credit "
    "“chipsite” and link to the licence. Each value names the sources it rests on."
)


def iso(day):
    return day.isoformat() if day else None


def source_dict(source):
    """A source as the downloads give it: the document's own fields."""
    return source.model_dump(mode="json")


# What a citation says beside its source (claims.documents.Evidence), in this order in a CSV: its
# support, its words, whether they are the source's own (quote) or our summary, and what the last
# check of the source found of a quote (true, false, or empty when not checked yet) and when.
SAID = ("support", "quote", "wording", "quote_found", "quote_checked_at")


def evidence_dict(evidence):
    """A citation's evidence as the downloads give it beside its source: its words, their
    support, their wording and what the last check of the source found of them."""
    if evidence is None:
        return {}
    return evidence.model_dump(mode="json", include=set(SAID))


def source_columns(n):
    """The CSV columns of a value's ``n``th source: its title and address, then what it says."""
    return [f"source_{n}_{name}" for name in ("title", "url", *SAID)]


def source_cells(source, said):
    """The cells of ``source_columns``: a source's title and address (a dict of the download's
    JSON, or the document's Source) and ``said`` (its ``evidence_dict``)."""
    title, url = (source["title"], source["url"]) if isinstance(source, dict) else (source.title, source.url)
    return [title, url, *(said.get(name, "") for name in SAID)]


def rows_with_sources(values, columns):
    """The header and rows of a CSV of download entries (dicts with ``sources``): ``columns``,
    then a title, URL and what it says (``SAID``) per source, as many as the most-cited entry needs."""
    width = max((len(value["sources"]) for value in values), default=0) or 1
    header = list(columns)
    for n in range(1, width + 1):
        header += source_columns(n)
    rows = []
    for value in values:
        cells = [value[column] for column in columns]
        for source in value["sources"]:
            cells += source_cells(source, source)
        rows.append(cells + [""] * (len(header) - len(cells)))
    return header, rows


def scale(axes):
    return {
        "score_min": SCORE_MIN,
        "score_max": SCORE_MAX,
        "total_max": total_max(len(axes)),
        "axes": [axis.name for axis in axes],
    }


class Paths:
    """A profile's and a version's address for many rows at once: each URL pattern is
    reversed once, then filled in (a slug needs no quoting), not reversed once a row."""

    SLUG, NUMBER = "slug-placeholder", 987654321

    def __init__(self):
        self._profile = reverse("vendors:detail", kwargs={"slug": self.SLUG})
        self._version = reverse("vendors:version", kwargs={"slug": self.SLUG, "number": self.NUMBER})

    def profile(self, slug):
        return self._profile.replace(self.SLUG, slug)

    def version(self, slug, number):
        return self._version.replace(self.SLUG, slug).replace(str(self.NUMBER), str(number))
