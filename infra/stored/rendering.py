"""Rendering stored pages: one address through the whole stack, the task a change enqueues,
the periodic sweep, and copying the store out as an export."""

from __future__ import annotations

import datetime as dt
import io
import logging
import signal
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction
from django.http import HttpResponse
from django.tasks import task
from django.utils import timezone

from .. import freshness
from ..periodic import PERIODIC_QUEUE
from ..purge import purge_keys
from . import retries
from .files import AtomicFileSystemStorage, copy_page
from .keys import DEFERRED, EVERYTHING, every_path, own_key
from .middleware import RENDER_FLAG, has_worker, site_host
from .store import _local_layer, _storage, store

log = logging.getLogger("infra.stored")
PURGE_PAGES_AT_MOST = 500  # a purge naming more pages than this purges the whole site ("site")
JOBS_HELP = "Processes rendering at once (default: one per core; SQLite renders in one)."
RENDER_CHUNK = 50  # addresses a render process takes at a time
RENDERS_PER_PROCESS_AT_LEAST = 200  # fewer addresses than this each: not worth a process
RENDER_AGAIN_SECONDS = 5  # a publish's render that failed as a whole runs again this much later


_handler: Any = None


def _get_handler() -> Any:
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

    def counts(self) -> dict[str, int]:
        return {name: len(getattr(self, name)) for name in ("rendered", "unchanged", "removed", "failed")}

    def add(self, other: Report) -> None:
        for name in ("rendered", "unchanged", "removed", "failed"):
            getattr(self, name).extend(getattr(other, name))


def render(paths: Iterable[str], *, jobs: int = 1) -> Report:
    """Render each address again; one that fails keeps its previous bytes. With ``jobs`` above
    one (and a database that takes writers at once: not SQLite), that many processes share
    the addresses: a full render of the site, after a deploy or for an export."""
    paths = list(dict.fromkeys(paths))
    jobs = min(jobs, len(paths) // RENDERS_PER_PROCESS_AT_LEAST)
    # Other processes see only what is committed, and SQLite takes one writer at a time.
    if jobs > 1 and connection.vendor != "sqlite" and not connection.in_atomic_block:
        report = _render_in_processes(paths, jobs=jobs)
    else:
        report = _render(paths)
    _announce(report)
    return report


def _render_in_processes(paths: list[str], *, jobs: int) -> Report:
    """``_render`` in ``jobs`` forked processes, each taking the next slice as it finishes one."""
    import multiprocessing

    chunks = [paths[i : i + RENDER_CHUNK] for i in range(0, len(paths), RENDER_CHUNK)]
    connections.close_all()  # each process opens its own
    report = Report()
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_as_a_render_process) as pool:
        for part in pool.imap_unordered(_render_chunk, chunks):
            report.add(part)
        # Each process finishes and exits on its own: the with's terminate() would signal them
        # and wait, and a fork of the task worker keeps its handler that only notes a SIGTERM.
        pool.close()
        pool.join()
    return report


def _as_a_render_process() -> None:
    """A forked render process ends on SIGTERM and SIGINT, not the worker's graceful handlers
    (django-tasks' db_worker notes the signal and waits for its loop, which a fork never runs)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _render_chunk(paths: list[str]) -> Report:
    try:
        return _render(paths)
    finally:
        connections.close_all()


def _render(paths: list[str]) -> Report:
    """Render ``paths`` in this process, a batch of RENDER_CHUNK at a time: each batch reads what
    its pages were and when pages expire once, and indexes its pages in one transaction."""
    from ..models import StoredPage

    report = Report()
    bulk = len(paths) >= RENDERS_PER_PROCESS_AT_LEAST
    for start in range(0, len(paths), RENDER_CHUNK):
        part = paths[start : start + RENDER_CHUNK]
        etags = dict(StoredPage.objects.filter(path__in=part).values_list("path", "etag"))
        with store.batched(bulk=bulk):
            for path in part:
                _render_into(report, path, before=etags.get(path))
    return report


def _render_into(report: Report, path: str, *, before: str | None) -> None:
    """Render ``path`` and note what came of it (``before``: its bytes' ETag until now)."""
    from ..models import StoredPage

    try:
        response = render_one(path)
    except Exception as error:  # noqa: BLE001 - kept on the page's row, logged once
        problem: str | None = f"{type(error).__name__}: {error}"
    else:
        problem = None if response.status_code in (200, 404, 410) else f"answered {response.status_code}"
        if problem and (raised := getattr(response, "render_error", None)) is not None:
            problem = f"{problem}: {type(raised).__name__}: {raised}"
    if problem is not None:
        StoredPage.failed(path, problem)
        log.error("Stored page %s not rendered (%s); the previous one is kept.", path, problem)
        report.failed.append(path)
        return
    if response.status_code != 200:
        report.removed.append(path)
        return
    etag = response.get("ETag", "").strip('"')
    (report.unchanged if etag == before else report.rendered).append(path)


def _announce(report: Report) -> None:
    """Every server and the CDN drop what the render replaced."""
    if report.rendered or report.removed:
        # Again, now that every file is in place: a copy a server read just before its file
        # was replaced, and put in the cache after the write's own forget, goes too.
        # Each page was named on the channel as it was written; one word now drops every copy.
        store.forget_many([*report.rendered, *report.removed], announce=False)
        if layer := _local_layer():
            layer.announce()  # every app server drops its own copies
        anew = [*report.rendered, *report.removed]
        # The CDN drops exactly the pages whose bytes changed; past a few hundred, all of them.
        purge_keys([EVERYTHING] if len(anew) > PURGE_PAGES_AT_MOST else [own_key(path) for path in anew])


def showing(keys: Iterable[str]) -> list[str]:
    """The stored addresses that show any of ``keys``."""
    from ..models import StoredPageKey

    return list(
        StoredPageKey.objects.filter(key__in=list(keys))
        .values_list("page__path", flat=True)
        .distinct()
        .order_by("page__path")
    )


def worker_jobs() -> int:
    """Processes a task renders with: STORED_PAGES_RENDER_JOBS in a worker, one when tasks run
    in the web process that enqueued them (a request never forks)."""
    return settings.STORED_PAGES_RENDER_JOBS if has_worker() else 1


@task()
def render_showing(keys: list[str], paths: list[str]) -> dict[str, int]:
    """The task a change enqueues: render again what shows ``keys``, and those of ``paths`` not
    stored yet (a stored one shows what it read: its keys say whether it changed). Running it
    twice renders the same bytes twice and changes nothing more (it publishes nothing)."""
    from ..models import StoredPage

    try:
        due = showing([DEFERRED])
        kept = set(StoredPage.objects.filter(path__in=paths, error="").values_list("path", flat=True))
        affected = [*(path for path in paths if path not in kept), *showing(keys), *due]
        if has_worker():  # the sweep builds them; a visitor meanwhile gets the previous bytes
            StoredPage.objects.filter(path__in=due).update(until=timezone.now())
            affected = [path for path in affected if path not in set(due)]
        return render(affected, jobs=worker_jobs()).counts()
    except Exception:
        if has_worker():
            # The render as a whole failed (the database locked or away mid-way; a page that
            # fails alone is retried by the sweep): it runs again shortly, and until then its
            # pages keep their previous bytes.
            again = timezone.now() + dt.timedelta(seconds=RENDER_AGAIN_SECONDS)
            render_showing.using(run_after=again).enqueue(keys, paths)
        raise


@dataclass
class _Gathered:
    keys: set[str] = field(default_factory=set)
    paths: list[str] = field(default_factory=list)


_gathering: ContextVar[_Gathered | None] = ContextVar("stored_pages_gathering", default=None)


def changed(keys: Iterable[str], *, paths: Iterable[str] = ()) -> None:
    """What visitors see has changed for these keys: cached pages that show one are dropped
    (``infra.freshness``), and once the transaction commits, every stored page that shows one
    is rendered again, with the new addresses ``paths``."""
    keys, paths = sorted(set(keys)), list(dict.fromkeys(paths))
    freshness.changed([*keys, *map(own_key, paths)])  # cached pages at ``paths`` too
    if not settings.STORED_PAGES_ENABLED:
        return
    if (gathered := _gathering.get()) is not None:
        gathered.keys.update(keys)
        gathered.paths.extend(paths)
        return
    transaction.on_commit(lambda: render_showing.enqueue(keys, paths))


@contextmanager
def changes_gathered() -> Iterator[None]:
    """Inside, changes are gathered rather than rendered one by one; leaving it, once the work
    has committed, what shows any of them is rendered in one pass. For work that changes many
    things at once: the demo load publishes a dozen versions, each showing on the home page."""
    gathered = _Gathered()
    token = _gathering.set(gathered)
    try:
        yield
    finally:
        _gathering.reset(token)
    if gathered.keys or gathered.paths:
        keys, paths = sorted(gathered.keys), list(dict.fromkeys(gathered.paths))
        transaction.on_commit(lambda: render_showing.enqueue(keys, paths))


def changes_at(keys: Iterable[str], moment: dt.datetime) -> None:
    """What shows ``keys`` will change at ``moment`` (a version scheduled then): once the
    transaction commits, those pages are due then, for the sweep or the next request. Cached
    pages that show them are dropped now: rendered again, they note that moment themselves."""
    keys = sorted(set(keys))
    freshness.changed(keys)
    if not settings.STORED_PAGES_ENABLED:
        return

    def mark() -> None:
        for path in showing(keys):
            store.due(path, moment)

    transaction.on_commit(mark)


def rebuild(paths: Iterable[str]) -> None:
    """The content was replaced whole (a restore): drop the pages at ``paths``, then, once the
    transaction commits, render every address the site has now."""
    freshness.changed([EVERYTHING])
    if not settings.STORED_PAGES_ENABLED:
        return
    for path in paths:
        store.delete(path)
    transaction.on_commit(lambda: render_expired.using(queue_name=PERIODIC_QUEUE).enqueue())


def changed_everywhere() -> None:
    """A change every page shows (lanes, attributes, axes, the site's text)."""
    changed([EVERYTHING])


@task()
def render_due(jobs: int = 0, every_failed: bool = False) -> dict[str, int]:
    """The periodic sweep (every STORED_PAGES_SWEEP_SECONDS): pages whose time has come (a
    scheduled version, a row turning stale at midnight, the whole-site file marked due) or made
    by another release, rendered before a visitor asks; and failed renders, tried again
    (``retries``; with ``every_failed``, all of them at once)."""
    from ..models import StoredPage

    now = timezone.now()
    working = StoredPage.objects.filter(error="")
    due = list(working.filter(until__lte=now).values_list("path", flat=True))
    due += list(working.exclude(release=settings.RELEASE).values_list("path", flat=True))
    tried = list(retries.failing().values_list("path", flat=True)) if every_failed else retries.to_retry(now)
    jobs = jobs or worker_jobs()
    report = render([*due, *tried], jobs=jobs)
    if set(tried) - set(report.failed):  # one worked: the others may work now too
        report.add(render(retries.still_failing(tried), jobs=jobs))
    return report.counts()


@task()
def render_missing(jobs: int = 0) -> dict[str, int]:
    """Addresses the site has that were never stored (a vendor whose scheduled first version
    went live, a store just emptied): every address listed, those without a page rendered."""
    from ..models import StoredPage

    known = set(StoredPage.objects.values_list("path", flat=True))  # a failed one: retries
    return render([path for path in every_path() if path not in known], jobs=jobs or worker_jobs()).counts()


@task()
def render_expired(jobs: int = 0) -> dict[str, int]:
    """Everything a full sweep renders: what is due or failed, then what is missing (``jobs``
    processes at once: see ``render``; 0 for the worker's own, ``worker_jobs``)."""
    due, missing = render_due.call(jobs, True), render_missing.call(jobs)
    return {name: due[name] + missing[name] for name in due}


def export_to(target: Any) -> int:
    """Copy every stored page's bytes into the folder ``target``, laid out as the store is,
    each with its gzip beside it (``copy_page``)."""
    from ..models import StoredPage

    storage = _storage()
    out = AtomicFileSystemStorage(location=target)
    count = 0
    for file in StoredPage.objects.exclude(file="").values_list("file", flat=True).iterator():
        copy_page(storage, out, file)
        count += 1
    return count
