"""A chip's prices, results and derived figures in the read API: amounts and values as the
decimal strings their sources give, each with its sources; each derived figure with its
arithmetic and the sources it rests on; drafts never; a query count that does not grow."""

import datetime as dt
from decimal import Decimal

import pytest

from chips.models import PriceCitation
from tests.factories import make_price, make_result, make_source, make_vendor, publish

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()  # fresh by the one rule (claims.freshness), whatever day the tests run


@pytest.fixture
def sources():
    return {
        "ec2": make_source(title="EC2 P5 pricing", url="https://aws.example/p5"),
        "lambda": make_source(title="Lambda pricing", url="https://lambda.example/pricing"),
        "mlperf": make_source(title="MLPerf Inference v5.0 results", url="https://mlcommons.example/v5"),
    }


@pytest.fixture
def nvidia(sources):
    """A live vendor whose H100 has an instance's price (8 chips), a price per chip-hour, a list
    price per unit and a measured result, each cited and verified today."""
    vendor = make_vendor(name="Nvidia", slug="nvidia")
    cited = {"chip": "H100", "verified_on": TODAY}
    instance = make_price(
        vendor=vendor, provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour", amount=Decimal("39.33"),
        chips_per_unit=8, as_of=dt.date(2026, 5, 1), as_of_precision="month", sources=[sources["ec2"]],
        **cited,
    )  # fmt: skip
    PriceCitation.objects.filter(cited=instance, source=sources["ec2"]).update(quote="$39.33 per hour")
    make_price(
        vendor=vendor, provider="Lambda", offer="1x H100 SXM", amount=Decimal("4.916"), region="us-east-1",
        sources=[sources["lambda"]], **cited,
    )  # fmt: skip
    make_price(
        vendor=vendor, provider="Nvidia", offer="H100 board", kind="list-price", per="unit",
        amount=Decimal("50000"), sources=[sources["lambda"]], **cited,
    )  # fmt: skip
    make_result(
        vendor=vendor, value=Decimal("1042110"), division="closed", availability="available",
        submitter="Nvidia", sources=[sources["mlperf"]], **cited,
    )  # fmt: skip
    publish(vendor)
    return vendor


def chip_answer(client, slug="h100"):
    response = client.get(f"/api/v1/chips/{slug}/")
    assert response.status_code == 200
    return response.json()


def test_a_chips_prices_keep_their_amounts_as_their_sources_give_them(client, nvidia, sources):
    aws, lambda_, board = chip_answer(client)["prices"]
    assert [price["amount"] for price in (aws, lambda_, board)] == ["39.33", "4.916", "50000"]
    assert (aws["provider"], aws["offer"], aws["kind"], aws["currency"], aws["per"]) == (
        "AWS",
        "EC2 p5.48xlarge",
        "on-demand",
        "USD",
        "instance-hour",
    )
    assert (aws["chips_per_unit"], lambda_["chips_per_unit"], lambda_["region"]) == (8, None, "us-east-1")
    assert (aws["as_of"], aws["as_of_precision"], aws["display_as_of"]) == ("2026-05-01", "month", "May 2026")
    assert (aws["verified_on"], aws["stale"], aws["difference_note"]) == (TODAY.isoformat(), False, "")
    assert aws["shown"] == "$39.33 per instance-hour" and board["kind_label"] == "List price"
    (source,) = aws["sources"]
    assert (source["id"], source["title"], source["url"], source["quote"]) == (
        sources["ec2"].pk,
        "EC2 P5 pricing",
        "https://aws.example/p5",
        "$39.33 per hour",
    )


def test_a_chips_results_keep_their_values_as_their_sources_give_them(client, nvidia, sources):
    (result,) = chip_answer(client)["results"]
    assert (result["system"], result["chips_in_system"], result["suite"], result["suite_version"]) == (
        "8-chip server",
        8,
        "MLPerf Inference",
        "v5.0",
    )
    assert (result["workload"], result["scenario"]) == ("Llama 2 70B", "Offline")
    assert result["metric"] == "throughput"
    assert (result["value"], result["unit"], result["division"], result["availability"]) == (
        "1042110",
        "tokens/s",
        "closed",
        "available",
    )
    assert (result["submitter"], result["stale"], result["benchmark"]) == (
        "Nvidia",
        False,
        "MLPerf Inference v5.0, Llama 2 70B, Offline",
    )
    assert [source["id"] for source in result["sources"]] == [sources["mlperf"].pk]


def test_a_derived_figure_comes_with_its_arithmetic_and_the_sources_it_rests_on(client, nvidia, sources):
    derived = {figure["key"]: figure for figure in chip_answer(client)["derived"]}
    aws_id = nvidia.prices.get(provider="AWS").pk
    chip_hour = derived[f"chip-hour-{aws_id}"]
    assert (chip_hour["value"], chip_hour["unit"], chip_hour["shown"]) == (
        "4.92",  # $39.33 / 8 = $4.91625, to three significant digits
        "USD per chip-hour",
        "$4.92 per chip-hour",
    )
    assert chip_hour["arithmetic"] == "$39.33 per instance-hour / 8 chips"
    assert chip_hour["sources"] == [sources["ec2"].pk]
    result_id = nvidia.results.get().pk
    per_chip = derived[f"result-per-chip-{result_id}"]
    # 1,042,110 / 8 = 130,263.75: a plain decimal to three figures, never “1.30E+5”
    assert (per_chip["value"], per_chip["unit"]) == ("130000", "tokens/s per chip")
    assert per_chip["arithmetic"] == "1,042,110 tokens/s / 8 chips"
    # Per dollar: divided by the lowest on-demand price per chip-hour (Lambda's $4.916)
    per_dollar = derived[f"result-per-dollar-{result_id}"]
    assert per_dollar["sources"] == [sources["mlperf"].pk, sources["lambda"].pk]
    assert "$4.916 per chip-hour (Lambda)" in per_dollar["arithmetic"]


def test_the_lowest_on_demand_price_per_chip_hour_is_in_the_chip_and_the_list(client, nvidia):
    lowest = chip_answer(client)["lowest_on_demand"]
    # Lambda's stated $4.916 is below AWS's $39.33 / 8 = $4.91625
    assert lowest == {
        "amount": "4.916",
        "currency": "USD",
        "provider": "Lambda",
        "offer": "1x H100 SXM",
        "derived": False,
        "shown": "$4.916 per chip-hour",
    }
    (listed,) = client.get("/api/v1/chips/").json()["results"]
    assert listed["lowest_on_demand"] == lowest


def test_a_lowest_price_derived_from_an_instance_says_so(client):
    vendor = make_vendor(name="AMD Instinct")
    make_price(
        vendor=vendor, chip="MI300X", provider="Azure", offer="ND MI300X v5", per="instance-hour",
        amount=Decimal("48"), chips_per_unit=8, verified_on=TODAY, sources=[make_source()],
    )  # fmt: skip
    publish(vendor)
    lowest = chip_answer(client, "mi300x")["lowest_on_demand"]
    assert (lowest["amount"], lowest["derived"], lowest["provider"]) == ("6", True, "Azure")


def test_a_stale_price_is_marked_stale_and_nothing_is_derived_from_it(client):
    vendor = make_vendor(name="AMD Instinct")
    make_price(
        vendor=vendor, chip="MI300X", provider="Azure", per="instance-hour", amount=Decimal("48"),
        chips_per_unit=8, verified_on=dt.date(2020, 1, 1), sources=[make_source()],
    )  # fmt: skip
    publish(vendor)
    chip = chip_answer(client, "mi300x")
    ((price_stale, amount),) = [(price["stale"], price["amount"]) for price in chip["prices"]]
    assert (price_stale, amount) == (True, "48")
    assert chip["derived"] == [] and chip["lowest_on_demand"] is None


def test_a_draft_price_or_result_is_in_no_answer(client, nvidia):
    draft = make_vendor(name="Draft silicon", slug="draft-silicon", published=False)
    make_price(vendor=draft, chip="Secret1", provider="Hidden Cloud")
    make_price(vendor=nvidia, chip="H100", provider="Unpublished Cloud", amount=Decimal("1.11"))
    make_result(vendor=nvidia, chip="H100", workload="Unpublished workload")
    nvidia.prices.filter(provider="Lambda").update(amount=Decimal("3.33"))
    chip = chip_answer(client)
    assert [price["provider"] for price in chip["prices"]] == ["AWS", "Lambda", "Nvidia"]
    assert [price["amount"] for price in chip["prices"]] == ["39.33", "4.916", "50000"]
    assert [result["workload"] for result in chip["results"]] == ["Llama 2 70B"]
    assert client.get("/api/v1/chips/secret1/").status_code == 404


def test_the_openapi_document_describes_prices_results_and_derived_figures(client):
    components = client.get("/api/v1/openapi.json").json()["components"]["schemas"]
    detail = components["ChipDetail"]["properties"]
    assert {"prices", "results", "derived", "lowest_on_demand"} <= set(detail)
    price = components["ChipPrice"]["properties"]
    assert {"provider", "offer", "kind", "amount", "currency", "per", "chips_per_unit"} <= set(price)
    assert "region" in price
    assert {"as_of", "as_of_precision", "verified_on", "stale", "difference_note", "sources"} <= set(price)
    assert price["amount"]["type"] == "string" and price["amount"]["description"]
    result = components["ChipResult"]["properties"]
    assert {"system", "chips_in_system", "suite", "workload", "metric", "value", "unit"} <= set(result)
    assert {"counted", "division", "availability", "submitter"} <= set(result)
    assert result["value"]["type"] == "string"
    derived = components["ChipDerived"]["properties"]
    assert {"key", "label", "value", "unit", "shown", "arithmetic", "sources"} <= set(derived)
    assert derived["value"]["type"] == "string" and derived["arithmetic"]["description"]
    assert {"amount", "currency", "provider", "derived"} <= set(components["ChipHourPrice"]["properties"])


def priced_chips_added(vendors, prices):
    """``vendors`` more live vendors, each with one chip of ``prices`` prices and a result."""
    chips = []
    for _ in range(vendors):
        vendor = make_vendor()
        source = make_source()
        chip = f"{vendor.name} chip"
        for n in range(prices):
            make_price(
                vendor=vendor, chip=chip, provider=f"Cloud {n}", per="instance-hour",
                amount=Decimal(40 + n), chips_per_unit=8, verified_on=TODAY, sources=[source],
            )  # fmt: skip
        make_result(vendor=vendor, chip=chip, verified_on=TODAY, sources=[source])
        publish(vendor)
        chips.append(vendor.prices.first().chip_slug)
    return chips


def test_a_chips_answer_is_one_query_with_2_or_20_prices(client, django_assert_num_queries):
    for prices in (2, 20):
        (slug,) = priced_chips_added(1, prices)
        with django_assert_num_queries(1):
            chip = chip_answer(client, slug)
        assert len(chip["prices"]) == prices and len(chip["derived"]) > prices


def test_the_chip_list_query_count_does_not_grow_from_2_to_20_priced_chips(client, django_assert_num_queries):
    for added, shown in ((2, 2), (18, 20)):
        priced_chips_added(added, 3)
        with django_assert_num_queries(2):  # the count, then the page's chips with their versions
            response = client.get("/api/v1/chips/?per_page=100")
        results = response.json()["results"]
        assert len(results) == shown
        assert all(chip["lowest_on_demand"]["amount"] == "5" for chip in results)  # $40 / 8 chips
