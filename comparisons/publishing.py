"""How a comparison is published: its own text, columns and criteria as one document.

The vendors' facts and scores are not copied in: a comparison page lines up its vendors'
own live versions, so a vendor's published change shows on every comparison at once.
"""

import copy
from typing import Any

from django.db.models import Prefetch

from claims.document_checks import carry_checks, document_content
from claims.markdown import plain_text
from claims.models import Source, citations_of
from editorial.diff import Kind
from editorial.models import Editable, PublishedVersion
from editorial.registry import Document, Publication
from vendors.publishing import faq_search_entry

from .documents import ComparisonDocument, comparison_document_of
from .models import Assessment, Comparison, ComparisonFAQ, ComparisonVendor, ComparisonVersion, Criterion


def comparison_document(comparison: Editable) -> Document:
    plain_sources = Prefetch(
        "sources", queryset=Source.objects.order_by().defer("page_text", "previous_page_text")
    )
    found = Comparison.objects.prefetch_related(
        Prefetch("entries", queryset=ComparisonVendor.objects.order_by("position", "pk")),
        Prefetch(
            "criteria",
            queryset=Criterion.objects.select_related("attribute", "axis").prefetch_related(
                Prefetch(
                    "assessments",
                    queryset=Assessment.objects.select_related("entry").prefetch_related(
                        plain_sources, citations_of(Assessment)
                    ),
                )
            ),
        ),
        Prefetch(
            "faqs",
            queryset=ComparisonFAQ.objects.prefetch_related(plain_sources, citations_of(ComparisonFAQ)),
        ),
        plain_sources,
        citations_of(Comparison),
    ).get(pk=comparison.pk)
    return ComparisonDocument.build(found).as_json()


class ComparisonPublication(Publication):
    model = Comparison
    version_model = ComparisonVersion
    noun = "comparison"
    diff_kinds = {
        "comparisons.comparisonvendor": Kind("Vendor", "ref:vendor", "pick_if"),
        "comparisons.criterion": Kind("Criterion", "name"),
        "comparisons.assessment": Kind("Assessment", "ref:criterion", "mark"),
        "comparisons.comparisonfaq": Kind("FAQ", "question"),
    }

    document_schema = ComparisonDocument

    def document(self, obj: Editable) -> Document:
        return comparison_document(obj)

    def columns(self, document: Document) -> dict[str, Any]:
        page = ComparisonDocument.parse(document)
        return {"slug": page.slug, "title": page.title, "summary": page.summary}

    def search_entries(self, document: Document) -> list[dict[str, Any]]:
        page = ComparisonDocument.parse(document)
        url = page.get_absolute_url()
        texts = [page.summary, page.intro, page.verdict]
        entries = [
            {
                "kind": "comparison",
                "title": page.title,
                "keywords": " ".join(criterion.name for criterion in page.criteria),
                "body": " ".join(plain_text(text) for text in texts if text),
                "url": url,
            },
            *(faq_search_entry(faq, url) for faq in page.faqs),
        ]
        return [{**entry, "page": page.title, "position": position} for position, entry in enumerate(entries)]

    def content(self, document: Document) -> Document:
        return document_content(document)  # what checks found is not content

    def restamp(self, document: Document, obj: Editable) -> Document:
        """What checks found since: its sources' problems and its quotes' checks, content untouched."""
        restamped = copy.deepcopy(document)
        carry_checks(target=restamped, source=comparison_document(obj))
        return ComparisonDocument.parse(restamped).as_json()

    def after_write(self, version: PublishedVersion) -> None:
        assert isinstance(version, ComparisonVersion)
        version.vendors.set([entry.vendor_id for entry in comparison_document_of(version).entries])
