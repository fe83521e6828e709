"""What the downloads hold, built from live published versions only.

Every value (a fact, event, score, answer or assessment) is one row that carries its
sources (title and URL), the date an editor last verified it and whether the vendor
stated it, so that whoever takes the data can still say where each value came from.
The same rows make a file's JSON and its CSV.
"""

import itertools
from dataclasses import dataclass, field

from django.urls import reverse

from vendors.documents import document_of
from vendors.models import SCORE_MAX, SCORE_MIN, Event, total_max

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
VALUE_COLUMNS = ["vendor", "kind", "label", "value", "reason", "vendor_stated", "verified_on", "stale"]


def iso(day):
    return day.isoformat() if day else None


def partial_date(date, precision):
    """An event's date at its precision, as ISO 8601 writes it: 2025-12-03, 2025-12 or 2025."""
    if precision == Event.Precision.YEAR:
        return f"{date:%Y}"
    if precision == Event.Precision.MONTH:
        return f"{date:%Y-%m}"
    return date.isoformat()


def source_dict(source):
    """A source as the downloads give it: the document's own fields."""
    return source.model_dump(mode="json")


def evidence_dict(evidence):
    """A citation's evidence as the downloads give it beside its source: the words and support."""
    if evidence is None:
        return {}
    return {"quote": evidence.quote, "support": evidence.support}


@dataclass
class Value:
    """One row of a download."""

    kind: str  # fact, event, score, faq, assessment
    label: str
    value: object
    vendor: str = ""
    reason: str = ""
    vendor_stated: bool | None = None  # None where the value cannot be vendor-stated
    verified_on: object = None
    stale: bool | None = None  # None where the value is not verified (vendors/freshness.py)
    sources: list = field(default_factory=list)
    claim: object = None  # the document's row, whose evidence each source carries

    @property
    def evidence(self):
        """Each source's evidence for this value, in the sources' order: its words and support."""
        if self.claim is None:
            return [None for _ in self.sources]
        return [self.claim.evidence_from(source.pk) for source in self.sources]

    def as_dict(self):
        return {
            "vendor": self.vendor,
            "kind": self.kind,
            "label": self.label,
            "value": self.value,
            "reason": self.reason,
            "vendor_stated": self.vendor_stated,
            "verified_on": iso(self.verified_on),
            "stale": self.stale,
            "sources": [
                source_dict(source) | evidence_dict(evidence)
                for source, evidence in zip(self.sources, self.evidence, strict=True)
            ],
        }

    def cells(self):
        return [
            self.vendor,
            self.kind,
            self.label,
            self.value,
            self.reason,
            self.vendor_stated,
            iso(self.verified_on),
            self.stale,
        ]


def profile_values(page, *, axes, fields=True, facts=True, events=True, faqs=True):
    """The values of a profile as its page shows them: scores on the active axes only."""
    name = page.vendor.name
    values = []
    if fields:  # the vendor's own fields, whatever the schema holds
        values += [Value("field", label, value, vendor=name) for label, value in page.vendor.described()]
    if facts:
        values += [
            Value(
                "fact",
                fact.attribute.name,
                fact.value,
                vendor=name,
                vendor_stated=fact.vendor_stated,
                verified_on=fact.verified_on,
                stale=fact.is_stale,
                sources=fact.cited,
                claim=fact,
            )
            for fact in page.facts
        ]
    if events:
        values += [
            Value(
                "event",
                partial_date(event.date, event.precision),
                event.text,
                vendor=name,
                verified_on=event.verified_on,
                stale=event.is_stale,
                sources=event.cited,
                claim=event,
            )
            for event in page.events
        ]
    values += [
        Value(
            "score",
            axis.name,
            score.value,
            vendor=name,
            reason=score.reason,
            verified_on=score.verified_on,
            stale=score.is_stale,
            sources=score.cited,
            claim=score,
        )
        for axis, score in page.scores_on(axes)
        if score
    ]
    if faqs:
        values += [
            Value("faq", faq.question, faq.answer, vendor=name, sources=faq.cited, claim=faq)
            for faq in page.faqs
        ]
    return values


def scale(axes):
    return {
        "score_min": SCORE_MIN,
        "score_max": SCORE_MAX,
        "total_max": total_max(len(axes)),
        "axes": [axis.name for axis in axes],
    }


def profile_export(version, *, axes, url, paths=None):
    """A profile's download: the vendor, its live version, and one entry per value."""
    paths = paths or Paths()
    page = document_of(version)
    vendor = page.vendor
    verification = page.facts_verified
    return {
        "licence": LICENCE,
        "title": f"{vendor.name} on chipsite",
        "url": url(paths.profile(vendor.slug)),
        "version": {
            "number": version.number,
            "published_at": version.published_at.isoformat(),
            "url": url(paths.version(version.slug, version.number)),
        },
        "vendor": {
            **vendor.model_dump(mode="json"),
            "total": version.total,
            "facts_verified": iso(verification.oldest),
            "facts_not_verified": verification.unverified,
            "stale_facts": page.stale_facts,
        },
        "scale": scale(axes),
        "values": [value.as_dict() for value in profile_values(page, axes=axes)],
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


def comparison_values(page, columns, *, axes):
    """A comparison's values: its vendors' facts and scores (from their live versions, as the
    table shows them), then its own assessments and answers."""
    values = []
    names = {}
    for version in columns:
        vendor_page = document_of(version)
        names[version.item_id] = vendor_page.vendor.name
        values += profile_values(vendor_page, axes=axes, fields=False, events=False, faqs=False)
    for criterion in page.criteria:
        for assessment in criterion.assessments:
            if assessment.vendor_id not in names:
                continue  # a column whose vendor is not live: the page leaves it out too
            values.append(
                Value(
                    "assessment",
                    criterion.name,
                    assessment.value or assessment.mark,
                    vendor=names[assessment.vendor_id],
                    reason=assessment.reason,
                    vendor_stated=assessment.vendor_stated,
                    verified_on=page.verified_on,
                    sources=assessment.cited,
                    claim=assessment,
                )
            )
    values += [Value("faq", faq.question, faq.answer, sources=faq.cited, claim=faq) for faq in page.faqs]
    return values


def comparison_export(version, page, columns, *, axes, url):
    return {
        "licence": LICENCE,
        "title": f"{page.title} on chipsite",
        "url": url(page.get_absolute_url()),
        "version": {"number": version.number, "published_at": version.published_at.isoformat()},
        "comparison": {
            "title": page.title,
            "slug": page.slug,
            "summary": page.summary,
            "intro": page.intro,
            "verdict": page.verdict,
            "verified_on": iso(page.verified_on),
            "vendors": [column.name for column in columns],
            "sources": [source_dict(source) for source in page.cited],
        },
        "scale": scale(axes),
        "values": [value.as_dict() for value in comparison_values(page, columns, axes=axes)],
    }


def values_csv_rows(values):
    """The header and rows of a values CSV: a title, URL, support and quote column per source,
    as many as the most-cited value needs, so that every source sits beside its value with
    what it says for it."""
    width = max((len(value.sources) for value in values), default=0) or 1
    header = list(VALUE_COLUMNS)
    for n in range(1, width + 1):
        header += [f"source_{n}_title", f"source_{n}_url", f"source_{n}_support", f"source_{n}_quote"]
    rows = []
    for value in values:
        cells = value.cells()
        for source, evidence in zip(value.sources, value.evidence, strict=True):
            said = evidence_dict(evidence)
            cells += [source.title, source.url, said.get("support", ""), said.get("quote", "")]
        rows.append(cells + [""] * (len(header) - len(cells)))
    return header, rows


RANKING_COLUMNS = ["position", "vendor", "company", "lane", "total", "total_max"]


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
    header = RANKING_COLUMNS + [axis.name for axis in axes] + ["facts_verified", "facts_not_verified", "url"]
    rows = [
        [entry[column] for column in RANKING_COLUMNS]
        + [entry["scores"][axis.name] for axis in axes]
        + [entry["facts_verified"], entry["facts_not_verified"], entry["url"]]
        for entry in entries
    ]
    return header, rows


CHIP_COLUMNS = [
    "chip",
    "vendor",
    "kind",
    "label",
    "quantity",
    "unit",
    "value",
    "value_unit",
    "scope",
    "precision",
    "sparse",
    "stage",
    "month",
    "vendor_stated",
    "verified_on",
    "stale",
]


def chip_values(chips):
    """One entry per value of every live chip (vendors.chip_selectors.LiveChip): each number as
    given and in its kind's unit, then each stage the chip reached with its month (kind
    “availability”), all with each source's title, address, support and quote. Every entry
    has every column: a number's stage and month are empty, a stage's quantity and unit."""

    def entry(chip, row, **fields):
        return {
            "chip": chip.name,
            "chip_slug": chip.slug,
            "vendor": chip.vendor.name,
            "vendor_slug": chip.vendor.slug,
            **fields,
            "vendor_stated": row.vendor_stated,
            "verified_on": iso(row.verified_on),
            "stale": row.is_stale,
            "sources": [
                source_dict(source) | evidence_dict(row.evidence_from(source.pk)) for source in row.cited
            ],
        }

    values = []
    for chip in chips:
        values += [
            entry(
                chip,
                spec,
                kind=spec.kind,
                label=spec.label,
                quantity=spec.quantity,
                unit=spec.unit,
                value=spec.value,
                value_unit=spec.display_unit,
                scope=spec.scope,
                precision=spec.precision,
                sparse=spec.sparse,
                stage="",
                month=None,
            )
            for spec in chip.specs
        ]
        values += [
            entry(
                chip,
                row,
                kind="availability",
                label=row.stage_label,
                quantity="",
                unit="",
                value=None,
                value_unit="",
                scope="chip",
                precision="",
                sparse=False,
                stage=row.stage,
                month=f"{row.month:%Y-%m}",
            )
            for row in chip.availability
        ]
    return values


def chips_export(values, *, url):
    return {
        "licence": LICENCE,
        "title": "AI chips and their numbers, on chipsite",
        "url": url(reverse("opendata:chips", args=["json"])),
        "values": values,
    }


def chips_csv_rows(values):
    """The header and rows of the chips CSV: one row per value, then a title, URL, support and
    quote column per source, as many as the most-cited value needs (as ``values_csv_rows``)."""
    width = max((len(value["sources"]) for value in values), default=0) or 1
    header = list(CHIP_COLUMNS)
    for n in range(1, width + 1):
        header += [f"source_{n}_title", f"source_{n}_url", f"source_{n}_support", f"source_{n}_quote"]
    rows = []
    for value in values:
        cells = [value[column] for column in CHIP_COLUMNS]
        for source in value["sources"]:
            cells += [source["title"], source["url"], source["support"], source["quote"]]
        rows.append(cells + [""] * (len(header) - len(cells)))
    return header, rows
