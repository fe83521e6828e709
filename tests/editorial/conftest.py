"""Fixtures shared by the editorial tests."""

import pytest

from tests import factories as f


@pytest.fixture
def live_trainium(db):
    """A live profile with one fact, as a visitor reads it."""
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    f.make_fact(vendor=vendor, attribute=memory, value="144 GB HBM3e")
    f.publish(vendor)
    return vendor
