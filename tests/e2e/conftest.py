"""Fixtures for the browser tests: one Chromium per session, a watched page per test.

The tests drive Debian's Chromium (``/usr/bin/chromium``) through Playwright's sync API.
Without that binary they are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI) makes
a missing browser a failure.
"""

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

# Playwright's sync API runs an event loop in the test thread; Django would otherwise
# refuse the test's own database queries (load_demo, reading what to expect).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
]


def _unavailable(reason):
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}, and REQUIRE_BROWSER=1 says the browser tests must run.")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("The playwright package is not installed (pip install -r requirements-dev.txt)")
    if not CHROMIUM.exists():
        _unavailable(f"No Chromium at {CHROMIUM} (apt-get install chromium)")
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

    def assert_clean(self):
        assert self.console_errors == [], "console errors"
        assert self.failed_requests == [], "failed requests"
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
