"""How a vendor profile is published: the document a version holds, and its indexed columns.

The document is the whole page as JSON: the vendor's text, its lane, every fact, event,
score and FAQ with its citations, and the sources they cite. Visitors' pages are drawn
from it (see documents.py); an editor's preview draws the same page from a document
built from the working copy, so the two can never look different.
"""

import copy
import datetime as dt

from django.db.models import Prefetch
from django.urls import reverse

from editorial.diff import Kind
from editorial.registry import Publication

from .markdown import plain_text
from .models import (
    FAQ,
    Axis,
    Event,
    Fact,
    Score,
    Source,
    Vendor,
    VendorVersion,
    VersionScore,
    display_date,
    score_total,
)
from .verification import page_verification

VERIFIED_KINDS = {"facts": Fact, "events": Event, "scores": Score}


def iso_date(day):
    return day.isoformat() if day else None


def cite_sources(row, sources):
    """The ids of ``row``'s sources, each added to the document's ``sources``."""
    ids = []
    for source in sorted(row.sources.all(), key=lambda s: s.pk):
        sources[str(source.pk)] = {
            "title": source.title,
            "publisher": source.publisher,
            "url": source.url,
            "accessed_on": iso_date(source.accessed_on),
            "archive_url": source.archive_url,
        }
        ids.append(source.pk)
    return ids


def faq_entry(faq, sources):
    """A frequently asked question as a document holds it (profiles and comparisons alike)."""
    return {
        "id": faq.pk,
        "question": faq.question,
        "answer": faq.answer,
        "sources": cite_sources(faq, sources),
    }


def vendor_document(vendor):
    """The profile as visitors would read it, built from the working copy in six queries."""
    return _document_of(_with_rows(Vendor.objects.filter(pk=vendor.pk)).get())


def vendor_documents(queryset):
    """{vendor pk: document} for many vendors at once, in six queries (bulk publishing)."""
    return {vendor.pk: _document_of(vendor) for vendor in _with_rows(queryset)}


def _with_rows(queryset):
    plain_sources = Prefetch("sources", queryset=Source.objects.order_by())
    return queryset.select_related("lane").prefetch_related(
        Prefetch(
            "facts",
            queryset=Fact.objects.select_related("attribute")
            .prefetch_related(plain_sources)
            .order_by("attribute__position", "attribute__name", "position", "pk"),
        ),
        Prefetch("events", queryset=Event.objects.prefetch_related(plain_sources)),
        Prefetch("scores", queryset=Score.objects.select_related("axis").prefetch_related(plain_sources)),
        Prefetch("faqs", queryset=FAQ.objects.prefetch_related(plain_sources)),
    )


def _document_of(vendor):
    sources = {}
    lane = vendor.lane
    return {
        "vendor": {
            "id": vendor.pk,
            "name": vendor.name,
            "slug": vendor.slug,
            "company": vendor.company,
            "lane": {"id": lane.pk, "name": lane.name, "slug": lane.slug},
            "logo": vendor.logo.name or "",
            "summary": vendor.summary,
            "what_it_is": vendor.what_it_is,
            "best_for": vendor.best_for,
            "watch_out": vendor.watch_out,
            "verdict": vendor.verdict,
            "alternative_blurb": vendor.alternative_blurb,
        },
        "facts": [
            {
                "id": fact.pk,
                "attribute": {
                    "id": fact.attribute_id,
                    "name": fact.attribute.name,
                    "position": fact.attribute.position,
                },
                "value": fact.value,
                "vendor_stated": fact.vendor_stated,
                "verified_on": iso_date(fact.verified_on),
                "sources": cite_sources(fact, sources),
            }
            for fact in vendor.facts.all()
        ],
        "events": [
            {
                "id": event.pk,
                "date": iso_date(event.date),
                "precision": event.precision,
                "text": event.text,
                "verified_on": iso_date(event.verified_on),
                "sources": cite_sources(event, sources),
            }
            for event in vendor.events.all()
        ],
        "scores": [
            {
                "id": score.pk,
                "axis": {"id": score.axis_id, "name": score.axis.name},
                "value": score.value,
                "reason": score.reason,
                "verified_on": iso_date(score.verified_on),
                "sources": cite_sources(score, sources),
            }
            for score in sorted(vendor.scores.all(), key=lambda s: (s.axis.position, s.axis.name))
        ],
        "faqs": [
            {
                "id": faq.pk,
                "question": faq.question,
                "answer": faq.answer,
                "sources": cite_sources(faq, sources),
            }
            for faq in vendor.faqs.all()
        ],
        "sources": sources,
    }


def document_verification(document):
    return page_verification(
        dt.date.fromisoformat(fact["verified_on"]) if fact["verified_on"] else None
        for fact in document["facts"]
    )


def document_total(document, active_axis_ids):
    return score_total(
        score["value"] for score in document["scores"] if score["axis"]["id"] in active_axis_ids
    )


def _without_verification(row):
    return {key: value for key, value in row.items() if key != "verified_on"}


class VendorPublication(Publication):
    model = Vendor
    version_model = VendorVersion
    noun = "vendor"
    diff_kinds = {
        "vendors.fact": Kind("", "ref:attribute", "value"),
        "vendors.event": Kind("Event", "date", name=lambda row: display_date(row["date"], row["precision"])),
        "vendors.score": Kind("Score", "ref:axis", "value"),
        "vendors.faq": Kind("FAQ", "question"),
    }

    def document(self, obj):
        return vendor_document(obj)

    def columns(self, document):
        vendor = document["vendor"]
        verification = document_verification(document)
        active = set(Axis.objects.filter(is_active=True).values_list("pk", flat=True))
        return {
            "slug": vendor["slug"],
            "name": vendor["name"],
            "company": vendor["company"],
            "lane_id": vendor["lane"]["id"],
            "alternative_blurb": vendor["alternative_blurb"],
            "total": document_total(document, active),
            "verified_on": verification.oldest,
            "unverified_facts": verification.unverified,
            "fact_count": verification.facts,
        }

    def history_entry(self, document):
        # Each version's scores, so the profile can say “Software: 3 until Oct 2026, then 4”.
        return {"scores": {str(score["axis"]["id"]): score["value"] for score in document["scores"]}}

    def search_entries(self, document):
        return vendor_search_entries(document)

    def after_write(self, version):
        VersionScore.objects.bulk_create(
            VersionScore(version=version, axis_id=score["axis"]["id"], value=score["value"])
            for score in version.document["scores"]
        )

    def content(self, document):
        content = copy.deepcopy(document)
        for kind in VERIFIED_KINDS:
            content[kind] = [_without_verification(row) for row in content[kind]]
        return content

    def restamp(self, document, obj):
        """Newer verified dates from the working copy, on rows whose content is unchanged."""
        restamped = copy.deepcopy(document)
        for _, row, newer in _newer_verified(source=vendor_document(obj), target=restamped):
            row["verified_on"] = newer
        return restamped

    def carry_verification(self, obj, document):
        for kind, row, newer in _newer_verified(source=document, target=vendor_document(obj)):
            VERIFIED_KINDS[kind].objects.filter(pk=row["id"]).update(verified_on=dt.date.fromisoformat(newer))


def _newer_verified(*, source, target):
    """(kind, target row, date) for each row that says the same in both documents and was
    verified later in ``source``: the one rule for carrying verification across versions."""
    for kind in VERIFIED_KINDS:
        rows = {row["id"]: row for row in source[kind]}
        for row in target[kind]:
            other = rows.get(row["id"])
            if other is None or _without_verification(other) != _without_verification(row):
                continue
            if other["verified_on"] and (row["verified_on"] or "") < other["verified_on"]:
                yield kind, row, other["verified_on"]


def vendor_search_entries(document):
    """What search finds on a profile: the vendor, each fact and event, each FAQ.

    Each entry links to its own row of the page (the anchors in vendor_detail.html)."""
    vendor = document["vendor"]
    page = reverse("vendors:detail", kwargs={"slug": vendor["slug"]})
    name, lane = vendor["name"], vendor["lane"]["name"]
    texts = [vendor[key] for key in ("summary", "what_it_is", "best_for", "watch_out", "verdict")]
    entries = [
        {
            "kind": "vendor",
            "title": name,
            "keywords": f"{vendor['company']} {lane}",
            "body": " ".join(plain_text(text) for text in texts if text),
            "url": page,
        }
    ]
    entries += [
        {
            "kind": "fact",
            "title": f"{name}: {fact['attribute']['name']}",
            "keywords": fact["attribute"]["name"],
            "body": fact["value"],
            "url": f"{page}#fact-{fact['id']}",
        }
        for fact in document["facts"]
    ]
    entries += [
        {
            "kind": "event",
            "title": f"{name}, {display_date(dt.date.fromisoformat(event['date']), event['precision'])}",
            "keywords": event["date"] or "",
            "body": event["text"],
            "url": f"{page}#event-{event['id']}",
        }
        for event in document["events"]
    ]
    entries += [faq_search_entry(faq, page) for faq in document["faqs"]]
    return [{**entry, "page": name, "position": position} for position, entry in enumerate(entries)]


def faq_search_entry(faq, page):
    """A question on a profile or a comparison, found by its question and its answer."""
    return {
        "kind": "faq",
        "title": faq["question"],
        "keywords": "",
        "body": plain_text(faq["answer"]),
        "url": f"{page}#faq-{faq['id']}",
    }


def refresh_totals():
    """Recompute the stored totals of every version after the active axes changed.

    Totals are derived data (the sum over the active axes); they live on the versions so
    that lists sort on an index. One UPDATE, however many versions.
    """
    from django.db.models import OuterRef, Subquery, Sum

    active_sum = (
        VersionScore.objects.filter(version=OuterRef("pk"), axis__is_active=True)
        .order_by()
        .values("version")
        .annotate(total=Sum("value"))
        .values("total")
    )
    return VendorVersion.objects.update(total=Subquery(active_sum))
