"""Chip prices and measured results in the staleness queue and the daily digest: listed with why
they are stale, found by filter and search, opened at their own row on the vendor's page, and
“Mark verified today” takes them out of the queue and moves the live page's date."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import timezone
from django.utils.html import strip_tags

from chips.market_documents import money
from editorial import selectors
from tests import factories as f
from vendors.digest import stale_rows_and_dead_sources
from vendors.documents import document_of

pytestmark = pytest.mark.django_db

PRICES = "/admin/chips/staleprice/"
RESULTS = "/admin/chips/staleresult/"


def days_ago(days):
    return timezone.localdate() - dt.timedelta(days=days)


def queue_rows(response):
    """The pks the queue lists, in order (from the action checkboxes)."""
    assert response.status_code == 200
    return [int(pk) for pk in re.findall(r'name="_selected_action" value="(\d+)"', response.content.decode())]


def page_text(response):
    assert response.status_code == 200
    return " ".join(strip_tags(response.content.decode()).split())


@pytest.fixture
def vendor():
    return f.make_vendor(name="AMD Instinct")


def test_a_price_citing_a_dead_source_is_in_the_queue_with_its_reason(admin_client, vendor):
    dead = f.make_source(problem="returned 404", problem_on=days_ago(1))
    failing = f.make_price(vendor=vendor, chip="MI300X", provider="TensorWave", amount=Decimal("1.50"),
                           verified_on=days_ago(5), sources=[dead])  # fmt: skip
    old = f.make_price(vendor=vendor, chip="MI300X", provider="Azure", amount=Decimal("6"), verified_on=None)
    f.make_price(vendor=vendor, chip="MI300X", provider="Crusoe", verified_on=days_ago(5))  # fresh

    response = admin_client.get(PRICES)

    assert queue_rows(response) == [old.pk, failing.pk]  # never verified first
    text = page_text(response)
    assert "Staleness queue: chip prices not verified in the last 90 days, oldest first" in text
    assert dead.problem_text.startswith("source returned 404 on ") and dead.problem_text in text
    assert "never verified" in text
    assert f"{money('1.50', 'USD')} per chip-hour" in text  # as pages write it
    edit = f"/admin/vendors/vendor/{vendor.pk}/change/#price-{failing.pk}"
    assert f'<a href="{edit}">Edit</a>' in response.content.decode()
    assert (
        f'id="price-{failing.pk}"'
        in admin_client.get(f"/admin/vendors/vendor/{vendor.pk}/change/").content.decode()
    )


def test_marking_a_price_verified_takes_it_out_and_moves_the_live_date(admin_client, superuser, vendor):
    price = f.make_price(vendor=vendor, chip="MI300X", verified_on=days_ago(200))
    left = f.make_price(vendor=vendor, chip="MI300X", provider="Azure", verified_on=None)
    f.publish(vendor)
    (live,) = [p for p in document_of(selectors.live_version(vendor)).chips[0].prices if p.id == price.pk]
    assert live.verified_on == days_ago(200)

    response = admin_client.post(PRICES, {"verify_row": price.pk}, follow=True)

    assert "Marked 1 chip price verified today on 1 vendor." in page_text(response)
    assert queue_rows(response) == [left.pk]
    price.refresh_from_db()
    assert (price.verified_on, price.verified_by) == (timezone.localdate(), superuser)
    live = {p.id: p for p in document_of(selectors.live_version(vendor)).chips[0].prices}
    assert live[price.pk].verified_on == timezone.localdate()
    assert live[left.pk].verified_on is None


def test_the_action_marks_ticked_results_verified(admin_client, vendor):
    results = [f.make_result(vendor=vendor, chip="MI300X", verified_on=None) for _ in range(2)]

    response = admin_client.post(
        RESULTS, {"action": "mark_verified_today", "_selected_action": [r.pk for r in results]}, follow=True
    )

    assert "Marked 2 measured results verified today on 1 vendor." in page_text(response)
    assert queue_rows(response) == []


def test_prices_filter_by_kind_and_search_by_provider_and_vendor(admin_client, vendor):
    spot = f.make_price(vendor=vendor, chip="MI300X", provider="Crusoe", kind="spot", verified_on=None)
    on_demand = f.make_price(vendor=vendor, chip="MI300X", provider="TensorWave", verified_on=None)
    other = f.make_price(vendor=f.make_vendor(name="Nvidia"), chip="H100", provider="AWS", verified_on=None)

    assert queue_rows(admin_client.get(PRICES, {"kind": "spot"})) == [spot.pk]
    assert queue_rows(admin_client.get(PRICES, {"q": "tensorwave"})) == [on_demand.pk]
    assert queue_rows(admin_client.get(PRICES, {"q": "nvidia"})) == [other.pk]
    assert queue_rows(admin_client.get(PRICES, {"q": "H100"})) == [other.pk]


def test_results_filter_by_metric_and_search_by_workload(admin_client, vendor):
    throughput = f.make_result(vendor=vendor, chip="MI300X", verified_on=None)
    training = f.make_result(vendor=vendor, chip="MI300X", workload="GPT-3 175B", metric="time_to_train",
                             value=Decimal("28.5"), unit="minutes", verified_on=None)  # fmt: skip

    response = admin_client.get(RESULTS, {"metric": "time_to_train"})
    assert queue_rows(response) == [training.pk]
    assert "MLPerf Inference v5.0, GPT-3 175B, Offline" in page_text(
        response
    ) and "28.5 minutes" in page_text(response)
    assert queue_rows(admin_client.get(RESULTS, {"q": "llama"})) == [throughput.pk]


def test_the_menu_counts_prices_and_results(admin_client, vendor):
    f.make_price(vendor=vendor, verified_on=None)

    text = page_text(admin_client.get(RESULTS))

    assert "Chip prices (1) Measured results (0)" in text


def test_the_daily_digest_names_a_stale_price_its_editor_verified(vendor):
    editor = f.make_staff_user(group="Editor")
    f.make_price(vendor=vendor, chip="MI300X", provider="TensorWave", offer="MI300X on demand",
                 verified_on=days_ago(120), verified_by=editor)  # fmt: skip
    f.make_price(vendor=vendor, chip="MI300X", provider="Azure", verified_on=days_ago(3), verified_by=editor)

    (digest,) = stale_rows_and_dead_sources(editor)

    assert (
        "- 1 of the chip prices you verified are stale: AMD Instinct: MI300X: TensorWave MI300X on demand."
        in digest
    )
    assert "Azure" not in digest


# Session, user, 7 counts for the menu, the filters' choices (vendors, lanes), 2 counts, a
# site-settings check, the rows, their flagged sources, their citations whose quote is gone.
@pytest.mark.parametrize("url", [PRICES, RESULTS], ids=["prices", "results"])
def test_the_queue_takes_the_same_queries_at_two_sizes(admin_client, django_assert_num_queries, url):
    source = f.make_source(problem="returned 404", problem_on=timezone.localdate())

    def fill(vendors):
        for _ in range(vendors):
            vendor = f.make_vendor()
            for n in range(3):
                f.make_price(vendor=vendor, provider=f"Cloud {n}", verified_on=None, sources=[source])
                f.make_result(vendor=vendor, workload=f"Model {n}", verified_on=None, sources=[source])

    fill(1)
    admin_client.get(url)  # warm the session and the content types
    with django_assert_num_queries(17):
        assert admin_client.get(url).status_code == 200
    fill(4)
    with django_assert_num_queries(17):
        assert admin_client.get(url).status_code == 200
