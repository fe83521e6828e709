"""A chip's own page, /chips/<slug>/: its specs, prices, price history, results and derived
figures from the live published document only, each row's sources as numbered notes; a stored
page rendered again when its vendor publishes."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from chips.models import Price
from tests.factories import (
    make_availability,
    make_price,
    make_result,
    make_source,
    make_spec,
    make_vendor,
    publish,
)

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


def fresh(source=None):
    """What a row needs to be an input of a derived figure: a source and a recent check."""
    return {"sources": [source or make_source()], "verified_on": TODAY}


@pytest.fixture
def h100():
    """Nvidia's H100, published with a spec, a month it became available, an 8-chip instance's
    price per hour and a measured result, each cited."""
    vendor = make_vendor(name="Nvidia", slug="nvidia", published=False)
    make_spec(vendor=vendor, chip="H100", kind="memory", quantity="80", unit="GB", **fresh())
    make_availability(vendor=vendor, chip="H100", stage="ga", month=dt.date(2023, 3, 1), **fresh())
    make_price(
        vendor=vendor, chip="H100", provider="AWS", offer="EC2 p5.48xlarge", per="instance-hour",
        amount=Decimal("39.33"), chips_per_unit=8, as_of=dt.date(2026, 5, 1),
        **fresh(make_source(title="AWS EC2 pricing")),
    )  # fmt: skip
    make_result(vendor=vendor, chip="H100", value=Decimal("21806"), counted="output tokens/s", **fresh())
    publish(vendor)
    return vendor


def section(page, anchor):
    return page.split(f'id="{anchor}"')[1].split("</section>")[0]


def test_the_page_shows_vendor_stage_price_result_and_a_derived_figure_with_arithmetic(client, h100):
    response = client.get("/chips/h100/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "<h1>H100</h1>" in page
    assert f'href="{h100.get_absolute_url()}#chip-h100"' in page  # its vendor, at the chip's row
    assert "Generally available</strong> since <time" in page and "Mar 2023" in page
    prices = section(page, "prices")
    assert "$39.33 per instance-hour" in prices and "EC2 p5.48xlarge" in prices and "On demand" in prices
    assert "21,806 tokens/s" in section(page, "results") and "output tokens/s" in section(page, "results")
    derived = section(page, "derived")
    assert "$4.92 per chip-hour" in derived
    assert "(derived)</span> = $39.33 per instance-hour / 8 chips" in derived
    # its input's source is a note of this page: the same number as on the price's row
    number = re.search(r'href="#source-(\d+)"[^>]*aria-label="Source \d+: AWS EC2 pricing"', derived).group(1)
    assert f'href="#source-{number}"' in prices
    assert f'<li id="source-{number}"><a href="https://' in page


def test_a_draft_price_never_shows_on_the_page_or_its_chart(client, h100):
    make_price(vendor=h100, chip="H100", provider="Secret Cloud", amount=Decimal("0.99"), **fresh())
    Price.objects.filter(provider="AWS").update(amount=Decimal("1.11"))  # not published
    page = client.get("/chips/h100/").content.decode()
    assert "Secret Cloud" not in page and "0.99" not in page and "1.11" not in page


def test_a_price_that_changed_keeps_its_old_point_in_the_chart_and_its_table(client):
    vendor = make_vendor(name="AMD", slug="amd", published=False)
    price = make_price(vendor=vendor, chip="MI300X", provider="TensorWave", amount=Decimal("2.50"),
                       as_of=dt.date(2026, 1, 1), **fresh())  # fmt: skip
    publish(vendor)
    Price.objects.filter(pk=price.pk).update(amount=Decimal("1.50"), as_of=dt.date(2026, 6, 1))
    publish(vendor)
    page = client.get("/chips/mi300x/").content.decode()
    table = section(page, "prices").split("</table>")[0]
    assert "$1.50 per chip-hour" in table and "$2.50" not in table
    svg = page.split('<figure class="price-chart">')[1].split("</svg>")[0]
    assert svg.count('class="price-point ') == 2
    assert "$2.50 per chip-hour, 1 Jan 2026" in svg and "$1.50 per chip-hour, 1 Jun 2026" in svg
    points = page.split('<details class="chart-table">')[1].split("</details>")[0]
    assert points.index("1 Jan 2026") < points.index("1 Jun 2026")


def test_a_price_without_a_date_is_a_hollow_point_on_its_publish_day_and_the_legend_says_so(client):
    vendor = make_vendor(name="AMD", slug="amd", published=False)
    make_price(vendor=vendor, chip="MI300X", amount=Decimal("2"), **fresh())
    make_price(vendor=vendor, chip="MI300X", per="unit", amount=Decimal("15000"), **fresh())
    version = publish(vendor)
    page = client.get("/chips/mi300x/").content.decode()
    assert 'class="price-point series-0 hollow"' in page
    assert f"{timezone.localdate(version.published_at):%-d %b %Y} (the day it was published)" in page
    assert "Hollow: the source gives no date" in page
    assert "Left out of the chart: 1 offer priced per unit" in page


def test_the_chart_is_an_svg_with_a_title_and_no_style_attribute(client, h100):
    page = client.get("/chips/h100/").content.decode()
    svg = re.search(r'<svg class="price-svg" viewBox="0 0 360 220".*?</svg>', page, re.S).group(0)
    assert 'role="img"' in svg and '<title id="price-chart-title">H100: price per chip-hour' in svg
    assert "<desc" in svg and "style=" not in page.split("<main")[1]
    assert "$4.92 per chip-hour" in svg  # the instance's price over its 8 chips
    assert "<script" not in page.split("<main")[1].split("</main>")[0]


def test_a_chip_with_no_price_says_so_and_why_nothing_is_derived(client):
    vendor = make_vendor(name="Groq", slug="groq", published=False)
    make_spec(vendor=vendor, chip="LPU", kind="memory", quantity="230", unit="MB", **fresh())
    publish(vendor)
    page = client.get("/chips/lpu/").content.decode()
    assert "No price stated." in section(page, "prices")
    assert "<svg viewBox" not in page
    assert "None can be derived: no price per hour is stated" in section(page, "derived")


def test_an_unknown_chip_and_a_draft_vendors_chip_are_404(client, h100):
    draft = make_vendor(name="Draft Silicon", published=False)
    make_spec(vendor=draft, chip="Secret X1", kind="memory", quantity="512", unit="GB")
    assert client.get("/chips/no-such-chip/").status_code == 404
    assert client.get("/chips/secret-x1/").status_code == 404


def test_the_chip_list_and_the_profiles_chip_table_link_to_the_chip_page(client, h100):
    assert '<a href="/chips/h100/">H100</a>' in client.get("/chips/").content.decode()
    profile = client.get(h100.get_absolute_url()).content.decode()
    assert '<caption><a href="/chips/h100/">H100</a>' in profile


def test_the_vendors_other_chips_are_linked_and_the_compare_link_names_this_chip(client, h100):
    make_spec(vendor=h100, chip="H200", kind="memory", quantity="141", unit="GB", **fresh())
    publish(h100)
    page = client.get("/chips/h100/").content.decode()
    assert '<a href="/chips/h200/">H200</a>' in section(page, "more-chips")
    assert 'href="/chips/compare/?chips=h100,h200"' in page


def _queries(client, url):
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context)


def test_the_page_takes_the_same_queries_for_1_price_and_for_20(client, h100, django_assert_num_queries):
    one = _queries(client, "/chips/h100/")
    assert one <= 4
    for n in range(19):
        make_price(vendor=h100, chip="H100", provider=f"Cloud {n}", amount=Decimal(n + 1),
                   as_of=dt.date(2026, 1, 1) + dt.timedelta(days=n), **fresh())  # fmt: skip
    publish(h100)
    with django_assert_num_queries(one):
        page = client.get("/chips/h100/").content.decode()
    assert page.count('<tr id="price-') == 20


def test_the_page_takes_the_same_queries_for_1_version_and_for_10(client, h100, django_assert_num_queries):
    one = _queries(client, "/chips/h100/")
    price = Price.objects.get(provider="AWS")
    for n in range(9):
        Price.objects.filter(pk=price.pk).update(amount=Decimal(40 + n), as_of=dt.date(2026, 6, 1 + n))
        publish(h100)
    with django_assert_num_queries(one):
        page = client.get("/chips/h100/").content.decode()
    points = page.split('<details class="chart-table">')[1].split("</details>")[0]
    assert points.count("<tr>") == 11  # a head and 10 points


@pytest.mark.django_db(transaction=True)
def test_the_stored_chip_page_is_rendered_at_publish_and_again_when_its_vendor_publishes(
    stored_pages, visitor
):
    from infra.models import StoredPage

    vendor = make_vendor(name="AMD", slug="amd", published=False)
    price = make_price(
        vendor=vendor, chip="MI300X", amount=Decimal("2.50"), as_of=dt.date(2026, 1, 1), **fresh()
    )
    publish(vendor)
    first = StoredPage.objects.get(path="/chips/mi300x/")  # rendered at the publish, not when asked
    response = visitor.get("/chips/mi300x/")
    assert response["X-Stored-Page"] == "hit" and "$2.50 per chip-hour" in response.content.decode()
    Price.objects.filter(pk=price.pk).update(amount=Decimal("1.75"), as_of=dt.date(2026, 3, 1))
    assert "$1.75" not in visitor.get("/chips/mi300x/").content.decode()  # a draft until published
    publish(vendor)
    assert StoredPage.objects.get(path="/chips/mi300x/").rendered_at > first.rendered_at
    response = visitor.get("/chips/mi300x/")
    page = response.content.decode()
    assert response["X-Stored-Page"] == "hit"
    assert "$1.75 per chip-hour" in page and "$2.50 per chip-hour, 1 Jan 2026" in page  # the old point stays
