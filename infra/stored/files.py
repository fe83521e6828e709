"""How a stored page lies in a storage: its file name (laid out as the public site, so the
store is also the export nginx can serve), its gzip beside it in a folder, and its meta's name;
each file replaced whole, never rewritten."""

from __future__ import annotations

import hashlib
import os
import secrets
import struct
import tempfile
import zlib
from collections.abc import Callable
from typing import Any

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage
from django.utils.text import compress_string

META_FOLDER = ".meta"
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
# gzip sends for a stored page (infra.compression.PublicGZipMiddleware), and below nginx's
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
