"""The demo's evidence is true to its data: the data's verbatim words are quotes, our summaries
(vendors.json values) are summaries, sources that disagree with the reference profile are cited as
such, and the chips' numbers load as chips.json gives them, qualifier and sparsity included."""

import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps

from chips.models import Spec
from claims.models import Citation, Support, Wording
from vendors.demo import CHIPS, QUOTE_JOIN, REFERENCE, REFERENCE_SOURCES, VENDORS, load_demo
from vendors.demo.market import PRICES, RESULTS
from vendors.models import Event, Fact

DATA = json.loads(Path(VENDORS).read_text())
SOURCES = json.loads(Path(REFERENCE_SOURCES).read_text())
SHARED_VENDORS = Path(__file__).resolve().parents[3] / "shared/data/vendors.json"

# The only verbatim words of the demo's data, by page: trainium_sources.json's quotes.
VERBATIM: dict[str, list[str]] = {}
for pair in SOURCES["claims"] + SOURCES["contradictions"]:
    VERBATIM.setdefault(pair["source_url"], []).append(pair["quote"])
# ... and the words of the pages read beyond the data files (chips.json's ``pages``).
for page in json.loads(Path(CHIPS).read_text()).get("pages", []):
    VERBATIM.setdefault(page["url"], []).extend(page["words"])
# ... and the quotes of prices.json and benchmarks.json, each holding its row's number.
for row in json.loads(PRICES.read_text())["prices"] + json.loads(RESULTS.read_text())["results"]:
    VERBATIM.setdefault(row["url"], []).append(row["quote"])
# Our words for what a page says: vendors.json's fact values and event texts.
SUMMARIES: dict[str, list[str]] = {}
for vendor in DATA["vendors"]:
    for row in vendor["facts"] + vendor["events"]:
        SUMMARIES.setdefault(row["source_url"], []).append(row.get("value") or row["text"])

TOMS_HARDWARE = next(url for url in VERBATIM if "tomshardware.com" in url)


def parts(text):
    """A citation's texts: one page's quotes are joined by an ellipsis, the last cut with one."""
    return [part.removesuffix("…").strip() for part in text.split(QUOTE_JOIN)]


def citations():
    for model in apps.get_models():
        if issubclass(model, Citation):
            yield from model.objects.select_related("source")


@pytest.mark.django_db
def test_a_demo_citation_marked_quote_is_the_datas_verbatim_words_and_a_summary_is_ours():
    load_demo()
    quotes = summaries = 0
    for citation in citations():
        url, text = citation.source.url, citation.quote
        if citation.wording == Wording.QUOTE:
            quotes += 1
            assert text, f"a quote without words: {citation}"
            for part in parts(text):
                assert any(part in words for words in VERBATIM.get(url, [])), (url, part)
        else:
            summaries += 1
            assert citation.wording == Wording.SUMMARY
            assert not text or any(part in ours for part in parts(text) for ours in SUMMARIES.get(url, []))
            assert not any(text and text in words for words in VERBATIM.get(url, [])), (url, text)
    # Every fact and event of a vendors.json vendor cites its page as our summary of it.
    for model in (Fact, Event):
        through = model.sources.through
        data_rows = through.objects.exclude(cited__vendor__slug=SOURCES["vendor"])
        assert data_rows.exists() and not data_rows.exclude(wording=Wording.SUMMARY).exists()
    assert quotes > 100 and summaries > 100


@pytest.mark.django_db
def test_sources_that_disagree_with_the_reference_are_cited_beside_its_own_words():
    load_demo()
    reference = json.loads(Path(REFERENCE).read_text())
    launch = Event.objects.get(vendor__slug="aws-trainium", date__year=2025)
    # "AWS claims up to 4.4x the compute of Trainium2": the reference's words, word for word.
    assert launch.text == reference["events"][0]["text"]
    toms = launch.sources.through.objects.get(cited=launch, source__url=TOMS_HARDWARE)
    assert (toms.support, toms.wording, toms.quote) == (
        Support.CONTRADICTS,
        Wording.QUOTE,
        "As AWS puts it, the new processor is twice as fast as its predecessor "
        "and is four times more efficient.",
    )
    pricing = Fact.objects.get(vendor__slug="aws-trainium", attribute__name="Pricing")
    supports = {c.source.url: c.support for c in pricing.sources.through.objects.filter(cited=pricing)}
    assert supports["http://sibshop.uat.jiralog.com/ec2/capacityblocks/pricing"] == Support.CONTRADICTS
    assert set(supports.values()) == {Support.PARTIAL, Support.CONTRADICTS}


@pytest.mark.django_db
def test_chip_specs_load_with_their_qualifier_sparsity_kind_and_each_sources_wording_and_support():
    load_demo()
    given = json.loads(Path(CHIPS).read_text())["chips"]
    expected = [
        (chip["name"], s["kind"], Decimal(s["quantity"]), s["unit"], s["scope"], s["qualifier"], s["sparse"])
        for chip in given
        for s in chip["specs"]
    ]
    specs = Spec.objects.select_related("vendor").order_by("vendor__pk", "position")
    loaded = [(s.chip, s.kind, s.quantity, s.unit, s.scope, s.qualifier, s.sparse) for s in specs]
    assert sorted(loaded, key=str) == sorted(expected, key=str)
    maia = {(s.precision, s.qualifier) for s in specs if s.chip == "Maia 200" and s.kind == "compute"}
    assert maia == {("FP4", "over"), ("FP8", "over")}  # "Over 10 PFLOPS at FP4 and over 5 PFLOPS at FP8"
    memory = Spec.objects.get(chip="Trainium3", kind="memory")
    cited = memory.sources.through.objects.filter(cited=memory).select_related("source")
    evidence = {(c.source.publisher, c.wording, c.support) for c in cited}
    assert evidence == {
        ("awsdocs-neuron.readthedocs-hosted.com", Wording.QUOTE, Support.FULL),  # 144 GiB
        ("tomshardware.com", Wording.QUOTE, Support.FULL),  # 144 GB
    }
    # The two differ (chips/stated.py), and no editor has settled it yet in the demo; so does
    # AWS's NKI guide (4.7 TB/s) with the 4.9 TB/s of Trainium3's other sources. No other spec.
    assert (memory.sources_differ, memory.difference_note) == (True, "")
    kinds = {(s.chip, s.kind): s.quantity for s in specs if s.kind in ("scale", "cluster")}
    assert kinds[("Trainium3", "scale")] == 144 and kinds[("Trainium3", "cluster")] == 1_000_000
    assert kinds[("TPU7x", "scale")] == 9216
    # Trainium3's cluster limit is "up to 1 million Trainium3 chips" in both its sources: the same.
    differing = {(s.chip, s.kind, s.scope) for s in specs if s.sources_differ}
    assert differing == {("Trainium3", "memory", "chip"), ("Trainium3", "bandwidth", "chip")}
    # AWS's per-chip compute rests on a page read on its own day: verified then, not on the data's.
    compute = Spec.objects.get(chip="Trainium3", kind="compute", scope="chip")
    assert compute.verified_on == dt.date(2026, 12, 6) and memory.verified_on == dt.date(2026, 10, 31)


def test_the_demos_vendors_json_is_the_shared_data_but_for_the_corrections_it_lists():
    if not SHARED_VENDORS.exists():
        pytest.skip("shared/ is not beside this checkout")
    shared = json.loads(SHARED_VENDORS.read_text())
    corrected = {(c["vendor"], c["label"], c["was"]): c for c in DATA["corrected"]}
    assert all(c["why"].strip() and c["source_url"] for c in corrected.values())
    assert DATA["compiled_on"] == shared["compiled_on"]
    differing = []
    for ours, theirs in zip(DATA["vendors"], shared["vendors"], strict=True):
        assert {**ours, "facts": None} == {**theirs, "facts": None}
        for mine, original in zip(ours["facts"], theirs["facts"], strict=True):
            if mine != original:
                assert {**mine, "value": None} == {**original, "value": None}
                differing.append((ours["slug"], original["label"], original["value"]))
                assert corrected[differing[-1]]["source_url"] == mine["source_url"]
    assert sorted(differing) == sorted(corrected)
    tpu = next(fact for fact in DATA["vendors"][0]["facts"] if "9.6 Tb/s" in fact["value"])
    assert "each chip's inter-chip interconnect runs at 9.6 Tb/s" in tpu["value"]
