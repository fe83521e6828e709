"""The issue's acceptance, as an editor and a reader would see it: a price changed in the admin
and published shows on the chip page, /chips/, the API and the CSV at once; the chart gains a
point and the old price stays in the published history. Until it is published, none shows it."""

import datetime as dt
from decimal import Decimal

import pytest

from chips.models import Price
from editorial import services
from editorial.revisions import record_revision
from tests.factories import make_price, make_source, make_vendor, publish
from vendors.models import Vendor

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


def surfaces(client):
    """What each surface says of MI300X's TensorWave price."""
    return {
        "page": client.get("/chips/mi300x/").content.decode(),
        "list": client.get("/chips/").content.decode(),
        "api": client.get("/api/v1/chips/mi300x/").json(),
        "csv": client.get("/data/prices.csv").content.decode(),
    }


def test_a_price_changed_and_published_shows_everywhere_and_the_old_one_stays_in_the_history(client):
    vendor = make_vendor(name="AMD Instinct", published=False)
    price = make_price(
        vendor=vendor, chip="MI300X", provider="TensorWave", offer="MI300X rental", amount=Decimal("1.50"),
        sources=[make_source()], verified_on=TODAY,
    )  # fmt: skip
    publish(vendor, at=None)

    Price.objects.filter(pk=price.pk).update(amount=Decimal("1.35"))
    record_revision(Vendor.objects.get(pk=vendor.pk), comment="TensorWave lowered its price.")
    before = surfaces(client)  # an unpublished change: no surface shows it
    assert all("1.35" not in str(said) for said in before.values())
    assert "$1.50 per chip-hour" in before["page"] and "$1.50 per chip-hour" in before["list"]

    services.publish(obj=Vendor.objects.get(pk=vendor.pk), user=None, note="TensorWave lowered its price.")
    after = surfaces(client)
    assert "$1.35 per chip-hour" in after["page"] and "$1.35 per chip-hour" in after["list"]
    assert [row["amount"] for row in after["api"]["prices"]] == ["1.35"]
    assert "1.35" in after["csv"] and "1.5," not in after["csv"]
    # the chart's table lists both points: the old price stays in the history
    chart = after["page"].split('class="price-chart"', 1)[1]
    assert "$1.50" in chart and "$1.35" in chart


def test_a_published_price_change_reads_in_the_change_log_by_chip_and_offer_with_its_amounts(client):
    vendor = make_vendor(name="AMD Instinct", published=False)
    price = make_price(vendor=vendor, chip="MI300X", provider="TensorWave", offer="MI300X rental",
                       amount=Decimal("1.50"))  # fmt: skip
    publish(vendor)
    Price.objects.filter(pk=price.pk).update(amount=Decimal("1.35"))
    record_revision(Vendor.objects.get(pk=vendor.pk), comment="TensorWave lowered its price.")
    services.publish(obj=Vendor.objects.get(pk=vendor.pk), user=None, note="TensorWave lowered its price.")
    page = client.get(f"/vendors/{vendor.slug}/changes/").content.decode()
    assert "MI300X — TensorWave, MI300X rental: $1.50 per chip-hour -&gt; $1.35 per chip-hour" in page
