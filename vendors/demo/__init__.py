"""Demo content: the reference profile (AWS Trainium) and the vendors of vendors.json.

Every value comes from the files next to this module; nothing is made up. Loading
is idempotent and never overwrites what an editor changed: lanes, attributes, axes
and sources are matched by slug or URL, and a vendor that exists is left alone.
"""

import datetime as dt
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from django.utils.text import slugify

from chips.models import Availability, Spec
from chips.services import recompute_sources_differ
from claims.models import Source, Support, Wording
from claims.services import EvidenceInput, set_evidence
from editorial.demo import Report, load_demo
from editorial.revisions import record_revision
from editorial.services import publish
from vendors.event_dates import parse_event_date  # '2025-12-03' a day, '2025-12' a month, '2026' a year
from vendors.models import FAQ, Attribute, Axis, Event, Fact, Lane, Score, SiteSettings, Vendor

from .evidence import PARTLY_CONTRADICTING, QUOTE_JOIN, join_quotes, overall_support
from .market import MarketLoader

DEMO_DIR = Path(__file__).resolve().parent
REFERENCE = DEMO_DIR / "aws_trainium.json"
REFERENCE_SOURCES = DEMO_DIR / "trainium_sources.json"
VENDORS = DEMO_DIR / "vendors.json"
CHIPS = DEMO_DIR / "chips.json"  # each chip's numbers, each with the words of the data that state it

LANES = ["hyperscaler custom silicon", "merchant GPU", "inference specialist", "open hardware"]

# The reference's eight labels keep their order; the data's four extra labels fit in
# where a reader would look for them.
ATTRIBUTES = [
    "Company",
    "Current chips",
    "Architecture",
    "Process node",
    "Compute",
    "Memory",
    "Scale-up",
    "Software",
    "Where to get it",
    "Pricing",
    "GA / availability",
    "Next generation",
]

# The first revision of every demo item, so that its history starts from the loaded state.
DEMO_COMMENT = "Loaded from the demo data."

RANKINGS_INTRO = (
    "Every scored vendor, ranked by its 1-to-5 scores on the same axes; vendors not scored yet are "
    "listed below the table. Open a vendor for the reason behind each score, the facts it rests "
    "on, and their sources."
)

AXES = [
    ("performance", "Performance"),
    ("scale-up", "Scale-up"),
    ("software", "Software"),
    ("access", "Access"),
    ("momentum-2026", "2026 momentum"),
]


def _publish_time(day):
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


class DemoLoader:
    def __init__(self):
        self.report = Report()
        self.reference = json.loads(REFERENCE.read_text())
        self.reference_sources = json.loads(REFERENCE_SOURCES.read_text())
        self.data = json.loads(VENDORS.read_text())
        chips = json.loads(CHIPS.read_text())
        self.chips = chips["chips"]
        # Pages read beyond the data files (chips.json's ``pages``): their title, publisher, the
        # day they were read and why, for the source each one becomes.
        self.pages = {page["url"]: page for page in chips.get("pages", [])}
        self.compiled_on = dt.date.fromisoformat(self.data["compiled_on"])
        self.market = MarketLoader()  # prices.json and benchmarks.json
        # A URL's title, where a fact gives one; events only give the URL.
        self.titles: dict[str, str] = {}
        self.notes: dict[str, list[str]] = {}
        for vendor in self.data["vendors"]:
            for fact in vendor["facts"]:
                self.titles.setdefault(fact["source_url"], fact["source_title"])
        # The reference's claims, each with every source given for it (full or partial support),
        # then the sources that disagree with its wording (contradictions, with their support).
        self.claims: dict[str, list[dict[str, Any]]] = {}
        for pair in self.reference_sources["claims"]:
            self.claims.setdefault(pair["claim"], []).append(pair)
            self.titles.setdefault(pair["source_url"], pair["source_title"])
            # For editors (never shown to visitors): what the page says in support, and how well.
            self.notes.setdefault(pair["source_url"], []).append(
                f"Claim {pair['claim_no']} ({pair['supports']} support): {pair['claim']}. "
                f"Quote: “{pair['quote']}”" + (f" Note: {pair['note']}" if pair.get("note") else "")
            )
        self.contradictions: dict[str, list[dict[str, Any]]] = {}
        for pair in self.reference_sources["contradictions"]:
            support = Support.PARTIAL if pair["source_url"] in PARTLY_CONTRADICTING else Support.CONTRADICTS
            self.contradictions.setdefault(pair["claim"], []).append({**pair, "supports": support})
            self.titles.setdefault(pair["source_url"], pair["source_title"])
            self.notes.setdefault(pair["source_url"], []).append(
                f"Claim {pair['claim_no']} disagreed with ({support}): {pair['claim']}. "
                f"Quote: “{pair['quote']}” Issue: {pair['issue']}"
            )

    def run(self):
        self.lanes = {}
        for position, name in enumerate(LANES, start=1):
            lane, created = Lane.objects.get_or_create(
                slug=slugify(name), defaults={"name": name, "position": position}
            )
            self.report.count("lanes", created)
            self.lanes[name] = lane
        self.attributes = {}
        for position, name in enumerate(ATTRIBUTES, start=1):
            attribute, created = Attribute.objects.get_or_create(
                slug=slugify(name), defaults={"name": name, "position": position}
            )
            self.report.count("attributes", created)
            self.attributes[name] = attribute
        self.axes = {}
        for position, (slug, name) in enumerate(AXES, start=1):
            axis, created = Axis.objects.get_or_create(
                slug=slug, defaults={"name": name, "position": position}
            )
            self.report.count("axes", created)
            self.axes[slug] = axis
        self.load_site_settings()
        self.load_reference()
        for vendor in self.data["vendors"]:
            self.load_vendor(vendor)
        return self.report

    def load_site_settings(self):
        """The reference's callout and call to action; the rankings intro only says what the table is."""
        if SiteSettings.objects.exists():
            return
        SiteSettings.objects.create(
            rankings_intro=RANKINGS_INTRO, cta_link_label="See the rankings", **self.reference["site"]
        )
        self.report.count("site settings", True)

    def source_notes(self, url):
        if url in self.notes:
            return "\n\n".join(self.notes[url])
        if url not in self.titles:
            return "No headline in the demo data: the title is the site's address."
        return ""

    def source(self, url, *, accessed_on=None):
        host = urlsplit(url).hostname or url
        if url in self.pages:
            return self.page_source(self.pages[url])
        title = self.titles.get(url)
        source, created = Source.objects.get_or_create(
            url=url,
            defaults={
                "title": title or host,
                "publisher": host.removeprefix("www."),
                "accessed_on": accessed_on or self.compiled_on,
                "notes": self.source_notes(url),
            },
        )
        self.report.count("sources", created)
        return source

    def known_source(self, url):
        """The source of ``url`` as the data files name it (a fact's title, a page's), or None."""
        return self.source(url) if url in self.titles or url in self.pages else None

    def read_on(self, cited):
        """The days the pages of ``cited`` beyond the data files were read: a row resting on one
        was checked against it then, not on the data's day."""
        return [
            dt.date.fromisoformat(self.pages[c["url"]]["read_on"]) for c in cited if c["url"] in self.pages
        ]

    def page_source(self, page):
        """The source of a page read beyond the data files, as chips.json's ``pages`` gives it."""
        source, created = Source.objects.get_or_create(
            url=page["url"],
            defaults={
                "title": page["title"],
                "publisher": page["publisher"],
                "accessed_on": dt.date.fromisoformat(page["read_on"]),
                "notes": page["note"],
            },
        )
        self.report.count("sources", created)
        return source

    def new_vendor(self, slug, **fields):
        if Vendor.objects.filter(slug=slug).exists():
            return None
        vendor = Vendor.objects.create(slug=slug, **fields)
        self.report.count("vendors", True)
        return vendor

    def cited_pairs(self, claims):
        """The claim-source pairs of trainium_sources.json behind the named claims."""
        return [pair for claim in claims for pair in self.claims[claim]]

    def cite(self, item, claims, *, disagreeing=True):
        """Cite every source given for the named claims, each once, in the file's order, with
        the file's quotes as the citation's words (verbatim: a quote) and its support; then,
        unless ``disagreeing`` is false, the sources listed as contradicting those claims with
        theirs. The row's wording stays the reference's: the disagreement is in its evidence."""
        compiled_on = dt.date.fromisoformat(self.reference_sources["compiled_on"])
        pairs: dict[str, list[dict[str, Any]]] = {}
        for pair in self.cited_pairs(claims):
            pairs.setdefault(pair["source_url"], []).append(pair)
        for claim in claims if disagreeing else ():
            for pair in self.contradictions.get(claim, []):
                pairs.setdefault(pair["source_url"], []).append(pair)
        sources = {url: self.source(url, accessed_on=compiled_on) for url in pairs}
        item.sources.add(*sources.values())
        set_evidence(
            row=item,
            evidence={
                sources[url].pk: EvidenceInput(
                    quote=join_quotes(pair["quote"] for pair in given),
                    support=overall_support(pair["supports"] for pair in given),
                    wording=Wording.QUOTE,
                )
                for url, given in pairs.items()
            },
        )

    def load_reference(self):
        ref = self.reference
        verified_on = dt.date.fromisoformat(ref["verified_on"])
        vendor = self.new_vendor(
            ref["slug"],
            name=ref["name"],
            company=ref["company"],
            lane=self.lanes[ref["lane"]],
            summary=ref["summary"],
            what_it_is=ref["what_it_is"],
            best_for=ref["best_for"],
            watch_out=ref["watch_out"],
            verdict=ref["verdict"],
        )
        if vendor is None:
            return
        row: Fact | Event | Score | FAQ
        for position, fact in enumerate(ref["facts"], start=1):
            row = Fact.objects.create(
                vendor=vendor,
                attribute=self.attributes[fact["label"]],
                value=fact["value"],
                # The data file's own flag: the claim comes from the vendor if a source says so.
                vendor_stated=any(pair["vendor_stated"] for pair in self.cited_pairs(fact["cites"])),
                verified_on=verified_on,
                position=position,
            )
            self.cite(row, fact["cites"])
        for position, event in enumerate(ref["events"], start=1):
            date, precision = parse_event_date(event["date"])
            row = Event.objects.create(
                vendor=vendor, date=date, precision=precision, text=event["text"], position=position
            )
            self.cite(row, event["cites"])
        for slug, value in ref["scores"].items():
            row = Score.objects.create(vendor=vendor, axis=self.axes[slug], value=value)
            self.cite(row, ref["score_cites"][slug], disagreeing=False)
        for position, faq in enumerate(ref["faqs"], start=1):
            row = FAQ.objects.create(
                vendor=vendor, question=faq["question"], answer=faq["answer"], position=position
            )
            self.cite(row, faq["cites"])
        self.load_specs(vendor, verified_on=verified_on)
        publish_demo(vendor, at=_publish_time(verified_on))

    def load_vendor(self, data):
        vendor = self.new_vendor(
            data["slug"],
            name=data["name"],
            company=data["company"],
            lane=self.lanes[data["lane"]],
            alternative_blurb=self.reference["alternative_blurbs"].get(data["slug"], ""),
        )
        if vendor is None:
            return
        for position, claim in enumerate(data["facts"], start=1):
            fact = Fact.objects.create(
                vendor=vendor,
                attribute=self.attributes[claim["label"]],
                value=claim["value"],
                vendor_stated=claim["vendor_stated"],
                verified_on=self.compiled_on,
                position=position,
            )
            self.cite_summary(fact, claim["source_url"])
        for position, entry in enumerate(data["events"], start=1):
            date, precision = parse_event_date(entry["date"])
            event = Event.objects.create(
                vendor=vendor, date=date, precision=precision, text=entry["text"], position=position
            )
            self.cite_summary(event, entry["source_url"])
        self.load_specs(vendor, verified_on=self.compiled_on)
        publish_demo(vendor, at=_publish_time(self.compiled_on))

    def cite_summary(self, row, url):
        """``row`` (a vendors.json value: our summary of the page, not its words) cites ``url``."""
        source = self.source(url)
        row.sources.add(source)
        set_evidence(row=row, evidence={source.pk: EvidenceInput(wording=Wording.SUMMARY)})

    def load_specs(self, vendor, *, verified_on):
        """The vendor's chips of chips.json: each number, then each stage reached with its
        month, cites the pages that state it, with their words as the citation's quote."""
        position = dated = 0  # the specs' order, and the availability rows' own
        for chip in (chip for chip in self.chips if chip["vendor"] == vendor.slug):
            for given in chip["specs"]:
                position += 1
                spec = Spec.objects.create(
                    vendor=vendor,
                    chip=chip["name"],
                    kind=given["kind"],
                    quantity=given["quantity"],
                    unit=given["unit"],
                    scope=given["scope"],
                    precision=given["precision"],
                    qualifier=given["qualifier"],
                    sparse=given["sparse"],  # true or false only where a source says so
                    vendor_stated=given["vendor_stated"],
                    verified_on=max([verified_on, *self.read_on(given["sources"])]),
                    position=position,
                )
                self.cite_with_quotes(spec, given["sources"])
            for given in chip.get("availability", []):
                dated += 1
                year, month = map(int, given["month"].split("-"))
                row = Availability.objects.create(
                    vendor=vendor,
                    chip=chip["name"],
                    stage=given["stage"],
                    month=dt.date(year, month, 1),
                    vendor_stated=given["vendor_stated"],
                    verified_on=verified_on,
                    position=dated,
                )
                self.cite_with_quotes(row, given["sources"])
        recompute_sources_differ(specs=vendor.specs.all())  # chips/stated.py: what the queue lists
        self.market.load(vendor, report=self.report, known_source=self.known_source)

    def cite_with_quotes(self, row, cited):
        """``row`` cites each page of ``cited`` ([{url, quote, wording, support}]) with its words
        (one citation a page: two texts of one page are joined): a quote when every text of the
        page is verbatim, else our summary; its support the texts' together."""
        sources = {entry["url"]: self.source(entry["url"]) for entry in cited}
        row.sources.add(*sources.values())
        given: dict[str, list[dict[str, str]]] = {}
        for entry in cited:
            given.setdefault(entry["url"], []).append(entry)
        set_evidence(
            row=row,
            evidence={
                sources[url].pk: EvidenceInput(
                    quote=join_quotes(entry["quote"] for entry in entries),
                    support=overall_support(entry.get("support", Support.FULL) for entry in entries),
                    wording=Wording.QUOTE
                    if all(entry["wording"] == Wording.QUOTE for entry in entries)
                    else Wording.SUMMARY,
                )
                for url, entries in given.items()
            },
        )


def publish_demo(item, *, at):
    """A demo item's history starts with its loaded revision, then its first published version."""
    record_revision(item, comment=DEMO_COMMENT)
    publish(obj=item, user=None, at=at)


def load_vendors(report):
    """The vendors' part of ``manage.py load_demo`` (see VendorsConfig.load_demo)."""
    loader = DemoLoader()
    loader.report = report
    loader.run()
    return report


__all__ = ["QUOTE_JOIN", "REFERENCE", "VENDORS", "Report", "load_demo", "load_vendors", "publish_demo"]
