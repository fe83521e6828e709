"""vendors/demo/chips.json holds only numbers that the demo data states, each with its source.

Checked against the repository's copies of the data (vendors/demo/vendors.json, trainium_sources.json
and aws_trainium.json), so that it runs without /work/shared. Plain pytest: no Django, no database.
"""

import json
import re
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlsplit

import pytest

DEMO = Path(__file__).resolve().parents[2] / "vendors" / "demo"
CHIPS = json.loads((DEMO / "chips.json").read_text())
VENDORS = json.loads((DEMO / "vendors.json").read_text())
TRAINIUM_SOURCES = json.loads((DEMO / "trainium_sources.json").read_text())
REFERENCE = json.loads((DEMO / "aws_trainium.json").read_text())

KINDS = {"memory", "bandwidth", "sram", "sram_bandwidth", "compute", "power", "process", "scale", "cluster"}
UNITS = {"GB", "GiB", "MB", "TB/s", "GB/s", "PFLOPS", "TFLOPS", "W", "nm", "chips"}
SCOPES = {"chip", "system", "pod"}
UNITS_OF_KIND = {
    "memory": {"GB", "GiB", "MB"},
    "sram": {"GB", "GiB", "MB"},
    "bandwidth": {"TB/s", "GB/s"},
    "sram_bandwidth": {"TB/s", "GB/s"},
    "compute": {"PFLOPS", "TFLOPS"},
    "power": {"W"},
    "process": {"nm"},
    "scale": {"chips"},
    "cluster": {"chips"},
}
# How a source may spell each unit (a quote must spell its spec's unit one of these ways).
UNIT_SPELLINGS = {
    "GB": r"(?<![A-Za-z])GB(?![A-Za-z/])",
    "GiB": r"(?<![A-Za-z])GiB(?![A-Za-z/])",
    "MB": r"(?<![A-Za-z])MB(?![A-Za-z/])",
    "TB/s": r"(?<![A-Za-z])(?:TB/s(?:ec)?|TBps)(?![A-Za-z])",
    "GB/s": r"(?<![A-Za-z])(?:GB/s(?:ec)?|GBps)(?![A-Za-z])",
    "PFLOPS": r"(?i)\b(?:PFLOPs?|petaflops?)\b",
    "TFLOPS": r"(?i)\b(?:TFLOPs?|teraflops?)\b",
    "W": r"\d\s*W\b",
    "nm": r"(?<![A-Za-z])nm\b",
    "chips": r"(?i)\b(?:chips?|GPUs?|LPUs?|RDUs?|accelerators?)\b",
}
QUOTE_MAX = 500
SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
QUANTITY = re.compile(r"^\d+(?:\.\d+)?$")
# A number standing on its own (not the "3" of "Trainium3" or the "8" of "FP8"); 9,216 is one number.
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?( million\b)?")
SPARSE = re.compile(r"(?i)\bspars(?:e|ely|ity)\b")
DENSE = re.compile(r"(?i)\bdense\b")
# How a source bounds a figure, in the words just before it: "over 10 PFLOPS", "up to 9,216 chips".
QUALIFIER_WORDS = {
    "up_to": r"up to",
    "over": r"over|more than",
    "about": r"about|~|roughly|approximately|nearly",
    "at_least": r"at least",
}
QUALIFIERS = {"", *QUALIFIER_WORDS}
SUPPORTS = {"full", "partial", "contradicts"}
WORDINGS = {"quote", "summary"}
# What a count of chips counts: one scale-up domain (an UltraServer, an NVLink rack, a pod on one
# interconnect) or the most chips one cluster can join.
COUNTS = {
    "scale": re.compile(r"(?i)UltraServer|NVL\d+|\b(?:pod|rack|board|node|fabric|server|worker)\b"),
    "cluster": re.compile(r"(?i)\bclusters?\b|scale-out|UltraServers can be interconnected"),
}
OFF_DIE = re.compile(r"HBM|GDDR|DRAM|device memory|memory bandwidth")

# The data's text for each URL: a fact's value (vendors.json) or a claim's quote (trainium_sources.json).
FACT_TEXTS = {}  # url -> [(value, vendor_stated, vendor slug)]
for vendor in VENDORS["vendors"]:
    for fact in vendor["facts"]:
        FACT_TEXTS.setdefault(fact["source_url"], []).append(
            (fact["value"], fact["vendor_stated"], vendor["slug"])
        )
PAIR_TEXTS = {}  # url -> [quote]: the verbatim words of the data, supporting or contradicting
PAIR_CLAIMS = {}  # (url, quote) -> the claim the quote was gathered for
for pair in TRAINIUM_SOURCES["claims"] + TRAINIUM_SOURCES["contradictions"]:
    PAIR_TEXTS.setdefault(pair["source_url"], []).append(pair["quote"])
    PAIR_CLAIMS[(pair["source_url"], pair["quote"])] = pair["claim"]
# Pages read beyond the data files (chips.json's ``pages``), with their verbatim words.
PAGES = {page["url"]: page for page in CHIPS.get("pages", [])}
for page in PAGES.values():
    PAIR_TEXTS.setdefault(page["url"], []).extend(page["words"])
    for words in page["words"]:
        PAIR_CLAIMS[(page["url"], words)] = ""
EVENT_TEXTS = {}  # url -> [(text, "2025-06", vendor slug)]: the vendors' dated events
for vendor in VENDORS["vendors"]:
    for event in vendor["events"]:
        EVENT_TEXTS.setdefault(event["source_url"], []).append((event["text"], event["date"], vendor["slug"]))


def reference_urls(node):
    """Any source URL the reference profile's JSON gives itself (it cites claims by text today)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("url", "source_url") and isinstance(value, str):
                yield value
            else:
                yield from reference_urls(value)
    elif isinstance(node, list):
        for item in node:
            yield from reference_urls(item)


REFERENCE_URLS = set(reference_urls(REFERENCE))
NEURON_TRAINIUM3 = "https://awsdocs-neuron.readthedocs-hosted.com/en/v2.29.1/_sources/about-neuron/arch/neuron-hardware/trainium3.rst"
NKI_GUIDE = "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/about/trainium3_arch.html"
TOMS_HARDWARE = next(url for url in PAIR_TEXTS if "tomshardware.com" in url)
KNOWN_URLS = set(FACT_TEXTS) | set(PAIR_TEXTS) | set(EVENT_TEXTS) | REFERENCE_URLS
VENDOR_ORDER = [TRAINIUM_SOURCES["vendor"]] + [vendor["slug"] for vendor in VENDORS["vendors"]]


def aws_own(url):
    """A source of AWS's own: amazon.com, AWS's Neuron documentation, AWS's Neuron repositories."""
    host = urlsplit(url).hostname or ""
    return (
        host == "amazon.com"
        or host.endswith(".amazon.com")
        or host == "awsdocs-neuron.readthedocs-hosted.com"
        or url.startswith("https://github.com/aws-neuron/")
    )


def numbers(text):
    """The numbers ``text`` states: "9,216" is 9216 and "1 million" 1000000."""
    return {
        Decimal(whole.replace(",", "") + (fraction or "")) * (10**6 if million else 1)
        for whole, fraction, million in NUMBER.findall(text)
    }


def qualifier(quote, quantity):
    """How ``quote`` bounds ``quantity``: the qualifier whose words stand right before it."""
    written = {Decimal(quantity)}
    for match in NUMBER.finditer(quote):
        whole, fraction, million = match.groups()
        if Decimal(whole.replace(",", "") + (fraction or "")) * (10**6 if million else 1) in written:
            before = quote[: match.start()].rstrip().lower()
            for name, words in QUALIFIER_WORDS.items():
                if re.search(rf"(?:^|\W)(?:{words})$", before):
                    return name
            return ""
    raise AssertionError(f"{quantity} is not in {quote!r}")


def wording(url, quote):
    """What the data makes of ``quote``: the page's verbatim words or our summary of it."""
    verbatim = any(quote in text for text in PAIR_TEXTS.get(url, []))
    ours = any(quote in text for text, _, _ in FACT_TEXTS.get(url, []) + EVENT_TEXTS.get(url, []))
    assert verbatim != ours, f"{quote!r} is neither or both the data's quote and its summary"
    return "quote" if verbatim else "summary"


def states_unit(quote, unit):
    return bool(re.search(UNIT_SPELLINGS[unit], quote))


SPECS = [
    pytest.param(
        chip, spec, id=f"{chip['slug']}-{spec['kind']}-{spec['scope']}-{spec['precision'] or 'none'}"
    )
    for chip in CHIPS["chips"]
    for spec in chip["specs"]
]
SOURCES = [
    pytest.param(chip, spec, source, id=f"{chip['slug']}-{spec['kind']}-{spec['scope']}-{n}")
    for chip in CHIPS["chips"]
    for spec in chip["specs"]
    for n, source in enumerate(spec["sources"])
]


def test_the_file_says_where_its_numbers_come_from():
    assert set(CHIPS) == {"about", "chips", "pages"}
    assert isinstance(CHIPS["about"], str) and CHIPS["about"].strip()
    assert CHIPS["chips"]


def test_a_page_read_beyond_the_data_says_what_it_is_when_it_was_read_and_its_words():
    for page in CHIPS["pages"]:
        assert set(page) == {"url", "title", "publisher", "read_on", "words", "note", "vendor", "vendor_own"}
        assert page["url"].startswith("https://") and page["url"] not in FACT_TEXTS
        assert page["title"].strip() and page["publisher"].strip() and page["note"].strip()
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", page["read_on"])
        cited = [
            (chip["vendor"], source["quote"])
            for chip in CHIPS["chips"]
            for row in [*chip["specs"], *chip.get("availability", [])]
            for source in row["sources"]
            if source["url"] == page["url"]
        ]
        assert sorted({quote for _, quote in cited}) == sorted(page["words"]), (
            "a page's words are the quotes citing it"
        )
        assert {vendor for vendor, _ in cited} == {page["vendor"]}, "a page is read for one vendor's chips"


def test_trainium3s_per_chip_compute_is_awss_own_mxfp8_figure():
    (compute,) = [
        spec for spec in CHIPS["chips"][0]["specs"] if (spec["kind"], spec["scope"]) == ("compute", "chip")
    ]
    assert (compute["quantity"], compute["unit"], compute["precision"]) == ("2517", "TFLOPS", "MXFP8")
    assert compute["vendor_stated"] and all(aws_own(source["url"]) for source in compute["sources"])


def test_chips_are_keyed_once_and_in_vendor_order():
    slugs = [chip["slug"] for chip in CHIPS["chips"]]
    assert len(slugs) == len(set(slugs)), "a slug repeats"
    for chip in CHIPS["chips"]:
        assert set(chip) in (
            {"vendor", "name", "slug", "specs"},
            {"vendor", "name", "slug", "specs", "availability"},
        )
        assert SLUG.match(chip["slug"]), chip["slug"]
        assert chip["name"].strip()
        assert chip["vendor"] in VENDOR_ORDER, chip["vendor"]
        assert chip["specs"], f"{chip['slug']} has no number"
    positions = [VENDOR_ORDER.index(chip["vendor"]) for chip in CHIPS["chips"]]
    assert positions == sorted(positions), "chips are not grouped in the data's vendor order"


@pytest.mark.parametrize("chip", CHIPS["chips"], ids=lambda chip: chip["slug"])
def test_one_entry_per_kind_scope_and_precision(chip):
    keys = [(spec["kind"], spec["scope"], spec["precision"], spec["sparse"]) for spec in chip["specs"]]
    assert len(keys) == len(set(keys)), keys


@pytest.mark.parametrize(("chip", "spec"), SPECS)
def test_spec_is_typed(chip, spec):
    assert set(spec) == {
        "kind",
        "quantity",
        "unit",
        "scope",
        "precision",
        "qualifier",
        "sparse",
        "vendor_stated",
        "sources",
    }
    assert spec["kind"] in KINDS
    assert spec["unit"] in UNITS
    assert spec["unit"] in UNITS_OF_KIND[spec["kind"]], (spec["kind"], spec["unit"])
    assert spec["scope"] in SCOPES
    assert isinstance(spec["quantity"], str) and QUANTITY.match(spec["quantity"]), spec["quantity"]
    assert spec["sparse"] in (True, False, None) and isinstance(spec["vendor_stated"], bool)
    assert isinstance(spec["precision"], str) and spec["qualifier"] in QUALIFIERS
    if spec["kind"] == "compute":
        assert spec["precision"].strip(), "a compute figure names its precision"
    else:
        assert spec["precision"] == "" and spec["sparse"] is None
    assert spec["sources"], "a spec without a source"
    urls = [source["url"] for source in spec["sources"]]
    assert len(urls) == len(set(urls)), "a source is listed twice"


@pytest.mark.parametrize(("chip", "spec", "source"), SOURCES)
def test_source_is_in_the_data_and_states_the_number(chip, spec, source):
    assert set(source) == {"url", "quote", "wording", "support"}
    url, quote = source["url"], source["quote"]
    assert url in KNOWN_URLS, f"{url} is not a source of the demo data"
    assert 0 < len(quote) <= QUOTE_MAX
    texts = [text for text, _, _ in FACT_TEXTS.get(url, [])] + PAIR_TEXTS.get(url, [])
    assert any(quote in text for text in texts), f"quote is not the data's text for {url}: {quote!r}"
    # A verbatim quote of the data is a quote; a vendors.json value is our summary, never a quote.
    assert source["wording"] == wording(url, quote)
    assert source["support"] in SUPPORTS
    stated = numbers(quote)
    if source["support"] == "contradicts":  # it states another figure of the spec's kind
        assert Decimal(spec["quantity"]) not in stated and stated, quote
    else:
        assert Decimal(spec["quantity"]) in stated, f"{spec['quantity']} is not a number in {quote!r}"
    # Its unit, or another unit of the kind: then the sources differ (see the test below).
    assert any(states_unit(quote, unit) for unit in UNITS_OF_KIND[spec["kind"]]), quote
    if spec["precision"]:
        assert spec["precision"].lower() in quote.lower(), f"{spec['precision']} is not in {quote!r}"
    # Bandwidth is of the memory the quote names: off the die (HBM, GDDR, DRAM) or its SRAM.
    if spec["kind"] == "bandwidth":
        assert OFF_DIE.search(quote), f"the memory of this bandwidth is not named in {quote!r}"
    if spec["kind"] == "sram_bandwidth":
        assert "SRAM" in quote, f"SRAM is not in {quote!r}"
    # The quote is the vendor's facts, or for the reference profile AWS Trainium's sources.
    if url in FACT_TEXTS:
        vendors = {slug for text, _, slug in FACT_TEXTS[url] if quote in text}
        assert chip["vendor"] in vendors, f"{url} is not a source of {chip['vendor']}"
    elif url in PAGES:  # a page read beyond the data files, for the vendor it names
        assert chip["vendor"] == PAGES[url]["vendor"]
    else:
        assert chip["vendor"] == TRAINIUM_SOURCES["vendor"]


@pytest.mark.parametrize(("chip", "spec"), SPECS)
def test_qualifier_and_sparsity_are_what_the_sources_say(chip, spec):
    """The qualifier is how the first source bounds the figure ("over 10 PFLOPS" is 10 and over);
    sparse is true or false only where a source says sparse or dense, else null (not stated)."""
    first = spec["sources"][0]["quote"]
    assert spec["qualifier"] == qualifier(first, spec["quantity"]), first
    if spec["kind"] == "compute":
        said = " ".join(source["quote"] for source in spec["sources"])
        expected = True if SPARSE.search(said) else False if DENSE.search(said) else None
        assert spec["sparse"] is expected, said


@pytest.mark.parametrize(("chip", "spec"), [spec for spec in SPECS if spec.values[1]["kind"] in COUNTS])
def test_a_count_of_chips_says_what_it_counts(chip, spec):
    """A scale-up domain's sources name its UltraServer, rack, pod, board or fabric; a cluster
    limit's name a cluster or scale-out: 9,216 per pod is never ranked beside a cluster."""
    pattern = COUNTS[spec["kind"]]
    assert any(pattern.search(source["quote"]) for source in spec["sources"]), spec["sources"]


def test_the_sources_differ_only_where_the_data_does():
    """Trainium3's memory: AWS says 144 GiB, Tom's Hardware 144 GB; its bandwidth: AWS's NKI guide
    says 4.7 TB/s, not 4.9. No other source of a spec states another unit or figure."""
    differing = {
        (chip["slug"], spec["kind"], spec["scope"], source["url"])
        for chip in CHIPS["chips"]
        for spec in chip["specs"]
        for source in spec["sources"]
        if source["support"] == "contradicts" or not states_unit(source["quote"], spec["unit"])
    }
    assert differing == {
        ("trainium3", "memory", "chip", TOMS_HARDWARE),
        ("trainium3", "bandwidth", "chip", NKI_GUIDE),
    }
    memory = next(spec for spec in CHIPS["chips"][0]["specs"] if spec["kind"] == "memory")
    assert [(source["url"], source["wording"]) for source in memory["sources"]] == [
        (NEURON_TRAINIUM3, "quote"),
        (TOMS_HARDWARE, "quote"),
    ]


def test_figures_the_data_does_not_give_are_not_shown():
    """The MI355X node's 74 PFLOPS is the MI350X's; Trainium3's per-chip "FP8" came from a repost;
    the MI355X's 128-GPU rack is neither one scale-up domain nor a cluster limit."""
    shown = {
        (chip["slug"], spec["kind"], spec["quantity"]) for chip in CHIPS["chips"] for spec in chip["specs"]
    }
    assert not shown & {
        ("mi355x", "compute", "74"),
        ("trainium3", "compute", "2.52"),
        ("mi355x", "scale", "128"),
    }


@pytest.mark.parametrize(("chip", "spec"), SPECS)
def test_vendor_stated_follows_the_sources(chip, spec):
    """True when a fact the number comes from is vendor-stated, or (trainium_sources.json) when a
    source is AWS's own."""
    stated = []
    for source in spec["sources"]:
        if source["url"] in FACT_TEXTS:
            stated += [vs for text, vs, _ in FACT_TEXTS[source["url"]] if source["quote"] in text]
        elif source["url"] in PAGES:  # a page beyond the data says whether it is the vendor's own
            stated.append(PAGES[source["url"]]["vendor_own"])
        else:
            stated.append(aws_own(source["url"]))
    assert spec["vendor_stated"] == any(stated)


# --- Availability: each stage and month as the data states them ---------------------------

STAGES = {"announced", "preview", "ga"}
MONTH = re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$")
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
               "October", "November", "December"]  # fmt: skip
# The words by which the data says a chip reached each stage.
STAGE_WORDS = {
    "announced": re.compile(r"(?i)\b(?:announced|unveiled|launched|detailed|introduced|revealed|released)\b"),
    "preview": re.compile(r"(?i)\bpreview\b"),
    "ga": re.compile(r"(?i)\b(?:generally available|general availability|orderable)\b"),
}
AVAILABILITY = [
    pytest.param(chip, row, id=f"{chip['slug']}-{row['stage']}")
    for chip in CHIPS["chips"]
    for row in chip.get("availability", [])
]


def data_texts(url):
    """[(text, month it dates, vendor slug or None)] the data gives for ``url``: facts, the
    reference profile's quotes (dated by their claim) and events (dated by their date)."""
    texts = [(text, None, slug) for text, _, slug in FACT_TEXTS.get(url, [])]
    texts += [(quote, PAIR_CLAIMS[(url, quote)], None) for quote in PAIR_TEXTS.get(url, [])]
    texts += [(text, date, slug) for text, date, slug in EVENT_TEXTS.get(url, [])]
    return texts


def states_month(text, month):
    """Whether ``text`` names ``month`` (“2025-10”) as “October 2025”, or is an event dated to it."""
    year, number = month.split("-")
    return text == month or bool(re.search(rf"\b{MONTH_NAMES[int(number) - 1]}\b.*\b{year}\b", text))


@pytest.mark.parametrize(("chip", "row"), AVAILABILITY)
def test_availability_is_typed_to_the_month(chip, row):
    assert set(row) == {"stage", "month", "vendor_stated", "sources"}
    assert all(set(source) == {"url", "quote", "wording"} for source in row["sources"])
    assert row["stage"] in STAGES
    assert MONTH.match(row["month"]), row["month"]
    assert isinstance(row["vendor_stated"], bool)
    assert row["sources"], "an availability date without a source"
    stages = [entry["stage"] for entry in chip["availability"]]
    assert len(stages) == len(set(stages)), "a chip reaches each stage once"


@pytest.mark.parametrize(("chip", "row"), AVAILABILITY)
def test_availability_is_the_datas_words_with_its_stage_and_month(chip, row):
    said_stage = said_month = False
    stated = []
    for source in row["sources"]:
        url, quote = source["url"], source["quote"]
        assert url in KNOWN_URLS, f"{url} is not a source of the demo data"
        assert 0 < len(quote) <= QUOTE_MAX
        found = [(text, dated, slug) for text, dated, slug in data_texts(url) if quote in text]
        assert found, f"quote is not the data's text for {url}: {quote!r}"
        assert source["wording"] == wording(url, quote)
        assert all(slug in (None, chip["vendor"]) for _, _, slug in found), f"{url} is not {chip['vendor']}'s"
        said_stage |= bool(STAGE_WORDS[row["stage"]].search(quote))
        said_month |= states_month(quote, row["month"]) or any(
            dated and states_month(dated, row["month"]) for _, dated, _ in found
        )
        if url in FACT_TEXTS:
            stated += [vs for text, vs, _ in FACT_TEXTS[url] if quote in text]
        elif url in PAGES:
            stated.append(PAGES[url]["vendor_own"])
        elif url in PAIR_TEXTS:
            stated.append(aws_own(url))
    assert said_stage, f"no source of {chip['name']} says it was {row['stage']}"
    assert said_month, f"no source of {chip['name']} dates it to {row['month']}"
    assert row["vendor_stated"] == any(stated), "vendor-stated follows the facts it comes from"
