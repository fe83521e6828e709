"""Visitors' pages from the cache: fresh on the next request after every write, 304s, headers."""

import datetime as dt
import gzip
import logging
import re
import threading
import time

import brotli
import pytest
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.html import strip_tags

from editorial import services
from infra import cache_backends
from infra.cache import cached
from infra.cache_backends import FailOpenRedisCache
from tests import factories as f
from vendors.services import mark_verified

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def page_cache(settings):
    settings.PAGE_CACHE_ENABLED = True


@pytest.fixture
def trainium():
    memory = f.make_attribute(name="Memory")
    vendor = f.make_vendor(name="AWS Trainium", slug="aws-trainium")
    f.make_fact(vendor=vendor, attribute=memory, value="144 GB HBM3e", verified_on=dt.date(2026, 9, 1))
    f.publish(vendor)
    return vendor


def claim(response):
    found = re.search(r'<p class="claim"[^>]*>([^<]*)', response.content.decode())
    return found.group(1).strip() if found else None


def text_of(response):
    return " ".join(strip_tags(response.content.decode()).split())


def edit_memory(vendor, value):
    vendor.facts.update(value=value)
    services.refresh_state(obj=vendor)


PAGES = ["/", "/vendors/", "/vendors/aws-trainium/", "/lanes/", "/compare/"]


@pytest.mark.parametrize("url", PAGES)
def test_a_second_visit_is_served_from_the_cache_without_a_query(visitor, trainium, url):
    first = visitor.get(url)
    assert first["X-Page-Cache"] == "miss"
    with CaptureQueriesContext(connection) as queries:
        second = visitor.get(url)
    assert second["X-Page-Cache"] == "hit"
    assert len(queries) == 0
    assert second.content == first.content
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]


def test_a_page_cached_for_one_host_never_answers_for_another(visitor, trainium, settings):
    settings.ALLOWED_HOSTS = ["chipsite.example", "www.chipsite.example"]
    apex = visitor.get("/vendors/aws-trainium/", HTTP_HOST="chipsite.example")
    www = visitor.get("/vendors/aws-trainium/", HTTP_HOST="www.chipsite.example")

    assert (apex["X-Page-Cache"], www["X-Page-Cache"]) == ("miss", "miss")
    assert '<link rel="canonical" href="http://www.chipsite.example/vendors/aws-trainium/">' in html_of(www)
    assert "http://chipsite.example/" not in html_of(www)
    assert apex["ETag"] != www["ETag"]


def html_of(response):
    return response.content.decode()


def test_a_publish_is_on_the_very_next_request(visitor, trainium):
    assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"
    edit_memory(trainium, "288 GB HBM3e")
    assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"  # saved, not published
    f.publish(trainium)
    response = visitor.get("/vendors/aws-trainium/")
    assert response["X-Page-Cache"] == "miss"
    assert claim(response) == "288 GB HBM3e"


def test_a_verification_is_on_the_very_next_request(visitor, trainium, superuser):
    assert "Facts verified 1 Sep 2026" in text_of(visitor.get("/vendors/aws-trainium/"))
    mark_verified(user=superuser, vendors=type(trainium).objects.filter(pk=trainium.pk))
    today = f"{timezone.localdate().day} {timezone.localdate():%b %Y}"
    assert f"Facts verified {today}" in text_of(visitor.get("/vendors/aws-trainium/"))
    assert today in text_of(visitor.get("/"))


def test_unpublishing_takes_the_cached_page_down_at_once(visitor, trainium, superuser):
    assert visitor.get("/vendors/aws-trainium/").status_code == 200
    services.unpublish(obj=trainium, user=superuser)
    assert visitor.get("/vendors/aws-trainium/").status_code == 404
    assert "AWS Trainium" not in visitor.get("/").content.decode()


def test_a_revert_leaves_the_cached_page_as_it_is(visitor, admin_client, trainium):
    from reversion.models import Version

    edit_memory(trainium, "288 GB HBM3e")
    f.publish(trainium)
    first = Version.objects.get_for_object(trainium).order_by("pk").first()
    cached = visitor.get("/vendors/aws-trainium/")
    admin_client.post(f"/admin/vendors/vendor/{trainium.pk}/history/{first.pk}/")
    response = visitor.get("/vendors/aws-trainium/")
    assert claim(response) == claim(cached) == "288 GB HBM3e"


def test_a_scheduled_change_is_served_when_its_time_comes(visitor, trainium, monkeypatch):
    edit_memory(trainium, "288 GB HBM3e")
    at = timezone.now() + dt.timedelta(hours=2)
    f.publish(trainium, at=at)
    assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"
    assert visitor.get("/vendors/aws-trainium/")["X-Page-Cache"] == "hit"
    monkeypatch.setattr(timezone, "now", lambda: at + dt.timedelta(seconds=1))
    assert claim(visitor.get("/vendors/aws-trainium/")) == "288 GB HBM3e"


def test_renaming_a_lane_in_the_admin_refreshes_the_pages_that_show_it(visitor, admin_client, trainium):
    lane = trainium.lane
    assert lane.name in visitor.get("/lanes/").content.decode()
    data = {"name": "Renamed lane", "slug": lane.slug, "description": "", "position": lane.position}
    assert admin_client.post(f"/admin/vendors/lane/{lane.pk}/change/", data).status_code == 302
    assert "Renamed lane" in visitor.get("/lanes/").content.decode()


def test_an_unchanged_page_answers_304_to_its_etag(visitor, trainium):
    response = visitor.get("/vendors/aws-trainium/")
    etag = response["ETag"]
    again = visitor.get("/vendors/aws-trainium/", headers={"if-none-match": etag})
    assert again.status_code == 304 and again["ETag"] == etag
    edit_memory(trainium, "288 GB HBM3e")
    f.publish(trainium)
    changed = visitor.get("/vendors/aws-trainium/", headers={"if-none-match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


ON_DEMAND_PAGES = (
    "/vendors/?q=trainium",
    "/search/?q=HBM3e",
    "/compare/vendors/aws-trainium/google-tpu/",
    "/vendors/aws-trainium/",  # a stored page's kind, while the store is off
)


def test_without_a_session_cookie_a_cached_page_is_the_same_answer_given_before_any_session_is_read(
    trainium,
):
    """A kept page asked for with no session cookie is answered before the session, CSRF and
    sign-in layers: the same bytes and headers the innermost middleware gives a visitor whose
    session cookie names no one, 304s too, and no session read."""
    from unittest import mock

    from django.contrib.sessions.middleware import SessionMiddleware
    from django.test import Client

    f.publish(f.make_vendor(name="Google TPU", slug="google-tpu"))
    without, with_session = Client(), Client()
    with_session.cookies["sessionid"] = "no-such-session"
    for path in ON_DEMAND_PAGES:
        assert with_session.get(path)["X-Page-Cache"] == "miss", path
        expected = with_session.get(path)
        assert expected["X-Page-Cache"] == "hit", path
        with mock.patch.object(SessionMiddleware, "process_request", autospec=True) as sessions:
            answer = without.get(path)
            revalidated = without.get(path, HTTP_IF_NONE_MATCH=answer["ETag"])
        assert sessions.call_count == 0, path
        assert (answer.status_code, answer.content) == (200, expected.content), path
        assert dict(answer.items()) == dict(expected.items()), path
        assert revalidated.status_code == 304, path
        assert revalidated.items() == with_session.get(path, HTTP_IF_NONE_MATCH=answer["ETag"]).items(), path


def test_a_page_not_kept_yet_is_looked_up_once_and_rendered_by_the_innermost_middleware(
    visitor, trainium, monkeypatch
):
    from infra import page_cache

    lookups, look_up = [], page_cache._look_up

    def counted(request):
        lookups.append(request.path)
        return look_up(request)

    monkeypatch.setattr(page_cache, "_look_up", counted)
    first = visitor.get("/vendors/?q=trainium")
    assert first["X-Page-Cache"] == "miss" and "AWS Trainium" in first.content.decode()
    assert lookups == ["/vendors/"]


def test_visitors_pages_may_be_kept_by_shared_caches_and_signed_in_pages_may_not(
    visitor, admin_client, trainium
):
    control = visitor.get("/vendors/aws-trainium/")["Cache-Control"]
    assert "public" in control and "max-age=" in control and "stale-while-revalidate=" in control
    signed_in = admin_client.get("/vendors/aws-trainium/")
    assert "private" in signed_in["Cache-Control"] and "no-store" in signed_in["Cache-Control"]
    assert "X-Page-Cache" not in signed_in


def test_a_preview_is_never_cached_for_visitors(visitor, admin_client, trainium):
    edit_memory(trainium, "288 GB HBM3e")
    assert claim(admin_client.get("/vendors/aws-trainium/")) == "288 GB HBM3e"
    assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"


def test_visitors_pages_are_gzipped_and_carry_no_csrf_token(visitor, trainium):
    response = visitor.get("/vendors/aws-trainium/", headers={"accept-encoding": "gzip"})
    assert response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content).decode()
    assert "AWS Trainium" in html and "csrfmiddlewaretoken" not in html
    assert "csrftoken" not in response.cookies


def test_a_browser_that_asks_for_brotli_gets_it_smaller_than_gzip(visitor, trainium):
    plain = visitor.get("/vendors/aws-trainium/").content
    gzipped = visitor.get("/vendors/aws-trainium/", headers={"accept-encoding": "gzip"})
    response = visitor.get("/vendors/aws-trainium/", headers={"accept-encoding": "gzip, deflate, br, zstd"})
    assert response["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response["Vary"]
    assert response["ETag"].startswith('W/"')
    assert brotli.decompress(response.content) == plain
    assert len(response.content) < len(gzipped.content) < len(plain)


def test_brotli_refused_with_q_0_falls_back_to_gzip(visitor, trainium):
    response = visitor.get("/vendors/aws-trainium/", headers={"accept-encoding": "br;q=0, gzip"})
    assert response["Content-Encoding"] == "gzip"


def test_admin_pages_are_never_compressed(admin_client, trainium):
    for encoding in ("gzip", "br"):
        response = admin_client.get("/admin/vendors/vendor/", headers={"accept-encoding": encoding})
        assert response.status_code == 200
        assert "Content-Encoding" not in response


def test_without_redis_pages_are_still_served_and_the_outage_is_logged_once(
    settings, visitor, trainium, caplog
):
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache_backends.FailOpenRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
        }
    }
    cache_backends._down = False
    assert isinstance(caches["default"], FailOpenRedisCache)
    with caplog.at_level(logging.ERROR, logger="infra.cache_backends"):
        for _ in range(3):
            assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"
    outages = [r for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(outages) == 1


def test_with_redis_a_warm_page_costs_no_round_trip_and_a_publish_drops_every_copy(
    redis_cache, visitor, trainium, monkeypatch
):
    backend = redis_cache
    visitor.get("/vendors/aws-trainium/")  # starts the listener
    for _ in range(50):
        if backend.local.subscribed:
            break
        time.sleep(0.05)
    assert backend.local.subscribed
    assert claim(visitor.get("/vendors/aws-trainium/")) == "144 GB HBM3e"  # now kept in this process
    calls = []
    monkeypatch.setattr(type(backend), "get_many", lambda *args, **kwargs: calls.append(args) or {})
    assert visitor.get("/vendors/aws-trainium/")["X-Page-Cache"] == "hit"
    assert calls == []
    monkeypatch.undo()
    edit_memory(trainium, "288 GB HBM3e")
    f.publish(trainium)
    assert claim(visitor.get("/vendors/aws-trainium/")) == "288 GB HBM3e"


def test_a_new_release_never_serves_or_304s_a_page_cached_by_the_one_before(settings, visitor, trainium):
    first = visitor.get("/vendors/aws-trainium/")
    assert visitor.get("/vendors/aws-trainium/")["X-Page-Cache"] == "hit"
    settings.RELEASE = "next-release"  # a deploy that changed a template
    again = visitor.get("/vendors/aws-trainium/", headers={"if-none-match": first["ETag"]})
    assert again.status_code == 200 and again["X-Page-Cache"] == "miss"
    assert again["ETag"] != first["ETag"]


def test_the_release_digest_follows_the_templates_unless_the_environment_names_one(tmp_path, monkeypatch):
    from infra.release import release

    monkeypatch.delenv("RELEASE", raising=False)
    (tmp_path / "templates").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>one</p>")
    before = release(tmp_path)
    assert release(tmp_path) == before
    page.write_text("<p>two</p>")
    assert release(tmp_path) != before
    monkeypatch.setenv("RELEASE", "4f2a9c1")
    assert release(tmp_path) == "4f2a9c1"


def test_a_slow_build_is_made_once_while_other_requests_wait_for_it():
    """The whole-site data file takes seconds at 10,000 vendors: two requests arriving
    together must not both build it (each build holds a worker)."""
    builds = []
    both_waiting = threading.Barrier(2)

    def slow_build():
        builds.append(threading.current_thread().name)
        time.sleep(0.5)
        return "the file"

    results = {}

    def request(name):
        both_waiting.wait()
        results[name] = cached("a slow build", slow_build, single_flight=True)

    threads = [threading.Thread(target=request, args=(name,), name=name) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)

    assert results == {"one": "the file", "two": "the file"}
    assert len(builds) == 1
    assert cached("a slow build", lambda: "built again", single_flight=True) == "the file"


def test_with_redis_the_api_limit_counts_each_request_once_and_its_window_expires(
    redis_cache, visitor, settings
):
    settings.API_RATE_LIMIT = 3
    settings.API_RATE_WINDOW = 3600
    assert [visitor.get("/api/v1/axes/").status_code for _ in range(4)] == [200, 200, 200, 429]
    client = redis_cache._cache.get_client()
    (key,) = client.scan_iter(match=f"{redis_cache.key_prefix}:*rate:api:*")
    assert int(client.get(key)) == 4  # the refused one counted too
    assert 0 < client.ttl(key) <= 3601  # the window's counter goes when the window does


def test_with_redis_an_address_far_below_its_limit_is_counted_in_batches_and_the_limit_holds(
    redis_cache, visitor, settings, monkeypatch
):
    from infra import ratelimit

    settings.API_RATE_LIMIT, settings.API_RATE_WINDOW = 200, 3600  # no window ends mid-test
    sent = []
    real = ratelimit.add_to_shared_count
    monkeypatch.setattr(
        ratelimit,
        "add_to_shared_count",
        lambda key, amount, **kw: sent.append(amount) or real(key, amount, **kw),
    )
    answers = [visitor.get("/api/v1/axes/").status_code for _ in range(202)]

    assert answers == [200] * 200 + [429] * 2  # exactly the limit, within one process
    assert sum(sent) <= 202 and len(sent) < 202 / 4  # most requests cost no round trip
    assert sent[-1] == 1  # near the limit each request is counted at once


def test_two_app_processes_together_stay_within_a_few_requests_of_the_limit(redis_cache, rf):
    from infra import ratelimit

    first, second = ratelimit.LocalCounts(), ratelimit.LocalCounts()  # two servers' own counts
    request = rf.get("/api/v1/axes/", REMOTE_ADDR="192.0.2.9")
    allowed = 0
    for n in range(400):
        counts = first if n % 2 else second
        allowed += ratelimit.wait_seconds(request, scope="api", limit=200, window=3600, counts=counts) == 0
    assert 200 <= allowed <= 200 + 2 * ratelimit.HEADROOM_SHARE
