"""The prices' and results' downloads: one row per price and per measured result of every live
chip, amounts as their sources give them, the price per chip-hour stated or derived, each row
with its sources; drafts never; a query count that does not grow with the prices."""

import csv
import datetime as dt
import io
import json
from decimal import Decimal

import pytest

from chips.models import PriceCitation
from tests import factories as f

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()  # fresh by the one rule (claims.freshness), whatever day the tests run


def spreadsheet_rows(response):
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))


@pytest.fixture
def nvidia():
    """A live vendor whose H100 has three prices (per chip-hour, per instance-hour of 8 chips, per
    unit) and one measured result, each cited and verified today."""
    pricing = f.make_source(title="Lambda pricing", url="https://lambda.example/pricing")
    ec2 = f.make_source(title="EC2 P5 pricing", url="https://aws.example/p5")
    vendor = f.make_vendor(name="Nvidia", slug="nvidia")
    cited = {"chip": "H100", "verified_on": TODAY}
    f.make_price(
        vendor=vendor, provider="Lambda", offer="1x H100 SXM", amount=Decimal("4.916"),
        region="us-east-1", as_of=dt.date(2026, 5, 18), sources=[pricing], **cited,
    )  # fmt: skip
    instance = f.make_price(
        vendor=vendor, provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour",
        amount=Decimal("39.33"), chips_per_unit=8, as_of=dt.date(2026, 5, 1), as_of_precision="month",
        sources=[ec2], **cited,
    )  # fmt: skip
    PriceCitation.objects.filter(cited=instance, source=ec2).update(quote="p5.48xlarge $39.33 per hour")
    f.make_price(
        vendor=vendor, provider="Nvidia", offer="H100 board", kind="list-price", per="unit",
        amount=Decimal("50000"), sources=[pricing], **cited,
    )  # fmt: skip
    f.make_result(vendor=vendor, value=Decimal("1042110"), sources=[pricing], submitter="Nvidia", **cited)
    f.publish(vendor)
    return vendor


def test_the_prices_csv_keeps_each_amount_as_its_source_gives_it_with_its_sources(client, nvidia):
    response = client.get("/data/prices.csv")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="chipsite-prices.csv"'
    lambda_, aws, board = spreadsheet_rows(response)
    assert [row["amount"] for row in (lambda_, aws, board)] == ["4.916", "39.33", "50000"]
    assert (lambda_["chip"], lambda_["chip_slug"], lambda_["vendor"], lambda_["provider"]) == (
        "H100",
        "h100",
        "Nvidia",
        "Lambda",
    )
    assert (lambda_["kind"], lambda_["currency"], lambda_["per"], lambda_["region"]) == (
        "on-demand",
        "USD",
        "chip-hour",
        "us-east-1",
    )
    assert (lambda_["as_of"], aws["as_of"]) == ("2026-05-18", "2026-05")  # the month, as the source dates it
    assert (lambda_["source_1_title"], lambda_["source_1_url"]) == (
        "Lambda pricing",
        "https://lambda.example/pricing",
    )
    assert (aws["source_1_title"], aws["source_1_quote"]) == ("EC2 P5 pricing", "p5.48xlarge $39.33 per hour")
    assert (lambda_["stale"], lambda_["verified_on"]) == ("false", TODAY.isoformat())


def test_a_price_per_chip_hour_is_stated_or_derived_and_says_which(client, nvidia):
    lambda_, aws, board = spreadsheet_rows(client.get("/data/prices.csv"))
    assert (lambda_["per_chip_hour"], lambda_["per_chip_hour_basis"]) == ("4.916", "stated")
    # $39.33 / 8 chips is $4.91625, written as the site derives it: to three significant digits.
    assert (aws["per_chip_hour"], aws["per_chip_hour_basis"]) == ("4.92", "derived")
    assert aws["chips_per_unit"] == "8"
    assert aws["per_chip_hour_arithmetic"] == "$39.33 per instance-hour / 8 chips"
    assert (board["per_chip_hour"], board["per_chip_hour_basis"], board["chips_per_unit"]) == ("", "", "")


def test_the_prices_json_writes_amounts_as_decimal_strings_never_floats(client, nvidia):
    response = client.get("/data/prices.json")
    assert response["Content-Disposition"] == 'attachment; filename="chipsite-prices.json"'
    data = json.loads(response.content)
    assert data["licence"]["id"] == "CC-BY-4.0"
    assert data["url"] == "http://testserver/data/prices.json"
    assert [(v["amount"], v["per_chip_hour"]) for v in data["values"]] == [
        ("4.916", "4.916"),
        ("39.33", "4.92"),
        ("50000", ""),
    ]
    assert '"amount":"4.916"' in response.content.decode()
    aws = data["values"][1]
    assert (aws["chips_per_unit"], aws["per_chip_hour_basis"], aws["stale"]) == (8, "derived", False)
    assert [(s["title"], s["quote"]) for s in aws["sources"]] == [
        ("EC2 P5 pricing", "p5.48xlarge $39.33 per hour")
    ]


def test_a_stale_price_is_marked_stale_and_nothing_is_derived_from_it(client):
    vendor = f.make_vendor(name="AMD Instinct")
    f.make_price(
        vendor=vendor, chip="MI300X", provider="Azure", per="instance-hour", amount=Decimal("48"),
        chips_per_unit=8, verified_on=dt.date(2020, 1, 1), sources=[f.make_source()],
    )  # fmt: skip
    f.publish(vendor)
    (row,) = spreadsheet_rows(client.get("/data/prices.csv"))
    assert (row["amount"], row["stale"], row["verified_on"]) == ("48", "true", "2020-01-01")
    assert (row["per_chip_hour"], row["per_chip_hour_basis"]) == ("", "")


def test_a_draft_price_or_result_is_in_no_download(client, nvidia):
    draft = f.make_vendor(name="Draft silicon", published=False)
    f.make_price(vendor=draft, chip="Secret1", provider="Hidden Cloud", amount=Decimal("7.77"))
    f.make_result(vendor=draft, chip="Secret1", workload="Secret workload")
    # Unpublished edits of the live vendor: a new price and result, and a changed amount.
    f.make_price(vendor=nvidia, chip="H100", provider="Unpublished Cloud", amount=Decimal("1.11"))
    f.make_result(vendor=nvidia, chip="H100", workload="Unpublished workload")
    nvidia.prices.filter(provider="Lambda").update(amount=Decimal("3.33"))
    for url in ("/data/prices.csv", "/data/prices.json", "/data/results.csv", "/data/results.json"):
        text = client.get(url).content.decode("utf-8-sig")
        for word in ("Secret1", "Hidden Cloud", "Unpublished", "7.77", "1.11", "3.33"):
            assert word not in text, (url, word)
    assert [row["amount"] for row in spreadsheet_rows(client.get("/data/prices.csv"))] == [
        "4.916",
        "39.33",
        "50000",
    ]


def test_the_results_csv_has_one_row_per_measured_value_as_its_source_gives_it(client, nvidia):
    response = client.get("/data/results.csv")
    assert response["Content-Disposition"] == 'attachment; filename="chipsite-results.csv"'
    (row,) = spreadsheet_rows(response)
    assert (row["chip"], row["chip_slug"], row["vendor"], row["system"], row["chips_in_system"]) == (
        "H100",
        "h100",
        "Nvidia",
        "8-chip server",
        "8",
    )
    assert (row["suite"], row["suite_version"], row["workload"], row["scenario"]) == (
        "MLPerf Inference",
        "v5.0",
        "Llama 2 70B",
        "Offline",
    )
    assert (row["metric"], row["value"], row["unit"], row["submitter"]) == (
        "throughput",
        "1042110",
        "tokens/s",
        "Nvidia",
    )
    assert (row["stale"], row["source_1_title"]) == ("false", "Lambda pricing")


def test_the_results_json_writes_each_value_as_a_decimal_string(client, nvidia):
    data = json.loads(client.get("/data/results.json").content)
    (value,) = data["values"]
    assert (value["value"], value["chips_in_system"], value["workload"]) == ("1042110", 8, "Llama 2 70B")
    assert [s["url"] for s in value["sources"]] == ["https://lambda.example/pricing"]


def test_the_data_page_lists_the_prices_and_results_files_and_says_what_they_hold(client, nvidia):
    html = client.get("/data/").content.decode()
    for href in ("/data/prices.csv", "/data/prices.json", "/data/results.csv", "/data/results.json"):
        assert f'href="{href}"' in html
    assert "Chip prices" in html and "Chip results" in html
    assert "<code>per_chip_hour_basis</code>" in html


@pytest.mark.parametrize("url", ["/data/prices.csv", "/data/prices.json", "/data/results.csv"])
def test_the_price_and_result_files_are_byte_identical_on_repeat(client, nvidia, url):
    assert client.get(url).content == client.get(url).content


@pytest.mark.parametrize(
    "url", ["/data/prices.csv", "/data/prices.json", "/data/results.csv", "/data/results.json"]
)
def test_the_price_and_result_files_query_count_does_not_grow_with_the_prices(
    client, url, django_assert_num_queries
):
    for vendors, rows in ((1, 2), (10, 22)):
        for _ in range(vendors):
            vendor = f.make_vendor()
            source = f.make_source()
            for n in range(2):
                chip = f"{vendor.name} {n}"
                f.make_price(vendor=vendor, chip=chip, amount=Decimal("2.5"), sources=[source])
                f.make_result(vendor=vendor, chip=chip, sources=[source])
            f.publish(vendor)
        # The chips' index rows, then the documents of the versions holding them.
        with django_assert_num_queries(2):
            response = client.get(url)
        assert response.status_code == 200
        if url.endswith(".csv"):
            assert len(spreadsheet_rows(response)) == rows
