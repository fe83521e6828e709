"""The published document of an editorial comparison: one typed schema (see vendors/documents.py).

The vendors' facts and scores are not in it: a comparison page lines up its vendors' own live
versions. It holds the comparison's text, its columns (which vendors, in order), its criteria
with the editors' assessments, its FAQs, and the sources these cite.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.urls import reverse
from pydantic import AliasChoices, AliasPath, Field, PrivateAttr, field_validator

from claims.documents import Claim, Note, Part, PublishedDocument, Source, related_rows
from vendors.documents import FAQ, Attribute, Axis, Vendor

if TYPE_CHECKING:
    from . import models as working  # the working copy's rows, which share these classes' names


class Entry(Part):
    """A column: a vendor, and the editors' “Pick this if …”."""

    vendor_id: int
    pick_if: str = Field(description="Completes “Pick this if …”.")
    _vendor: Vendor | None = PrivateAttr(None)

    @property
    def vendor(self) -> Vendor | None:
        """The column's vendor, once its live version is known (comparisons.selectors)."""
        return self._vendor


class Assessment(Claim):
    """The editors' own judgement of one vendor on a criterion."""

    # A working copy's assessment hangs off its vendor row (``entry``).
    vendor_id: int = Field(validation_alias=AliasChoices("vendor_id", AliasPath("entry", "vendor_id")))
    value: str
    mark: int | None = Field(description="A mark, where the editors gave one.")
    reason: str
    vendor_stated: bool


class Criterion(Part):
    """A row of the comparison: an at-a-glance attribute, an axis, or the editors' assessments."""

    id: int
    name: str
    attribute: Attribute | None = Field(description="The attribute the row shows, if it is one.")
    axis: Axis | None = Field(description="The axis the row shows, if it is one.")
    assessments: list[Assessment]

    rows = field_validator("assessments", mode="before")(related_rows)


class ComparisonText(Claim):
    """The comparison's own fields as published. Text an editor writes is Markdown."""

    title: str
    slug: str
    summary: str
    intro: str
    verdict: str
    verified_on: dt.date | None


class ComparisonDocument(PublishedDocument):
    """A comparison as published (schema 2)."""

    comparison: ComparisonText
    entries: list[Entry] = Field(description="Its vendors, in column order.")
    criteria: list[Criterion]
    faqs: list[FAQ]

    def claims(self) -> Iterable[Claim]:
        yield self.comparison
        for criterion in self.criteria:
            yield from criterion.assessments
        yield from self.faqs

    # The page reads the comparison's own fields as the page's.
    @property
    def pk(self) -> int:
        return self.comparison.id

    @property
    def title(self) -> str:
        return self.comparison.title

    @property
    def slug(self) -> str:
        return self.comparison.slug

    @property
    def summary(self) -> str:
        return self.comparison.summary

    @property
    def intro(self) -> str:
        return self.comparison.intro

    @property
    def verdict(self) -> str:
        return self.comparison.verdict

    @property
    def verified_on(self) -> dt.date | None:
        return self.comparison.verified_on

    @property
    def cited(self) -> list[Source]:
        return self.comparison.cited

    @property
    def notes(self) -> list[Note]:
        return self.comparison.notes

    def get_absolute_url(self) -> str:
        return reverse("comparisons:detail", kwargs={"slug": self.slug})

    def __str__(self) -> str:
        return self.title

    @classmethod
    def build(cls, comparison: working.Comparison) -> ComparisonDocument:
        """The document of a working copy whose rows are prefetched (comparisons.publishing)."""
        criteria = list(comparison.criteria.all())
        rows: list[working.Comparison | working.Assessment | working.ComparisonFAQ] = [
            comparison,
            *(a for c in criteria for a in c.assessments.all()),
            *comparison.faqs.all(),
        ]
        return cls.model_validate(
            {
                "comparison": comparison,
                "entries": list(comparison.entries.all()),
                "criteria": criteria,
                "faqs": list(comparison.faqs.all()),
                "sources": cls.cited_by(rows),
            }
        )


comparison_document_of = ComparisonDocument.of  # the comparison pages, API, downloads and corrections
