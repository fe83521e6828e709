"""CDN purges by surrogate key (infra/purge.py), sent to a real HTTP server on loopback that
stands in for Fastly, Cloudflare or a Varnish cache and records what it was sent."""

import json
import logging
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from infra.purge import HEADER_MAX_BYTES, purge_keys, surrogate_headers
from tests.test_deploy import production

TOKEN = "secret-purge-token-1234"


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class StandIn(ThreadingHTTPServer):
    """Answers each request with the next of ``statuses`` (then 200), or, with ``hang`` set,
    never answers until the test ends."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), Handler)
        self.received: list[Received] = []
        self.statuses: list[int] = []
        self.hang = False
        self.released = threading.Event()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.server_address[1]}"


class Handler(BaseHTTPRequestHandler):
    server: StandIn

    def _answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.received.append(
            Received(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
        )
        if self.server.hang:
            self.server.released.wait(timeout=30)
            return  # the client gave up long ago
        status = self.server.statuses.pop(0) if self.server.statuses else 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    do_POST = do_PURGE = _answer

    def log_message(self, format, *args):
        pass


@pytest.fixture
def cdn(settings):
    server = StandIn()
    # a short poll, so that shutting it down at the end of a test takes no half second
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    settings.CDN_PURGE_URL = server.url
    settings.CDN_PURGE_TOKEN = TOKEN
    settings.CDN_FASTLY_SERVICE_ID = "svc123"
    settings.CDN_CLOUDFLARE_ZONE_ID = "zone456"
    settings.CDN_PURGE_TIMEOUT = 5.0
    yield server
    server.released.set()
    server.shutdown()
    server.server_close()
    thread.join()


def keys(n):
    return [f"vendor-{i}" for i in range(n)]


def warnings(caplog):
    return [r for r in caplog.records if r.name == "infra.purge" and r.levelno >= logging.WARNING]


def test_fastly_purges_the_keys_in_one_batch_for_its_service_with_its_key(cdn, settings, caplog):
    settings.CDN_PURGER = "fastly"
    purge_keys(["vendor-12", "lane-3", "site"])

    [request] = cdn.received
    assert request.method == "POST"
    assert request.path == "/service/svc123/purge"
    assert request.headers["fastly-key"] == TOKEN
    assert request.headers["surrogate-key"] == "vendor-12 lane-3 site"
    assert "fastly-soft-purge" not in request.headers
    assert warnings(caplog) == []


def test_fastly_sends_at_most_256_keys_a_request(cdn, settings):
    settings.CDN_PURGER = "fastly"
    purge_keys(keys(300))

    sent = [r.headers["surrogate-key"].split(" ") for r in cdn.received]
    assert [len(batch) for batch in sent] == [256, 44]
    assert sum(sent, []) == keys(300)


def test_fastly_soft_purge_when_asked(cdn, settings):
    settings.CDN_PURGER = "fastly"
    settings.CDN_FASTLY_SOFT_PURGE = True
    purge_keys(["site"])

    assert cdn.received[0].headers["fastly-soft-purge"] == "1"


def test_cloudflare_purges_tags_for_its_zone_with_a_bearer_token(cdn, settings):
    settings.CDN_PURGER = "cloudflare"
    purge_keys(["vendor-12", "axes"])

    [request] = cdn.received
    assert request.method == "POST"
    assert request.path == "/client/v4/zones/zone456/purge_cache"
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert json.loads(request.body) == {"tags": ["vendor-12", "axes"]}


def test_cloudflare_sends_at_most_30_tags_a_request(cdn, settings):
    settings.CDN_PURGER = "cloudflare"
    purge_keys(keys(61))

    sent = [json.loads(r.body)["tags"] for r in cdn.received]
    assert [len(batch) for batch in sent] == [30, 30, 1]
    assert sum(sent, []) == keys(61)


def test_http_purge_sends_purge_with_the_keys_in_the_xkey_header(cdn, settings):
    settings.CDN_PURGER = "http"
    settings.CDN_PURGE_URL = f"{cdn.url}/purge"
    settings.CDN_PURGE_TOKEN = ""
    purge_keys(["vendor-12", "site"])

    [request] = cdn.received
    assert request.method == "PURGE"
    assert request.path == "/purge"
    assert request.headers["xkey"] == "vendor-12 site"
    assert "authorization" not in request.headers


def test_http_purge_uses_the_configured_header_and_chunks_the_keys(cdn, settings):
    settings.CDN_PURGER = "http"
    settings.CDN_PURGE_HEADER = "Surrogate-Key"
    purge_keys(keys(300))

    sent = [r.headers["surrogate-key"].split(" ") for r in cdn.received]
    assert [len(batch) for batch in sent] == [256, 44]
    assert cdn.received[0].headers["authorization"] == f"Bearer {TOKEN}"


def test_repeated_and_blank_keys_are_sent_once(cdn, settings):
    settings.CDN_PURGER = "fastly"
    purge_keys(["site", "", "vendor-1", "site", "vendor-1"])

    assert cdn.received[0].headers["surrogate-key"] == "site vendor-1"


def test_none_sends_nothing(cdn, settings, caplog):
    settings.CDN_PURGER = "none"
    purge_keys(["vendor-12", "site"])

    assert cdn.received == []
    assert warnings(caplog) == []


def test_no_keys_send_nothing(cdn, settings):
    settings.CDN_PURGER = "fastly"
    purge_keys([])

    assert cdn.received == []


def test_a_500_is_retried_once_then_logged_once_and_not_raised(cdn, settings, caplog):
    settings.CDN_PURGER = "fastly"
    cdn.statuses = [500, 500]
    purge_keys(["vendor-12", "site"])  # does not raise

    assert len(cdn.received) == 2
    [warning] = warnings(caplog)
    message = warning.getMessage()
    assert "fastly" in message and "status 500" in message and "2 of 2 keys" in message


def test_a_500_then_success_on_the_retry_logs_nothing(cdn, settings, caplog):
    settings.CDN_PURGER = "cloudflare"
    cdn.statuses = [500]
    purge_keys(["site"])

    assert len(cdn.received) == 2
    assert warnings(caplog) == []


def test_a_chunk_that_fails_twice_ends_the_purge_with_one_line_for_every_unpurged_key(cdn, settings, caplog):
    settings.CDN_PURGER = "cloudflare"
    cdn.statuses = [200, 503, 503]
    purge_keys(keys(90))

    assert len(cdn.received) == 3  # the first chunk, then the second twice; the third is not tried
    [warning] = warnings(caplog)
    assert "cloudflare" in warning.getMessage() and "60 of 90 keys" in warning.getMessage()


def test_a_cdn_that_does_not_answer_in_time_is_logged_and_not_raised(cdn, settings, caplog):
    settings.CDN_PURGER = "http"
    settings.CDN_PURGE_TIMEOUT = 0.2
    cdn.hang = True
    purge_keys(["vendor-12", "site"])  # does not raise

    [warning] = warnings(caplog)
    message = warning.getMessage()
    assert "http purger" in message and "no answer within 0.2 s" in message and "2 of 2 keys" in message


def test_a_cdn_that_refuses_the_connection_is_logged_and_not_raised(cdn, settings, caplog):
    settings.CDN_PURGER = "fastly"
    cdn.shutdown()
    cdn.server_close()  # the port now refuses connections
    purge_keys(["site"])

    [warning] = warnings(caplog)
    assert "fastly" in warning.getMessage() and "ConnectError" in warning.getMessage()


@pytest.mark.parametrize("purger", ["fastly", "cloudflare", "http"])
def test_the_token_never_appears_in_the_log(cdn, settings, caplog, purger):
    settings.CDN_PURGER = purger
    cdn.statuses = [401, 401]
    with caplog.at_level(logging.DEBUG):
        purge_keys(["site"])

    assert len(cdn.received) == 2 and cdn.received[0].headers  # it was sent, and failed
    assert warnings(caplog)
    assert TOKEN not in caplog.text
    assert all(TOKEN not in r.getMessage() for r in caplog.records)


def test_surrogate_headers_name_the_keys_for_fastly_and_cloudflare():
    assert surrogate_headers(["vendor-12", "lane-3", "site", "site"]) == {
        "Surrogate-Key": "vendor-12 lane-3 site",
        "Cache-Tag": "vendor-12,lane-3,site",
    }
    assert surrogate_headers([]) == {}


def test_surrogate_headers_drop_the_keys_beyond_16_kb():
    many = [f"vendor-{i}" for i in range(5000)]  # about 54 KB joined
    headers = surrogate_headers(many)

    assert len(headers["Surrogate-Key"].encode()) <= HEADER_MAX_BYTES
    assert len(headers["Cache-Tag"].encode()) <= HEADER_MAX_BYTES
    kept = headers["Surrogate-Key"].split(" ")
    assert kept == many[: len(kept)]  # the first given are kept
    assert len(" ".join(many[: len(kept) + 1]).encode()) > HEADER_MAX_BYTES  # no room for one more


def test_the_site_refuses_to_start_with_a_purger_missing_what_it_needs():
    result = production("check", CDN_PURGER="fastly", CDN_PURGE_TOKEN="t")
    assert result.returncode != 0
    assert "CDN_PURGER=fastly needs CDN_FASTLY_SERVICE_ID" in result.stderr


def test_the_site_refuses_to_start_with_an_unknown_purger():
    result = production("check", CDN_PURGER="akamai")
    assert result.returncode != 0
    assert 'CDN_PURGER must be "none", "fastly", "cloudflare" or "http"' in result.stderr
