"""The one bridge from publishing to pages: each workflow write sends one event (editorial.events),
and editorial.pages tells the page cache and the page store what it changes."""

import datetime as dt

import pytest
from django.utils import timezone

from chips.pages import page_keys as chip_page_keys
from discovery.search import keys as search_keys
from editorial import events, pages, services
from infra.cache import SCHEDULE_KEY
from tests import factories as f
from vendors.pages import page_keys as vendor_page_keys

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """The events the workflow sends, in order."""
    got = []
    events.subscribe(got.append)
    yield got
    events._subscribers.remove(got.append)


@pytest.fixture
def told(monkeypatch):
    """What the bridge tells the page store and the page cache, in order."""
    calls = []
    monkeypatch.setattr(
        pages.stored, "changed", lambda keys, paths=(): calls.append(("changed", set(keys), list(paths)))
    )
    monkeypatch.setattr(
        pages.stored, "changes_at", lambda keys, at: calls.append(("changes_at", set(keys), at))
    )
    monkeypatch.setattr(pages.freshness, "changed", lambda keys: calls.append(("numbered", set(keys))))
    return calls


def test_a_publish_sends_one_event_with_the_version_before_and_after(heard):
    vendor = f.make_vendor(published=False)
    first = f.publish(vendor)
    second = services.publish(obj=vendor, user=None)

    assert [(e.kind, e.item, e.before, e.after, e.at) for e in heard] == [
        (events.Kind.PUBLISHED, vendor, None, first, None),
        (events.Kind.PUBLISHED, vendor, first, second, None),
    ]


def test_a_schedule_and_its_cancelling_say_when_and_what(heard):
    vendor = f.make_vendor(published=False)
    live = f.publish(vendor)
    at = timezone.now() + dt.timedelta(days=1)

    pending = services.publish(obj=vendor, user=None, at=at)
    services.cancel_schedule(obj=vendor, user=None)
    services.schedule_unpublish(obj=vendor, user=None, at=at)
    services.cancel_unpublish(obj=vendor, user=None)
    services.unpublish(obj=vendor, user=None)

    assert [(e.kind, e.before, e.after, e.at) for e in heard[1:]] == [
        (events.Kind.PUBLISHED, live, pending, at),
        (events.Kind.RESCHEDULED, None, None, None),
        (events.Kind.UNPUBLISHED, live, None, at),
        (events.Kind.RESCHEDULED, None, None, None),
        (events.Kind.UNPUBLISHED, live, None, None),
    ]


def test_a_publish_now_renders_what_it_changed_and_the_items_own_pages(told):
    vendor = f.make_vendor(slug="new-chip", published=False)
    first = f.publish(vendor)

    # The vendor's own keys, its chips' (chips/pages.py), the words its search entries hold
    # (discovery/search/keys.py), the schedule.
    assert told == [
        (
            "changed",
            vendor_page_keys(None, first)
            | chip_page_keys(None, first)
            | search_keys.changed(None, first)
            | {SCHEDULE_KEY},
            pages.stored.item_paths(first),
        ),
    ]
    assert {"search-ve", "search-titles"} <= told[0][1]  # "Vendor ..." is a new title
    assert "/vendors/new-chip/" in told[0][2]


def test_a_scheduled_publish_marks_its_pages_due_then_and_a_cancelled_one_changes_only_the_schedule(told):
    vendor = f.make_vendor(published=False)
    live = f.publish(vendor)
    at = timezone.now() + dt.timedelta(days=1)
    told.clear()

    pending = services.publish(obj=vendor, user=None, at=at)
    services.cancel_schedule(obj=vendor, user=None)

    assert told == [
        ("changes_at", vendor_page_keys(live, pending) | {SCHEDULE_KEY}, at),
        ("numbered", {SCHEDULE_KEY}),  # nothing visitors see changed: only what is scheduled
    ]


def test_a_kind_with_no_declared_keys_changes_its_own_document():
    class Version:
        page_key = "thing-3"

        @staticmethod
        def page_key_prefix():
            return "thing"

    assert pages.keys_changed(Version(), None) == {"thing-3"}
    assert pages.keys_changed(None, None) == set()
