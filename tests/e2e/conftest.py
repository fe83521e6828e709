"""Fixtures for the browser tests: one Chromium per session, a watched page per test.

The tests drive Debian's Chromium (``/usr/bin/chromium``) through Playwright's sync API.
Without that binary they are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI) makes
a missing browser a failure.
"""

import contextlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import connection
from django.test.testcases import LiveServerThread

# Playwright's sync API runs an event loop in the test thread; Django would otherwise
# refuse the test's own database queries (load_demo, reading what to expect).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


class TestLiveServer(ThreadedWSGIServer):
    """The live server, which knows when it is idle, and on SQLite answers one request at a time.

    On an in-memory SQLite database the live server's threads share the test's one connection,
    and two requests at once on it fail ("bad parameter or other API misuse", answered as a
    503): a page with two frames, or a passkey request still in flight while the test went on,
    did this in CI. A lock around each request, body included, lets no two touch that
    connection together, and keeps keep-alive connections working (each keeps its thread).

    A page closing at a test's end still sends what it sends then (presence cleared, an autosave):
    ``wait_until_idle`` lets those be answered before the test's database is flushed under them
    ("database table is locked" in CI).
    """

    one_at_a_time = connection.vendor == "sqlite"
    _one_request = threading.Lock()
    _idle = threading.Condition()
    in_flight = 0
    last_answered = 0.0

    def set_app(self, application):
        server = type(self)

        def answer(environ, start_response):
            with server._idle:
                server.in_flight += 1
            try:
                with server._one_request if server.one_at_a_time else contextlib.nullcontext():
                    response = application(environ, start_response)
                    try:
                        return list(response)
                    finally:
                        if hasattr(response, "close"):
                            response.close()
            finally:
                with server._idle:
                    server.in_flight -= 1
                    server.last_answered = time.monotonic()
                    server._idle.notify_all()

        super().set_app(answer)

    @classmethod
    def wait_until_idle(cls, *, quiet=0.2, at_most=5.0):
        """Return once no request has been in flight for ``quiet`` seconds (or after ``at_most``)."""
        deadline = time.monotonic() + at_most
        with cls._idle:
            while time.monotonic() < deadline:
                quiet_for = time.monotonic() - cls.last_answered
                if cls.in_flight == 0 and quiet_for >= quiet:
                    return
                cls._idle.wait(timeout=max(0.05, quiet - quiet_for) if cls.in_flight == 0 else 0.1)


LiveServerThread.server_class = TestLiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
]


EXPECT_TIMEOUT_MS = 20_000


def wait_until(condition, *, timeout=EXPECT_TIMEOUT_MS / 1000):
    """Return once ``condition()`` holds (what the live server does on its own, such as answering
    a beacon), checking every 50 ms; fail after ``timeout`` seconds. A wait for what is asserted,
    as ``expect`` does in the browser, not for a fixed time."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"still not true after {timeout:g} s: {condition}")
        time.sleep(0.05)


def _unavailable(reason):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and REQUIRE_BROWSER=1 says the browser tests must run.")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _unavailable("The playwright package is not installed (pip install -r requirements-dev.txt)")
    if not CHROMIUM.exists():
        _unavailable(f"No Chromium at {CHROMIUM} (apt-get install chromium)")
    # A busy machine makes a page slower, not a test red: ``expect`` waits this long for what it
    # asserts (Playwright's own default is 5 s), never for a fixed time.
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@dataclass
class Watcher:
    """What went wrong while a page was open: console errors, failed requests, foreign hosts."""

    origin: str
    console_errors: list = field(default_factory=list)
    failed_requests: list = field(default_factory=list)
    bad_responses: list = field(default_factory=list)
    foreign_requests: list = field(default_factory=list)
    responses: dict = field(default_factory=dict)

    def attach(self, page):
        page.on("console", self.on_console)
        page.on("pageerror", lambda error: self.console_errors.append(f"uncaught: {error}"))
        page.on("requestfailed", lambda r: self.failed_requests.append(f"{r.url}: {r.failure}"))
        page.on("response", self.on_response)
        page.on("request", self.on_request)
        return page

    def on_console(self, message):
        if message.type == "error":
            self.console_errors.append(f"{message.text} ({message.location.get('url')})")

    def on_response(self, response):
        self.responses[urlsplit(response.url).path] = response.status
        if response.status >= 400:
            self.bad_responses.append(f"{response.status} {response.url}")

    def on_request(self, request):
        parts = urlsplit(request.url)
        if parts.scheme in {"data", "blob", "about"}:
            return
        if f"{parts.scheme}://{parts.netloc}" != self.origin:
            self.foreign_requests.append(request.url)

    def failed_except_aborted(self, *paths):
        """The failed requests, less those the browser itself cancelled (ERR_ABORTED) under ``paths``.

        A request still on its way when the page moves on (an icon after a save's click, an
        autocomplete's earlier search) is dropped by the browser: not a failure of the site.
        """
        return [
            failure
            for failure in self.failed_requests
            if not (
                failure.endswith("net::ERR_ABORTED")
                and urlsplit(failure.rsplit(": ", 1)[0]).path.startswith(paths)
            )
        ]

    def assert_clean(self, *, aborted_under=()):
        """No console error, failed request, error status or foreign host; a request the browser
        cancelled under ``aborted_under`` (see ``failed_except_aborted``) is not a failure, nor
        ever a static file's (an admin icon still loading when a click moves the page on, seen
        on a busy machine): a static file the site lacks is an error status, still caught."""
        assert self.console_errors == [], "console errors"
        static = "/" + settings.STATIC_URL.lstrip("/")
        assert self.failed_except_aborted(static, *aborted_under) == [], "failed requests"
        assert self.bad_responses == [], "responses with an error status"
        assert self.foreign_requests == [], "requests to a host other than the live server"


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(**context_options)`` gives a new page in its own context, and its watcher."""
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(live_server.url))
    contexts = []

    def _open(**options):
        context = browser.new_context(base_url=live_server.url, **options)
        contexts.append(context)
        watcher = Watcher(origin=origin)
        page = watcher.attach(context.new_page())
        return page, watcher

    yield _open
    for context in contexts:
        context.close()
    TestLiveServer.wait_until_idle()  # what the closing pages sent, answered before the flush


def sign_in(open_page, *, username, group="Editor", email="", **context):
    """A new staff user in ``group`` (with ``email``, to be told by mail) signed in through the
    admin's own form, in a new page opened with ``context`` (viewport, ...): (page, watcher), on
    the admin's home."""
    from playwright.sync_api import expect

    from tests import factories as f

    user = f.make_staff_user(group=group, username=username)
    user.email = email
    user.set_password("pw")
    user.save()
    page, watcher = open_page(**context)
    page.goto("/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "pw")
    page.click("input[type=submit]")
    expect(page.get_by_role("heading", name="Profiles, scores and sources")).to_be_visible()
    return page, watcher
