"""A fixed read (infra/fixed.py) compiles its SQL once a process, yet reads the database each time:
what an editor changes shows on the next page, and the rows are the queryset's own."""

import pytest
from django.db import router
from django.test.utils import CaptureQueriesContext

from infra.fixed import FixedRead
from tests import factories as f
from vendors import selectors
from vendors.models import Axis, Lane, SiteSettings

pytestmark = pytest.mark.django_db


def test_a_fixed_read_gives_the_querysets_rows_in_its_order_with_the_same_fields_deferred():
    for name in ("Zeta", "Alpha"):
        f.make_lane(name=name, position=1)
    lanes = FixedRead(lambda: Lane.objects.only("name", "slug"))
    read = lanes()
    assert [(lane.pk, lane.name, lane.slug) for lane in read] == [
        (lane.pk, lane.name, lane.slug) for lane in Lane.objects.only("name", "slug")
    ]
    assert [lane.name for lane in read] == ["Alpha", "Zeta"]  # position, then name
    assert read[0].get_deferred_fields() == Lane.objects.only("name", "slug")[0].get_deferred_fields()


def test_an_axis_made_active_after_the_first_read_is_on_the_next_one(django_assert_num_queries):
    shown = f.make_axis(name="Performance", is_active=True)
    hidden = f.make_axis(name="Hidden", is_active=False)
    assert [axis.name for axis in selectors.active_axes()] == ["Performance"]
    Axis.objects.filter(pk=hidden.pk).update(is_active=True)
    with django_assert_num_queries(1):
        now = selectors.active_axes()
    assert [axis.pk for axis in now] == [shown.pk, hidden.pk]
    assert all(axis.is_active is True for axis in now)  # SQLite's 1 converted, as Django converts it


def test_the_sites_text_reads_its_saved_row_or_the_defaults_while_none_is_saved():
    assert SiteSettings.load().pk == 1 and not SiteSettings.objects.exists()
    SiteSettings.objects.create(pk=1, rankings_intro="Our own words.")
    assert SiteSettings.load().rankings_intro == "Our own words."


def test_a_fixed_read_asks_the_database_the_routers_choose_each_time(monkeypatch):
    from django.db import connection

    f.make_lane(name="Routed")
    lanes = FixedRead(lambda: Lane.objects.only("name"))
    asked = []
    monkeypatch.setattr(router, "db_for_read", lambda model, **hints: asked.append(model) or "default")
    with CaptureQueriesContext(connection) as queries:
        lanes(), lanes()
    assert asked == [Lane, Lane] and len(queries) == 2


def test_a_fixed_read_refuses_what_raw_would_not_make_alike():
    with pytest.raises(ValueError, match="own columns"):
        FixedRead(lambda: Lane.objects.values("name"))()
