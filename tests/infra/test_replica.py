"""A read replica serves visitors only once it has had time to catch up with the last write;
editors, the admin and the page rendered right after a publish read the primary."""

import time
from contextlib import contextmanager

import pytest
from django.core.cache import cache

from infra import page_cache, replica
from infra.cache import everything_changed
from infra.freshness import AT_KEY
from infra.replica import REPLICA, VisitorReadsToReplica, reads_from_replica
from tests import factories as f
from vendors.models import VendorVersion

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def cache_on(settings):
    settings.PAGE_CACHE_ENABLED = True
    settings.REPLICA_LAG_SECONDS = 5


@pytest.fixture
def decisions(monkeypatch):
    """Whether each rendered page was allowed the replica (the test database has none)."""
    seen = []

    @contextmanager
    def record(allowed=True):
        seen.append(allowed)
        yield

    monkeypatch.setattr(page_cache, "reads_from_replica", record)
    return seen


@pytest.fixture
def vendor():
    vendor = f.make_vendor(name="Replica Chip", slug="replica-chip")
    f.publish(vendor)
    return vendor


def age_last_change(seconds):
    cache.set(AT_KEY, time.time() - seconds)


def test_the_page_rendered_right_after_a_write_reads_the_primary(client, vendor, decisions):
    everything_changed()
    assert client.get("/vendors/replica-chip/").status_code == 200
    assert decisions == [False]


def test_once_the_last_change_is_older_than_the_lag_a_page_may_read_the_replica(client, vendor, decisions):
    client.get("/vendors/replica-chip/")
    age_last_change(60)
    client.get("/vendors/")  # not cached yet: rendered
    assert decisions == [False, True]


def test_signed_in_users_and_the_admin_never_read_the_replica(admin_client, vendor, decisions):
    admin_client.get("/vendors/")
    age_last_change(60)
    admin_client.get("/vendors/replica-chip/")
    admin_client.get("/admin/vendors/vendor/")
    assert decisions == []


def test_the_router_sends_reads_to_the_replica_only_within_a_visitors_request(monkeypatch):
    router = VisitorReadsToReplica()
    monkeypatch.setattr(replica, "replica_configured", lambda: True)  # DATABASE_REPLICA_URL set
    assert router.db_for_read(VendorVersion) is None
    with reads_from_replica(allowed=True):
        assert router.db_for_read(VendorVersion) == REPLICA
        assert router.db_for_write(VendorVersion) is None  # writes: the primary
    with reads_from_replica(allowed=False):
        assert router.db_for_read(VendorVersion) is None
    assert router.allow_migrate(REPLICA, "vendors") is False


def test_without_a_replica_configured_everything_reads_the_primary():
    with reads_from_replica(allowed=True):
        assert VisitorReadsToReplica().db_for_read(VendorVersion) is None
