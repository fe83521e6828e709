"""A vendor's row of the rankings, its card on its lane's page and on the vendor list are
rendered once for a published version and kept (infra/rows/): a page reads them, and a row is
rendered again, on the page that asks, when what it shows beside its version changes (a lane's
name, the axes) or when it stops being true by the calendar (a score turning stale)."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.utils import timezone

from editorial.pages import vocabulary_changed
from infra.models import KeptRow
from infra.rows import prune, prune_kept_rows
from tests.factories import make_axis, make_fact, make_lane, make_score, make_vendor, publish
from tests.vendors.test_views import entry_for
from vendors.models import Lane, VendorVersion

pytestmark = pytest.mark.django_db

PAGES = {"rankings": "/", "lane": "/lanes/inference/", "vendor list": "/vendors/"}
ROW_TEMPLATES = {
    "rankings": "vendors/rows/ranking.html",
    "lane": "vendors/rows/lane.html",
    "vendor list": "vendors/rows/card.html",
}


@pytest.fixture
def groq():
    lane = make_lane(name="Inference specialists", slug="inference")
    axis = make_axis(name="Performance", slug="performance")
    vendor = make_vendor(name="Groq", slug="groq", lane=lane, published=False)
    make_fact(vendor=vendor, verified_on=timezone.localdate())
    make_score(vendor=vendor, axis=axis, value=4, verified_on=timezone.localdate())
    publish(vendor)
    return vendor


def templates_used(response):
    return {template.name for template in response.templates}


@pytest.mark.parametrize("page", PAGES)
def test_a_row_is_rendered_for_the_first_page_that_shows_it_and_read_from_then_on(client, groq, page):
    first = client.get(PAGES[page])
    again = client.get(PAGES[page])

    assert ROW_TEMPLATES[page] in templates_used(first)
    assert ROW_TEMPLATES[page] not in templates_used(again)
    assert entry_for(again.content.decode(), "Groq") == entry_for(first.content.decode(), "Groq")
    assert KeptRow.objects.filter(owner=VendorVersion.objects.live().get(item=groq).pk).count() == 1


@pytest.mark.parametrize("page", ["rankings", "vendor list"])
def test_a_renamed_lane_is_shown_in_rows_kept_before(client, groq, page):
    assert "Inference specialists" in entry_for(client.get(PAGES[page]).content.decode(), "Groq")

    Lane.objects.filter(slug="inference").update(name="Inference chips")
    vocabulary_changed(None)  # as the lane's admin says it, on saving

    row = entry_for(client.get(PAGES[page]).content.decode(), "Groq")
    assert "Inference chips" in row and "Inference specialists" not in row


def test_a_new_axis_gives_rows_kept_before_its_column(client, groq):
    before = client.get("/").content.decode()
    assert before.count('<td class="num">') == 1  # one score cell: Performance

    make_axis(name="Software", slug="software")
    vocabulary_changed(None)

    after = client.get("/").content.decode()
    assert after.count('<td class="num">') == 2  # and a dash for the axis Groq is not scored on
    assert 'title="Not scored">–</span>' in after


@pytest.mark.parametrize("page", PAGES)
def test_a_kept_row_says_a_score_turned_stale_once_the_calendar_passes_it(client, groq, page, monkeypatch):
    assert "not recently verified" not in entry_for(client.get(PAGES[page]).content.decode(), "Groq")

    later = timezone.now() + dt.timedelta(days=settings.FRESHNESS_DAYS + 2)
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert "1 score not recently verified" in entry_for(client.get(PAGES[page]).content.decode(), "Groq")


def test_a_draft_never_reaches_a_kept_row(client, groq):
    client.get("/vendors/")
    groq.name = "Groq (draft name)"
    groq.save()

    html = client.get("/vendors/").content.decode()
    assert "draft name" not in html and "Groq" in entry_for(html, "Groq")
    assert not KeptRow.objects.filter(html__contains="draft name").exists()


def test_the_vendor_lists_total_filter_still_says_what_the_total_is_out_of(client, groq):
    html = client.get("/vendors/").content.decode()

    assert re.search(r'<label for="id_min_total">[^<]*\(of 5\)</label>', html)


def test_a_published_version_has_its_rows_kept_before_any_page_asks(django_capture_on_commit_callbacks):
    lane = make_lane(slug="training")
    axis = make_axis(slug="speed")
    vendor = make_vendor(name="Cerebras", slug="cerebras", lane=lane, published=False)
    make_score(vendor=vendor, axis=axis, value=3)
    with django_capture_on_commit_callbacks(execute=True):
        publish(vendor)

    live = VendorVersion.objects.live().get(item=vendor)
    kept = set(KeptRow.objects.filter(owner=live.pk).values_list("kind", flat=True))
    assert kept == {"vendor-ranking", "vendor-lane", "vendor-card"}


def test_a_page_still_shows_its_rows_when_the_database_refuses_to_keep_them(client, groq, monkeypatch):
    from django.db import DatabaseError

    def refuse(*args, **kwargs):
        raise DatabaseError("cannot execute INSERT in a read-only transaction")

    monkeypatch.setattr(KeptRow.objects, "bulk_create", refuse)

    response = client.get("/vendors/")
    assert response.status_code == 200
    assert "Inference specialists" in entry_for(response.content.decode(), "Groq")
    assert not KeptRow.objects.exists()


@pytest.fixture
def waiting():
    """A vendor published with facts and no score yet, in Groq's lane."""
    vendor = make_vendor(
        name="Etched", slug="etched", lane=Lane.objects.get(slug="inference"), published=False
    )
    make_fact(vendor=vendor, verified_on=timezone.localdate())
    publish(vendor)
    return vendor


def not_scored_row(html, name):
    section = html.split('id="not-scored-heading"', 1)[1].split("</section>", 1)[0]
    rows = [row for row in re.findall(r"<tr>.*?</tr>", section, re.S) if f">{name}</a>" in row]
    assert len(rows) == 1, rows
    return rows[0]


def test_a_vendor_not_scored_yet_has_its_rankings_row_kept_with_its_tick_box_and_lane(client, groq, waiting):
    first = client.get("/")
    again = client.get("/?sort=name")

    assert "vendors/rows/not_scored.html" in templates_used(first)
    assert "vendors/rows/not_scored.html" not in templates_used(again)
    row = not_scored_row(again.content.decode(), "Etched")
    assert row == not_scored_row(first.content.decode(), "Etched")
    assert 'type="checkbox" name="vendors" value="etched"' in row
    assert "Inference specialists" in row
    assert "<time" in row  # its facts' verified date


def test_a_lanes_not_scored_yet_row_is_kept_apart_without_the_tick_box_or_the_lane(client, groq, waiting):
    client.get("/")  # the rankings' row kept first: the lane's is its own
    row = not_scored_row(client.get("/lanes/inference/").content.decode(), "Etched")

    assert 'type="checkbox"' not in row and "Inference specialists" not in row
    kinds = set(
        KeptRow.objects.filter(owner=VendorVersion.objects.live().get(item=waiting).pk).values_list(
            "kind", flat=True
        )
    )
    assert kinds == {"vendor-not-scored", "vendor-not-scored-in-lane"}


def test_a_version_not_scored_yet_has_its_list_rows_kept_when_published(django_capture_on_commit_callbacks):
    vendor = make_vendor(name="Etched", slug="etched", published=False)
    make_fact(vendor=vendor)
    with django_capture_on_commit_callbacks(execute=True):
        publish(vendor)

    live = VendorVersion.objects.live().get(item=vendor)
    kept = set(KeptRow.objects.filter(owner=live.pk).values_list("kind", flat=True))
    assert kept == {"vendor-card", "vendor-not-scored", "vendor-not-scored-in-lane"}


def test_pruning_drops_the_rows_of_a_version_no_longer_live_and_keeps_the_live_ones(client, groq):
    client.get("/")
    client.get("/vendors/")
    before = VendorVersion.objects.live().get(item=groq)
    make_fact(vendor=groq, verified_on=timezone.localdate())
    publish(groq)  # a new version replaces it
    client.get("/")
    after = VendorVersion.objects.live().get(item=groq)
    assert KeptRow.objects.filter(owner=before.pk).exists()

    assert prune() == 2  # its ranking row and its card

    assert not KeptRow.objects.filter(owner=before.pk).exists()
    assert set(KeptRow.objects.filter(owner=after.pk).values_list("kind", flat=True)) == {"vendor-ranking"}
    assert "Groq" in entry_for(client.get("/").content.decode(), "Groq")


def test_the_worker_prunes_kept_rows_once_a_day():
    from infra import periodic

    schedule = next(s for s in periodic.registered() if s.name == "kept_rows_prune")
    assert schedule.task is prune_kept_rows and schedule.at == dt.time(4, 0)
