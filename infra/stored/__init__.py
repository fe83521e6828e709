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
  lists it, with its next try) and logged once, and the sweep tries it again until it works
  (``retries``). A render task whose worker was killed runs again (infra/leases.py). Files are
  written to a temporary name and renamed into place.
- When the database is away, the request that would render again answers 503: the stored
  bytes are sent instead, ``Cache-Control: stale-if-error``. A stored page that is still true
  is served without the database at all.

Infra names no app: the apps register the addresses they store (``store_url_names``), how to
list every stored address (``register_paths``) and when pages expire (``register_expiry``).
"""

from .files import AtomicFileSystemStorage, file_name, meta_name, save_page
from .keys import (
    DEFERRED,
    EVERYTHING,
    Shown,
    every_path,
    expires,
    is_stored_address,
    item_paths,
    recorded_in,
    recording,
    register_expiry,
    register_item_paths,
    register_paths,
    register_vocabulary,
    shows,
    store_url_names,
    unrecorded,
)
from .middleware import RENDER_FLAG, StoredAnswerMiddleware, StoredPageMiddleware, has_worker, site_host
from .rendering import (
    JOBS_HELP,
    changed,
    changed_everywhere,
    changes_at,
    changes_gathered,
    export_to,
    rebuild,
    render,
    render_due,
    render_expired,
    render_missing,
    render_showing,
    showing,
)
from .store import Entry, PageStore, store

__all__ = [
    "DEFERRED",
    "EVERYTHING",
    "JOBS_HELP",
    "RENDER_FLAG",
    "AtomicFileSystemStorage",
    "Entry",
    "PageStore",
    "Shown",
    "StoredAnswerMiddleware",
    "StoredPageMiddleware",
    "changed",
    "changed_everywhere",
    "changes_at",
    "changes_gathered",
    "every_path",
    "expires",
    "export_to",
    "file_name",
    "has_worker",
    "is_stored_address",
    "item_paths",
    "meta_name",
    "recorded_in",
    "recording",
    "register_expiry",
    "register_item_paths",
    "register_paths",
    "register_vocabulary",
    "rebuild",
    "render",
    "render_due",
    "render_expired",
    "render_missing",
    "render_showing",
    "save_page",
    "shows",
    "showing",
    "site_host",
    "store",
    "store_url_names",
    "unrecorded",
]
