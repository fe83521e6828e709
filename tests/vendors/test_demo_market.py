"""The demo's prices and measured results are prices.json's and benchmarks.json's, as they state
them: every amount and value with the data's digits, each citing its page with the data's own
words, the recorded contradictions shown as sources differing, and no price where none is stated."""

import json
from decimal import Decimal

import pytest

from chips.models import chip_slug
from chips.selectors import live_chip
from vendors.demo import load_demo
from vendors.demo.market import CHIPS, PRICES, RESULTS

pytestmark = pytest.mark.django_db

DATA_PRICES = json.loads(PRICES.read_text(), parse_float=Decimal)
DATA_RESULTS = json.loads(RESULTS.read_text(), parse_float=Decimal)


def published(rows, row, field):
    """The published price or result that is ``row`` of the data: its page, and its own figure."""
    found = [
        item
        for item in rows
        if [source.url for source in item.cited] == [row["url"]]
        and Decimal(getattr(item, field)) == row[field]
    ]
    assert len(found) >= 1, row
    return found


def chip_of(row):
    _, name = CHIPS[row["chip"]]
    chip = live_chip(chip_slug(name))
    assert chip is not None, name
    return chip.chip


def test_every_price_of_the_data_is_published_with_its_amount_and_the_pages_words():
    load_demo()
    for row in DATA_PRICES["prices"]:
        prices = [
            price
            for price in published(chip_of(row).prices, row, "amount")
            if (price.provider, price.offer, price.kind, price.per)
            == (row["provider"], row["offer"], row["kind"], row["per"])
        ]
        assert len(prices) == 1, row
        (price,) = prices
        assert price.currency == row["currency"] and price.chips_per_unit == row["chips_per_unit"]
        (evidence,) = price.evidence
        assert (evidence.quote, evidence.wording) == (row["quote"], "quote")
    assert (
        sum(len(chip_of(row).prices) for row in {r["chip"]: r for r in DATA_PRICES["prices"]}.values()) == 39
    )


def test_each_recorded_contradiction_is_shown_on_its_rows_as_sources_differing():
    load_demo()
    rows = DATA_PRICES["prices"]
    for contradiction in DATA_PRICES["contradictions"]:
        for index in contradiction["rows"]:
            row = rows[index]
            (price,) = [p for p in published(chip_of(row).prices, row, "amount") if p.offer == row["offer"]]
            assert price.sources_differ
            assert contradiction["note"] in price.difference_note


def test_every_result_of_the_data_is_published_with_its_value_and_what_it_counts():
    load_demo()
    for row in DATA_RESULTS["results"]:
        (result,) = published(chip_of(row).results, row, "value")
        assert result.counted == row["metric"] and result.system == row["system"]
        assert result.chips_in_system == row["chips_in_system"]
        (evidence,) = result.evidence
        assert (evidence.quote, evidence.wording) == (row["quote"], "quote")


def test_chips_no_page_prices_say_no_price():
    load_demo()
    for slug in ("trainium3", "tpu7x", "mi355x", "wse-3"):
        chip = live_chip(slug)
        assert chip is not None and chip.chip.prices == [] and chip.chip.lowest_on_demand is None


def test_an_mlperf_result_is_split_into_its_suite_version_workload_and_scenario():
    load_demo()
    (row,) = [r for r in DATA_RESULTS["results"] if r["chip"] == "MI355X"]
    (result,) = chip_of(row).results
    assert (result.suite, result.suite_version, result.workload, result.scenario) == (
        "MLPerf Inference", "v6.0", "Llama 2 70B", "Offline",
    )  # fmt: skip
    assert result.benchmark == "MLPerf Inference v6.0, Llama 2 70B, Offline"
