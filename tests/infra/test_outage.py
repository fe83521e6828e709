"""A database outage: visitors get the designed 503 with Retry-After, the log gets one line."""

import logging
import time

import pytest
from django.db import OperationalError
from django.test import Client
from django.urls import get_resolver

from infra import health, outage
from opendata import files as opendata_files
from tests.factories import make_vendor, publish
from vendors import selectors

pytestmark = pytest.mark.django_db


@pytest.fixture
def visitor():
    """A visitor whose client answers like the server does, rather than re-raising the error."""
    return Client(raise_request_exception=False)


@pytest.fixture(autouse=True)
def no_outage_in_progress():
    outage.outage_ended()
    yield
    outage.outage_ended()


@pytest.fixture(autouse=True)
def dropped(monkeypatch):
    """The outage handler drops the request's connections; here the database is really up and
    the test's own transaction lives on that connection, so count the drops instead."""
    calls = []
    monkeypatch.setattr(outage, "drop_connections", lambda: calls.append(True))
    return calls


@pytest.fixture
def database_down(monkeypatch):
    # Every view module imported first: one imported while the patch is on would keep the
    # refusing function after the test (``from vendors.selectors import live_version``).
    get_resolver().url_patterns  # noqa: B018

    def refuse(**kwargs):
        raise OperationalError('connection to server at "db" failed: Connection refused')

    monkeypatch.setattr(selectors, "live_version", refuse)
    return monkeypatch


def test_an_unreachable_database_gets_the_designed_503_with_retry_after(visitor, database_down, dropped):
    response = visitor.get("/vendors/aws-trainium/")
    assert response.status_code == 503
    assert dropped  # the broken connection is not reused by the next request
    assert response["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)
    assert response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert "<h1>Back in a moment</h1>" in html and "/static/css/site.css" in html


def test_an_outage_is_logged_once_not_per_request_and_its_end_once(visitor, database_down, caplog):
    caplog.set_level(logging.INFO)
    for _ in range(3):
        assert visitor.get("/vendors/aws-trainium/").status_code == 503
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].getMessage().startswith("The database is unreachable")
    assert not any(record.exc_info for record in caplog.records)  # no traceback

    assert visitor.get("/healthz").status_code == 200  # answers without the database: proves nothing
    assert not [record for record in caplog.records if record.getMessage().startswith("The database is back")]
    database_down.undo()
    vendor = make_vendor(name="Back Chip", slug="back-chip")
    publish(vendor)
    assert visitor.get("/vendors/back-chip/").status_code == 200
    said = [record.getMessage() for record in caplog.records if record.name == "infra.outage"]
    assert len(said) == 2 and said[1].startswith("The database is back")


def test_a_request_past_its_deadline_is_cut_off_with_the_503(visitor, monkeypatch, settings):
    settings.REQUEST_DEADLINE_SECONDS = 0.2

    def hang(**kwargs):
        time.sleep(30)  # a database that accepted the query and never answers

    monkeypatch.setattr(selectors, "live_version", hang)
    response = visitor.get("/vendors/aws-trainium/")
    assert response.status_code == 503
    assert response["Retry-After"] == str(outage.RETRY_AFTER_SECONDS)


def test_other_errors_stay_a_500(visitor, monkeypatch):
    def broken(**kwargs):
        raise ValueError("a bug, not an outage")

    monkeypatch.setattr(selectors, "live_version", broken)
    response = visitor.get("/vendors/aws-trainium/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_healthz_answers_without_touching_the_database(visitor, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = visitor.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]
    assert "Content-Security-Policy" not in response.headers  # a probe, not a page


def test_readyz_says_ready_when_database_and_cache_answer(visitor):
    response = visitor.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"ready": True, "status": "ok", "database": "ok", "cache": "ok"}


def test_readyz_is_503_and_says_what_failed_when_the_database_does_not_answer(visitor, monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", (refuse, health.REQUIRED))
    response = visitor.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {
        "ready": False,
        "status": "down",
        "database": "failed: OperationalError",
        "cache": "ok",
    }


def test_readyz_stays_200_and_names_redis_as_degraded_when_redis_is_unreachable(visitor, settings):
    """Without Redis pages are served uncached: a load balancer must not take every server out."""
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache_backends.FailOpenRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
        }
    }
    response = visitor.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["ready"] is True and body["status"] == "degraded"
    assert body["database"] == "ok" and body["cache"].startswith("failed: ")
    (degraded,) = body["degraded"]
    assert "Redis" in degraded


def test_open_data_files_get_the_longer_deadline_they_are_built_in(visitor, monkeypatch, settings):
    """The whole-site file is built from every live version (67 MB in about 10 s at 10,000
    vendors): the visitors' 10 s deadline would cut its first request after each change."""
    publish(make_vendor(name="AWS Trainium"))
    settings.REQUEST_DEADLINE_SECONDS = 0.2
    settings.OPEN_DATA_DEADLINE_SECONDS = 5
    build = opendata_files.site_file

    def slow_build(**kwargs):
        time.sleep(0.5)  # past the visitors' deadline, within the open data one
        return build(**kwargs)

    monkeypatch.setattr(opendata_files, "site_file", slow_build)
    response = visitor.get("/data/chipsite.json")
    assert response.status_code == 200
    assert response.json()["vendors"][0]["vendor"]["name"] == "AWS Trainium"

    settings.OPEN_DATA_DEADLINE_SECONDS = 0.3
    monkeypatch.setattr(opendata_files, "site_file", lambda **kwargs: time.sleep(30))
    response = visitor.get("/data/chipsite.json")
    assert response.status_code == 503  # still bounded
