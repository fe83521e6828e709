"""How a comparison is published: its own text, columns and criteria as one document.

The vendors' facts and scores are not copied in: a comparison page lines up its vendors'
own live versions, so a vendor's published change shows on every comparison at once.
"""

from django.db.models import Prefetch
from django.urls import reverse

from editorial.diff import Kind
from editorial.registry import Publication
from vendors.markdown import plain_text
from vendors.models import Source
from vendors.publishing import cite_sources, faq_search_entry, iso_date

from .models import Assessment, Comparison, ComparisonFAQ, ComparisonVendor, ComparisonVersion, Criterion


def comparison_document(comparison):
    plain_sources = Prefetch("sources", queryset=Source.objects.order_by())
    comparison = Comparison.objects.prefetch_related(
        Prefetch("entries", queryset=ComparisonVendor.objects.order_by("position", "pk")),
        Prefetch(
            "criteria",
            queryset=Criterion.objects.select_related("attribute", "axis").prefetch_related(
                Prefetch(
                    "assessments",
                    queryset=Assessment.objects.select_related("entry").prefetch_related(plain_sources),
                )
            ),
        ),
        Prefetch("faqs", queryset=ComparisonFAQ.objects.prefetch_related(plain_sources)),
        plain_sources,
    ).get(pk=comparison.pk)
    sources = {}
    return {
        "comparison": {
            "id": comparison.pk,
            "title": comparison.title,
            "slug": comparison.slug,
            "summary": comparison.summary,
            "intro": comparison.intro,
            "verdict": comparison.verdict,
            "verified_on": iso_date(comparison.verified_on),
            "sources": cite_sources(comparison, sources),
        },
        "entries": [
            {"vendor_id": entry.vendor_id, "pick_if": entry.pick_if} for entry in comparison.entries.all()
        ],
        "criteria": [
            {
                "id": criterion.pk,
                "name": criterion.name,
                "attribute": {"id": criterion.attribute_id, "name": criterion.attribute.name}
                if criterion.attribute_id
                else None,
                "axis": {"id": criterion.axis_id, "name": criterion.axis.name} if criterion.axis_id else None,
                "assessments": [
                    {
                        "id": assessment.pk,
                        "vendor_id": assessment.entry.vendor_id,
                        "value": assessment.value,
                        "mark": assessment.mark,
                        "reason": assessment.reason,
                        "vendor_stated": assessment.vendor_stated,
                        "sources": cite_sources(assessment, sources),
                    }
                    for assessment in criterion.assessments.all()
                ],
            }
            for criterion in comparison.criteria.all()
        ],
        "faqs": [
            {
                "id": faq.pk,
                "question": faq.question,
                "answer": faq.answer,
                "sources": cite_sources(faq, sources),
            }
            for faq in comparison.faqs.all()
        ],
        "sources": sources,
    }


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

    def document(self, obj):
        return comparison_document(obj)

    def columns(self, document):
        comparison = document["comparison"]
        return {"slug": comparison["slug"], "title": comparison["title"], "summary": comparison["summary"]}

    def search_entries(self, document):
        comparison = document["comparison"]
        page = reverse("comparisons:detail", kwargs={"slug": comparison["slug"]})
        texts = [comparison[key] for key in ("summary", "intro", "verdict")]
        entries = [
            {
                "kind": "comparison",
                "title": comparison["title"],
                "keywords": " ".join(criterion["name"] for criterion in document["criteria"]),
                "body": " ".join(plain_text(text) for text in texts if text),
                "url": page,
            },
            *(faq_search_entry(faq, page) for faq in document["faqs"]),
        ]
        return [
            {**entry, "page": comparison["title"], "position": position}
            for position, entry in enumerate(entries)
        ]

    def after_write(self, version):
        version.vendors.set([entry["vendor_id"] for entry in version.document["entries"]])
