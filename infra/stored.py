"""Stored pages: visitors' pages rendered when what they show changes, then served as bytes.

A *stored page* is the response of one public address without a query string (a profile,
a lane, the rankings, a feed, a download, an API answer), kept as a file in the page store
(``storages["pages"]``: a folder beside the media by default, or a bucket). The files are
laid out as the public site, so the store is also the export nginx can serve
(``file_name``). Beside each file, ``.meta/`` holds what the server needs to answer with it:
its ETag (a hash of the bytes), headers, the moment it stops being true by itself
(``until``: a scheduled version, a row going stale at midnight) and the release it was made by.

How a page gets there, and stays true:

- While a page renders, whatever it reads says so: ``shows("vendor-12")`` (the apps call it
  where they read a published document, a list entry, the axes). The keys are recorded with
  the page in the index (``StoredPage``, ``StoredPageKey``), and sent to CDNs as
  ``Surrogate-Key`` and ``Cache-Tag``.
- When something visitors see changes, its app calls ``changed(keys, paths=...)``. Once the
  transaction commits, a task renders again exactly the stored pages that show one of those
  keys, and any new page (``paths``). With the in-process task backend this happens before
  the editor's request returns; with a worker, within a second or two.
- A page whose ``until`` has passed, or made by another release, is rendered again on the
  next request, as a page that was never stored is; the worker's periodic sweep does it first.
- A render that fails keeps the previous bytes; its error is kept on its index row (the admin
  lists it) and logged once. Files are written to a temporary name and renamed into place.
- When the database is away, the request that would render again answers 503: the stored
  bytes are sent instead, ``Cache-Control: stale-if-error``. A stored page that is still true
  is served without the database at all.

Infra names no app: the apps register the addresses they store (``store_url_names``), how to
list every stored address (``register_paths``) and when pages expire (``register_expiry``).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import hashlib
import io
import json
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache, caches
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.tasks import task
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from .purge import purge_keys, surrogate_headers

log = logging.getLogger(__name__)

RENDER_FLAG = "chipsite.render"  # a WSGI environ key: no HTTP header can set it
META_FOLDER = ".meta"
STORED_HEADERS = ("content-type", "content-language", "content-disposition", "x-robots-tag", "link")
SUFFIXES = {
    "text/html": "index.html",
    "application/atom+xml": "index.xml",
    "application/rss+xml": "index.xml",
    "application/xml": "index.xml",
    "text/xml": "index.xml",
    "application/json": "index.json",
}
EVERYTHING = "everything"  # the key every stored page shows: lanes, attributes, axes, site text
# A page built from everything (the whole-site file, /data/): a change marks it due, and with a
# worker, the worker's sweep builds it again; until then its previous bytes are served.
DEFERRED = "dump"


# --- What a page shows --------------------------------------------------------------------

_shown: contextvars.ContextVar[Shown | None] = contextvars.ContextVar("stored_page_shown", default=None)


@dataclass
class Shown:
    """What one render read: its keys and the first moment it stops being true by itself."""

    keys: set[str] = field(default_factory=lambda: {EVERYTHING})
    until: dt.datetime | None = None


def shows(*keys: str) -> None:
    """The page being rendered shows these (``vendor-12``, ``lane-3``, ``entries``...)."""
    shown = _shown.get()
    if shown is not None:
        shown.keys.update(keys)


def expires(moment: dt.datetime | None) -> None:
    """The page being rendered stops being true at ``moment`` (a row turns stale then)."""
    shown = _shown.get()
    if shown is not None and moment is not None and (shown.until is None or moment < shown.until):
        shown.until = moment


# --- What the apps register ---------------------------------------------------------------

_url_names: set[str] = set()
_path_lists: list[Callable[[], Iterable[str]]] = []
_expiry_hooks: list[Callable[[set[str], dt.datetime], dt.datetime | None]] = []
_item_paths: dict[str, list[Callable[[Any], Iterable[str]]]] = {}


def store_url_names(*names: str) -> None:
    """Responses of these URL names (``vendors:detail``) are stored, when asked without a query."""
    _url_names.update(names)


def register_paths(source: Callable[[], Iterable[str]]) -> None:
    """``source()`` lists every stored address an app has now (for a full render and the export)."""
    if source not in _path_lists:
        _path_lists.append(source)


def register_expiry(hook: Callable[[set[str], dt.datetime], dt.datetime | None]) -> None:
    """``hook(keys, now)``: when a page showing ``keys`` changes by itself (a scheduled version)."""
    if hook not in _expiry_hooks:
        _expiry_hooks.append(hook)


def register_item_paths(kind: str, source: Callable[[Any], Iterable[str]]) -> None:
    """``source(version)`` lists the stored addresses of one live version of ``kind`` (``vendor``):
    a newly published item's pages are rendered at once, not when first asked for."""
    hooks = _item_paths.setdefault(kind, [])
    if source not in hooks:
        hooks.append(source)


def item_paths(version: Any) -> list[str]:
    paths: list[str] = []
    for source in _item_paths.get(version.page_key_prefix(), []):
        paths.extend(source(version))
    return paths


def every_path() -> list[str]:
    paths: list[str] = []
    for source in _path_lists:
        paths.extend(source())
    return list(dict.fromkeys(paths))


def is_stored_address(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.view_name in _url_names


# --- Where pages are kept -----------------------------------------------------------------


class AtomicFileSystemStorage(FileSystemStorage):
    """A folder where a file is replaced whole: written to a temporary name, then renamed, so
    a reader (or nginx) sees the old bytes or the new ones, never half a page."""

    def _save(self, name: str, content: Any) -> str:
        full = self.path(name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=os.path.dirname(full), prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as out:
                for chunk in content.chunks():
                    out.write(chunk)
            os.chmod(temporary, 0o644)
            os.replace(temporary, full)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        return name

    def get_available_name(self, name: str, max_length: int | None = None) -> str:
        return name  # the same address always overwrites its file


def file_name(path: str, content_type: str) -> str:
    """Where the page at ``path`` lives in the store and the export: ``/vendors/x/`` is
    ``vendors/x/index.html`` (``index.xml`` for a feed, ``index.json`` for an API answer);
    an address with a name of its own (``/sitemap.xml``, ``/data/rankings.csv``) is that name."""
    name = path.lstrip("/")
    if name == "" or name.endswith("/"):
        mime = content_type.split(";")[0].strip().lower()
        name += SUFFIXES.get(mime, "index.html")
    return name


def meta_name(path: str) -> str:
    digest = hashlib.sha256(path.encode()).hexdigest()
    return f"{META_FOLDER}/{digest[:2]}/{digest[2:]}.json"


@dataclass(frozen=True)
class Entry:
    """One stored page's metadata (``.meta/``): enough to answer without rendering."""

    path: str
    file: str
    etag: str
    headers: list[tuple[str, str]]
    keys: list[str]
    until: float | None
    release: str
    rendered_at: float

    def true_at(self, now: float) -> bool:
        return self.release == settings.RELEASE and (self.until is None or now < self.until)

    def as_json(self) -> bytes:
        return json.dumps(asdict(self), sort_keys=True).encode()

    @classmethod
    def parse(cls, data: bytes) -> Entry:
        values = json.loads(data)
        values["headers"] = [tuple(pair) for pair in values["headers"]]
        return cls(**values)


def _storage():
    return storages["pages"]


def _local_layer():
    return getattr(caches["default"], "local", None)


class PageStore:
    """The store, with the cache in front and each process's own copies in front of that.

    A process trusts its copy of a page while Redis's change channel has said nothing since
    (every render batch announces itself there, ``infra.cache_backends.LocalLayer``); without
    Redis, a folder's meta file is checked for a newer modification time, so a worker in
    another process is seen at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.copies: dict[str, tuple[Any, Entry, bytes]] = {}

    def _stamp(self, path: str) -> Any:
        layer = _local_layer()
        if layer is not None:
            layer.current()  # starts this process's listener
            return ("layer", layer.generation) if layer.subscribed else None
        storage = _storage()
        if isinstance(storage, FileSystemStorage):
            try:
                return ("mtime", os.stat(storage.path(meta_name(path))).st_mtime_ns)
            except OSError:
                return None
        return ("cache",)  # one process with its own memory cache: what it wrote, it knows

    def read(self, path: str) -> tuple[Entry, bytes] | None:
        stamp = self._stamp(path)
        copy = self.copies.get(path)
        if copy is not None and stamp is not None and copy[0] == stamp:
            return copy[1], copy[2]
        found = self._read_shared(path)
        if found is not None and stamp is not None:
            with self.lock:
                self.copies[path] = (stamp, *found)
        return found

    def _read_shared(self, path: str) -> tuple[Entry, bytes] | None:
        key = f"stored:{hashlib.sha256(path.encode()).hexdigest()[:32]}"
        cached = cache.get(key)
        if cached is not None:
            entry, body = Entry.parse(cached[0]), cached[1]
        else:
            storage = _storage()
            try:
                with storage.open(meta_name(path), "rb") as meta:
                    entry = Entry.parse(meta.read())
                with storage.open(entry.file, "rb") as stored:
                    body = stored.read()
            except (OSError, ValueError, KeyError, TypeError):
                return None
            if _etag(body) != entry.etag:  # a file changed under its meta: not ours to serve
                return None
            cache.set(key, (entry.as_json(), body), timeout=settings.PAGE_CACHE_SECONDS)
        return entry, body

    def write(self, path: str, response: HttpResponse, shown: Shown) -> Entry:
        body = response.content
        headers = [(name, value) for name, value in response.items() if name.lower() in STORED_HEADERS]
        name = file_name(path, response.get("Content-Type", "text/html"))
        now = timezone.now()
        until = shown.until
        for hook in _expiry_hooks:
            moment = hook(shown.keys, now)
            if moment is not None and (until is None or moment < until):
                until = moment
        entry = Entry(
            path=path,
            file=name,
            etag=_etag(body),
            headers=headers,
            keys=sorted(shown.keys),
            until=until.timestamp() if until else None,
            release=settings.RELEASE,
            rendered_at=now.timestamp(),
        )
        storage = _storage()
        storage.save(name, ContentFile(body))  # the bytes first: a meta never names missing bytes
        storage.save(meta_name(path), ContentFile(entry.as_json()))
        self.forget(path)
        from .models import StoredPage

        StoredPage.record(entry)
        return entry

    def delete(self, path: str) -> None:
        storage = _storage()
        found = self._read_shared(path)
        if found is not None:
            storage.delete(found[0].file)
        storage.delete(meta_name(path))
        self.forget(path)
        from .models import StoredPage

        StoredPage.objects.filter(path=path).delete()

    def forget(self, path: str) -> None:
        cache.delete(f"stored:{hashlib.sha256(path.encode()).hexdigest()[:32]}")
        with self.lock:
            self.copies.pop(path, None)


store = PageStore()


def _etag(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:32]


# --- Answering ----------------------------------------------------------------------------


def site_host() -> tuple[str, str]:
    """(scheme, host) of settings.SITE_URL: the one address stored pages are rendered for."""
    parts = urlsplit(settings.SITE_URL)
    return parts.scheme, parts.netloc


class StoredPageMiddleware:
    """Anonymous GET and HEAD requests for a stored address, answered with its stored bytes.

    Sits where the page cache sits (innermost), so a stored page gets every header the
    outer middleware gives any page. Everything else passes through untouched.
    """

    def __init__(self, get_response: Callable[[Any], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> HttpResponse:
        if not self._eligible(request):
            return self.get_response(request)
        request._stored_page = True  # the page cache leaves it to us
        rendering = bool(request.META.get(RENDER_FLAG))
        found = None if rendering else store.read(request.path)
        if found is not None and (found[0].true_at(time.time()) or _left_to_worker(found[0])):
            return self._answer(request, *found)
        shown = Shown()
        token = _shown.set(shown)
        try:
            response = self.get_response(request)
        finally:
            _shown.reset(token)
        if response.status_code == 503 and found is not None:
            return self._answer(request, *found, stale=True)  # the database is away: stale-if-error
        if self._storable(request, response) and is_stored_address(request.path):
            entry = store.write(request.path, response, shown)
            _public(response, entry)
            response["X-Stored-Page"] = "rendered"
        elif rendering and response.status_code in (404, 410):
            store.delete(request.path)
        return response

    @staticmethod
    def _eligible(request: Any) -> bool:
        if not settings.STORED_PAGES_ENABLED or request.method not in ("GET", "HEAD"):
            return False
        if request.META.get("QUERY_STRING") or request.path.startswith(settings.PAGE_CACHE_SKIP_PREFIXES):
            return False
        if (request.scheme, request.get_host()) != site_host():
            return False  # pages name their own address: only the site's own is stored
        if settings.SESSION_COOKIE_NAME in request.COOKIES and request.user.is_authenticated:
            return False  # editors get previews at the same address
        return True

    @staticmethod
    def _storable(request: Any, response: HttpResponse) -> bool:
        if response.status_code != 200 or response.streaming or response.cookies:
            return False
        if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):
            return False
        control = response.get("Cache-Control", "")
        return "private" not in control and "no-store" not in control

    @staticmethod
    def _answer(request: Any, entry: Entry, body: bytes, *, stale: bool = False) -> HttpResponse:
        etag = quote_etag(entry.etag)
        if etag in request.headers.get("If-None-Match", ""):
            return _public(HttpResponseNotModified(), entry)
        response = HttpResponse(body)
        for name, value in entry.headers:
            response[name] = value
        response["X-Stored-Page"] = "stale" if stale else "hit"
        return _public(response, entry)


def has_worker() -> bool:
    """Whether tasks run in a worker process (TASKS_BACKEND), not in the request that enqueues them."""
    backend = settings.TASKS.get("default", {}).get("BACKEND", "") if hasattr(settings, "TASKS") else ""
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
    for name, value in surrogate_headers(key for key in entry.keys if key != EVERYTHING).items():
        response[name] = value
    return response


# --- Rendering ----------------------------------------------------------------------------

_handler = None


def _get_handler():
    global _handler
    if _handler is None:
        from django.core.handlers.wsgi import WSGIHandler

        _handler = WSGIHandler()
    return _handler


def render_one(path: str) -> HttpResponse:
    """Render ``path`` as an anonymous visitor at the site's address, through every middleware,
    and store it (or drop it when it is gone)."""
    from django.core.handlers.wsgi import WSGIRequest

    scheme, host = site_host()
    name, _, port = host.partition(":")
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "SCRIPT_NAME": "",
        "QUERY_STRING": "",
        "SERVER_NAME": name,
        "SERVER_PORT": port or ("443" if scheme == "https" else "80"),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "HTTP_X_FORWARDED_PROTO": scheme,
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": scheme,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        RENDER_FLAG: True,
    }
    from django.core.signals import got_request_exception

    errors: list[BaseException] = []

    def note(sender: Any, request: Any = None, **kwargs: Any) -> None:
        if request is not None and request.META.get(RENDER_FLAG) and (error := sys.exception()):
            errors.append(error)

    got_request_exception.connect(note)
    try:
        response = _get_handler().get_response(WSGIRequest(environ))
    finally:
        got_request_exception.disconnect(note)
    response.render_error = errors[-1] if errors else None
    return response


@dataclass
class Report:
    rendered: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)


def render(paths: Iterable[str]) -> Report:
    """Render each address again; one that fails keeps its previous bytes."""
    from .models import StoredPage

    report = Report()
    for path in dict.fromkeys(paths):
        before = StoredPage.objects.filter(path=path).values_list("etag", flat=True).first()
        try:
            response = render_one(path)
        except Exception as error:  # noqa: BLE001 - kept on the page's row, logged once
            response, problem = None, f"{type(error).__name__}: {error}"
        else:
            problem = None if response.status_code in (200, 404, 410) else f"answered {response.status_code}"
            if problem and (error := getattr(response, "render_error", None)) is not None:
                problem = f"{problem}: {type(error).__name__}: {error}"
        if problem is not None:
            StoredPage.failed(path, problem)
            log.error("Stored page %s not rendered (%s); the previous one is kept.", path, problem)
            report.failed.append(path)
            continue
        if response.status_code != 200:
            report.removed.append(path)
            continue
        etag = response.get("ETag", "").strip('"')
        (report.unchanged if etag == before else report.rendered).append(path)
        report.keys.update(response.get("Surrogate-Key", "").split())
    if report.rendered or report.removed:
        if layer := _local_layer():
            layer.announce()  # every app server drops its own copies
        purge_keys(sorted(report.keys))
    return report


def showing(keys: Iterable[str]) -> list[str]:
    """The stored addresses that show any of ``keys``."""
    from .models import StoredPageKey

    return list(
        StoredPageKey.objects.filter(key__in=list(keys))
        .values_list("page__path", flat=True)
        .distinct()
        .order_by("page__path")
    )


@task()
def render_showing(keys: list[str], paths: list[str]) -> dict[str, int]:
    """The task a change enqueues: render again what shows ``keys``, and ``paths``. Running it
    twice renders the same bytes twice and changes nothing more (it publishes nothing)."""
    from .models import StoredPage

    due = showing([DEFERRED])
    affected = [*paths, *showing(keys), *due]
    if has_worker():  # the sweep builds them; a visitor meanwhile gets the previous bytes
        StoredPage.objects.filter(path__in=due).update(until=timezone.now())
        affected = [path for path in affected if path not in set(due)]
    report = render(affected)
    return {name: len(getattr(report, name)) for name in ("rendered", "unchanged", "removed", "failed")}


def changed(keys: Iterable[str], *, paths: Iterable[str] = ()) -> None:
    """What visitors see has changed for these keys: once the transaction commits, render
    again every stored page that shows one, and the new addresses ``paths``."""
    if not settings.STORED_PAGES_ENABLED:
        return
    keys, paths = sorted(set(keys)), list(dict.fromkeys(paths))
    transaction.on_commit(lambda: render_showing.enqueue(keys, paths))


def changed_everywhere() -> None:
    """A change every page shows (lanes, attributes, axes, the site's text)."""
    changed([EVERYTHING])


@task()
def render_expired() -> dict[str, int]:
    """The periodic sweep: pages whose time has come (a scheduled version, a row turning
    stale), made by another release, or never stored yet, rendered before a visitor asks."""
    from .models import StoredPage

    now = timezone.now()
    stored = StoredPage.objects.all()
    due = list(stored.filter(until__lte=now).values_list("path", flat=True))
    due += list(stored.exclude(release=settings.RELEASE).values_list("path", flat=True))
    known = set(stored.values_list("path", flat=True))
    due += [path for path in every_path() if path not in known]
    report = render(due)
    return {name: len(getattr(report, name)) for name in ("rendered", "unchanged", "removed", "failed")}


def export_to(target: Any) -> int:
    """Copy every stored page's bytes into the folder ``target``, laid out as the store is."""
    from .models import StoredPage

    storage = _storage()
    out = AtomicFileSystemStorage(location=target)
    count = 0
    for file in StoredPage.objects.values_list("file", flat=True).iterator():
        with storage.open(file, "rb") as source:
            out.save(file, ContentFile(source.read()))
        count += 1
    return count
