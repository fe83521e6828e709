"""A profile's chip prices and measured results in its CSV file: imported row by row, refused
with the row's line named when a unit, currency or amount is wrong, and exported so that
importing the export changes nothing."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils.html import strip_tags

from chips.models import Price, Result
from tests import factories as f
from tests.vendors.test_import import confirm, csv_text, export_url, upload
from vendors.importing import COLUMNS

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client):
    user = f.make_staff_user(group="Editor")
    client.force_login(user)
    return user


@pytest.fixture
def vendor():
    return f.make_vendor(name="AMD Instinct", slug="amd-instinct")


def line(kind, **cells):
    """One CSV row of ``kind``, its cells named by column."""
    row = {name: "" for name in COLUMNS} | {"kind": kind} | cells
    return ",".join(row[name] for name in COLUMNS)


def price_line(**cells):
    return line(
        "price",
        **{"label": "MI300X", "value": "39.33", "provider": "AWS", "offer": "EC2 p5.48xlarge",
           "currency": "USD", "per": "instance-hour", "chips": "8", "as_of": "2026-05"} | cells,
    )  # fmt: skip


def result_line(**cells):
    return line(
        "result",
        **{"label": "MI300X", "value": "13212.5", "measure": "throughput", "unit": "tokens/s",
           "system": "8x MI300X server", "chips": "8", "suite": "MLPerf Inference", "suite_version": "v5.0",
           "workload": "Llama 2 70B", "scenario": "Offline", "as_of": "2026-04-02"} | cells,
    )  # fmt: skip


PRICE_FIELDS = [
    "chip", "provider", "offer", "kind", "amount", "currency", "per", "chips_per_unit", "region",
    "difference_note", "as_of", "as_of_precision", "vendor_stated", "verified_on",
]  # fmt: skip
RESULT_FIELDS = [
    "chip", "system", "chips_in_system", "suite", "suite_version", "workload", "scenario", "metric", "value",
    "unit", "counted", "division", "availability", "submitter", "as_of", "as_of_precision", "vendor_stated",
    "verified_on",
]  # fmt: skip


def rows_of(queryset, fields):
    return [
        (*(getattr(row, name) for name in fields), sorted(s.url for s in row.sources.all()))
        for row in queryset.order_by("position", "pk")
    ]


def page_text(response):
    return " ".join(strip_tags(response.content.decode()).split())


def test_new_prices_and_results_are_imported_with_their_sources_and_dates(client, editor, vendor):
    source = f.make_source()
    text = csv_text(
        price_line(source_urls=source.url, verified_on="2026-11-30", vendor_stated="no"),
        result_line(division="closed", system_availability="available", submitter="AMD"),
    )

    preview = upload(client, vendor, text)
    assert [row.status for row in preview.context["plan"].rows] == ["new", "new"]
    confirm(client, vendor, preview)

    price = Price.objects.get(vendor=vendor)
    assert (price.chip, price.provider, price.offer, price.kind) == (
        "MI300X",
        "AWS",
        "EC2 p5.48xlarge",
        "on-demand",
    )
    assert (price.amount, price.currency, price.per, price.chips_per_unit) == (
        Decimal("39.33"), "USD", "instance-hour", 8
    )  # fmt: skip
    assert (price.as_of, price.as_of_precision) == (dt.date(2026, 5, 1), "month")
    assert [s.url for s in price.sources.all()] == [source.url]
    assert (price.verified_on, price.verified_by) == (dt.date(2026, 11, 30), editor)
    result = Result.objects.get(vendor=vendor)
    assert (result.metric, result.value, result.unit, result.chips_in_system) == (
        "throughput", Decimal("13212.5"), "tokens/s", 8
    )  # fmt: skip
    assert (result.as_of, result.as_of_precision) == (dt.date(2026, 4, 2), "day")
    assert (result.division, result.availability, result.submitter) == ("closed", "available", "AMD")


def test_a_new_amount_updates_the_same_offer(client, editor, vendor):
    price = f.make_price(vendor=vendor, chip="MI300X", provider="AWS", offer="EC2 p5.48xlarge",
                         per="instance-hour", amount=Decimal("40"), chips_per_unit=8,
                         as_of=dt.date(2026, 5, 1), as_of_precision="month", verified_on=None)  # fmt: skip

    preview = upload(client, vendor, csv_text(price_line()))
    (row,) = preview.context["plan"].rows
    assert (row.status, row.changes) == ("changed", [("amount", "40", "39.33")])
    confirm(client, vendor, preview)

    price.refresh_from_db()
    assert price.amount == Decimal("39.33") and Price.objects.filter(vendor=vendor).count() == 1


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        (result_line(unit="minutes"), "Throughput is given in tokens/s, samples/s, queries/s, not minutes"),
        (result_line(unit="GB"), "“GB” is not a unit the site knows"),
        (price_line(currency="XYZ"), "currency is one of USD, EUR, GBP, JPY, CNY, not “XYZ”"),
        (price_line(currency=""), "currency is one of USD, EUR, GBP, JPY, CNY, not “”"),
        (price_line(value="0"), "a price is more than zero, not 0"),
        (price_line(value="-3"), "a price is more than zero, not -3"),
        (price_line(value="cheap"), "a price: “cheap” is not a number"),
        (result_line(value="0"), "a measured value is more than zero, not 0"),
        (price_line(as_of="2026"), "as_of “2026” is a year"),
    ],
    ids=[
        "unit-of-another-metric",
        "unknown-unit",
        "unknown-currency",
        "no-currency",
        "zero",
        "negative",
        "not-a-number",
        "zero-result",
        "year",
    ],  # fmt: skip
)
def test_a_bad_row_is_an_error_naming_its_line_and_nothing_is_written(client, editor, vendor, bad, said):
    text = csv_text(price_line(offer="Another offer"), bad)  # the bad row is the file's line 3

    preview = upload(client, vendor, text)
    assert confirm(client, vendor, preview).status_code == 200  # refused: the preview again

    plan = preview.context["plan"]
    assert [row.status for row in plan.rows] == ["new", "error"]
    assert f"Row 3: {said}" in page_text(preview)
    assert (
        not Price.objects.filter(vendor=vendor).exists() and not Result.objects.filter(vendor=vendor).exists()
    )


def test_price_columns_on_a_spec_row_are_an_error(client, editor, vendor):
    spec = line("spec", label="MI300X", value="192", measure="memory", unit="GB", currency="USD")

    (row,) = upload(client, vendor, csv_text(spec)).context["plan"].rows

    assert (row.status, row.error) == ("error", "currency is for price rows only: leave it empty")


def test_export_then_import_changes_nothing(client, editor, vendor):
    source, other = f.make_source(), f.make_source()
    f.make_price(vendor=vendor, chip="MI300X", provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour",
                 amount=Decimal("39.33"), chips_per_unit=8, as_of=dt.date(2026, 5, 1),
                 as_of_precision="month", region="us-east-1", sources=[source, other],
                 difference_note='Azure lists $6,\nGCP "$7".')  # fmt: skip
    f.make_price(vendor=vendor, chip="MI300X", provider="Crusoe", kind="spot", amount=Decimal("1.00"),
                 currency="EUR", vendor_stated=True, verified_on=None)  # fmt: skip
    f.make_price(vendor=vendor, chip="MI300X", provider="AMD", offer="One accelerator", kind="list-price",
                 per="unit", amount=Decimal("15000"), currency="JPY", as_of=dt.date(2026, 3, 14))  # fmt: skip
    f.make_result(vendor=vendor, chip="MI300X", value=Decimal("1042110"), division="closed",
                  availability="available", submitter="AMD", counted="output tokens/s",
                  sources=[source])  # fmt: skip
    f.make_result(vendor=vendor, chip="MI300X", suite="", suite_version="", workload="GPT-3 175B",
                  scenario="", metric="time_to_train", value=Decimal("28.5"), unit="minutes",
                  chips_in_system=None, as_of=dt.date(2026, 6, 1), as_of_precision="month")  # fmt: skip
    prices, results = rows_of(vendor.prices, PRICE_FIELDS), rows_of(vendor.results, RESULT_FIELDS)

    exported = client.get(export_url(vendor)).content
    preview = upload(client, vendor, exported)

    assert preview.context["plan"].counts == {"new": 0, "changed": 0, "unchanged": 5, "error": 0}
    assert "there is nothing to import" in page_text(confirm(client, vendor, preview))

    other_vendor = f.make_vendor(name="Another AMD", slug="another-amd")
    vendor.prices.all().delete()
    vendor.results.all().delete()  # the chip's address is free again
    confirm(client, other_vendor, upload(client, other_vendor, exported))

    assert rows_of(other_vendor.prices, PRICE_FIELDS) == prices
    assert rows_of(other_vendor.results, RESULT_FIELDS) == results
