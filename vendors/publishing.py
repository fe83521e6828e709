"""How a vendor profile is published: the document a version holds, and its indexed columns.

The document is the whole page as JSON: the vendor's text, its lane, every fact, event,
score and FAQ with its citations, and the sources they cite. Visitors' pages are drawn
from it (see documents.py); an editor's preview draws the same page from a document
built from the working copy, so the two can never look different.
"""

import copy
import datetime as dt
from collections.abc import Iterator, Sequence, Sized
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.urls import reverse

from chips import units
from chips.documents import STAGES, Chip, sort_values
from chips.market_documents import price_row_text
from chips.models import Availability, Price, Result, Spec, VersionChip, VersionPrice, VersionSpec
from chips.prices import per_chip_hour, usable_until
from claims.document_checks import carry_checks, document_content, without_quote_checks
from claims.documents import Verified
from claims.markdown import plain_text
from claims.models import Source, citations_of, display_date
from editorial.diff import Kind
from editorial.models import Editable, PublishedVersion
from editorial.registry import Document, Publication

from .documents import FAQ as FAQDocument
from .documents import VendorDocument, document_of
from .models import FAQ, Axis, Event, Fact, Score, Vendor, VendorVersion, VersionScore

# The rows an editor verifies, by the name of their list in a document (a chip's specs and
# availability are lists of each chip): what “Mark verified today”, the staleness queues and
# carrying a verification across versions all go through.
type VerifiedModel = (
    type[Fact] | type[Event] | type[Score] | type[Spec] | type[Availability] | type[Price] | type[Result]
)
VERIFIED_KINDS: dict[str, VerifiedModel] = {
    "facts": Fact,
    "events": Event,
    "scores": Score,
    "specs": Spec,
    "availability": Availability,
    "prices": Price,
    "results": Result,
}
CHIP_KINDS = ("specs", "availability", "prices", "results")


def verified_rows(document: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(kind, row) for each verified row of a document as JSON, in page order."""
    for kind in VERIFIED_KINDS:
        if kind not in CHIP_KINDS:
            for row in document[kind]:
                yield kind, row
    for chip in document.get("chips", []):
        for kind in CHIP_KINDS:
            for row in chip.get(kind, []):
                yield kind, row


def vendor_document(vendor: Vendor) -> dict[str, Any]:
    """The profile as visitors would read it, built from the working copy in ten queries."""
    return VendorDocument.build(_with_rows(Vendor.objects.filter(pk=vendor.pk)).get()).as_json()


def vendor_documents(queryset: QuerySet[Vendor]) -> dict[int, dict[str, Any]]:
    """{vendor pk: document} for many vendors at once, in ten queries (bulk publishing)."""
    return {vendor.pk: VendorDocument.build(vendor).as_json() for vendor in _with_rows(queryset)}


def _with_rows(queryset: QuerySet[Vendor]) -> QuerySet[Vendor]:
    # a source's last page texts (compressed, up to a few hundred kB) are no part of a document
    plain_sources = Prefetch(
        "sources", queryset=Source.objects.order_by().defer("page_text", "previous_page_text")
    )
    return queryset.select_related("lane").prefetch_related(
        Prefetch(
            "facts",
            queryset=Fact.objects.select_related("attribute")
            .prefetch_related(plain_sources, citations_of(Fact))
            .order_by("attribute__position", "attribute__name", "position", "pk"),
        ),
        Prefetch("events", queryset=Event.objects.prefetch_related(plain_sources, citations_of(Event))),
        Prefetch(
            "scores",
            queryset=Score.objects.select_related("axis").prefetch_related(
                plain_sources, citations_of(Score)
            ),
        ),
        Prefetch("faqs", queryset=FAQ.objects.prefetch_related(plain_sources, citations_of(FAQ))),
        Prefetch("specs", queryset=Spec.objects.prefetch_related(plain_sources, citations_of(Spec))),
        Prefetch(
            "availability",
            queryset=Availability.objects.prefetch_related(plain_sources, citations_of(Availability)),
        ),
        Prefetch("prices", queryset=Price.objects.prefetch_related(plain_sources, citations_of(Price))),
        Prefetch("results", queryset=Result.objects.prefetch_related(plain_sources, citations_of(Result))),
    )


VERIFICATION = ("verified_on", "verified_at")  # what a verification moves, not content


def _without_verification(row: dict[str, Any]) -> dict[str, Any]:
    """A row's content: without its verification, nor what checks found of its quotes."""
    return without_quote_checks({key: value for key, value in row.items() if key not in VERIFICATION})


def spec_row_name(row: dict[str, Any]) -> str:
    """How a spec reads in a diff or a merge: “Trainium3 — Memory capacity”, as the change page names it."""
    kind = units.KINDS.get(row.get("kind") or "")
    return " — ".join(part for part in (row.get("chip") or "", kind.label if kind else "") if part)


def availability_row_name(row: dict[str, Any]) -> str:
    """“MI355X — Generally available”, as the change page names the row."""
    stage = STAGES.get(row.get("stage") or "")
    return " — ".join(part for part in (row.get("chip") or "", stage or "") if part)


def price_row_name(row: dict[str, Any]) -> str:
    """“MI300X — TensorWave, MI300X rental”, as the change page names the row."""
    offer = ", ".join(part for part in (row.get("provider") or "", row.get("offer") or "") if part)
    return " — ".join(part for part in (row.get("chip") or "", offer) if part)


def result_row_name(row: dict[str, Any]) -> str:
    """“MI300X — Llama 3.1 70B FP8, 128 in / 2048 out”, as the change page names the row."""
    return " — ".join(part for part in (row.get("chip") or "", row.get("workload") or "") if part)


class VendorPublication(Publication):
    model = Vendor
    version_model = VendorVersion
    noun = "vendor"
    diff_kinds = {
        "vendors.fact": Kind("", "ref:attribute", "value"),
        "vendors.event": Kind("Event", "date", name=lambda row: display_date(row["date"], row["precision"])),
        "vendors.score": Kind("Score", "ref:axis", "value"),
        "vendors.faq": Kind("FAQ", "question"),
        "chips.spec": Kind("", "chip", "quantity", name=spec_row_name),
        "chips.availability": Kind("", "chip", "month", name=availability_row_name),
        "chips.price": Kind("", "chip", "amount", name=price_row_name, figure=price_row_text),
        "chips.result": Kind("", "chip", "value", name=result_row_name),
    }

    document_schema = VendorDocument

    def document(self, obj: Editable) -> Document:
        return vendor_document(_vendor(obj))

    def summary(self, document: Document) -> list[str]:
        page = VendorDocument.parse(document)

        def count(n: int, noun: str) -> str:
            return f"{n} {noun}{'' if n == 1 else 's'}"

        kinds: list[tuple[Sized, str]] = [
            (page.facts, "fact"),
            (page.events, "event"),
            (page.scores, "score"),
            (page.faqs, "FAQ"),
            *([(page.specs, "chip spec")] if page.specs else []),
            *([(page.availability, "availability date")] if page.availability else []),
            *([(page.prices, "chip price")] if page.prices else []),
            *([(page.results, "measured result")] if page.results else []),
        ]
        lines = [
            f"{', '.join(count(len(rows), noun) for rows, noun in kinds)}, "
            f"citing {count(len(page.sources), 'source')}."
        ]
        lines += [f"{fact.attribute.name}: {fact.value}" for fact in page.facts]
        unsourced = [fact.attribute.name for fact in page.facts if not fact.sources]
        if unsourced:
            lines.append(f"Without a source: {', '.join(unsourced)}.")
        never = sum(1 for claim in page.claims() if isinstance(claim, Verified) and claim.verified_on is None)
        if never:
            lines.append(f"{count(never, 'row')} never verified: they start stale.")
        return lines

    def columns(self, document: Document) -> dict[str, Any]:
        page = VendorDocument.parse(document)
        verification = page.facts_verified
        active = list(Axis.objects.filter(is_active=True))
        return {
            "slug": page.vendor.slug,
            "name": page.vendor.name,
            "company": page.vendor.company,
            "lane_id": page.vendor.lane.id,
            "alternative_blurb": page.vendor.alternative_blurb,
            "total": page.total_on(active),
            "verified_on": verification.oldest,
            "unverified_facts": verification.unverified,
            "fact_count": verification.facts,
        }

    def history_entry(self, document: Document) -> dict[str, Any]:
        # Each version's scores, so the profile can say “Software: 3 until Oct 2026, then 4”.
        return {
            "scores": {str(score.axis.id): score.value for score in VendorDocument.parse(document).scores}
        }

    def search_entries(self, document: Document) -> list[dict[str, Any]]:
        return vendor_search_entries(VendorDocument.parse(document))

    def after_write(self, version: PublishedVersion) -> None:
        assert isinstance(version, VendorVersion)
        document = document_of(version)
        VersionScore.objects.bulk_create(
            VersionScore(version=version, axis_id=score.axis.id, value=score.value)
            for score in document.scores
        )
        write_version_chips(version, document.chips)

    def content(self, document: Document) -> Document:
        content = document_content(document)  # what checks found is not content
        for _, row in verified_rows(content):
            for key in VERIFICATION:
                row.pop(key, None)
        return content

    def restamp(self, document: Document, obj: Editable) -> Document:
        """Newer verified dates from the working copy, on rows whose content is unchanged, each
        cited source's problem as its checks found it now, and what they found of each quote
        the live version cites in the same words (claims.document_checks.carry_checks)."""
        restamped = copy.deepcopy(document)
        working = vendor_document(_vendor(obj))
        for _, row, newer in _newer_verified(source=working, target=restamped):
            for key in VERIFICATION:
                row[key] = newer[key]
        carry_checks(target=restamped, source=working)
        return VendorDocument.parse(restamped).as_json()

    def carry_verification(self, obj: Editable, document: Document) -> None:
        for kind, row, newer in _newer_verified(source=document, target=vendor_document(_vendor(obj))):
            VERIFIED_KINDS[kind].objects.filter(pk=row["id"]).update(
                verified_on=dt.date.fromisoformat(newer["verified_on"]),
                verified_at=dt.datetime.fromisoformat(newer["verified_at"]) if newer["verified_at"] else None,
            )


def _vendor(obj: Editable) -> Vendor:
    """The working copy a VendorPublication is handed: always a Vendor."""
    assert isinstance(obj, Vendor)
    return obj


def write_version_chips(version: VendorVersion, chips: Sequence[Chip]) -> None:
    """What /chips/ sorts and filters a version's chips on: each chip, and each value in its
    kind's unit (chips/units.py)."""
    made = VersionChip.objects.bulk_create(
        VersionChip(
            version=version,
            slug=chip.slug,
            name=chip.name,
            position=position,
            stage=chip.stage.stage if chip.stage else "",
            **sort_values(chip),
        )
        for position, chip in enumerate(chips)
    )
    VersionSpec.objects.bulk_create(
        VersionSpec(
            chip=row,
            kind=spec.kind,
            scope=spec.scope,
            precision=spec.precision,
            sparse=spec.sparse,
            value=float(spec.sort_key),  # a sort key only: never printed
            exact=not spec.qualifier,
            usable_until=usable_until(spec),
        )
        for row, chip in zip(made, chips, strict=True)
        for spec in chip.specs
    )
    VersionPrice.objects.bulk_create(
        VersionPrice(
            chip=row,
            price_id=price.id,
            provider=price.provider,
            offer=price.offer,
            kind=price.kind,
            per=price.per,
            amount=price.value,
            currency=price.currency,
            per_chip_hour=per_chip_hour(price),
            as_of=price.as_of,
            usable_until=usable_until(price),
        )
        for row, chip in zip(made, chips, strict=True)
        for price in chip.prices
    )


def _newer_verified(
    *, source: dict[str, Any], target: dict[str, Any]
) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(kind, target row, source row) for each row that says the same in both documents and
    was verified later in ``source``: the one rule for carrying verification across versions."""
    rows = {(kind, row["id"]): row for kind, row in verified_rows(source)}
    for kind, row in verified_rows(target):
        other = rows.get((kind, row["id"]))
        if other is None or _without_verification(other) != _without_verification(row):
            continue
        if other["verified_on"] and _verified_key(row) < _verified_key(other):
            yield kind, row, other


def _verified_key(row: dict[str, Any]) -> tuple[str, str]:
    """Which of two verifications of a row is later: the day, then the moment."""
    return (row["verified_on"] or "", row.get("verified_at") or "")


SEARCHED_TEXT = ("summary", "what_it_is", "best_for", "watch_out", "verdict")


def vendor_search_entries(document: VendorDocument) -> list[dict[str, Any]]:
    """What search finds on a profile: the vendor, each of its chips, each fact and event, each FAQ.

    Each entry links to its own row of the page (the anchors in vendor_detail.html), a chip to
    its own page, found by its name and its numbers as the sources give them."""
    vendor = document.vendor
    page = vendor.get_absolute_url()
    texts = [getattr(vendor, key) for key in SEARCHED_TEXT]
    entries = [
        {
            "kind": "vendor",
            "title": vendor.name,
            "keywords": f"{vendor.company} {vendor.lane.name}",
            "body": " ".join(plain_text(text) for text in texts if text),
            "url": page,
        }
    ]
    entries += [
        {
            "kind": "chip",
            "title": chip.name,
            "keywords": f"{vendor.name} {vendor.company}",
            "body": "; ".join(f"{spec.label}: {spec.as_given}" for spec in chip.specs),
            "url": reverse("chips:detail", args=[chip.slug]),
        }
        for chip in document.chips
    ]
    entries += [
        {
            "kind": "fact",
            "title": f"{vendor.name}: {fact.attribute.name}",
            "keywords": fact.attribute.name,
            "body": fact.value,
            "url": f"{page}#fact-{fact.id}",
        }
        for fact in document.facts
    ]
    entries += [
        {
            "kind": "event",
            "title": f"{vendor.name}, {event.display_date}",
            "keywords": event.date.isoformat() if event.date else "",
            "body": event.text,
            "url": f"{page}#event-{event.id}",
        }
        for event in document.events
    ]
    entries += [faq_search_entry(faq, page) for faq in document.faqs]
    return [{**entry, "page": vendor.name, "position": position} for position, entry in enumerate(entries)]


def faq_search_entry(faq: FAQDocument, page: str) -> dict[str, Any]:
    """A question on a profile or a comparison, found by its question and its answer."""
    return {
        "kind": "faq",
        "title": faq.question,
        "keywords": "",
        "body": plain_text(faq.answer),
        "url": f"{page}#faq-{faq.id}",
    }


def refresh_totals() -> int:
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
