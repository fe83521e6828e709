"""chips 0003 and vendors 0024: a sparsity that was false by default (it said nothing) becomes
“not stated”, in the working rows and in the published documents alike; back and forth."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from chips.models import Spec
from tests import factories as f
from vendors.models import VendorVersion

BEFORE = [("chips", "0002_content_types_and_tables"), ("vendors", "0023_quote_checks")]


def document_sparsity(vendor):
    version = VendorVersion.objects.filter(item_id=vendor.pk).latest("pk")
    return [spec["sparse"] for chip in version.document["chips"] for spec in chip["specs"]]


@pytest.mark.django_db(transaction=True)
def test_a_default_false_sparsity_reads_not_stated_in_rows_and_published_documents():
    f.role_group("Editor")  # the roles, whatever an earlier test's flush left
    vendor = f.make_vendor(name="AWS Trainium", published=False)
    Spec.objects.create(vendor=vendor, chip="Trainium3", kind="memory", quantity="144", unit="GiB")
    Spec.objects.create(vendor=vendor, chip="Trainium3", kind="cluster", quantity="1000000", unit="chips")
    f.publish(vendor)
    assert document_sparsity(vendor) == [None, None]

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    # Back where a cluster limit was unknown: it is the one count of chips that code knew.
    rows = old.get_model("chips", "Spec").objects.order_by("pk")
    assert list(rows.values_list("sparse", "kind")) == [(False, "memory"), (False, "scale")]
    OldVersion = old.get_model("vendors", "VendorVersion")
    (document,) = OldVersion.objects.filter(item_id=vendor.pk).values_list("document", flat=True)
    specs = [spec for chip in document["chips"] for spec in chip["specs"]]
    assert [(spec["sparse"], spec["kind"]) for spec in specs] == [(False, "memory"), (False, "scale")]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert list(Spec.objects.values_list("sparse", flat=True)) == [None, None]
    assert document_sparsity(vendor) == [None, None]
