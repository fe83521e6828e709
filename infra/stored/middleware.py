"""Answering a visitor from the store: the middleware, and the headers a stored page carries."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from .keys import DEFERRED, Shown, _shown, is_stored_address
from .store import Entry, etag_of, store

log = logging.getLogger("infra.stored")
RENDER_FLAG = "chipsite.render"  # a WSGI environ key: no HTTP header can set it
# X-Stored-Page on an answer of stored bytes: "hit", or "stale" while the database is away.
FROM_STORE = ("hit", "stale")


def answered_from_store(response: HttpResponse) -> bool:
    """Stored bytes under the strong ETag that names them: the same for every reader."""
    return response.get("X-Stored-Page") in FROM_STORE and response.get("ETag", "").startswith('"')


def site_host() -> tuple[str, str]:
    """(scheme, host) of settings.SITE_URL: the one address stored pages are rendered for."""
    parts = urlsplit(settings.SITE_URL)
    return parts.scheme, parts.netloc


class StoredPageMiddleware:
    """GET and HEAD requests for a stored address from anyone not signed in: the stored bytes
    while they are true, else the page rendered and stored, or the old bytes if that fails.

    Sits where the page cache sits (innermost), so a stored page gets every header the
    outer middleware gives any page. A request with no session cookie that the store can
    answer has been answered already (``StoredAnswerMiddleware``); renders, stale-if-error and
    visitors with a session cookie come here. Everything else passes through untouched.
    """

    def __init__(self, get_response: Callable[[Any], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> HttpResponse:
        if not self._eligible(request):
            return self.get_response(request)
        request._stored_page = True  # the page cache leaves it to us
        rendering = bool(request.META.get(RENDER_FLAG))
        found = None if rendering else store.read(request.path)
        if found is not None and answerable(found[0]):
            return answer(request, *found)
        shown = Shown()
        token = _shown.set(shown)
        try:
            response = self.get_response(request)
        finally:
            _shown.reset(token)
        if response.status_code >= 500 and found is not None:
            # The database is away (a 503), or the render failed: the page as it was, stale-if-error.
            return answer(request, *found, stale=True)
        if self._storable(request, response):
            try:
                entry = store.write(request.path, response, shown)
            except Exception:
                if rendering:
                    raise  # the render fails, and its index row says why (``render``)
                # The store cannot be written (full, read-only, its bucket away): the page as it was,
                # or, never stored, the one just rendered, unstored. The worker's sweep stores it later.
                log.exception("Stored page %s not written.", request.path)
                return answer(request, *found, stale=True) if found is not None else response
            if entry.etag != etag_of(response.content) and (newer := store.read(request.path)):
                return answer(request, *newer)  # rendered since this render began: that one
            _public(response, entry)
            response["X-Stored-Page"] = "rendered"
        elif rendering and response.status_code in (404, 410):
            store.delete(request.path)
        return response

    @staticmethod
    def _eligible(request: Any) -> bool:
        # Editors get previews at the same address. An address the store does not keep (an
        # any-N comparison) is the page cache's (infra/page_cache.py).
        return (
            stored_address_asked(request)
            and is_stored_address(request.path)
            and not (settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated)
        )

    @staticmethod
    def _storable(request: Any, response: HttpResponse) -> bool:
        if response.status_code != 200 or response.streaming or response.cookies:
            return False
        if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return False
        control = response.get("Cache-Control", "")
        return "private" not in control and "no-store" not in control


def stored_address_asked(request: Any) -> bool:
    """A GET or HEAD for the site's own address of a page that may be stored: no query string,
    not the admin's or the API's documentation (PAGE_CACHE_SKIP_PREFIXES)."""
    if not settings.STORED_PAGES_ENABLED or request.method not in ("GET", "HEAD"):
        return False
    if request.META.get("QUERY_STRING") or request.path.startswith(settings.PAGE_CACHE_SKIP_PREFIXES):
        return False
    # Pages name their own address: only the site's own is stored.
    return (request.scheme, request.get_host()) == site_host()


def answerable(entry: Entry) -> bool:
    """Whether a stored page may be sent as it is: still true now, or built from everything and
    due again, which a worker's sweep builds rather than a visitor."""
    return entry.true_at(time.time()) or _left_to_worker(entry)


def answer(request: Any, entry: Entry, body: bytes, *, stale: bool = False) -> HttpResponse:
    """The stored bytes with their headers, or a 304 to a reader who holds them already."""
    response: HttpResponse
    if quote_etag(entry.etag) in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body)
        for name, value in entry.headers:
            response[name] = value
        response["X-Stored-Page"] = FROM_STORE[1] if stale else FROM_STORE[0]
    response["Content-Length"] = str(len(response.content))  # as CommonMiddleware gives any answer
    return _public(response, entry)


class StoredAnswerMiddleware:
    """A visitor's request for a stored page, answered from the store before the layers that
    only matter to someone signed in (sessions, CSRF, sign-in, the second factor, messages).

    Only for a request that carries no session cookie: with one, the request may be an editor's,
    who gets a preview at the same address, and ``StoredPageMiddleware`` (innermost) decides.
    Everything this does not answer (no stored page, one no longer true, a render) goes on
    untouched, and the inner middleware renders and stores it as before. The answer is the one
    ``StoredPageMiddleware`` gives: the middleware that add a header to every answer
    (X-Frame-Options, the CSP, the API's CORS and rate limit) stand before this one in
    settings.MIDDLEWARE, and tests/infra/test_stored.py holds the two answers equal.
    """

    def __init__(self, get_response: Callable[[Any], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> HttpResponse:
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            or request.META.get(RENDER_FLAG)
            or not stored_address_asked(request)
            or not is_stored_address(request.path)  # an any-N comparison: the page cache's
        ):
            return self.get_response(request)
        found = store.read(request.path)
        if found is None or not answerable(found[0]):
            return self.get_response(request)
        return answer(request, *found)


def has_worker() -> bool:
    """Whether tasks run in a worker process (TASKS_BACKEND), not in the request that enqueues them."""
    backend = str(settings.TASKS.get("default", {}).get("BACKEND", "")) if hasattr(settings, "TASKS") else ""
    return bool(backend) and not backend.endswith("ImmediateBackend")


def _left_to_worker(entry: Entry) -> bool:
    """A page built from everything, due again: with a worker, its sweep builds it, not a visitor."""
    return DEFERRED in entry.keys and entry.release == settings.RELEASE and has_worker()


def _public(response: HttpResponse, entry: Entry) -> HttpResponse:
    response["ETag"] = quote_etag(entry.etag)
    patch_cache_control(
        response,
        public=True,
        max_age=settings.PAGE_MAX_AGE,
        stale_while_revalidate=settings.PAGE_STALE_WHILE_REVALIDATE,
        stale_if_error=settings.PAGE_STALE_IF_ERROR,
    )
    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])
    for name, value in entry.surrogate_headers.items():
        response[name] = value
    return response
