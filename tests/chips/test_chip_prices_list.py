"""Prices and results on /chips/ and the chip comparison: the lowest fresh on-demand price per
chip-hour with its provider, sorted and filtered on the published index, dollars per PFLOP-hour
at FP8, derived figures side by side only under one label, and results only beside the same
benchmark; the pages' queries do not grow with the number of prices."""

import datetime as dt
import re
from decimal import Decimal
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chips.models import Price, PriceCitation
from tests.factories import make_price, make_result, make_source, make_spec, make_vendor, publish

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


def fresh():
    return {"sources": [make_source()], "verified_on": TODAY}


def rows(html):
    """/chips/'s rows as {chip name: the row's text after its name cell}, in the table's order."""
    found = re.findall(r'<th scope="row">(.*?)</th>(.*?)</tr>', html, re.S)
    return {re.sub(r"<[^>]+>", "", name).strip(): re.sub(r"\s+", " ", rest) for name, rest in found}


@pytest.fixture
def priced():
    """Three chips with prices (MI300X at $1.50 TensorWave, H100 at $39.33 per 8-chip instance,
    Trainium3 at $4 Example Cloud) and TPU7x with none."""
    amd = make_vendor(name="AMD Instinct", published=False)
    make_spec(vendor=amd, chip="MI300X", kind="compute", quantity="2614.9", unit="TFLOPS",
              precision="FP8", sparse=False, **fresh())  # fmt: skip
    make_price(vendor=amd, chip="MI300X", provider="Azure", amount=Decimal("6"), **fresh())
    make_price(vendor=amd, chip="MI300X", provider="TensorWave", amount=Decimal("1.50"),
               as_of=dt.date(2026, 5, 18), **fresh())  # fmt: skip
    make_price(vendor=amd, chip="MI300X", provider="Crusoe", kind="spot", amount=Decimal("1.00"), **fresh())
    publish(amd)
    nvidia = make_vendor(name="Nvidia", published=False)
    make_spec(vendor=nvidia, chip="H100", kind="memory", quantity="80", unit="GB", **fresh())
    make_price(vendor=nvidia, chip="H100", provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour",
               amount=Decimal("39.33"), chips_per_unit=8, **fresh())  # fmt: skip
    publish(nvidia)
    aws = make_vendor(name="AWS Trainium", published=False)
    make_spec(vendor=aws, chip="Trainium3", kind="memory", quantity="144", unit="GiB", **fresh())
    make_price(vendor=aws, chip="Trainium3", amount=Decimal("4"), **fresh())
    publish(aws)
    google = make_vendor(name="Google TPU", published=False)
    make_spec(vendor=google, chip="TPU7x", kind="memory", quantity="192", unit="GiB", **fresh())
    publish(google)
    return {"amd": amd, "nvidia": nvidia, "aws": aws, "google": google}


def test_the_price_column_shows_the_lowest_fresh_on_demand_price_with_its_provider_and_date(client, priced):
    table = rows(client.get("/chips/").content.decode())
    # TensorWave's $1.50 on demand, not Crusoe's $1 spot nor Azure's $6
    assert "$1.50 per chip-hour" in table["MI300X"]
    assert "TensorWave, as of 18 May 2026" in table["MI300X"]
    assert "$1 per chip-hour" not in table["MI300X"] and "$6 per chip-hour" not in table["MI300X"]
    # $39.33 over 8 chips is $4.91625, shown to three digits and marked derived
    assert "$4.92 per chip-hour" in table["H100"] and "derived" in table["H100"] and "AWS" in table["H100"]
    assert "no price stated" in table["TPU7x"]


def test_dollars_per_pflop_hour_at_fp8_is_shown_for_a_chip_with_a_price_and_fp8_compute(client, priced):
    table = rows(client.get("/chips/").content.decode())
    assert "$0.574 per PFLOP-hour" in table["MI300X"]  # $1.50 / 2.6149 PFLOPS
    assert "not derived" in table["H100"]  # a price but no FP8 compute


def test_a_stale_price_or_a_draft_price_is_not_the_lowest(client):
    vendor = make_vendor(name="Cerebras", published=False)
    make_spec(vendor=vendor, chip="WSE-3", **fresh())
    make_price(vendor=vendor, chip="WSE-3", provider="Stale Cloud", amount=Decimal("1"),
               sources=[make_source()], verified_on=dt.date(2020, 1, 1))  # fmt: skip
    make_price(vendor=vendor, chip="WSE-3", provider="Fresh Cloud", amount=Decimal("3"), **fresh())
    publish(vendor)
    make_price(vendor=vendor, chip="WSE-3", provider="Draft Cloud", amount=Decimal("0.5"), **fresh())
    row = rows(client.get("/chips/").content.decode())["WSE-3"]
    assert "$3 per chip-hour" in row and "Fresh Cloud" in row
    assert "Stale Cloud" not in row and "Draft Cloud" not in row and "$0.5" not in row


def test_sorting_by_price_puts_the_cheapest_first_and_chips_without_a_price_last(client, priced):
    cheapest_first = list(rows(client.get("/chips/?sort=price").content.decode()))
    assert cheapest_first == ["MI300X", "Trainium3", "H100", "TPU7x"]  # $1.50, $4, $4.92, none
    dearest_first = list(rows(client.get("/chips/?sort=-price").content.decode()))
    assert dearest_first == ["H100", "Trainium3", "MI300X", "TPU7x"]


def test_the_price_filter_keeps_chips_at_or_under_it(client, priced):
    # H100's $39.33 over 8 chips is $4.92 a chip-hour: over $4
    assert set(rows(client.get("/chips/?max_price=4").content.decode())) == {"MI300X", "Trainium3"}
    assert set(rows(client.get("/chips/?max_price=1.5").content.decode())) == {"MI300X"}


@pytest.mark.parametrize("value", ["cheap", "-1", "1e999"])
def test_a_bad_price_filter_is_ignored_with_a_message(client, priced, value):
    response = client.get(f"/chips/?max_price={value}")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"On-demand price at most ($ per chip-hour): “{value}” is not a number of 0 or more" in page
    assert len(rows(page)) == 4


def test_the_comparison_shows_price_rows_derived_figures_and_results_side_by_side(client, priced):
    amd, aws = priced["amd"], priced["aws"]
    make_spec(vendor=aws, chip="Trainium3", kind="compute", quantity="2.52", unit="PFLOPS",
              precision="FP8", sparse=False, **fresh())  # fmt: skip
    make_result(vendor=amd, chip="MI300X", value=Decimal("24000"), **fresh())
    make_result(vendor=aws, chip="Trainium3", value=Decimal("16000"), **fresh())
    make_result(vendor=aws, chip="Trainium3", workload="Mixtral 8x7B", value=Decimal("9000"), **fresh())
    publish(amd)
    publish(aws)
    page = client.get("/chips/compare/?chips=mi300x,trainium3").content.decode()
    lowest = re.search(r'<tr id="lowest-price">(.*?)</tr>', page, re.S).group(1)
    assert "$1.50 per chip-hour" in lowest and "TensorWave" in lowest
    assert "$4 per chip-hour" in lowest and "Example Cloud" in lowest
    count = re.search(r'<tr id="price-count">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"\d+ prices?", count) == ["3 prices", "1 price"]
    pflop = re.search(r'<tr id="derived-dollars-per-pflop-hour-fp8-dense">(.*?)</tr>', page, re.S).group(1)
    assert "$0.574 per PFLOP-hour" in pflop and "$1.59 per PFLOP-hour" in pflop  # $4 / 2.52
    results = page[page.index('<h2 id="results">') :]
    shared = re.search(r"<table.*?</table>", results, re.S).group(0)
    assert "MLPerf Inference v5.0, Llama 2 70B, Offline" in shared
    assert shared.index("24,000 tokens/s") < shared.index("16,000 tokens/s")  # MI300X's column first
    assert "Mixtral" not in shared  # only Trainium3 has it: listed under Trainium3 alone
    only = results[results.index('id="results-trainium3"') :]
    assert "MLPerf Inference v5.0, Mixtral 8x7B, Offline" in only and "9,000 tokens/s" in only


def _queries(client, url):
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context)


def _more_prices(vendors, count):
    """``count`` more fresh, cited on-demand prices for each chip of ``vendors``, then published."""
    source = make_source()
    for vendor in vendors:
        chips = set(Price.objects.filter(vendor=vendor).values_list("chip", flat=True))
        made = Price.objects.bulk_create(
            Price(
                vendor=vendor,
                chip=chip,
                provider=f"Cloud {n}",
                offer="One chip",
                amount=Decimal(10 + n),
                verified_on=TODAY,
                position=100 + n,
            )  # fmt: skip
            for chip in chips
            for n in range(count)
        )
        PriceCitation.objects.bulk_create(PriceCitation(cited=price, source=source) for price in made)
        publish(vendor)


PAGES = [
    "/chips/",
    "/chips/?sort=price",
    "/chips/?sort=-price&max_price=20",
    "/chips/compare/?chips=mi300x,h100,trainium3,tpu7x",
]


def test_the_chips_table_and_a_comparison_take_the_same_queries_at_1_price_a_chip_and_at_40(client, priced):
    few = {url: _queries(client, url) for url in PAGES}
    _more_prices([priced["amd"], priced["nvidia"], priced["aws"]], 40)
    assert {url: _queries(client, url) for url in PAGES} == few
    # the prices were read: the lowest stays the lowest, each chip now has its 40 more
    page = client.get("/chips/compare/?chips=mi300x,h100").content.decode()
    count = re.search(r'<tr id="price-count">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"\d+ prices?", count) == ["43 prices", "41 prices"]


def fp8_chip(name, *, amount, pflops, sparse=False, **price):
    vendor = make_vendor(name=f"{name} Inc", published=False)
    make_spec(vendor=vendor, chip=name, kind="compute", quantity=pflops, unit="PFLOPS", precision="FP8",
              sparse=sparse, **fresh())  # fmt: skip
    make_price(vendor=vendor, chip=name, amount=Decimal(amount), **{**fresh(), **price})
    publish(vendor)
    return vendor


def test_sorting_by_dollars_per_pflop_hour_follows_the_derived_figure_and_puts_chips_without_one_last(client):
    fp8_chip("Alpha", amount="2", pflops="4")  # $0.50 per PFLOP-hour
    fp8_chip("Beta", amount="1", pflops="1")  # $1
    fp8_chip("Gamma", amount="3", pflops="10")  # $0.30
    fp8_chip("Delta", amount="1", pflops="10", verified_on=dt.date(2020, 1, 1))  # a stale price: none
    cheapest_first = list(rows(client.get("/chips/?sort=pflop").content.decode()))
    assert cheapest_first == ["Gamma", "Alpha", "Beta", "Delta"]
    dearest_first = list(rows(client.get("/chips/?sort=-pflop").content.decode()))
    assert dearest_first == ["Beta", "Alpha", "Gamma", "Delta"]


def test_the_pflop_hour_filter_keeps_chips_at_or_under_it_and_a_bad_value_is_ignored(client):
    fp8_chip("Alpha", amount="2", pflops="4")  # $0.50
    fp8_chip("Beta", amount="1", pflops="1")  # $1
    assert set(rows(client.get("/chips/?max_pflop_hour=0.5").content.decode())) == {"Alpha"}
    page = client.get("/chips/?max_pflop_hour=cheap").content.decode()
    assert "$ per PFLOP-hour (FP8) at most: “cheap” is not a number of 0 or more" in page
    assert set(rows(page)) == {"Alpha", "Beta"}


def test_a_bounded_compute_figure_gives_no_dollars_per_pflop_hour_to_show_or_sort_by(client):
    vendor = fp8_chip("Alpha", amount="2", pflops="4")
    make_spec(vendor=vendor, chip="Bounded", kind="compute", quantity="100", unit="PFLOPS", precision="FP8",
              qualifier="up_to", **fresh())  # fmt: skip
    make_price(vendor=vendor, chip="Bounded", amount=Decimal("1"), **fresh())
    publish(vendor)
    table = rows(client.get("/chips/?sort=pflop").content.decode())
    assert list(table) == ["Alpha", "Bounded"] and "not derived" in table["Bounded"]


def test_a_price_that_turned_stale_since_its_publish_no_longer_sorts_or_filters(client, settings):
    fp8_chip(
        "Alpha", amount="2", pflops="4", verified_on=TODAY - dt.timedelta(days=settings.FRESHNESS_DAYS - 5)
    )
    fp8_chip("Beta", amount="1", pflops="1")
    assert list(rows(client.get("/chips/?sort=-price").content.decode())) == ["Alpha", "Beta"]
    ten_days_on = timezone.now() + dt.timedelta(days=10)  # Alpha's price is past its window then
    with mock.patch("django.utils.timezone.now", return_value=ten_days_on):
        table = rows(client.get("/chips/?sort=-price").content.decode())
        assert list(table) == ["Beta", "Alpha"] and "no price stated" in table["Alpha"]
        assert set(rows(client.get("/chips/?max_price=3").content.decode())) == {"Beta"}
