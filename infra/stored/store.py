"""Where stored pages are kept: a Django storage (a folder by default, a bucket through
django-storages), laid out as the public site, with the cache and each process's own copies
in front of it."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import secrets
import struct
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Iterator
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
from django.utils.text import compress_string

from .. import purge
from .keys import EVERYTHING, ExpiryReader, _expiry_hooks, own_key

if TYPE_CHECKING:
    from .keys import Shown

META_FOLDER = ".meta"
# How long the cache and each process keep a page before reading the store again, whatever the
# change channel says: it bounds a copy read at the very moment a render replaced the file.
COPY_SECONDS = 60
STORED_HEADERS = ("content-type", "content-language", "content-disposition", "x-robots-tag", "link")
SUFFIXES = {
    "text/html": "index.html",
    "application/atom+xml": "index.xml",
    "application/rss+xml": "index.xml",
    "application/xml": "index.xml",
    "text/xml": "index.xml",
    "application/json": "index.json",
}
# Beside each page in a folder, its gzip, for nginx's gzip_static to send a browser that asks
# (infra/nginx/chipsite.conf.template), with nothing compressed per request: the bytes Django's
# gzip sends for a stored page (infra.cache.PublicGZipMiddleware), and below nginx's
# gzip_min_length none.
GZIP_SUFFIX = ".gz"
GZIP_MIN_BYTES = 256


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

    def link(self, name: str, source: str, *, keep: Callable[[bytes], bool] | None = None) -> bool:
        """``name`` becomes a hard link to the file ``source`` (made under a temporary name,
        then renamed into place), if ``keep`` approves its bytes. False, and nothing changed,
        where there is no such file, it is on another file system, or ``keep`` refuses it.
        Safe for a file of a store of this kind: such a file is replaced, never rewritten, so
        the link keeps the bytes it was made with."""
        full = self.path(name)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        temporary = os.path.join(os.path.dirname(full), f".tmp-{secrets.token_hex(8)}")
        try:
            os.link(source, temporary)
        except OSError:
            return False
        try:
            if keep is not None:
                with open(temporary, "rb") as linked:
                    if not keep(linked.read()):
                        return False
            os.replace(temporary, full)
            return True
        finally:
            if os.path.lexists(temporary):
                os.unlink(temporary)


def file_name(path: str, content_type: str) -> str:
    """Where the page at ``path`` lives in the store and the export: ``/vendors/x/`` is
    ``vendors/x/index.html`` (``index.xml`` for a feed, ``index.json`` for an API answer);
    an address with a name of its own (``/sitemap.xml``, ``/data/rankings.csv``) is that name."""
    name = path.lstrip("/")
    if name == "" or name.endswith("/"):
        mime = content_type.split(";")[0].strip().lower()
        name += SUFFIXES.get(mime, "index.html")
    return name


def keeps_gzips(storage: Storage) -> bool:
    """Whether pages in ``storage`` have their gzip beside them: in a folder, for nginx; a
    bucket's CDN compresses for itself."""
    return isinstance(storage, FileSystemStorage)


def worth_a_gzip(body: bytes) -> bool:
    return len(body) >= GZIP_MIN_BYTES


def save_page(
    storage: Storage, name: str, body: bytes, *, content_type: str = "", gzipped: bytes | None = None
) -> None:
    """The page's bytes under ``name``, and in a folder its gzip beside them (``gzipped``, or
    compressed here). The old gzip goes first and the new one follows the page, so that whenever
    a worker stops (killed, a full disk) the gzip beside a page is that page's or there is none,
    and nginx compresses the page itself."""
    folder = keeps_gzips(storage)
    if folder:
        storage.delete(name + GZIP_SUFFIX)
    page = ContentFile(body)
    if content_type:
        # A bucket keeps a type with each object and answers with it (a CDN or a static website
        # serving the bucket as the export): the one the server sends, not a guess from the name.
        page.content_type = content_type  # type: ignore[attr-defined]
    storage.save(name, page)
    if folder and worth_a_gzip(body):
        storage.save(name + GZIP_SUFFIX, ContentFile(gzipped or compress_string(body)))


def copy_page(source: Storage, out: AtomicFileSystemStorage, name: str) -> None:
    """The page ``name`` and its gzip, from the store ``source`` into the folder ``out``, in the
    order ``save_page`` keeps. Where both are folders on one file system, as hard links: a file
    is then a directory entry, not a new file (about an eighth of the time on ext4); a gzip is
    linked only if it holds the page linked, else made anew."""
    out.delete(name + GZIP_SUFFIX)
    if not (isinstance(source, AtomicFileSystemStorage) and out.link(name, source.path(name))):
        with source.open(name, "rb") as page:
            body = page.read()
        save_page(out, name, body, gzipped=gzip_beside(source, name, body))
        return
    with out.open(name, "rb") as page:
        body = page.read()  # the linked bytes: a render in the store since cannot change them
    if not worth_a_gzip(body):
        return
    if not out.link(name + GZIP_SUFFIX, source.path(name + GZIP_SUFFIX), keep=lambda gz: holds(gz, body)):
        out.save(name + GZIP_SUFFIX, ContentFile(compress_string(body)))


def holds(gzipped: bytes, body: bytes) -> bool:
    """Whether a gzip holds ``body``: its last eight bytes are the CRC-32 and the length of what it holds."""
    return gzipped[-8:] == struct.pack("<II", zlib.crc32(body), len(body) % 2**32)


def gzip_beside(storage: Storage, name: str, body: bytes) -> bytes | None:
    """The gzip kept beside the page ``name`` in a folder, if it holds ``body``: a render may
    have replaced both since ``body`` was read."""
    if not keeps_gzips(storage):
        return None
    try:
        with storage.open(name + GZIP_SUFFIX, "rb") as beside:
            gzipped = beside.read()
    except OSError:
        return None
    return gzipped if holds(gzipped, body) else None


def holds_page(storage: Storage, name: str, body: bytes) -> bool:
    """Whether a folder holds ``body`` under ``name`` already, with its gzip beside it where one
    is due: then a render that changed nothing writes neither again. Making the gzip is most of
    what saving a page costs (about 5 ms for a profile of 95 KB here, against a quarter of a
    millisecond to read both and compare). A bucket is written whatever it holds: reading an
    object is a request, as writing it is."""
    if not keeps_gzips(storage):
        return False
    try:
        with storage.open(name, "rb") as page:
            if page.read() != body:
                return False
    except OSError:
        return False
    return not worth_a_gzip(body) or gzip_beside(storage, name, body) is not None


def delete_page(storage: Storage, name: str) -> None:
    storage.delete(name)
    if keeps_gzips(storage):
        storage.delete(name + GZIP_SUFFIX)


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
            return ("layer", layer.generation, int(time.time() // COPY_SECONDS)) if layer.subscribed else None
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
