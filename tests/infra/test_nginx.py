"""nginx in front of the export (infra/nginx/chipsite.conf.template), run by bench/nginx.py.

A small export tree in the fixed layout, and for Django a local HTTP server that answers
"from django" to everything and notes what it was asked. Skipped without /usr/sbin/nginx,
unless ``REQUIRE_NGINX=1`` (as in CI, which installs it) makes that a failure.
"""

import importlib.util
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("bench_nginx", ROOT / "bench" / "nginx.py")
bench_nginx = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_nginx)

PROFILE = (
    "<!doctype html>\n<html lang=en><title>AWS Trainium</title><h1>AWS Trainium – profile</h1>\n"
).encode() * 40  # a few KB, so that gzip would apply if it were asked for
FEED = b'<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"></feed>\n'
API = b'{"slug": "aws-trainium", "name": "AWS Trainium"}\n'
SITEMAP = b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset></urlset>\n'
STATIC = b"body { margin: 0 }\n"


class FakeDjango(BaseHTTPRequestHandler):
    """Stands in for gunicorn: "from django" for any method and path, and a note of the request."""

    seen: list

    def answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.seen.append(
            {
                "method": self.command,
                "path": self.path,
                "body": body,
                "host": self.headers["Host"],
                "forwarded_for": self.headers["X-Forwarded-For"],
                "forwarded_proto": self.headers["X-Forwarded-Proto"],
            }
        )
        reply = b"from django"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(reply)

    do_GET = do_HEAD = do_POST = answer

    def log_message(self, format, *args):
        pass


@pytest.fixture
def export(tmp_path):
    root = tmp_path / "export"
    files = {
        "index.html": b"<!doctype html><title>Rankings</title>\n",
        "vendors/aws-trainium/index.html": PROFILE,
        "feeds/changes/index.xml": FEED,
        "api/v1/vendors/aws-trainium/index.json": API,
        "sitemap.xml": SITEMAP,
        "sitemap-profiles-1.xml": SITEMAP,
        ".meta/secret.json": b'{"etag": "secret"}\n',
        ".meta/vendors/aws-trainium/index.html.json": b"{}\n",
        "static/css/site.7d3fd12233a7.css": STATIC,
        "data/rankings.csv": b"rank,vendor\n1,AWS Trainium\n",
    }
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return root


@pytest.fixture
def django_upstream():
    handler = type("Handler", (FakeDjango,), {"seen": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield server, handler.seen
    server.shutdown()  # a second shutdown (a test stopped it) returns at once
    server.server_close()


@pytest.fixture
def nginx(export, django_upstream):
    if not bench_nginx.available():
        reason = f"No nginx at {bench_nginx.NGINX} (apt-get install nginx)"
        if os.environ.get("REQUIRE_NGINX") == "1":
            pytest.fail(f"{reason}, and REQUIRE_NGINX=1 says the nginx tests must run.")
        pytest.skip(reason)
    server, _ = django_upstream
    upstream = f"127.0.0.1:{server.server_port}"
    with (
        bench_nginx.Nginx(export_root=export, upstream=upstream) as running,
        httpx.Client(base_url=running.url) as client,
    ):
        yield client


def test_profile_is_served_from_its_file_byte_for_byte(nginx, django_upstream):
    identity = {"Accept-Encoding": "identity"}  # the bytes on the wire, not gzip's
    response = nginx.get("/vendors/aws-trainium/", headers=identity)
    assert response.status_code == 200
    assert response.headers["content-length"] == str(len(PROFILE))
    assert response.content == PROFILE
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    etag = response.headers["etag"]
    again = nginx.get("/vendors/aws-trainium/", headers={**identity, "If-None-Match": etag})
    assert again.status_code == 304
    assert nginx.head("/vendors/aws-trainium/", headers=identity).headers["content-length"] == str(
        len(PROFILE)
    )
    assert django_upstream[1] == []


def test_profile_is_gzipped_when_asked_and_says_it_varies(nginx):
    response = nginx.get("/vendors/aws-trainium/", headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.content == PROFILE  # httpx decompresses
    assert "Accept-Encoding" in response.headers.get_list("vary")
    assert "Cookie" in response.headers.get_list("vary")


def test_feed_api_answer_and_sitemap_carry_django_content_types(nginx):
    feed = nginx.get("/feeds/changes/")
    assert (feed.content, feed.headers["content-type"]) == (FEED, "application/atom+xml; charset=utf-8")
    api = nginx.get("/api/v1/vendors/aws-trainium/")
    assert (api.content, api.headers["content-type"]) == (API, "application/json; charset=utf-8")
    assert api.headers["access-control-allow-origin"] == "*"
    assert api.headers["cross-origin-resource-policy"] == "cross-origin"
    for address in ("/sitemap.xml", "/sitemap-profiles-1.xml"):  # the index and one of its pages
        sitemap = nginx.get(address)
        assert (sitemap.content, sitemap.headers["content-type"]) == (SITEMAP, "application/xml")
        assert sitemap.headers["x-robots-tag"] == "noindex, noodp, noarchive"
    csv = nginx.get("/data/rankings.csv")
    assert csv.headers["content-type"] == "text/csv; charset=utf-8"
    assert csv.headers["content-disposition"] == 'attachment; filename="chipsite-rankings.csv"'


def test_pages_carry_the_security_headers_and_a_short_shared_cache_life(nginx):
    headers = nginx.get("/vendors/aws-trainium/").headers
    assert "default-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    assert headers["cross-origin-resource-policy"] == "same-origin"
    assert "camera=()" in headers["permissions-policy"]
    assert headers["cache-control"] == "public, max-age=30, stale-while-revalidate=60, stale-if-error=86400"
    assert "strict-transport-security" not in headers  # plain HTTP, as Django over HTTP


def test_static_files_carry_the_file_policy_and_a_year_when_hashed(nginx):
    response = nginx.get("/static/css/site.7d3fd12233a7.css")
    assert response.content == STATIC
    assert response.headers["content-security-policy"].endswith("sandbox")
    assert response.headers["cache-control"] == "max-age=315360000, public, immutable"


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/?sort=name", {}),
        ("GET", "/vendors/aws-trainium/?utm=x", {}),
        ("GET", "/admin/", {}),
        ("GET", "/search/", {}),
        ("POST", "/vendors/aws-trainium/", {}),
        ("GET", "/vendors/aws-trainium/", {"Cookie": "csrftoken=x; sessionid=an-editor"}),
    ],
)
def test_requests_the_export_may_not_answer_go_to_django(nginx, django_upstream, method, path, headers):
    response = nginx.request(method, path, headers=headers, content=b"note=hi" if method == "POST" else None)
    assert response.text == "from django"
    seen = django_upstream[1][-1]
    assert (seen["method"], seen["path"]) == (method, path)
    assert seen["forwarded_for"] == "127.0.0.1"
    assert seen["forwarded_proto"] == "http"
    assert seen["host"] == nginx.base_url.netloc.decode()
    if method == "POST":
        assert seen["body"] == b"note=hi"


def test_django_answers_pass_through_without_the_file_headers(nginx):
    response = nginx.get("/?sort=name")
    assert response.headers["content-type"] == "text/plain"
    assert "cache-control" not in response.headers  # Django decides its own


def test_a_page_missing_from_the_export_falls_back_to_django(nginx, django_upstream):
    for path in ("/vendors/not-exported/", "/lanes/", "/robots.txt", "/vendors/aws-trainium"):
        assert nginx.get(path).text == "from django"
    assert [seen["path"] for seen in django_upstream[1]] == [
        "/vendors/not-exported/",
        "/lanes/",
        "/robots.txt",
        "/vendors/aws-trainium",  # a folder is not a file: Django adds the slash
    ]


@pytest.mark.parametrize(
    "path",
    ["/.meta/secret.json", "/%2emeta/secret.json", "/.meta/", "/vendors/../.meta/secret.json", "/.env"],
)
def test_nothing_under_a_dot_folder_is_served_or_proxied(nginx, django_upstream, path):
    response = nginx.get(path)
    assert response.status_code in (403, 404)
    assert b"secret" not in response.content
    assert django_upstream[1] == []


def test_the_config_names_django_session_cookie():
    """The export is for anonymous readers: nginx must know the cookie that says otherwise."""
    assert f"$cookie_{settings.SESSION_COOKIE_NAME}" in bench_nginx.TEMPLATE.read_text()


def test_files_are_still_served_when_django_is_down(nginx, django_upstream):
    server, _ = django_upstream
    server.shutdown()
    server.server_close()
    response = nginx.get("/vendors/aws-trainium/", headers={"Accept-Encoding": "identity"})
    assert (response.status_code, response.content) == (200, PROFILE)
    assert nginx.get("/?sort=name").status_code == 502  # only what needs Django fails


def test_a_search_address_too_long_for_nginx_goes_to_the_search_page_not_a_414(nginx, django_upstream):
    """Past nginx's 8 KB request line, the reader is sent to the search page, which says so;
    a long line under it reaches Django whole (gunicorn reads up to 8,190 bytes)."""
    too_long = nginx.get("/search/", params={"q": "a" * 10_000})
    assert too_long.status_code == 303
    assert too_long.headers["location"] == "/search/?too-long=1"

    long = nginx.get("/search/", params={"q": "a" * 7_000})
    assert long.status_code == 200
    assert django_upstream[1][-1]["path"] == "/search/?q=" + "a" * 7_000
