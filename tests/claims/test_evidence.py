"""Evidence per citation: the source's own words and its support, from the editor's row and
dialog to the profile's Sources list, the API, the downloads and the history; and no more
than three footnote markers on a row."""

import csv
import io
import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils.html import strip_tags

from claims.models import Source, Support
from editorial.diff import describe_changes
from editorial.revisions import latest_version_id, record_revision
from tests import factories as f
from vendors.demo import REFERENCE_SOURCES, load_demo
from vendors.models import FactCitation
from vendors.selectors import MARKERS_PER_CLAIM

pytestmark = pytest.mark.django_db

QUICK_ADD = "/admin/claims/source/quick-add/"
WORD = re.compile(r"[\w’'%.-]+")


def words(text):
    return [word.strip(".").lower() for word in WORD.findall(text) if word.strip(".")]


@pytest.fixture
def demo():
    load_demo()


@pytest.fixture
def trainium_page(demo, client):
    response = client.get("/vendors/aws-trainium/")
    assert response.status_code == 200
    return response.content.decode()


def sources_section(html):
    return html[html.index('<section aria-labelledby="sources"') :]


def test_at_least_80_percent_of_the_sources_words_are_on_the_trainium_profile(trainium_page):
    """Word for word: each quote's words counted where the Sources list shows that quote."""
    claims = json.loads(Path(REFERENCE_SOURCES).read_text())["claims"]
    shown = " ".join(
        strip_tags(quote) for quote in re.findall(r"<q>(.*?)</q>", sources_section(trainium_page), re.S)
    )
    shown = shown.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")
    total = found = 0
    for claim in claims:
        quote_words = words(claim["quote"])
        total += len(quote_words)
        # The quote itself, or the part of it before a cut (a joined quote past 500 characters).
        found += sum(1 for word in quote_words if word in set(words(shown)))
    whole = sum(1 for claim in claims if claim["quote"].strip() in shown)
    assert found / total >= 0.8
    assert whole / len(claims) >= 0.8  # most quotes appear whole, not as scattered words


def test_partial_support_is_said_as_such_beside_the_sources_words(trainium_page):
    section = sources_section(trainium_page)
    # usage.ai supports the Pricing row only in part (trainium_sources.json, claim 10).
    usage = section[section.index("usage.ai") :]
    item = usage[: usage.index("</li>")]
    assert "Partial support</strong> for Pricing" in item
    assert "<q>" in item
    assert section.count("Partial support") >= 10


def test_a_partly_supporting_source_says_so_on_its_footnote(client):
    vendor = f.make_vendor()
    source = f.make_source(title="A secondary page")
    fact = f.make_fact(vendor=vendor, value="144 GB HBM3e", sources=[source])
    FactCitation.objects.filter(cited=fact).update(support=Support.PARTIAL, quote="144 GB of HBM")
    f.publish(vendor)

    html = client.get(vendor.get_absolute_url()).content.decode()

    assert 'aria-label="Source 1 (partial support): A secondary page">[1, partial support]</a>' in html
    assert "<q>144 GB of HBM</q>" in html


def test_no_fact_at_a_glance_carries_more_than_three_markers(trainium_page):
    glance = trainium_page[trainium_page.index('id="glance"') : trainium_page.index('id="changes"')]
    claims = re.findall(r'<p class="claim"[^>]*>(.*?)</p>', glance, re.S)
    assert len(claims) == 8
    assert max(claim.count('<sup class="fn') for claim in claims) <= MARKERS_PER_CLAIM
    assert any("fn-group" in claim for claim in claims)  # Current chips cites ten sources


def test_a_grouped_marker_links_to_a_note_that_lists_every_source(trainium_page):
    glance = trainium_page[trainium_page.index('id="glance"') : trainium_page.index('id="changes"')]
    current = re.search(r'<th scope="row">Current chips</th>\s*<td>(.*?)</td>', glance, re.S).group(1)
    anchor, count = re.search(r'href="#(notes-fact-\d+)" aria-label="(\d+) sources', current).groups()
    note = re.search(rf'<li id="{anchor}">(.*?)</li>', trainium_page, re.S).group(1)
    assert note.startswith("Current chips: ")
    assert len(re.findall(r'href="#source-\d+"', note)) == int(count) == 10


def test_three_sources_keep_their_own_markers(client):
    vendor = f.make_vendor()
    fact = f.make_fact(vendor=vendor, sources=[f.make_source() for _ in range(3)])
    f.publish(vendor)
    html = client.get(vendor.get_absolute_url()).content.decode()
    row = html[html.index(f'id="fact-{fact.pk}"') :]
    row = row[: row.index("</p>")]
    assert re.findall(r">\[(\d)\]<", row) == ["1", "2", "3"]
    assert "fn-group" not in html


def test_the_api_and_the_downloads_carry_each_citations_words_and_support(demo, client):
    api = client.get("/api/v1/vendors/aws-trainium/").json()
    pricing = next(fact for fact in api["facts"] if fact["attribute"]["name"] == "Pricing")
    # Partly supported; a copy of AWS's Capacity Blocks prices contradicts "no per-chip rate".
    assert {entry["support"] for entry in pricing["evidence"]} == {"partial", "contradicts"}
    assert all(entry["source"] in pricing["sources"] and entry["quote"] for entry in pricing["evidence"])

    data = client.get("/data/vendors/aws-trainium.json")
    assert data.status_code == 200
    values = json.loads(b"".join(data.streaming_content) if data.streaming else data.content)["values"]
    row = next(value for value in values if value["kind"] == "fact" and value["label"] == "Pricing")
    assert row["sources"][0]["support"] == "partial" and row["sources"][0]["quote"]

    download = client.get("/data/vendors/aws-trainium.csv")
    text = (b"".join(download.streaming_content) if download.streaming else download.content).decode()
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    pricing_row = next(row for row in rows if row["kind"] == "fact" and row["label"] == "Pricing")
    assert pricing_row["source_1_support"] == "partial"
    assert pricing_row["source_1_quote"] == row["sources"][0]["quote"]


# --- Editors: on the row, and in the dialog ---------------------------------------------------


@pytest.fixture
def editor():
    client = Client()
    client.force_login(f.make_staff_user(group="Editor"))
    return client


def cited_vendor():
    vendor = f.make_vendor(published=False)
    source = f.make_source(title="Trainium3 architecture guide")
    fact = f.make_fact(vendor=vendor, value="144 GB HBM3e", sources=[source])
    record_revision(vendor, comment="Set up.")
    return vendor, fact, source


def set_evidence(rows, *, quote, support):
    rows["facts"][0]["evidence-quote"] = [quote]
    rows["facts"][0]["evidence-support"] = [support]


def test_an_editor_enters_a_quote_and_partial_support_on_the_row(editor):
    vendor, fact, source = cited_vendor()

    response = f.admin_post_vendor_page(
        editor, vendor, edit=lambda rows: set_evidence(rows, quote="144 GiB of HBM", support="partial")
    )

    assert response.status_code == 302
    citation = FactCitation.objects.get(cited=fact, source=source)
    assert (citation.quote, citation.support) == ("144 GiB of HBM", "partial")
    page = editor.get(f.admin_change_url(vendor)).content.decode()
    assert "144 GiB of HBM</textarea>" in page
    assert '<option value="partial" selected>' in page


@pytest.mark.parametrize(
    ("quote", "support", "message"),
    [
        ("x" * 501, "full", "is 501 characters: shorten it to 500 at most"),
        ("Fine words", "maybe", "“maybe” is not a support for “Trainium3 architecture guide”"),
    ],
)
def test_a_long_quote_or_an_unknown_support_is_a_form_error_and_changes_nothing(
    editor, quote, support, message
):
    vendor, fact, source = cited_vendor()

    response = f.admin_post_vendor_page(
        editor, vendor, edit=lambda rows: set_evidence(rows, quote=quote, support=support)
    )

    assert response.status_code == 200
    assert message in response.content.decode()
    citation = FactCitation.objects.get(cited=fact, source=source)
    assert (citation.quote, citation.support) == ("", "full")


def test_the_dialog_returns_the_typed_evidence_for_the_rows_citation(editor):
    response = editor.post(
        QUICK_ADD,
        {
            "title": "A spec",
            "url": "https://example.com/spec",
            "quote": "  Up to 144 chips.  ",
            "support": "partial",
        },
    )

    assert response.status_code == 201
    assert response.json()["source"] | {"id": ""} == {
        "id": "",
        "text": "A spec",
        "url": "https://example.com/spec",
        "quote": "Up to 144 chips.",
        "support": "partial",
    }


@pytest.mark.parametrize(
    ("field", "value"), [("quote", "y" * 501), ("support", "strongly")], ids=["long quote", "unknown support"]
)
def test_the_dialog_refuses_a_long_quote_or_an_unknown_support_and_adds_no_source(editor, field, value):
    response = editor.post(QUICK_ADD, {"title": "A spec", "url": "https://example.com/spec", field: value})

    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]
    assert not Source.objects.filter(url="https://example.com/spec").exists()


def test_the_history_says_when_a_citations_evidence_changed():
    vendor, fact, source = cited_vendor()
    before = latest_version_id(vendor)
    FactCitation.objects.filter(cited=fact).update(support=Support.CONTRADICTS, quote="4.7 TB/s")
    record_revision(vendor, comment="Set up.")

    lines = describe_changes(vendor, before, latest_version_id(vendor))

    said = "support full -> contradicts, quote added"
    assert f"Evidence of {fact.attribute.name} from Trainium3 architecture guide: {said}" in lines


def test_a_document_published_before_evidence_reads_as_full_support_without_words():
    vendor = f.make_vendor()
    fact = f.make_fact(vendor=vendor, sources=[f.make_source()])
    version = f.publish(vendor)
    document = version.document
    assert document["facts"][0]["evidence"] == []  # nothing more than “this source supports it”
    del document["facts"][0]["evidence"]
    from vendors.documents import VendorDocument

    parsed = VendorDocument.parse(document)
    assert parsed.facts[0].evidence_from(fact.sources.get().pk).support == "full"


def test_a_comparison_groups_a_long_cited_row_under_one_marker_named_for_its_vendor(client):
    lane = f.make_lane()
    memory = f.make_attribute(name="Memory")
    first = f.make_vendor(name="First chip", slug="first-chip", lane=lane)
    second = f.make_vendor(name="Second chip", slug="second-chip", lane=lane)
    fact = f.make_fact(vendor=first, attribute=memory, sources=[f.make_source() for _ in range(4)])
    f.make_fact(vendor=second, attribute=memory, sources=[f.make_source()])
    f.publish(first)
    f.publish(second)

    html = client.get("/compare/vendors/first-chip/second-chip/").content.decode()

    assert f'href="#notes-fact-{fact.pk}" aria-label="4 sources: see the note">[4 sources]</a>' in html
    note = re.search(rf'<li id="notes-fact-{fact.pk}">(.*?)</li>', html, re.S).group(1)
    assert note.startswith("First chip, Memory: ")
    assert len(re.findall(r'href="#source-\d+"', note)) == 4


def test_a_contradicting_source_says_so_on_its_marker_and_in_the_sources_list(client):
    vendor = f.make_vendor()
    memory = f.make_attribute(name="Memory")
    source = f.make_source(title="Trainium3 guide for NKI")
    fact = f.make_fact(vendor=vendor, attribute=memory, value="4.9 TB/s per chip", sources=[source])
    FactCitation.objects.filter(cited=fact).update(support=Support.CONTRADICTS, quote="bandwidth of 4.7 TB/s")
    f.publish(vendor)

    html = client.get(vendor.get_absolute_url()).content.decode()

    assert ">[1, contradicts]</a>" in html
    assert '<strong class="support">Contradicts</strong> Memory: <q>bandwidth of 4.7 TB/s</q>' in html
