"""Every item is in exactly one state: the admin's state filter lists it there only, and its
status tag names the same state (both read editorial.selectors.with_state)."""

import datetime as dt

import pytest
from django.utils import timezone

from editorial import selectors, services
from editorial.selectors import State
from tests import factories as f
from vendors.models import Vendor

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/vendors/vendor/"


def edited(vendor):
    Vendor.objects.filter(pk=vendor.pk).update(summary="Edited in the working copy")
    services.refresh_state(obj=vendor)
    return vendor


@pytest.fixture
def one_in_each_state():
    later = timezone.now() + dt.timedelta(days=3)
    scheduled = f.make_vendor(name="Scheduled chip", published=False)
    f.publish(scheduled, at=later)
    changes_scheduled = edited(f.make_vendor(name="Rescheduled chip"))
    f.publish(changes_scheduled, at=later)
    waiting = edited(f.make_vendor(name="Reviewed chip"))
    services.submit_for_review(obj=waiting, user=f.make_staff_user(group="Editor"))
    unpublished = f.make_vendor(name="Withdrawn chip")
    services.unpublish(obj=unpublished, user=None)
    unpublishing = f.make_vendor(name="Retiring chip")
    services.schedule_unpublish(obj=unpublishing, user=None, at=later)
    return {
        State.DRAFT: f.make_vendor(name="Draft chip", published=False),
        State.UNPUBLISHED: unpublished,
        State.UNPUBLISHING: unpublishing,
        State.SCHEDULED: scheduled,
        State.LIVE: f.make_vendor(name="Live chip"),
        State.CHANGES: edited(f.make_vendor(name="Changed chip")),
        State.CHANGES_SCHEDULED: changes_scheduled,
        State.REVIEW: waiting,
    }


def test_each_item_is_listed_under_exactly_one_state_and_its_tag_names_that_state(
    admin_client, one_in_each_state
):
    listed_under = {item.pk: [] for item in one_in_each_state.values()}
    for value, label in State.choices:
        response = admin_client.get(CHANGELIST, {"state": value})
        assert response.status_code == 200
        for row in response.context["cl"].result_list:
            listed_under[row.pk].append(value)
            assert selectors.state(row).startswith(label), (value, row)
            assert selectors.state(Vendor.objects.get(pk=row.pk)).startswith(label), (value, row)

    assert listed_under == {item.pk: [value] for value, item in one_in_each_state.items()}


def test_a_live_vendor_waiting_for_review_is_listed_as_waiting_only(admin_client, one_in_each_state):
    waiting = one_in_each_state[State.REVIEW]

    def listed(value):
        return waiting in admin_client.get(CHANGELIST, {"state": value}).context["cl"].result_list

    assert selectors.live_version(waiting) is not None and waiting.has_unpublished_changes
    assert listed(State.REVIEW)
    assert not listed(State.CHANGES) and not listed(State.LIVE)
    assert selectors.state(waiting) == "Waiting for review"


def test_the_filter_offers_every_state_and_the_list_shows_each_tag(admin_client, one_in_each_state):
    page = admin_client.get(CHANGELIST).content.decode()
    for value, label in State.choices:
        assert f'href="?state={value}"' in page and f">{label}<" in page
    later = one_in_each_state[State.SCHEDULED].versions.get().published_at
    assert f">Scheduled for {services.when(later)}<" in page
    assert f">Live + changes scheduled for {services.when(later)}<" in page
    assert f">Live, unpublishing {services.when(later)}<" in page
    assert ">Unpublished<" in page
