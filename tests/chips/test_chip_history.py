"""A chip's number changed and published reads in the change log as readers would write it."""

import pytest

from chips.models import Spec
from editorial import services
from editorial.revisions import record_revision
from tests.factories import make_spec, make_vendor, publish
from vendors.models import Vendor

pytestmark = pytest.mark.django_db


def test_a_published_spec_change_reads_in_the_change_log_by_chip_and_kind_with_its_numbers(client):
    vendor = make_vendor(name="AWS Trainium", published=False)
    make_spec(vendor=vendor, chip="Trainium3", kind="memory", quantity="144", unit="GiB")
    publish(vendor)
    Spec.objects.filter(vendor=vendor).update(quantity="150")
    record_revision(Vendor.objects.get(pk=vendor.pk), comment="Memory corrected.")
    services.publish(obj=Vendor.objects.get(pk=vendor.pk), user=None, note="Memory corrected.")
    page = client.get(f"/vendors/{vendor.slug}/changes/").content.decode()
    assert "Trainium3 — Memory capacity: 144 GiB -&gt; 150 GiB" in page


def test_a_spec_added_reads_in_the_change_log_with_its_number_as_written(client):
    vendor = make_vendor(name="AMD Instinct", published=False)
    publish(vendor)
    make_spec(vendor=vendor, chip="MI355X", kind="memory", quantity="288", unit="GB")
    record_revision(Vendor.objects.get(pk=vendor.pk), comment="Memory added.")
    services.publish(obj=Vendor.objects.get(pk=vendor.pk), user=None, note="Memory added.")
    page = client.get(f"/vendors/{vendor.slug}/changes/").content.decode()
    assert "Chip spec added: MI355X — Memory capacity: 288" in page and "288.000000" not in page
