"""An editorial comparison's download: its vendors' values as its table shows them, then its
own assessments and answers."""

from vendors.documents import document_of

from .common import LICENCE, iso, scale, source_dict
from .profiles import profile_values
from .values import Value


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
