"""chips 0007: the specs indexed before it learn from their versions' documents whether a
qualifier bounds them and until when they may be an input to a derived figure."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from chips.models import VersionSpec
from claims.freshness import fresh_until
from tests import factories as f

BEFORE = [("chips", "0006_price_and_result_permissions")]


@pytest.mark.django_db(transaction=True)
def test_indexed_specs_are_filled_in_from_their_documents():
    f.role_group("Editor")  # the roles, whatever an earlier test's flush left
    vendor = f.make_vendor(name="AMD Instinct", published=False)
    verified = dt.date.today() - dt.timedelta(days=3)
    f.make_spec(vendor=vendor, chip="MI300X", kind="compute", quantity="2614.9", unit="TFLOPS",
                precision="FP8", sources=[f.make_source()], verified_on=verified)  # fmt: skip
    f.make_spec(
        vendor=vendor,
        chip="MI300X",
        kind="compute",
        quantity="5",
        unit="PFLOPS",
        precision="FP4",
        qualifier="up_to",
        verified_on=verified,
    )  # fmt: skip  (no source: never an input)
    f.publish(vendor)

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    rows = VersionSpec.objects.order_by("pk")
    assert list(rows.values_list("exact", "usable_until")) == [(True, fresh_until(verified)), (False, None)]
