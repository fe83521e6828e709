"""The read side of a published document: plain objects the templates can use.

A profile page, a comparison column and an editor's preview all go through here, from a
version's document or from one built from the working copy.
"""

import datetime as dt
from dataclasses import dataclass, field

from django.conf import settings
from django.urls import reverse

from .models import display_date, stale_before
from .verification import page_verification


def _date(text):
    return dt.date.fromisoformat(text) if text else None


@dataclass
class SourceRef:
    pk: int
    title: str
    publisher: str
    url: str
    accessed_on: dt.date | None
    archive_url: str = ""  # an archived copy; versions published before it existed have none

    def as_dict(self):
        """What the read API and the downloads say of a source."""
        return {
            "title": self.title,
            "publisher": self.publisher,
            "url": self.url,
            "accessed_on": self.accessed_on,
            "archive_url": self.archive_url,
        }


@dataclass
class LaneRef:
    pk: int
    name: str
    slug: str

    def get_absolute_url(self):
        return reverse("vendors:lane", kwargs={"slug": self.slug})


@dataclass
class Named:
    pk: int
    name: str
    position: int = 0

    def __str__(self):
        return self.name


@dataclass
class Claim:
    """A fact, event, score or answer: what it says, when it was verified, what it cites."""

    pk: int
    cited: list
    verified_on: dt.date | None = None
    notes: list = field(default_factory=list)  # (number, source), filled by Footnotes
    # A fact
    attribute: Named | None = None
    value: object = None
    vendor_stated: bool = False
    is_stale: bool = False
    # An event
    date: dt.date | None = None
    precision: str = ""
    text: str = ""
    # A score
    axis: Named | None = None
    reason: str = ""
    # An answer
    question: str = ""
    answer: str = ""

    @property
    def display_date(self):
        return display_date(self.date, self.precision)


@dataclass
class VendorPage:
    """The vendor's own fields as published."""

    pk: int
    name: str
    slug: str
    company: str
    lane: LaneRef
    logo: str
    summary: str
    what_it_is: str
    best_for: str
    watch_out: str
    verdict: str
    alternative_blurb: str

    def get_absolute_url(self):
        return reverse("vendors:detail", kwargs={"slug": self.slug})

    @property
    def logo_url(self):
        return f"{settings.MEDIA_URL}{self.logo}" if self.logo else ""

    def __str__(self):
        return self.name


@dataclass
class VendorDocument:
    vendor: VendorPage
    facts: list
    events: list
    scores: list
    faqs: list

    @property
    def verification(self):
        return page_verification(fact.verified_on for fact in self.facts)

    def scores_on(self, axes):
        """(axis, score or None) for each of ``axes``, in their order: the scores every page,
        the API and the downloads show, whatever axes the version was published with."""
        by_axis = {score.axis.pk: score for score in self.scores}
        return [(axis, by_axis.get(axis.pk)) for axis in axes]


def read_sources(document):
    return {
        int(pk): SourceRef(
            pk=int(pk),
            title=s["title"],
            publisher=s["publisher"],
            url=s["url"],
            accessed_on=_date(s["accessed_on"]),
            archive_url=s.get("archive_url", ""),
        )
        for pk, s in document["sources"].items()
    }


def read_document(document):
    """Objects for a version's document (or a working copy's)."""
    sources = read_sources(document)

    def claim(row, **extra):
        return Claim(pk=row["id"], cited=[sources[pk] for pk in row["sources"]], **extra)

    cutoff = stale_before()
    facts = []
    for row in document["facts"]:
        verified = _date(row["verified_on"])
        facts.append(
            claim(
                row,
                attribute=Named(
                    row["attribute"]["id"], row["attribute"]["name"], row["attribute"]["position"]
                ),
                value=row["value"],
                vendor_stated=row["vendor_stated"],
                verified_on=verified,
                # The same rule as Fact.objects.stale().
                is_stale=verified is None or verified < cutoff,
            )
        )
    v = document["vendor"]
    return VendorDocument(
        vendor=VendorPage(
            pk=v["id"],
            name=v["name"],
            slug=v["slug"],
            company=v["company"],
            lane=LaneRef(v["lane"]["id"], v["lane"]["name"], v["lane"]["slug"]),
            logo=v["logo"],
            summary=v["summary"],
            what_it_is=v["what_it_is"],
            best_for=v["best_for"],
            watch_out=v["watch_out"],
            verdict=v["verdict"],
            alternative_blurb=v["alternative_blurb"],
        ),
        facts=facts,
        events=[
            claim(
                row,
                date=_date(row["date"]),
                precision=row["precision"],
                text=row["text"],
                verified_on=_date(row["verified_on"]),
            )
            for row in document["events"]
        ],
        scores=[
            claim(
                row,
                axis=Named(row["axis"]["id"], row["axis"]["name"]),
                value=row["value"],
                reason=row["reason"],
                verified_on=_date(row["verified_on"]),
            )
            for row in document["scores"]
        ],
        faqs=[claim(row, question=row["question"], answer=row["answer"]) for row in document["faqs"]],
    )
