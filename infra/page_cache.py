"""Visitors' pages rendered on demand (an address with a query string, an any-N comparison:
whatever the page store does not keep, infra/stored/), answered from the cache while true by the
rule infra/cache.py keeps them with, else rendered and kept.

``CachedAnswerMiddleware`` answers a visitor without a session cookie early, before the layers
only someone signed in needs; ``PublicPageCacheMiddleware`` (innermost) renders and keeps, and
answers everyone else.
"""

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from . import freshness
from .cache import Kept, _kept, _local_layer, _still_true
from .freshness import AT_KEY, COUNT_KEY
from .replica import reads_from_replica
from .stored.keys import EVERYTHING, Shown, _shown, is_stored_address, own_key
from .stored.middleware import stored_address_asked

if TYPE_CHECKING:
    from .cache_backends import LocalLayer


@dataclass
class _Lookup:
    """What the caches hold for one address: the page kept for it, if still true, else what a
    render needs to keep one (the count it begins at, whether a replica may be read)."""

    key: str
    digest: str
    layer: "LocalLayer | None"
    generation: int
    page: Kept | None = None
    started: int | None = None
    settled: bool = False

    @property
    def hit(self) -> bool:
        return self.page is not None

    def response(self) -> HttpResponse:
        assert self.page is not None
        status, headers, content, _ = self.page.value
        response = HttpResponse(content, status=status)
        for header, value in headers:
            response[header] = value
        response["X-Page-Cache"] = "hit"
        return response

    @property
    def etag(self) -> str:
        assert self.page is not None
        return self.page.value[3]

    def keep(self, response: HttpResponse, shown: Shown) -> str:
        """Keep the rendered page (when the cache answered), and give its ETag."""
        headers = [(h, v) for h, v in response.items() if h.lower() in STORED_HEADERS]
        etag = etag_of(response.content)
        if self.started is None:
            return etag
        page = _kept(self.started, shown, (response.status_code, headers, response.content, etag))
        freshness.settle(page.keys, self.started)
        cache.set(self.key, page, timeout=settings.PAGE_CACHE_SECONDS)
        if self.layer:
            self.layer.keep(self.digest, page, self.generation)
        return etag


def etag_of(content: bytes) -> str:
    """A page's ETag: its bytes and the release (a deploy's page is never taken for an older one)."""
    return quote_etag(f"{settings.RELEASE[:8]}-{hashlib.sha256(content).hexdigest()[:24]}")


def _look_up(request) -> _Lookup:
    """The page kept for the request's address, if still true: this process's copy first
    (with Redis, cache_backends.LocalLayer), then the shared cache and its keys' numbers."""
    # Pages name their own address (canonical links, citations, the API's links): one
    # copy per scheme and host, so a page asked for as www.… never answers for the apex.
    address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    digest = hashlib.sha256(address.encode()).hexdigest()[:24]
    key = f"page:{settings.RELEASE}:{digest}"
    layer = _local_layer()
    generation = layer.current() if layer else 0
    if layer and (page := layer.page(digest)) is not None and page.timely(timezone.now().timestamp()):
        return _Lookup(key, digest, layer, generation, page=page)
    found = cache.get_many([key, COUNT_KEY, AT_KEY])
    page = found.get(key)
    if isinstance(page, Kept) and _still_true(page):
        if layer:
            layer.keep(digest, page, generation)
        return _Lookup(key, digest, layer, generation, page=page)
    settled = freshness.settled_for(settings.REPLICA_LAG_SECONDS, found)
    return _Lookup(key, digest, layer, generation, started=freshness.count_now(found), settled=settled)


class PublicPageCacheMiddleware:
    """Anonymous GET and HEAD requests for public pages, answered from the cache.

    - A page is kept under its full address with the keys it showed (see above), so it is
      fresh on the next request after a change it shows, and untouched by any other;
      previews, pages that set cookies or vary on them, and anything but a 200 are never kept.
    - Every anonymous public response carries an ``ETag`` of its bytes, and ``If-None-Match``
      with it is answered ``304`` (before any work when the page is kept and still true).
    - ``Cache-Control: public, max-age, stale-while-revalidate`` for visitors; a signed-in
      user's pages are ``private, no-store``.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if self._passes_by(request):
            return self.get_response(request)
        if request.method not in ("GET", "HEAD") or self._signed_in(request):
            return self._private(request)
        # CachedAnswerMiddleware looked it up already for a request without a session cookie.
        page = getattr(request, "_page_lookup", None) or _look_up(request)
        if page.hit:
            return _answer(request, page)
        return self._render(request, page)

    @staticmethod
    def _passes_by(request):
        return (
            not settings.PAGE_CACHE_ENABLED
            or request.path.startswith(settings.PAGE_CACHE_SKIP_PREFIXES)
            or getattr(request, "_stored_page", False)  # a stored page (infra/stored/) is not cached here
        )

    def _private(self, request):
        """A signed-in user's page, or a request that is not a read: never cached anywhere."""
        response = self.get_response(request)
        if request.method in ("GET", "HEAD") and response.get("Cache-Control") is None:
            patch_cache_control(response, private=True, no_store=True)
        return response

    def _render(self, request, page):
        """The page rendered, noting what it shows, and kept when it may be."""
        # A read replica (infra.replica) only once the last change is old enough for it to
        # have caught up with it.
        # Its own address's key too: a change that renders a stored page at this path (an
        # item's own pages, at its publish) drops it, whatever its query string.
        shown = Shown(keys={EVERYTHING, own_key(request.path)})
        token = _shown.set(shown)
        try:
            with reads_from_replica(allowed=page.settled):
                response = self.get_response(request)
        finally:
            _shown.reset(token)
        if not self._storable(request, response):
            return response
        etag = page.keep(response, shown)
        if etag in request.headers.get("If-None-Match", ""):
            return _public(HttpResponseNotModified(), etag)
        response["X-Page-Cache"] = "miss"
        return _public(response, etag)

    @staticmethod
    def _signed_in(request):
        # Without a session cookie nobody is signed in, and the session is never loaded.
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return False
        return request.user.is_authenticated

    @staticmethod
    def _storable(request, response):
        if response.status_code != 200 or response.streaming or response.cookies:
            return False
        if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # it holds a CSRF token: one per visitor
            return False
        control = response.get("Cache-Control", "")
        return "private" not in control and "no-store" not in control


class CachedAnswerMiddleware:
    """A visitor's request for a page rendered on demand, answered from the cache before the
    layers that only matter to someone signed in (sessions, CSRF, sign-in, the second factor,
    messages), as ``StoredAnswerMiddleware`` answers a stored page.

    Only for a GET or HEAD that carries no session cookie: nobody is signed in, so the answer is
    the one ``PublicPageCacheMiddleware`` (innermost) would give, with the Content-Length
    CommonMiddleware gives any answer; tests/infra/test_cache.py holds the two answers equal.
    What it does not answer goes on with its lookup, which the innermost middleware renders with.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            settings.SESSION_COOKIE_NAME in request.COOKIES
            or request.method not in ("GET", "HEAD")
            or PublicPageCacheMiddleware._passes_by(request)
            or (stored_address_asked(request) and is_stored_address(request.path))  # the store's
        ):
            return self.get_response(request)
        page = request._page_lookup = _look_up(request)
        if not page.hit:
            return self.get_response(request)
        response = _answer(request, page)
        response["Content-Length"] = str(len(response.content))
        return response


def _answer(request, page: _Lookup) -> HttpResponse:
    """The kept page, or a 304 to a reader who holds it already."""
    if page.etag in request.headers.get("If-None-Match", ""):
        return _public(HttpResponseNotModified(), page.etag)
    return _public(page.response(), page.etag)


def _public(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    patch_cache_control(
        response,
        public=True,
        max_age=settings.PAGE_MAX_AGE,
        stale_while_revalidate=settings.PAGE_STALE_WHILE_REVALIDATE,
    )
    # Signed-in editors get previews at the same address: a shared cache must tell them apart.
    patch_vary_headers(response, ["Accept-Encoding", "Cookie"])
    return response


STORED_HEADERS = {"content-type", "content-language", "content-disposition", "x-robots-tag"}
