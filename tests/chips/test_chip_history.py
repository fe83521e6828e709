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
    assert "Trainium3 — Memory capacity: 144 -&gt; 150" in page
