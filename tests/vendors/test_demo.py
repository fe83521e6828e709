"""The demo loader holds the reference profile exactly as published, and the data file's vendors.

The expectations are read from the published text itself (vendors/demo/reference_profile.txt,
a copy of shared/seeds/000_a0e27d5d72c2a414.txt), not from the loader's own JSON.
"""

import datetime as dt
import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils.html import strip_tags

from claims.models import Source
from editorial import selectors
from vendors.demo import REFERENCE, REFERENCE_SOURCES, VENDORS, load_demo
from vendors.models import FAQ, Attribute, Event, Fact, Lane, Score, Vendor, VendorVersion

pytestmark = pytest.mark.django_db

REFERENCE_TEXT = Path(REFERENCE).with_name("reference_profile.txt").read_text()
SHARED_SEED = Path(__file__).resolve().parents[3] / "shared/seeds/000_a0e27d5d72c2a414.txt"


def sections(text):
    """Split the published page into {heading: [lines]} in page order."""
    headings = [
        "Key Takeaways",
        "At a glance",
        "What changed in 2026",
        "Scores",
        "Verdict",
        "Alternatives",
        "Head-to-head comparisons",
        "Frequently asked questions",
        "Sources",
    ]
    lines = text.splitlines()
    result, current = {"Title": []}, "Title"
    for line in lines:
        if line in headings:
            current = line
            result[current] = []
        else:
            result[current].append(line)
    return result


PAGE = sections(REFERENCE_TEXT)
# Slips of the reference's copy that the demo content corrects; the rest is loaded word for word.
SLIPS = {"The main caveat: aWS-only,": "The main caveat: AWS-only,"}


def corrected(text):
    for slip, correction in SLIPS.items():
        text = text.replace(slip, correction)
    return text


@pytest.fixture
def trainium():
    load_demo()
    return Vendor.objects.get(slug="aws-trainium")


def table_rows(lines):
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines if line.startswith("|")]


def test_reference_copy_matches_the_shared_seed():
    if not SHARED_SEED.exists():
        pytest.skip("shared/ is not beside this checkout")
    assert SHARED_SEED.read_text() == REFERENCE_TEXT


def test_title_and_summary(trainium):
    assert trainium.name == "AWS Trainium"
    assert trainium.summary == PAGE["Title"][0]
    assert trainium.company == "Amazon Web Services"
    # Published as loaded: visitors read the same text, and nothing waits unpublished.
    live = VendorVersion.objects.live().get(item=trainium)
    assert (live.name, live.document["vendor"]["summary"]) == ("AWS Trainium", PAGE["Title"][0])
    assert selectors.state(trainium) == "Live"


def test_key_takeaways(trainium):
    takeaways = dict(re.match(r"- (.+?) — (.+)", line).groups() for line in PAGE["Key Takeaways"])
    assert takeaways == {
        "What it is": trainium.what_it_is,
        "Best for": trainium.best_for,
        "Watch out": trainium.watch_out,
    }


def test_at_a_glance_rows_in_order(trainium):
    rows = [row for row in table_rows(PAGE["At a glance"]) if set(row[0]) != {"-"}]
    facts = Fact.objects.filter(vendor=trainium).select_related("attribute")
    assert [(f.attribute.name, f.value) for f in facts] == [tuple(row) for row in rows]
    assert all(f.verified_on == dt.date(2026, 10, 31) for f in facts)


def test_events_with_their_dates(trainium):
    expected = [line.removeprefix("- ") for line in PAGE["What changed in 2026"]]
    events = Event.objects.filter(vendor=trainium)
    assert [f"{e.display_date}. {e.text}" for e in events] == expected
    assert [e.precision for e in events] == [Event.Precision.MONTH, Event.Precision.YEAR]


def test_scores_on_the_five_axes_total_18_of_25(trainium):
    header, _, values = table_rows(PAGE["Scores"])
    scores = Score.objects.filter(vendor=trainium).select_related("axis")
    assert [s.axis.name for s in scores] + ["Total / 25"] == header
    assert [str(s.value) for s in scores] == values[:-1]
    assert sum(s.value for s in scores) == int(values[-1]) == 18
    assert len(scores) * 5 == 25
    assert "Scored 1 to 5 on the same five axes" in PAGE["Scores"][0]


def test_verdict(trainium):
    assert trainium.verdict == PAGE["Verdict"][0]


def test_alternatives_blurbs_and_lanes(trainium):
    lines = PAGE["Alternatives"]
    same_lane = dict(
        line.removeprefix("- ").split(": ", 1) for line in lines[1 : lines.index("In other lanes:")]
    )
    for name, blurb in same_lane.items():
        vendor = Vendor.objects.get(name=name)
        assert vendor.alternative_blurb == blurb
        assert vendor.lane == trainium.lane
    assert trainium.lane.name == "hyperscaler custom silicon"
    for line in lines[lines.index("In other lanes:") + 1 :]:
        name, lane = re.match(r"- (.+) \((.+)\)", line).groups()
        assert Vendor.objects.get(name=name).lane.name.lower() == lane


def test_faqs_in_order(trainium):
    lines = PAGE["Frequently asked questions"]
    expected = list(zip(lines[0::2], map(corrected, lines[1::2]), strict=True))
    assert [(f.question, f.answer) for f in FAQ.objects.filter(vendor=trainium)] == expected
    assert len(expected) == 4


def test_verified_date(trainium):
    live = VendorVersion.objects.live().get(item=trainium)
    assert (live.verified_on, live.unverified_facts, live.fact_count) == (dt.date(2026, 10, 31), 0, 8)
    assert PAGE["Sources"][0].startswith(f"Facts verified {live.verified_on:%Y-%m-%d}.")


def test_the_profile_words_the_verified_date_as_published_in_the_sites_date_format(trainium, client):
    html = client.get(trainium.get_absolute_url()).content.decode()
    text = " ".join(strip_tags(html).split())  # as a browser lays it out: white space collapsed
    # The reference writes "2026-10-31"; the site writes every date a reader sees one way.
    assert PAGE["Sources"][0].replace("2026-10-31", "31 Oct 2026") in text


def test_every_vendor_of_the_data_file_with_facts_events_and_sources():
    load_demo()
    data = json.loads(Path(VENDORS).read_text())
    for item in data["vendors"]:
        vendor = Vendor.objects.get(slug=item["slug"])
        assert vendor.name == item["name"]
        assert vendor.company == item["company"]
        assert vendor.lane.name == item["lane"]
        facts = list(vendor.facts.order_by("position").prefetch_related("sources"))
        assert [(f.attribute.name, f.value, f.vendor_stated) for f in facts] == [
            (c["label"], c["value"], c["vendor_stated"]) for c in item["facts"]
        ]
        assert [[s.url for s in f.sources.all()] for f in facts] == [[c["source_url"]] for c in item["facts"]]
        assert [[s.url for s in e.sources.all()] for e in vendor.events.all()] == [
            [e["source_url"]] for e in item["events"]
        ]
        assert [f"{e.date:%Y-%m}" for e in vendor.events.all()] == [e["date"] for e in item["events"]]
        # The data gives these vendors no scores: none are invented.
        assert not vendor.scores.exists()
    titled = {c["source_url"]: c["source_title"] for v in data["vendors"] for c in v["facts"]}
    for url, title in titled.items():
        assert Source.objects.get(url=url).title == title


def test_loading_twice_changes_nothing():
    models = (Vendor, VendorVersion, Lane, Attribute, Fact, Event, Score, FAQ, Source)
    load_demo()
    counts = [m.objects.count() for m in models]
    edited = Vendor.objects.get(slug="groq")
    edited.summary = "An editor's words"
    edited.save()
    call_command("load_demo", stdout=io.StringIO())
    assert [m.objects.count() for m in models] == counts
    assert Vendor.objects.get(slug="groq").summary == "An editor's words"


def test_dry_run_saves_nothing():
    report = load_demo(dry_run=True)
    assert report.created["vendors"] == 9
    assert not Vendor.objects.exists()
    assert not VendorVersion.objects.exists()
    assert not Source.objects.exists()


def history(item):
    from reversion.models import Version

    return [v.revision.get_comment() for v in Version.objects.get_for_object(item).order_by("pk")]


def test_each_demo_item_starts_its_history_with_the_loaded_state_then_its_first_publish():
    from reversion.models import Version

    from comparisons.models import Comparison

    load_demo()
    items = [*Vendor.objects.all(), *Comparison.objects.all()]
    assert len(items) > 9  # the vendors and the comparisons
    for item in items:
        assert history(item) == ["Loaded from the demo data.", "Published."], item
        (version,) = item.versions.all()
        assert version.number == 1 and version.is_live, item
        assert selectors.state(item) == "Live", item
    trainium = Vendor.objects.get(slug="aws-trainium")
    loaded = Version.objects.get_for_object(trainium).order_by("pk").first().revision
    assert loaded.version_set.filter(content_type__model="fact").count() == 8
    load_demo()  # again: no second revision, no second version
    assert history(trainium) == ["Loaded from the demo data.", "Published."]
    assert trainium.versions.count() == 1


def test_a_demo_profile_change_log_starts_with_its_first_publish(client):
    load_demo()
    page = client.get("/vendors/aws-trainium/changes/").content.decode()
    assert len(re.findall(r"<li id=\"v\d+\"><h2>", page)) == 1
    assert "First published." in page


REFERENCE_SOURCES_DATA = json.loads(Path(REFERENCE_SOURCES).read_text())
SHARED_SOURCES = SHARED_SEED.parents[1] / "data/trainium_sources.json"


def test_trainium_sources_copy_matches_the_shared_data():
    if not SHARED_SOURCES.exists():
        pytest.skip("shared/ is not beside this checkout")
    assert json.loads(SHARED_SOURCES.read_text()) == REFERENCE_SOURCES_DATA


def test_every_live_fact_of_the_demo_cites_a_source():
    load_demo()
    versions = VendorVersion.objects.live()
    assert versions.count() == 9
    for version in versions:
        uncited = [fact["value"] for fact in version.document["facts"] if not fact["sources"]]
        assert not uncited, f"{version.name}: {uncited}"


def cited_urls(item):
    return {source.url for source in item.sources.all()}


def test_trainium_cites_every_source_the_data_gives_for_its_claims(trainium):
    """Each fact cites the sources of its claims, those that support it and those the data lists
    as disagreeing with the reference's wording (contradictions)."""
    by_claim = {}
    for pair in REFERENCE_SOURCES_DATA["claims"] + REFERENCE_SOURCES_DATA["contradictions"]:
        by_claim.setdefault(pair["claim"], set()).add(pair["source_url"])
    reference = json.loads(Path(REFERENCE).read_text())
    facts = list(Fact.objects.filter(vendor=trainium).order_by("position").prefetch_related("sources"))
    for fact, data in zip(facts, reference["facts"], strict=True):
        assert cited_urls(fact) == set().union(*(by_claim[c] for c in data["cites"])), fact
    events = Event.objects.filter(vendor=trainium).prefetch_related("sources")
    assert all(cited_urls(event) for event in events)
    scores = Score.objects.filter(vendor=trainium).prefetch_related("sources")
    assert all(cited_urls(score) for score in scores)
    faqs = FAQ.objects.filter(vendor=trainium).prefetch_related("sources")
    assert all(cited_urls(faq) for faq in faqs)
    # Every claim of the file is cited somewhere, partial support and contradictions included.
    cited = set().union(*(cited_urls(x) for x in [*facts, *events, *scores, *faqs]))
    given = REFERENCE_SOURCES_DATA["claims"] + REFERENCE_SOURCES_DATA["contradictions"]
    assert cited == {pair["source_url"] for pair in given}
    assert any(pair["supports"] == "partial" for pair in REFERENCE_SOURCES_DATA["claims"])


def test_trainium_sources_are_the_data_files_titles_accessed_when_compiled(trainium):
    compiled_on = dt.date.fromisoformat(REFERENCE_SOURCES_DATA["compiled_on"])
    for pair in REFERENCE_SOURCES_DATA["claims"]:
        source = Source.objects.get(url=pair["source_url"])
        assert (source.title, source.accessed_on) == (pair["source_title"], compiled_on)
        assert source.publisher and pair["quote"] in source.notes  # the quote, for editors only


def test_trainium_vendor_stated_flags_come_from_the_data_file(trainium):
    stated = {}
    for pair in REFERENCE_SOURCES_DATA["claims"]:
        stated[pair["claim"]] = stated.get(pair["claim"], False) or pair["vendor_stated"]
    reference = json.loads(Path(REFERENCE).read_text())
    facts = Fact.objects.filter(vendor=trainium).order_by("position")
    assert [f.vendor_stated for f in facts] == [
        any(stated[claim] for claim in data["cites"]) for data in reference["facts"]
    ]
    assert Fact.objects.get(vendor=trainium, attribute__name="Memory").vendor_stated


def test_demo_lanes_have_no_description_since_the_data_gives_none():
    # Neither the reference profile nor shared/data describes a lane: nothing is invented.
    load_demo()
    assert list(Lane.objects.values_list("description", flat=True)) == ["", "", "", ""]
