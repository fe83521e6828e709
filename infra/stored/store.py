"""Where stored pages are kept: a Django storage (a folder by default, a bucket through
django-storages), laid out as the public site (``files``), with the cache and each process's
own copies in front of it."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache, caches
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.http import HttpResponse
from django.utils import timezone

from .. import purge
from .files import delete_page, file_name, holds_page, meta_name, save_page
from .keys import EVERYTHING, ExpiryReader, _expiry_hooks, own_key

if TYPE_CHECKING:
    from .keys import Shown

# How long the cache and each process keep a page before reading the store again, whatever the
# change channel says: it bounds a copy read at the very moment a render replaced the file.
COPY_SECONDS = 60
STORED_HEADERS = ("content-type", "content-language", "content-disposition", "x-robots-tag", "link")


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

    @cached_property
    def surrogate_headers(self) -> dict[str, str]:
        """The headers a CDN purges this page by: its own key first (what a purge after its
        re-render names), then "site", then what it shows. Made once for each entry a process
        holds, not on every answer: a page of the sitemap or the chips shows thousands of keys."""
        shown = (key for key in self.keys if key != EVERYTHING)
        return purge.surrogate_headers([own_key(self.path), EVERYTHING, *shown])

    def as_json(self) -> bytes:
        return json.dumps(asdict(self), sort_keys=True).encode()

    @classmethod
    def parse(cls, data: bytes) -> Entry:
        values = json.loads(data)
        values["headers"] = [tuple(pair) for pair in values["headers"]]
        return cls(**values)


@dataclass
class _Batch:
    """A render batch's pages (``PageStore.batched``): when pages expire, read once for all of
    them, and what to index and drop once it ends."""

    readers: list[ExpiryReader]
    bulk: bool
    entries: list[Entry] = field(default_factory=list)
    written: list[str] = field(default_factory=list)


_batch: ContextVar[_Batch | None] = ContextVar("stored_pages_batch", default=None)


def _expiry_readers(now: dt.datetime) -> list[ExpiryReader]:
    return [hook(now) for hook in _expiry_hooks]


def _storage() -> Storage:
    return storages["pages"]


def _local_layer() -> Any:
    """With Redis, this process's copies and the change channel (infra.cache_backends)."""
    return getattr(caches["default"], "local", None)


class PageStore:
    """The store, with the cache in front and each process's own copies in front of that.

    A process trusts its copy of a page while Redis's change channel has said nothing of it
    since: each page written names itself there as soon as its file is in place, and each
    render batch announces itself when it ends (``infra.cache_backends.LocalLayer``); without
    Redis, a folder's meta file is checked for a newer modification time, so a worker in
    another process is seen at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.copies: dict[str, tuple[Any, Entry, bytes]] = {}
        self.drops = 0  # pages dropped on the channel's word so far

    def _dropped(self, paths: list[str]) -> None:
        with self.lock:
            self.drops += 1
            for path in paths:
                self.copies.pop(path, None)

    def _stamp(self, path: str) -> Any:
        layer = _local_layer()
        if layer is not None:
            layer.current()  # starts this process's listener
            if self._dropped not in layer.on_pages:
                layer.on_pages.append(self._dropped)
            # Also a new stamp each minute: a copy read in a race with a render lives a minute at most.
            stamp = ("layer", layer.store_generation, int(time.time() // COPY_SECONDS))
            return stamp if layer.subscribed else None
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
        drops = self.drops
        found = self._read_shared(path)
        if found is not None and stamp is not None:
            with self.lock:
                if self.drops == drops:  # else the page dropped meanwhile may be this one: not kept
                    self.copies[path] = (stamp, *found)
        return found

    def _read_shared(self, path: str) -> tuple[Entry, bytes] | None:
        key = _shared_key(path)
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
            if etag_of(body) != entry.etag:  # a file changed under its meta: not ours to serve
                return None
            cache.set(key, (entry.as_json(), body), timeout=COPY_SECONDS)
        return entry, body

    def _read_meta(self, path: str) -> Entry | None:
        """The page's meta alone, as its file says: what a write needs to know of it."""
        try:
            with _storage().open(meta_name(path), "rb") as meta:
                return Entry.parse(meta.read())
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write(self, path: str, response: HttpResponse, shown: Shown) -> Entry:
        current = self._read_meta(path)
        if current is not None and current.rendered_at > shown.started:
            return current  # rendered since this render began (a publish meanwhile): it stands
        body = response.content
        headers = [(name, value) for name, value in response.items() if name.lower() in STORED_HEADERS]
        name = file_name(path, response.get("Content-Type", "text/html"))
        batch = _batch.get()
        until = shown.until
        for reader in batch.readers if batch is not None else _expiry_readers(timezone.now()):
            moment = reader(shown.keys)
            if moment is not None and (until is None or moment < until):
                until = moment
        entry = Entry(
            path=path,
            file=name,
            etag=etag_of(body),
            headers=headers,
            keys=sorted(shown.keys),
            until=until.timestamp() if until else None,
            release=settings.RELEASE,
            rendered_at=time.time(),  # the clock Shown.started reads, whatever timezone.now says
        )
        storage = _storage()
        # The bytes first: a meta never names missing bytes.
        if not holds_page(storage, name, body):
            save_page(storage, name, body, content_type=response.get("Content-Type", "text/html"))
        storage.save(meta_name(path), ContentFile(entry.as_json()))
        if batch is None:
            self.forget(path)
            from ..models import StoredPage

            StoredPage.record_many([entry])
            return entry
        if not batch.bulk:
            self.forget(path)  # named on the channel at once: another server answers it anew
        batch.written.append(path)
        batch.entries.append(entry)
        return entry

    @contextmanager
    def batched(self, *, bulk: bool = False) -> Iterator[None]:
        """Pages written inside are indexed in one transaction as it ends, with when they
        expire read once for all of them; with ``bulk`` (a full render), their copies are
        dropped once at the end too, not page by page."""
        batch = _Batch(readers=_expiry_readers(timezone.now()), bulk=bulk)
        token = _batch.set(batch)
        try:
            yield
        finally:
            _batch.reset(token)
            if batch.bulk and batch.written:
                self.forget_many(batch.written)
            if batch.entries:
                from ..models import StoredPage

                StoredPage.record_many(batch.entries)

    def delete(self, path: str) -> None:
        storage = _storage()
        found = self._read_shared(path)
        if found is not None:
            delete_page(storage, found[0].file)
        storage.delete(meta_name(path))
        self.forget(path)
        from ..models import StoredPage

        StoredPage.objects.filter(path=path).delete()

    def due(self, path: str, moment: dt.datetime) -> None:
        """The page at ``path`` stops being true at ``moment`` (a version scheduled then)."""
        found = self._read_shared(path)
        if found is None or (found[0].until is not None and found[0].until <= moment.timestamp()):
            return
        entry = replace(found[0], until=moment.timestamp())
        _storage().save(meta_name(path), ContentFile(entry.as_json()))
        self.forget(path)
        from ..models import StoredPage

        StoredPage.objects.filter(path=path).update(until=moment)

    def forget(self, path: str) -> None:
        self.forget_many([path])

    def forget_many(self, paths: list[str], *, announce: bool = True) -> None:
        """The cache's and every process's copies of these pages go (the process's own at once,
        the others' on the change channel's word; without ``announce``, the caller's word for
        every page follows instead)."""
        layer = _local_layer()
        for start in range(0, len(paths), 500):
            part = paths[start : start + 500]
            cache.delete_many([_shared_key(path) for path in part])
            with self.lock:
                for path in part:
                    self.copies.pop(path, None)
            if layer is not None and announce:
                layer.announce_pages(part)


store = PageStore()


def _shared_key(path: str) -> str:
    """The shared cache's copy of the page at ``path``."""
    return f"stored:{hashlib.sha256(path.encode()).hexdigest()[:32]}"


def etag_of(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:32]
