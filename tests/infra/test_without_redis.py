"""Limits without Redis: when the shared cache does not answer, the API's rate limit falls back
to each process's share of it, never to none; sign-in pauses still hold; /readyz says
"degraded" and names what fell back. Redis "away" is a closed port on loopback: no Redis needed."""

import logging
import shlex
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client
from gunicorn.config import Config

from infra import cache_backends, ratelimit

pytestmark = pytest.mark.django_db

NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens there


@pytest.fixture
def redis_away(settings, monkeypatch):
    """The Redis backend, pointed at a closed port; three app processes (as the Procfile starts)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache_backends.FailOpenRedisCache",
            "LOCATION": NOWHERE,
            "OPTIONS": {"socket_connect_timeout": 0.1, "socket_timeout": 0.1},
        }
    }
    monkeypatch.setattr(cache_backends, "_down", False)  # this test's outage is its own
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    settings.API_RATE_LIMIT, settings.API_RATE_WINDOW = 30, 3600  # no window ends mid-test


def test_without_redis_the_api_still_answers_429_past_this_processs_share(redis_away, caplog):
    visitor = Client(REMOTE_ADDR="192.0.2.45")
    with caplog.at_level(logging.ERROR, logger="infra.ratelimit"):
        answers = [visitor.get("/api/v1/axes/") for _ in range(12)]
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 2  # 30 over three processes
    assert int(answers[-1]["Retry-After"]) > 0
    fallbacks = [r for r in caplog.records if "does not answer" in r.getMessage()]
    assert len(fallbacks) == 1  # once per outage, not once per request
    assert "1/3: 10 of 30" in fallbacks[0].getMessage()
    # Another address has its own count.
    assert Client(REMOTE_ADDR="192.0.2.46").get("/api/v1/axes/").status_code == 200


def test_without_redis_three_app_processes_together_allow_about_the_limit(redis_away, rf):
    processes = [ratelimit.LocalCounts() for _ in range(3)]  # three app processes, each alone
    request = rf.get("/api/v1/axes/", REMOTE_ADDR="192.0.2.47")
    allowed = 0
    for n in range(90):
        counts = processes[n % 3]
        allowed += ratelimit.wait_seconds(request, scope="api", limit=30, window=3600, counts=counts) == 0
    assert allowed == 30


def test_when_redis_answers_again_the_shared_count_is_used_and_that_is_logged_once(monkeypatch, rf, caplog):
    redis = {"up": False, "count": 0}

    def add_to_shared_count(key, amount, **kwargs):
        if not redis["up"]:
            return None
        redis["count"] += amount
        return redis["count"]

    monkeypatch.setattr(ratelimit, "add_to_shared_count", add_to_shared_count)
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    counts = ratelimit.LocalCounts()
    request = rf.get("/api/v1/axes/", REMOTE_ADDR="192.0.2.48")

    def ask(times):
        return [
            ratelimit.wait_seconds(request, scope="api", limit=300, window=3600, counts=counts) == 0
            for _ in range(times)
        ]

    with caplog.at_level(logging.WARNING, logger="infra.ratelimit"):
        assert all(ask(50))  # within this process's share (100)
        redis["up"] = True
        assert all(ask(200))  # 250 in all: the whole limit holds again, not the share
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "does not answer" in messages[0] and "answers again" in messages[1]
    assert not ask(60)[-1]  # and it is the limit: 300 in all


def test_without_redis_sign_in_is_still_paused_after_five_failures(redis_away):
    User.objects.create_user("editor", password="a long and correct password", is_staff=True)

    def sign_in(password):
        client = Client(REMOTE_ADDR="203.0.113.45")
        data = {"username": "editor", "password": password, "next": "/admin/"}
        return client, client.post("/admin/login/", data)

    assert [sign_in("wrong")[1].status_code for _ in range(5)] == [200, 200, 200, 200, 429]
    client, response = sign_in("a long and correct password")
    assert response.status_code == 429 and "Retry-After" in response
    assert "_auth_user_id" not in client.session


def test_without_redis_readyz_says_degraded_and_names_the_rate_limits(redis_away):
    response = Client().get("/readyz")
    assert response.status_code == 200  # a slower site is still a site: keep it in the pool
    body = response.json()
    assert body["status"] == "degraded"
    (degraded,) = body["degraded"]
    assert "pages are served uncached" in degraded and "rate limits" in degraded


def test_the_share_assumes_as_many_processes_as_the_procfile_starts(monkeypatch):
    procfile = Path(__file__).resolve().parents[2] / "Procfile"
    (web,) = [line for line in procfile.read_text().splitlines() if line.startswith("web:")]
    args = Config().parser().parse_args(shlex.split(web.removeprefix("web:"))[1:])
    monkeypatch.delenv("WEB_CONCURRENCY", raising=False)
    assert ratelimit.processes() == args.workers
