"""A chip's prices and measured results edited on its vendor's change page, row by row: an
amount typed as the source gives it, a result's unit checked against what its metric counts."""

import datetime as dt
from decimal import Decimal

import pytest

from chips.models import Price, Result
from tests import factories as f
from tests.factories import admin_change_url as change_url

pytestmark = pytest.mark.django_db


def price_row(**fields):
    row = {
        "chip": "MI300X", "provider": "TensorWave", "offer": "MI300X rental", "kind": "on-demand",
        "amount": "1.50", "currency": "USD", "per": "chip-hour", "chips_per_unit": "", "region": "",
        "as_of": "2026-05-18", "difference_note": "", "verified_on": "2026-12-06", "sources": [],
        "position": "",
    }  # fmt: skip
    return {**row, **fields}


def result_row(**fields):
    row = {
        "chip": "MI300X", "system": "8x MI300X server", "chips_in_system": "8", "suite": "",
        "suite_version": "",
        "workload": "Llama 3.1 70B FP8", "scenario": "", "metric": "throughput", "value": "13212.5",
        "unit": "tokens/s", "counted": "throughput (tokens/s)", "division": "", "availability": "",
        "submitter": "AMD", "as_of": "2025-10", "verified_on": "2026-12-06", "sources": [], "position": "",
    }  # fmt: skip
    return {**row, **fields}


def row_errors(response, prefix):
    assert response.status_code == 200, "the save was not refused"
    (formset,) = [i.formset for i in response.context["inline_admin_formsets"] if i.formset.prefix == prefix]
    return formset.forms[-1].errors


@pytest.fixture
def vendor():
    return f.make_vendor(name="AMD Instinct")


def test_a_price_typed_on_the_vendors_page_is_kept_as_the_source_gives_it(admin_client, vendor):
    response = f.admin_post_vendor_page(
        admin_client, vendor, edit=lambda rows: rows["prices"].append(price_row())
    )
    assert response.status_code == 302
    price = Price.objects.get(vendor=vendor)
    assert (price.amount, price.currency, price.per, price.as_of) == (
        Decimal("1.5"), "USD", "chip-hour", dt.date(2026, 5, 18),
    )  # fmt: skip
    assert price.as_of_precision == "day"


def test_an_amount_with_a_currency_sign_is_a_form_error_and_saves_nothing(admin_client, vendor):
    response = f.admin_post_vendor_page(
        admin_client, vendor, edit=lambda rows: rows["prices"].append(price_row(amount="$1.50"))
    )
    assert row_errors(response, "prices")["amount"] == [
        "Type the amount as the source gives it, e.g. 98.32, without a sign."
    ]
    assert not Price.objects.exists()


def test_a_result_in_a_unit_its_metric_does_not_count_is_a_form_error_on_its_unit(admin_client, vendor):
    response = f.admin_post_vendor_page(
        admin_client, vendor, edit=lambda rows: rows["results"].append(result_row(metric="time_to_train"))
    )
    assert row_errors(response, "results")["unit"] == [
        "Time to train is given in minutes, hours, not tokens/s."
    ]
    assert not Result.objects.exists()


def test_a_result_dated_to_the_month_keeps_its_precision_and_reads_back_as_typed(admin_client, vendor):
    response = f.admin_post_vendor_page(
        admin_client, vendor, edit=lambda rows: rows["results"].append(result_row())
    )
    assert response.status_code == 302
    result = Result.objects.get(vendor=vendor)
    assert (result.as_of, result.as_of_precision) == (dt.date(2025, 10, 1), "month")
    page = admin_client.get(change_url(vendor)).content.decode()
    assert 'name="results-0-as_of" value="2025-10"' in page


def test_a_price_dated_to_a_year_is_refused_with_what_to_type(admin_client, vendor):
    response = f.admin_post_vendor_page(
        admin_client, vendor, edit=lambda rows: rows["prices"].append(price_row(as_of="2026"))
    )
    assert row_errors(response, "prices")["as_of"] == [
        "“2026” is a year: type the month (2026-06) or the day (2026-06-14)."
    ]


def test_a_profile_whose_price_per_chip_hour_names_its_8_chip_instance_saves_as_it_was_opened(
    admin_client, vendor
):
    """As the demo's AWS Capacity Block rate (“$4.916 USD … 8 x H100”): the benchmark's editors
    save such a profile again and again."""
    f.make_price(vendor=vendor, chip="H100", provider="AWS", per="chip-hour", amount=Decimal("4.916"),
                 chips_per_unit=8)  # fmt: skip
    response = f.admin_post_vendor_page(admin_client, vendor, edit=lambda rows: None)
    assert response.status_code == 302, row_errors(response, "prices")
