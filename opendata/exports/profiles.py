"""A profile's download: the vendor, its live version, and one row per value."""

from vendors.documents import document_of
from vendors.models import Event

from .common import LICENCE, Paths, iso, scale
from .values import Value


def partial_date(date, precision):
    """An event's date at its precision, as ISO 8601 writes it: 2025-12-03, 2025-12 or 2025."""
    if precision == Event.Precision.YEAR:
        return f"{date:%Y}"
    if precision == Event.Precision.MONTH:
        return f"{date:%Y-%m}"
    return date.isoformat()


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
