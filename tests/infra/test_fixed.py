"""A fixed read (infra/fixed.py) compiles its SQL once a process for each shape of its values, yet
reads the database each time, with the values it is given: what an editor changes shows on the
next page, and the rows are the queryset's own."""

import datetime as dt

import pytest
from django.db import router
from django.db.models import Count, Window
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from infra.fixed import FixedRead
from tests import factories as f
from vendors import selectors
from vendors.models import Axis, Lane, SiteSettings, VendorVersion

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


def test_a_fixed_read_with_values_gives_the_querysets_rows_for_each_set_of_values_and_each_time():
    lane = f.make_lane(name="Inference", slug="inference")
    for name in ("Groq", "Cerebras", "Etched"):
        f.make_vendor(name=name, slug=name.lower(), lane=lane)
    later = timezone.now() + dt.timedelta(days=2)
    f.make_vendor(name="Later", slug="later", lane=lane, published_at=later)

    def build(slugs, at):
        return VendorVersion.objects.live(at=at).filter(slug__in=slugs).order_by("name")

    named = FixedRead(build)
    now = timezone.now()
    for slugs, at in [
        (["groq", "cerebras"], now),
        (["etched", "groq", "later"], now),  # another number of values: another SQL
        (["groq", "etched"], now),  # the first number again, other values
        (["etched", "groq", "later"], later + dt.timedelta(hours=1)),  # the later one live by then
    ]:
        read = named(slugs=slugs, at=at)
        assert [(v.pk, v.slug, v.published_at) for v in read] == [
            (v.pk, v.slug, v.published_at) for v in build(slugs, at)
        ]
    assert [v.slug for v in named(slugs=["etched", "groq", "later"], at=now)] == ["etched", "groq"]
    assert [v.slug for v in named(slugs=["etched", "groq", "later"], at=later)] == ["etched", "groq", "later"]


def test_a_fixed_read_gives_dicts_and_window_counts_as_values_does(django_assert_num_queries):
    for name in ("Groq", "Cerebras", "Etched"):
        f.make_vendor(name=name, slug=name.lower())

    def build(at):
        return (
            VendorVersion.objects.live(at=at).values("slug", every=Window(Count("pk"))).order_by("slug")[:2]
        )

    read = FixedRead(build)
    now = timezone.now()
    assert read(at=now) == list(build(now))
    with django_assert_num_queries(1):
        assert read(at=now) == [{"slug": "cerebras", "every": 3}, {"slug": "etched", "every": 3}]


def test_a_fixed_read_of_an_empty_list_asks_no_database(django_assert_num_queries):
    named = FixedRead(lambda slugs: Lane.objects.filter(slug__in=slugs))
    with django_assert_num_queries(0):
        assert named(slugs=[]) == []


def test_a_fixed_read_refuses_a_value_its_sql_would_not_take_as_it_is():
    matching = FixedRead(lambda words: Lane.objects.filter(name__icontains=words))
    with pytest.raises(ValueError, match="as they are"):
        matching(words="infer")
    with pytest.raises(TypeError, match="whole numbers, strings and aware datetimes"):
        FixedRead(lambda lane: Lane.objects.filter(pk=lane.pk))(lane=f.make_lane(name="Inference"))


def test_a_fixed_read_of_lists_of_many_lengths_keeps_a_bounded_number_of_compiled_shapes(monkeypatch):
    from infra import fixed

    monkeypatch.setattr(fixed, "KEPT_SHAPES", 2)
    lanes = [f.make_lane(name=f"Lane {n}", slug=f"lane-{n}") for n in range(4)]
    named = FixedRead(lambda slugs: Lane.objects.filter(slug__in=slugs).order_by("slug"))
    for count in (1, 2, 3, 4, 1):  # four shapes, then the first again: compiled afresh
        slugs = [lane.slug for lane in lanes[:count]]
        assert [lane.slug for lane in named(slugs=slugs)] == slugs
    assert len(named._compiled) == 2
