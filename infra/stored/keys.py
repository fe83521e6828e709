"""What a stored page shows (its keys, recorded while it renders), and what the apps register:
the addresses they store, how to list them all, and when a page changes by itself."""

from __future__ import annotations

import contextlib
import contextvars
import datetime as dt
import functools
import hashlib
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import Resolver404, resolve

from ..freshness import ANY_CHANGE

EVERYTHING = "site"  # the key every stored page shows: lanes, attributes, axes, the site's text
# A page built from everything (the whole-site file, /data/): a change marks it due, and with a
# worker, the worker's sweep builds it again; until then its previous bytes are served.
DEFERRED = ANY_CHANGE


_shown: contextvars.ContextVar[Shown | None] = contextvars.ContextVar("stored_page_shown", default=None)


@dataclass
class Shown:
    """What one render read: its keys and the first moment it stops being true by itself."""

    keys: set[str] = field(default_factory=lambda: {EVERYTHING})
    until: dt.datetime | None = None
    started: float = field(default_factory=time.time)  # a newer render's page is never overwritten


OWN_KEY_PREFIX = "page-"


def own_key(path: str) -> str:
    """The key of the one page at ``path`` (``page-…``): what a CDN is asked to purge when that
    page's bytes change, so a purge drops exactly the pages rendered anew."""
    return f"{OWN_KEY_PREFIX}{hashlib.sha256(path.encode()).hexdigest()[:16]}"


def recording() -> bool:
    """Whether a stored page is being rendered now (what it reads is worth noting)."""
    return _shown.get() is not None


def shows(*keys: str) -> None:
    """The page being rendered shows these (``vendor-12``, ``lane-3``, ``entries``...)."""
    shown = _shown.get()
    if shown is not None:
        shown.keys.update(keys)


@contextlib.contextmanager
def unrecorded() -> Iterator[None]:
    """What is read inside is not noted on the page being rendered: for shared data its caller
    records precisely (a cached list whose first build reads more than any page shows of it)."""
    token = _shown.set(None)
    try:
        yield
    finally:
        _shown.reset(token)


@contextlib.contextmanager
def recorded_in(shown: Shown) -> Iterator[Shown]:
    """What is read inside is noted in ``shown`` (a part kept on its own: a row, infra/rows/)."""
    token = _shown.set(shown)
    try:
        yield shown
    finally:
        _shown.reset(token)


def expires(moment: dt.datetime | None) -> None:
    """The page being rendered stops being true at ``moment`` (a row turns stale then)."""
    shown = _shown.get()
    if shown is not None and moment is not None and (shown.until is None or moment < shown.until):
        shown.until = moment


_url_names: set[str] = set()
_vocabulary: set[str] = {EVERYTHING}


def register_vocabulary(*keys: str) -> None:
    """Keys of what nearly every page reads beside its content (the axes' names, the site's
    text): a page that records nothing else has not said what it shows (infra/cache.py)."""
    _vocabulary.update(keys)


def only_vocabulary(keys: set[str]) -> bool:
    return keys <= _vocabulary


_path_lists: list[Callable[[], Iterable[str]]] = []
type ExpiryReader = Callable[[set[str]], dt.datetime | None]
_expiry_hooks: list[Callable[[dt.datetime], ExpiryReader]] = []
_item_paths: dict[str, list[Callable[[Any], Iterable[str]]]] = {}


def store_url_names(*names: str) -> None:
    """Responses of these URL names (``vendors:detail``) are stored, when asked without a query."""
    _url_names.update(names)
    _remembered.cache_clear()


def register_paths(source: Callable[[], Iterable[str]]) -> None:
    """``source()`` lists every stored address an app has now (for a full render and the export)."""
    if source not in _path_lists:
        _path_lists.append(source)


def register_expiry(hook: Callable[[dt.datetime], ExpiryReader]) -> None:
    """``hook(now)(keys)``: when a page showing ``keys`` changes by itself (a scheduled version).
    ``hook(now)`` is called once for a render batch, so what it reads it reads once for all its pages."""
    if hook not in _expiry_hooks:
        _expiry_hooks.append(hook)


def expiry(keys: set[str], now: dt.datetime) -> dt.datetime | None:
    """When a page showing ``keys``, made at ``now``, changes by itself (the registered hooks'
    earliest answer): for one page; a render batch reads the hooks once (``store.batched``)."""
    moments = [moment for hook in _expiry_hooks if (moment := hook(now)(keys)) is not None]
    return min(moments, default=None)


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
    """Whether the page at ``path`` is one the store keeps (a URL name registered): asked on every
    visitor's request, so each process remembers its answers for addresses of a usual length
    (the URLconf never changes)."""
    return _remembered(path) if len(path) <= REMEMBERED_LENGTH else _resolves_to_stored(path)


REMEMBERED_LENGTH = 200


def _resolves_to_stored(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.view_name in _url_names


_remembered = functools.lru_cache(maxsize=4096)(_resolves_to_stored)
