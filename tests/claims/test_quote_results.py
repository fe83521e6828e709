"""What readers are told of a citation's words: a quote in quotation marks with what the last
check of its source found of it, or our summary labelled as such and never quoted; the same
in the API and the downloads; and a later check reaching the live page without a publish."""

import csv
import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.utils import timezone

from chips.models import SpecCitation
from claims.models import display_date
from comparisons.models import AssessmentCitation
from editorial.services import refresh_state
from tests import factories as f
from tests.claims.test_source_checks import Site, serve
from vendors.documents import VendorDocument
from vendors.models import FactCitation
from vendors.publishing import vendor_document
from vendors.services import refresh_pages_citing

pytestmark = pytest.mark.django_db

CHECKED = dt.datetime(2026, 12, 6, 9, 30, tzinfo=dt.UTC)
NOT_FOUND = "Not found on the source at its last check (6 Dec 2026)"
FOUND = "Found on the source on 6 Dec 2026"
NOT_CHECKED = "Not checked against the source yet"


def shown(quote, check):
    """A quote in quotation marks, then what the last check found of it, as the Sources list says."""
    return f'<q>{quote}</q> <span class="quote-check">— {check}'


def cited_fact(vendor, quote, **said):
    """A fact of ``vendor`` citing one new source with ``quote`` and ``said`` on its citation."""
    source = f.make_source(title=f"Page for {quote}")
    fact = f.make_fact(vendor=vendor, attribute=f.make_attribute(name=quote), sources=[source])
    FactCitation.objects.filter(cited=fact).update(quote=quote, **said)
    return fact, source


def evidence_item(html, quote):
    """The Sources list's entry holding ``quote``."""
    sources = html[html.index('<section aria-labelledby="sources"') :]
    start = sources.rindex("<li", 0, sources.index(quote))
    return sources[start : sources.index("</li>", start)]


def body(response):
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_a_quote_not_found_at_the_last_check_says_so_and_its_row_is_stale(client):
    vendor = f.make_vendor()
    fact, _ = cited_fact(
        vendor, "144 GB of HBM3e", quote_found=False, quote_checked_at=CHECKED, quote_missing_at=CHECKED
    )
    f.publish(vendor)

    html = client.get(vendor.get_absolute_url()).content.decode()

    item = evidence_item(html, "144 GB of HBM3e")
    assert f'<q>144 GB of HBM3e</q> <span class="quote-check quote-missing">— {NOT_FOUND}</span>' in item
    row = html[html.index(f'id="fact-{fact.pk}"') :]
    assert "not recently verified" in row[: row.index("</tr>")]  # verified 1 Nov, before the miss


def test_a_found_quote_says_when_and_a_summary_is_labelled_never_quoted_nor_checked(client):
    vendor = f.make_vendor()
    cited_fact(vendor, "2.5 PFLOPS of FP8", quote_found=True, quote_checked_at=CHECKED)
    cited_fact(vendor, "AWS says the chip has four times the memory", wording="summary")
    cited_fact(vendor, "Twelve stacks of HBM")  # never checked
    f.publish(vendor)

    html = client.get(vendor.get_absolute_url()).content.decode()

    assert shown("2.5 PFLOPS of FP8", FOUND) in html
    summary = evidence_item(html, "AWS says the chip has four times the memory")
    label = '<span class="summary-label">Summary:</span> '
    assert f"{label}AWS says the chip has four times the memory" in summary
    assert "<q>" not in summary and "“" not in summary and "source on" not in summary
    assert shown("Twelve stacks of HBM", NOT_CHECKED) in html


def test_a_later_check_reaches_the_live_page_without_a_publish_and_the_version_keeps_its_own(client):
    vendor = f.make_vendor(slug="checked-chip")
    fact, source = cited_fact(vendor, "144 GB of HBM3e")
    edited, edited_source = cited_fact(vendor, "4.9 TB/s")
    published = f.publish(vendor)
    # An editor rewrites a quote without publishing: the check finds the new words, which the
    # live page never showed, so its own words stay unchecked there.
    FactCitation.objects.filter(cited=edited).update(quote="4.9 TB/s of bandwidth")
    FactCitation.objects.filter(cited__in=[fact, edited]).update(quote_found=True, quote_checked_at=CHECKED)

    assert refresh_pages_citing(sources=[source.pk, edited_source.pk]) == [vendor]

    live = client.get("/vendors/checked-chip/").content.decode()
    assert shown("144 GB of HBM3e", FOUND) in live
    assert shown("4.9 TB/s", NOT_CHECKED) in live
    old = client.get(f"/vendors/checked-chip/v/{published.number}/").content.decode()
    assert shown("144 GB of HBM3e", NOT_CHECKED) in old
    assert refresh_state(obj=vendor) is True  # the rewritten quote waits for a publish, nothing else
    FactCitation.objects.filter(cited=edited).update(quote="4.9 TB/s")
    assert refresh_state(obj=vendor) is False  # a check is no change


@pytest.fixture
def site(settings):
    settings.SOURCE_CHECK_ALLOW_PRIVATE = True  # the pages are served on loopback
    yield from serve(Site())


def test_check_sources_shows_found_and_not_found_on_the_live_profile_without_a_publish(client, site):
    site.pages["/trn3"] = (200, "<html><body><p>Each chip has 144 GB of HBM3e.</p></body></html>", {})
    site.pages["/news"] = (200, "<html><body><p>Trainium3 ships in 2026.</p></body></html>", {})
    vendor = f.make_vendor(slug="checked-chip")
    for path, quote in (("/trn3", "144 GB of HBM3e"), ("/news", "up to 5 TB/s")):
        source = f.make_source(url=site.url(path))
        fact = f.make_fact(vendor=vendor, attribute=f.make_attribute(name=quote), sources=[source])
        FactCitation.objects.filter(cited=fact).update(quote=quote)
    f.publish(vendor)

    call_command("check_sources", stdout=io.StringIO())

    html = client.get("/vendors/checked-chip/").content.decode()
    day = display_date(timezone.localdate(), "day")
    assert shown("144 GB of HBM3e", f"Found on the source on {day}") in html
    assert f"— Not found on the source at its last check ({day})" in evidence_item(html, "up to 5 TB/s")


def test_a_quote_found_for_the_first_time_reaches_the_live_profile_without_a_publish(client, site):
    """Nothing goes missing here: the only news is a first “found”, which readers are told too."""
    site.pages["/trn3"] = (200, "<html><body><p>Each chip has 144 GB of HBM3e.</p></body></html>", {})
    vendor = f.make_vendor(slug="found-chip")
    source = f.make_source(url=site.url("/trn3"))
    fact = f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Memory"), sources=[source])
    FactCitation.objects.filter(cited=fact).update(quote="144 GB of HBM3e")
    f.publish(vendor)
    assert shown("144 GB of HBM3e", NOT_CHECKED) in client.get("/vendors/found-chip/").content.decode()

    call_command("check_sources", stdout=io.StringIO())

    day = display_date(timezone.localdate(), "day")
    html = client.get("/vendors/found-chip/").content.decode()
    assert shown("144 GB of HBM3e", f"Found on the source on {day}") in html


def test_a_check_reaches_a_comparisons_live_page_and_one_finding_the_same_writes_no_version(client):
    vendor = f.make_vendor()
    comparison = f.make_comparison(slug="two-chips", vendors=[vendor, f.make_vendor()])
    source = f.make_source()
    assessment = f.make_assessment(
        criterion=f.make_criterion(comparison=comparison), vendor=vendor, value="Fast", sources=[source]
    )
    AssessmentCitation.objects.filter(cited=assessment).update(quote="the fastest of the three")
    f.publish(comparison)
    AssessmentCitation.objects.filter(cited=assessment).update(quote_found=True, quote_checked_at=CHECKED)

    assert refresh_pages_citing(sources=[source.pk]) == [comparison]

    html = client.get("/compare/two-chips/").content.decode()
    assert shown("the fastest of the three", FOUND) in html
    versions = comparison.versions.count()
    later = CHECKED + dt.timedelta(days=1)
    AssessmentCitation.objects.filter(cited=assessment).update(quote_checked_at=later)
    refresh_pages_citing(sources=[source.pk])
    assert comparison.versions.count() == versions  # found again: the page says so already
    assert shown("the fastest of the three", FOUND) in client.get("/compare/two-chips/").content.decode()


def test_a_preview_marks_no_row_changed_for_what_a_check_found():
    vendor = f.make_vendor()
    cited_fact(vendor, "144 GB of HBM3e")
    live = VendorDocument.parse(f.publish(vendor).document)
    FactCitation.objects.update(quote_found=False, quote_checked_at=CHECKED, quote_missing_at=CHECKED)

    working = VendorDocument.parse(vendor_document(vendor))

    assert working.facts[0].evidence[0].quote_found is False  # the preview shows the check
    assert working.changes_from(live).count == 0  # but no change of the editors' to review


def test_a_document_stored_before_wordings_and_checks_reads_as_an_unchecked_quote(client):
    vendor = f.make_vendor(slug="older-chip")
    cited_fact(vendor, "144 GB of HBM3e")
    version = f.publish(vendor)
    for entry in version.document["facts"][0]["evidence"]:
        for key in ("wording", "quote_found", "quote_checked_at", "quote_missing_at"):
            del entry[key]
    type(version).objects.filter(pk=version.pk).update(document=version.document)

    html = client.get("/vendors/older-chip/").content.decode()

    assert shown("144 GB of HBM3e", NOT_CHECKED) in html
    assert refresh_state(obj=vendor) is False  # the same content


def test_the_api_and_the_downloads_carry_each_citations_wording_and_check(client):
    vendor = f.make_vendor(slug="cited-chip", name="Cited chip")
    fact, source = cited_fact(
        vendor, "144 GB of HBM3e", quote_found=False, quote_checked_at=CHECKED, quote_missing_at=CHECKED
    )
    spec = f.make_spec(vendor=vendor, chip="Cited1", sources=[source])
    SpecCitation.objects.filter(cited=spec).update(quote="a summary of the memory", wording="summary")
    f.publish(vendor)
    said = {"wording": "quote", "quote_found": False, "quote_checked_at": "2026-12-06T09:30:00Z"}

    api = client.get("/api/v1/vendors/cited-chip/").json()
    (evidence,) = api["facts"][0]["evidence"]
    assert {key: evidence[key] for key in said} == said
    (chip,) = client.get("/api/v1/chips/").json()["results"]
    (cited,) = chip["specs"][0]["sources"]
    assert (cited["wording"], cited["quote_found"], cited["quote_checked_at"]) == ("summary", None, None)

    values = json.loads(body(client.get("/data/vendors/cited-chip.json")))["values"]
    row = next(value for value in values if value["kind"] == "fact")
    assert {key: row["sources"][0][key] for key in said} == said
    text = body(client.get("/data/vendors/cited-chip.csv")).decode().lstrip("\ufeff")
    row = next(row for row in csv.DictReader(io.StringIO(text)) if row["kind"] == "fact")
    assert (row["source_1_wording"], row["source_1_quote_found"], row["source_1_quote_checked_at"]) == (
        "quote",
        "false",
        "2026-12-06T09:30:00Z",
    )
    text = body(client.get("/data/chips.csv")).decode().lstrip("\ufeff")
    (row,) = csv.DictReader(io.StringIO(text))
    assert (row["source_1_wording"], row["source_1_quote"], row["source_1_quote_found"]) == (
        "summary",
        "a summary of the memory",
        "",
    )
