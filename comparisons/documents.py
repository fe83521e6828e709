"""The read side of a comparison's document: plain objects the template uses."""

import datetime as dt
from dataclasses import dataclass, field

from django.urls import reverse

from vendors.documents import Claim, Named, read_sources


@dataclass
class Entry:
    vendor_id: int
    pick_if: str
    vendor: object = None  # the column's VendorPage, once its live version is known


@dataclass
class AssessmentItem:
    pk: int
    vendor_id: int
    value: str
    mark: int | None
    reason: str
    vendor_stated: bool
    cited: list
    notes: list = field(default_factory=list)


@dataclass
class CriterionItem:
    pk: int
    name: str
    attribute: Named | None
    axis: Named | None
    assessments: list


@dataclass
class ComparisonPage:
    pk: int
    title: str
    slug: str
    summary: str
    intro: str
    verdict: str
    verified_on: dt.date | None
    cited: list
    entries: list
    criteria: list
    faqs: list
    notes: list = field(default_factory=list)

    def get_absolute_url(self):
        return reverse("comparisons:detail", kwargs={"slug": self.slug})

    def __str__(self):
        return self.title


def _named(ref):
    return Named(ref["id"], ref["name"]) if ref else None


def read_comparison(document):
    sources = read_sources(document)
    c = document["comparison"]
    return ComparisonPage(
        pk=c["id"],
        title=c["title"],
        slug=c["slug"],
        summary=c["summary"],
        intro=c["intro"],
        verdict=c["verdict"],
        verified_on=dt.date.fromisoformat(c["verified_on"]) if c["verified_on"] else None,
        cited=[sources[pk] for pk in c["sources"]],
        entries=[Entry(vendor_id=e["vendor_id"], pick_if=e["pick_if"]) for e in document["entries"]],
        criteria=[
            CriterionItem(
                pk=row["id"],
                name=row["name"],
                attribute=_named(row["attribute"]),
                axis=_named(row["axis"]),
                assessments=[
                    AssessmentItem(
                        pk=a["id"],
                        vendor_id=a["vendor_id"],
                        value=a["value"],
                        mark=a["mark"],
                        reason=a["reason"],
                        vendor_stated=a["vendor_stated"],
                        cited=[sources[pk] for pk in a["sources"]],
                    )
                    for a in row["assessments"]
                ],
            )
            for row in document["criteria"]
        ],
        faqs=[
            Claim(
                pk=f["id"],
                cited=[sources[pk] for pk in f["sources"]],
                question=f["question"],
                answer=f["answer"],
            )
            for f in document["faqs"]
        ],
    )
