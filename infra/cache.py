"""Visitors' pages from the cache, fresh on the very next request after any write.

Every cached page and every cached piece of reference data is stored under the site's
*content token*: a short random string kept in the shared cache (Redis in production,
so every app server reads the same one). It changes when

- the workflow writes what visitors see (publish, schedule, unpublish, verification),
  or an editor changes shared vocabulary (lanes, attributes, axes, site settings):
  ``content_changed()`` deletes it once the transaction commits;
- a scheduled version's time comes, or the day turns (stale marks follow the date):
  the token carries the moment it stops being valid.

A new token means new keys: nothing is ever served stale, and nothing needs a timeout
to become fresh. Old entries simply age out of the cache.
"""

import datetime as dt
import hashlib
import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache, caches
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from .replica import reads_from_replica

if TYPE_CHECKING:
    from .cache_backends import LocalLayer

log = logging.getLogger(__name__)

TOKEN_KEY = "content-token"
MAX_TOKEN_SECONDS = 24 * 3600


_schedules: list[Callable[[dt.datetime], dt.datetime | None]] = []


def changes_at(hook):
    """Register ``hook(now)``: the moment what visitors see next changes by itself (a version
    scheduled to go live), or None. The cache names no model; the workflow registers its
    schedule in its AppConfig.ready()."""
    if hook not in _schedules:
        _schedules.append(hook)
    return hook


def _scheduled(now):
    """The next moment what visitors see changes by itself (the hooks' earliest), or None."""
    return min((moment for hook in _schedules if (moment := hook(now)) is not None), default=None)


def _next_change(now, scheduled):
    """When the token made now stops being valid: the next scheduled change, or midnight."""
    midnight = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return min(moment for moment in (scheduled, midnight + dt.timedelta(days=1)) if moment is not None)


def _valid(token):
    """The token's value while its time has not passed, else None."""
    if token and token["until"] > timezone.now().timestamp():
        return token["value"]
    return None


def _current_token():
    """The current content token (its value, until, made and scheduled); a new one once the
    old one's time has passed."""
    now = timezone.now()
    found = cache.get(TOKEN_KEY)
    if _valid(found) and "scheduled" in found:  # (a token made by an earlier release has none)
        return found
    scheduled = _scheduled(now)
    until = _next_change(now, scheduled)
    token = {
        "value": uuid.uuid4().hex[:16],
        "until": until.timestamp(),
        "made": now.timestamp(),
        "scheduled": scheduled.timestamp() if scheduled else None,
    }
    cache.set(
        TOKEN_KEY, token, timeout=min(MAX_TOKEN_SECONDS, max(1, int(until.timestamp() - now.timestamp())))
    )
    return token


def content_token():
    """The current content token; a new one once the old one's time has passed."""
    return _current_token()["value"]


def next_scheduled_change():
    """The next moment a scheduled change goes live (or an unpublishing ahead takes a version
    off), as the current token holds it: asked once per token, not by every page that lists
    items (infra/stored/). Every write that schedules one makes a new token."""
    token = _current_token()
    return dt.datetime.fromtimestamp(token["scheduled"], tz=dt.UTC) if token["scheduled"] else None


def content_changed():
    """What visitors may see has changed: every server makes a new token.

    Now, and again once the transaction commits: a request that made a new token in
    between may have cached what it read before the commit.
    """

    def forget():
        cache.delete(TOKEN_KEY)
        if layer := _local_layer():
            layer.announce()  # every process drops its own copies

    forget()
    transaction.on_commit(forget)


def _local_layer():
    return getattr(caches["default"], "local", None)


BUILD_WAIT_SECONDS = 120  # how long a request waits for another's build (and how long it may hold it)


def cached[T](name: str, compute: Callable[[], T], *, single_flight: bool = False) -> T:
    """``compute()``'s result, computed once per content token (shared reference data).

    With ``single_flight`` (a build that takes seconds, like the whole-site data file), a
    request that finds another already computing it waits for that result instead of
    computing it again beside it, for up to BUILD_WAIT_SECONDS.
    """
    if not settings.PAGE_CACHE_ENABLED:
        return compute()
    key = f"data:{settings.RELEASE}:{content_token()}:{name}"
    value = cache.get(key)
    if value is not None:
        return value
    lock = f"{key}:building"
    building = single_flight and cache.add(lock, True, timeout=BUILD_WAIT_SECONDS)
    if single_flight and not building and (value := _wait_for(key)) is not None:
        return value
    try:
        value = compute()
        cache.set(key, value, timeout=settings.PAGE_CACHE_SECONDS)
    finally:
        if building:
            cache.delete(lock)
    return value


EACH_SECONDS = 7 * 24 * 3600  # a week: a version still live is read again long before it goes


def cached_each[K, T](
    name: str, keys: list[K], compute: Callable[[list[K]], dict[K, T]], *, stamp: str = ""
) -> dict[K, T]:
    """{key: what ``compute`` gives for it}, each kept across content tokens: for what follows
    from something that never changes once written, a published version's document, and
    from ``stamp`` (the freshness cutoff, say), so a publish rebuilds a catalogue-wide file
    from the one version it wrote. ``compute(missing)`` answers for the keys not kept."""
    if not settings.PAGE_CACHE_ENABLED:
        return compute(keys)
    prefix = f"each:{settings.RELEASE}:{name}:{stamp}:"
    found = cache.get_many([f"{prefix}{key}" for key in keys])
    values = {key: found[f"{prefix}{key}"] for key in keys if f"{prefix}{key}" in found}
    if missing := [key for key in keys if key not in values]:
        built = compute(missing)
        cache.set_many({f"{prefix}{key}": value for key, value in built.items()}, timeout=EACH_SECONDS)
        values |= built
    return values


def _wait_for(key):
    """The value another request is computing under ``key``, once it is there (or None)."""
    until = time.monotonic() + BUILD_WAIT_SECONDS
    while time.monotonic() < until:
        time.sleep(0.1)
        value = cache.get(key)
        if value is not None or cache.get(f"{key}:building") is None:
            return value
    return None


@dataclass
class _Lookup:
    """What the caches hold for one address: the token to answer under, the page kept for it
    (token, status, headers, content) or None, and when the token was made (None unless it
    was read from the shared cache)."""

    key: str
    digest: str
    layer: "LocalLayer | None"
    generation: int
    token: str
    stored: tuple | None
    made: float | None = None

    @property
    def etag(self) -> str:
        return quote_etag(f"{self.token}-{settings.RELEASE[:8]}-{self.digest[:12]}")

    @property
    def hit(self) -> bool:
        return self.stored is not None and self.stored[0] == self.token

    def response(self) -> HttpResponse:
        assert self.stored is not None
        _, status, headers, content = self.stored
        response = HttpResponse(content, status=status)
        for header, value in headers:
            response[header] = value
        response["X-Page-Cache"] = "hit"
        return response

    def keep(self, response: HttpResponse) -> None:
        headers = [(h, v) for h, v in response.items() if h.lower() in STORED_HEADERS]
        entry = (self.token, response.status_code, headers, response.content)
        cache.set(self.key, entry, timeout=settings.PAGE_CACHE_SECONDS)
        if self.layer:
            self.layer.keep(self.token, self.digest, entry, self.generation)


def _look_up(request) -> _Lookup:
    """The token and the page for the request's address: this process's copies first (with
    Redis, cache_backends.LocalLayer), then the shared cache."""
    # Pages name their own address (canonical links, citations, the API's links): one
    # copy per scheme and host, so a page asked for as www.… never answers for the apex.
    address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    digest = hashlib.sha256(address.encode()).hexdigest()[:24]
    key = f"page:{settings.RELEASE}:{digest}"
    layer = _local_layer()
    token, generation = layer.current() if layer else (None, 0)
    if token and (stored := layer.page(token, digest)) is not None:
        return _Lookup(key, digest, layer, generation, token, stored)
    # One round trip for the token and the page; the page is stored with the token
    # it was made under, and only served under that same token.
    found = cache.get_many([TOKEN_KEY, key])
    token = _valid(found.get(TOKEN_KEY))
    if token and layer:
        layer.remember(found[TOKEN_KEY], generation)
    token = token or content_token()
    stored = found.get(key)
    if stored is not None and stored[0] == token and layer:
        layer.keep(token, digest, stored, generation)
    return _Lookup(
        key, digest, layer, generation, token, stored, made=(found.get(TOKEN_KEY) or {}).get("made")
    )


class PublicPageCacheMiddleware:
    """Anonymous GET and HEAD requests for public pages, answered from the cache.

    - A page is stored under the content token and its full address, so it is fresh on the
      next request after a write; previews, pages that set cookies or vary on them, and
      anything but a 200 are never stored.
    - Every anonymous public response carries an ``ETag`` made of the token and the path,
      and ``If-None-Match`` with it is answered ``304`` before any work is done.
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
        page = _look_up(request)
        if page.etag in request.headers.get("If-None-Match", ""):
            return self._public(HttpResponseNotModified(), page.etag)
        if page.hit:
            return self._public(page.response(), page.etag)
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
        """The page rendered, and kept under its token when it may be."""
        # A read replica (infra.replica) only once the token is old enough for it to
        # have caught up with the write that made the token.
        settled = page.made is not None and time.time() - page.made > settings.REPLICA_LAG_SECONDS
        with reads_from_replica(allowed=settled):
            response = self.get_response(request)
        if not self._storable(request, response):
            return response
        page.keep(response)
        response["X-Page-Cache"] = "miss"
        return self._public(response, page.etag)

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

    @staticmethod
    def _public(response, etag):
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
