"""Prices and measured results as rows of a profile: kept as their sources give them (Decimal
amounts with a currency), published in the chip's part of the document, kept with every version,
and the figures derived from them only from cited, fresh inputs, with their arithmetic."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from chips.models import Price, VersionPrice
from chips.prices import per_chip_hour
from tests.factories import make_price, make_result, make_source, make_spec, make_vendor, publish
from vendors.documents import document_of

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


def live_chip(vendor):
    version = vendor.versions.live().get()
    (chip,) = document_of(version).chips
    return chip


def test_a_price_is_published_with_its_chip_as_the_source_gives_it():
    vendor = make_vendor(name="AMD Instinct", published=False)
    source = make_source(title="AMD inference economics")
    make_price(
        vendor=vendor, chip="MI300X", provider="TensorWave", amount=Decimal("1.50"),
        as_of=dt.date(2026, 5, 18), sources=[source], verified_on=TODAY,
    )  # fmt: skip
    publish(vendor)
    (price,) = live_chip(vendor).prices
    assert (price.provider, price.amount, price.currency, price.per) == (
        "TensorWave",
        "1.5",
        "USD",
        "chip-hour",
    )
    assert price.shown == "$1.50 per chip-hour"
    assert price.display_as_of == "18 May 2026"
    assert [s.title for s in price.cited] == ["AMD inference economics"]


def test_an_instance_price_over_its_chips_is_a_derived_price_per_chip_hour_with_its_arithmetic():
    vendor = make_vendor(name="Nvidia", published=False)
    make_price(
        vendor=vendor, chip="H100", provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour",
        amount=Decimal("39.33"), chips_per_unit=8, sources=[make_source()], verified_on=TODAY,
    )  # fmt: skip
    publish(vendor)
    (figure,) = live_chip(vendor).derived
    assert figure.shown == "$4.92 per chip-hour"
    assert figure.arithmetic == "$39.33 per instance-hour / 8 chips"
    assert figure.value == Decimal("4.92")


def test_the_exact_price_per_chip_hour_is_kept_in_decimal_not_float():
    vendor = make_vendor(published=False)
    price = make_price(vendor=vendor, per="instance-hour", amount=Decimal("39.33"), chips_per_unit=8)
    publish(vendor)
    assert per_chip_hour(live_chip(vendor).prices[0]) == Decimal("4.91625")
    assert VersionPrice.objects.get(price_id=price.pk).per_chip_hour == Decimal("4.91625")


def test_dollars_per_pflop_hour_divide_the_lowest_on_demand_price_by_compute_at_its_precision():
    vendor = make_vendor(name="AMD Instinct", published=False)
    cited = {"sources": [make_source()], "verified_on": TODAY}
    make_spec(vendor=vendor, chip="MI300X", kind="compute", quantity="2614.9", unit="TFLOPS", precision="FP8",
              sparse=False, **cited)  # fmt: skip
    make_price(vendor=vendor, chip="MI300X", provider="Azure", amount=Decimal("6"), **cited)
    make_price(vendor=vendor, chip="MI300X", provider="TensorWave", amount=Decimal("1.50"), **cited)
    make_price(vendor=vendor, chip="MI300X", provider="Crusoe", kind="spot", amount=Decimal("1.00"), **cited)
    publish(vendor)
    (figure,) = live_chip(vendor).derived
    assert figure.label == "Dollars per PFLOP-hour, FP8, dense"
    assert figure.shown == "$0.574 per PFLOP-hour"
    assert figure.arithmetic == "$1.50 per chip-hour (TensorWave) / 2.6149 PFLOPS FP8, dense"


def test_nothing_is_derived_from_a_stale_or_uncited_input():
    vendor = make_vendor(published=False)
    make_spec(vendor=vendor, kind="compute", quantity="2", unit="PFLOPS", precision="FP8",
              sources=[make_source()], verified_on=TODAY)  # fmt: skip
    make_price(vendor=vendor, amount=Decimal("2"), verified_on=TODAY)  # no source
    make_price(vendor=vendor, amount=Decimal("3"), sources=[make_source()], verified_on=dt.date(2020, 1, 1))
    publish(vendor)
    chip = live_chip(vendor)
    assert chip.derived == []
    assert chip.lowest_on_demand is None


def test_a_throughput_result_gives_a_rate_per_chip_and_per_dollar():
    vendor = make_vendor(published=False)
    cited = {"sources": [make_source()], "verified_on": TODAY}
    make_result(vendor=vendor, value=Decimal("13212.5"), chips_in_system=8, **cited)
    make_price(vendor=vendor, amount=Decimal("2"), **cited)
    publish(vendor)
    per_chip, per_dollar = live_chip(vendor).derived
    assert per_chip.shown == "1,650 tokens/s per chip"
    assert per_chip.arithmetic == "13,212.5 tokens/s / 8 chips"
    assert per_dollar.shown == "2,970,000 tokens per $1"  # 1,651.5625 × 3,600 / 2


def test_a_result_keeps_its_benchmark_and_unit_and_refuses_a_unit_of_another_kind():
    vendor = make_vendor(published=False)
    result = make_result(vendor=vendor, value=Decimal("1042110"))
    publish(vendor)
    (published,) = live_chip(vendor).results
    assert published.benchmark == "MLPerf Inference v5.0, Llama 2 70B, Offline"
    assert published.shown == "1,042,110 tokens/s"
    result.metric = "time_to_train"
    with pytest.raises(ValidationError, match="Time to train is given in minutes, hours, not tokens/s"):
        result.full_clean()


def test_a_changed_price_publishes_anew_and_its_earlier_value_stays_with_the_earlier_version():
    vendor = make_vendor(published=False)
    price = make_price(vendor=vendor, amount=Decimal("2.50"))
    publish(vendor)
    Price.objects.filter(pk=price.pk).update(amount=Decimal("2.10"))
    publish(vendor)
    assert live_chip(vendor).prices[0].amount == "2.1"
    kept = VersionPrice.objects.filter(price_id=price.pk).order_by("chip__version__number")
    assert [row.amount for row in kept] == [Decimal("2.50"), Decimal("2.10")]


def test_a_price_per_chip_hour_of_an_8_chip_instance_is_its_own_price_per_chip_hour():
    """AWS's Capacity Blocks give a p5.48xlarge (8 x H100) an accelerator's hourly rate: the
    chips say what the instance holds, and the amount is already per chip-hour."""
    vendor = make_vendor(published=False)
    make_price(vendor=vendor, per="chip-hour", amount=Decimal("4.916"), chips_per_unit=8,
               sources=[make_source()], verified_on=TODAY)  # fmt: skip
    publish(vendor)
    (price,) = live_chip(vendor).prices
    assert per_chip_hour(price) == Decimal("4.916") and price.chips_per_unit == 8
    assert live_chip(vendor).derived == []  # nothing to derive: the source states it


def test_a_figure_the_source_bounds_is_no_input_to_a_derived_one():
    vendor = make_vendor(published=False)
    cited = {"sources": [make_source()], "verified_on": TODAY}
    make_spec(vendor=vendor, kind="compute", quantity="18000", unit="TFLOPS", precision="FP4",
              qualifier="up_to", **cited)  # fmt: skip
    make_price(vendor=vendor, amount=Decimal("3.75"), **cited)
    publish(vendor)
    assert [figure.label for figure in live_chip(vendor).derived] == []


@pytest.mark.parametrize("name", ["Trends", "fit", "Compare"])
def test_a_chip_may_not_take_the_address_of_a_page_of_many_chips(name):
    vendor = make_vendor(published=False)
    taken = f"would take the address of /chips/{name.lower()}/"
    with pytest.raises(ValidationError, match=taken):
        make_price(vendor=vendor, chip=name)
    with pytest.raises(ValidationError, match=taken):
        make_spec(vendor=vendor, chip=name)


def test_memory_per_dollar_hour_divides_a_memory_given_in_gib_as_given_with_its_exact_gigabytes():
    vendor = make_vendor(published=False)
    cited = {"sources": [make_source()], "verified_on": TODAY}
    make_spec(vendor=vendor, kind="memory", quantity="144", unit="GiB", **cited)
    make_price(vendor=vendor, amount=Decimal("2"), **cited)
    publish(vendor)
    (figure,) = live_chip(vendor).derived
    assert figure.arithmetic == "144 GiB (154.6 GB) / $2 per chip-hour (Example Cloud)"
    assert figure.shown == "77.3 GB per $1 per hour"  # 154.618822656 / 2
