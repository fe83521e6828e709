"""Visitors' pages from the cache, each dropped when something it shows changes.

A page rendered on demand (an address with a query string, an any-N comparison: whatever the
page store does not keep, infra/stored/) is kept in the cache with what decides whether it is
still true, by the one rule stored pages follow too (infra/freshness.py):

- the keys it showed while it rendered (``infra.stored.shows``: ``vendor-12``, ``lane-3``...),
  and the change counter's value when its render began: it is served while none of those keys
  has changed since, on every app server (the numbers are in the shared cache, and each
  process's own copies are dropped on Redis's change channel);
- the moment it stops being true by itself: a version scheduled to go live or off, a row
  turning stale (what its render noted, as a stored page's), and midnight at the latest;
- the release of the code that rendered it (a deploy changes it).

The pages are kept and answered by infra/page_cache.py's middleware. Shared reference data
(``cached``) is kept the same way, under the keys it names (by default
``ANY_CHANGE``: dropped at every change). A page that records nothing it shows but the site
itself is taken to show everything, and is dropped at every change.
"""

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache, caches
from django.utils import timezone

from . import freshness
from .freshness import ANY_CHANGE, COUNT_KEY
from .stored.keys import (
    EVERYTHING,
    OWN_KEY_PREFIX,
    Shown,
    _shown,
    expires,
    expiry,
    only_vocabulary,
)

if TYPE_CHECKING:
    from .cache_backends import LocalLayer

log = logging.getLogger(__name__)

SCHEDULE_KEY = "schedule"  # what is scheduled to go live or off (editorial.pages numbers it at each change)


_schedules: list[Callable[[dt.datetime], dt.datetime | None]] = []


def changes_at(hook):
    """Register ``hook(now)``: the moment what visitors see next changes by itself (a version
    scheduled to go live), or None. The cache names no model; the workflow registers its
    schedule in its AppConfig.ready()."""
    if hook not in _schedules:
        _schedules.append(hook)
    return hook


def next_scheduled_change() -> dt.datetime | None:
    """The next moment a scheduled change goes live (or an unpublishing ahead takes a version
    off), read once until the schedule changes or that moment comes, not by every page that
    lists items (editorial.pages.pages_expire)."""

    def compute():
        now = timezone.now()
        moment = min((m for hook in _schedules if (m := hook(now)) is not None), default=None)
        expires(moment)
        return moment.timestamp() if moment else 0.0

    found = cached("next-scheduled-change", compute, keys=(SCHEDULE_KEY,), scheduled=False)
    return dt.datetime.fromtimestamp(found, tz=dt.UTC) if found else None


def everything_changed() -> None:
    """Every page visitors see may have changed (a restore, a bulk load): none is served again."""
    freshness.changed([EVERYTHING])


def _local_layer() -> "LocalLayer | None":
    return getattr(caches["default"], "local", None)


def _midnight_after(now: dt.datetime) -> dt.datetime:
    midnight = timezone.localtime(now).replace(hour=0, minute=0, second=0, microsecond=0)
    return midnight + dt.timedelta(days=1)


@dataclass(frozen=True)
class Kept:
    """A page or a piece of data in the cache, with what decides whether it is still true:
    the release that made it, the change count when it began, the keys it shows and the
    moment it stops being true by itself."""

    release: str
    started: int
    keys: tuple[str, ...]
    until: float
    value: Any

    def timely(self, now: float) -> bool:
        return self.release == settings.RELEASE and now < self.until


def _keys_of(shown: Shown) -> tuple[str, ...]:
    """What a render recorded; one that recorded nothing but what every page reads has not said
    what it shows, and is taken to show everything."""
    keys = set(shown.keys)
    if only_vocabulary(keys - {key for key in keys if key.startswith(OWN_KEY_PREFIX)}):
        keys.add(ANY_CHANGE)
    return tuple(sorted(keys))


def _until(shown: Shown, keys: Iterable[str], now: dt.datetime, *, scheduled: bool = True) -> float:
    """When a render's result stops being true by itself: what it noted, a scheduled version of
    what it shows (the stored pages' own rule), midnight at the latest (stale marks follow the date)."""
    moments = [_midnight_after(now), shown.until, expiry(set(keys), now) if scheduled else None]
    return min(moment for moment in moments if moment is not None).timestamp()


def _kept(started: int, shown: Shown, value: Any, *, scheduled: bool = True) -> Kept:
    keys = _keys_of(shown)
    until = _until(shown, keys, timezone.now(), scheduled=scheduled)
    return Kept(settings.RELEASE, started, keys, until, value)


def _still_true(kept: Any, held: dict[str, int] | None = None) -> bool:
    if not isinstance(kept, Kept) or not kept.timely(timezone.now().timestamp()):
        return False
    return freshness.fresh(kept.keys, kept.started, freshness.numbers(kept.keys) if held is None else held)


BUILD_WAIT_SECONDS = 120  # how long a request waits for another's build (and how long it may hold it)


def cached[T](
    name: str,
    compute: Callable[[], T],
    *,
    keys: Iterable[str] = (ANY_CHANGE,),
    single_flight: bool = False,
    scheduled: bool = True,
) -> T:
    """``compute()``'s result, kept until one of ``keys`` (and whatever ``compute`` records with
    ``shows``) changes or what it noted with ``expires`` comes (shared reference data).

    With ``single_flight`` (a build that takes seconds, like the whole-site data file), a
    request that finds another already computing it waits for that result instead of
    computing it again beside it, for up to BUILD_WAIT_SECONDS. Without ``scheduled``, a
    version scheduled to go live does not end it (what reads the schedule itself).
    """
    if not settings.PAGE_CACHE_ENABLED:
        return compute()
    key = f"data:{settings.RELEASE}:{name}"
    named = (EVERYTHING, *keys)
    found = cache.get_many([key, COUNT_KEY, *(freshness.number_key(k) for k in named)])
    kept = found.get(key)
    if isinstance(kept, Kept):
        # Its numbers were read with it, unless its build recorded keys beyond those named.
        held = None if set(kept.keys) - set(named) else freshness.numbers(named, found)
        if _still_true(kept, held):
            return kept.value
    started = freshness.count_now(found)
    lock = f"{key}:building"
    building = single_flight and cache.add(lock, True, timeout=BUILD_WAIT_SECONDS)
    if single_flight and not building and (waited := _wait_for(key)) is not None:
        return waited.value
    try:
        shown = Shown(keys=set(named))
        token = _shown.set(shown)
        try:
            value = compute()
        finally:
            _shown.reset(token)
        if started is not None:
            kept = _kept(started, shown, value, scheduled=scheduled)
            freshness.settle(kept.keys, started)
            cache.set(key, kept, timeout=settings.PAGE_CACHE_SECONDS)
    finally:
        if building:
            cache.delete(lock)
    return value


def _wait_for(key: str) -> Kept | None:
    """What another request is building under ``key``, once it is there and true (or None)."""
    until = time.monotonic() + BUILD_WAIT_SECONDS
    while time.monotonic() < until:
        time.sleep(0.1)
        kept = cache.get(key)
        if _still_true(kept):
            return kept
        if cache.get(f"{key}:building") is None:
            return None
    return None


EACH_SECONDS = 7 * 24 * 3600  # a week: a version still live is read again long before it goes


def cached_each[K, T](
    name: str, keys: list[K], compute: Callable[[list[K]], dict[K, T]], *, stamp: str = ""
) -> dict[K, T]:
    """{key: what ``compute`` gives for it}, each kept across changes: for what follows
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
