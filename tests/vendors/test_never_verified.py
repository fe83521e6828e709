"""Events and scores never verified, or stale, are marked wherever they show, as facts are: the
profile and its versions, the rankings, lane pages and the vendor list. The mark is the API's
``stale`` (the one rule, claims/freshness.py), and a row whose scores were never verified
never sits beside a bare verified date."""

import datetime as dt
import re

import pytest
from django.conf import settings
from django.utils import dateformat, timezone

from tests.factories import make_axis, make_event, make_fact, make_lane, make_score, make_vendor, publish
from tests.vendors.test_views import entry_for

pytestmark = pytest.mark.django_db

MARK = 'class="stale"'


def days_ago(days):
    return timezone.localdate() - dt.timedelta(days=days)


def ymd(day):
    """A date as pages write it (“26 Nov 2026”)."""
    return dateformat.format(day, "j M Y")


@pytest.fixture
def world():
    """AWS: facts verified, one event and both scores never verified. TPU: everything fresh.
    Old: its one score last verified long ago."""
    lane = make_lane(name="hyperscaler custom silicon", slug="hyperscaler")
    perf = make_axis(name="Performance", slug="performance")
    soft = make_axis(name="Software", slug="software")
    vendors = {}
    for name, scores_on in [("AWS", None), ("TPU", days_ago(5)), ("Old", days_ago(400))]:
        vendor = make_vendor(name=name, slug=name.lower(), lane=lane, published=False)
        make_fact(vendor=vendor, verified_on=days_ago(10))
        make_score(vendor=vendor, axis=perf, value=4, verified_on=scores_on)
        if name != "Old":
            make_score(vendor=vendor, axis=soft, value=3, verified_on=scores_on)
        vendors[name] = vendor
    make_event(vendor=vendors["AWS"], text="Never checked.", verified_on=None)
    make_event(vendor=vendors["AWS"], text="Checked last week.", verified_on=days_ago(7))
    for vendor in vendors.values():
        publish(vendor)
    return vendors


def marked(html, pattern):
    """Whether the element matched by ``pattern`` (a regex of its HTML) carries the stale mark."""
    found = re.search(pattern, html, re.S)
    assert found, pattern
    return MARK in found.group(0)


class TestProfile:
    @pytest.mark.parametrize("url", ["/vendors/aws/", "/vendors/aws/v/1/"])
    def test_events_and_scores_are_marked_as_the_api_says_they_are_stale(self, client, world, url):
        html = client.get(url).content.decode()
        api = client.get("/api/v1/vendors/aws/").json()

        events = {event["text"]: event for event in api["events"]}
        assert events["Never checked."]["stale"] is True and events["Checked last week."]["stale"] is False
        for event in api["events"]:
            assert marked(html, rf'<li id="event-{event["id"]}">.*?</li>') is event["stale"]
        scores = {score["axis"]["name"]: score for score in api["scores"]}
        assert [score["stale"] for score in scores.values()] == [True, True]
        for axis, score in scores.items():
            assert marked(html, rf'<th scope="row">{axis}</th><td>.*?</td>') is score["stale"]
        never = re.search(
            r'<li id="event-\d+">[^<]*<time[^>]*>[^<]*</time>\. Never checked\..*?</li>', html, re.S
        )
        assert 'title="Never verified">not recently verified</span>' in never.group(0)

    def test_a_notice_says_what_the_mark_means_only_where_a_row_carries_it(self, client, world):
        marked_page = client.get("/vendors/aws/").content.decode()
        fresh_page = client.get("/vendors/tpu/").content.decode()

        for kind in ("events here", "scores"):
            notice = f"Some {kind} are marked “not recently verified”: they have not been checked in the"
            assert notice in marked_page and notice not in fresh_page
        assert MARK not in re.search(r'<table class="scores">.*?</table>', fresh_page, re.S).group(0)


class TestLists:
    def test_the_rankings_never_show_a_bare_verified_date_beside_scores_never_verified(self, client, world):
        html = client.get("/").content.decode()
        fact_date = ymd(days_ago(10))

        assert re.search(r'<th scope="col"\s+class="col-verified"><a [^>]*>Facts verified</a></th>', html)
        assert entry_for(html, "AWS").endswith(f"{fact_date}; 2 scores not yet verified")
        assert entry_for(html, "Old").endswith(f"{fact_date}; 1 score not recently verified")
        assert entry_for(html, "TPU").endswith(fact_date)  # fresh scores: the facts' date alone
        aws_row = re.search(r'<tr>\s*<th scope="row">.*?/vendors/aws/.*?</tr>', html, re.S).group(0)
        assert 'title="Never verified">2 scores not yet verified</span>' in aws_row

    def test_your_ranking_says_it_too(self, client, world):
        html = client.get("/?w-performance=2&w-software=1").content.decode()

        assert '<th scope="col" class="col-verified">Facts verified</th>' in html
        assert entry_for(html, "AWS").endswith(f"{ymd(days_ago(10))}; 2 scores not yet verified")

    @pytest.mark.parametrize("url", ["/lanes/hyperscaler/", "/vendors/"])
    def test_lane_pages_and_the_vendor_list_mark_them_beside_the_total(self, client, world, url):
        html = client.get(url).content.decode()

        assert "Total: 7 / 10 · 2 scores not yet verified" in entry_for(html, "AWS")
        assert "Total: 4 / 10 · 1 score not recently verified" in entry_for(html, "Old")
        assert "not yet verified" not in entry_for(html, "TPU") and MARK not in _card(html, "tpu")

    def test_the_count_is_the_apis_stale_scores(self, client, world):
        html = client.get("/").content.decode()
        for name in world:
            scores = client.get(f"/api/v1/vendors/{name.lower()}/").json()["scores"]
            stale = sum(score["stale"] for score in scores)
            said = re.search(r"(\d+) scores? not (?:yet|recently) verified$", entry_for(html, name))
            assert (int(said.group(1)) if said else 0) == stale

    def test_verifying_the_scores_clears_the_mark(self, client, world):
        aws = world["AWS"]
        aws.scores.update(verified_on=days_ago(1))
        publish(aws)

        assert entry_for(client.get("/").content.decode(), "AWS").endswith(ymd(days_ago(10)))


def _card(html, slug):
    return re.search(rf'<li>\s*<h2>(?:<input[^>]*>)?<a href="/vendors/{slug}/">.*?</li>', html, re.S).group(0)


def test_the_stored_rankings_are_rendered_again_when_a_fresh_score_turns_stale(stored_pages, world, client):
    from infra.models import StoredPage
    from infra.stored import render_expired

    render_expired.call()  # the worker's sweep stores every page
    # TPU's scores, verified 5 days ago, are the first to turn stale: the day after the window ends.
    turns = dt.datetime.combine(
        days_ago(5) + dt.timedelta(days=settings.FRESHNESS_DAYS + 1),
        dt.time.min,
        tzinfo=timezone.get_current_timezone(),
    )
    assert StoredPage.objects.get(path="/").until == turns
    assert StoredPage.objects.get(path="/lanes/hyperscaler/").until == turns
