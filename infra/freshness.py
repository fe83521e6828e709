"""What is fresh: the one rule both kinds of kept page obey, stored pages and cached pages.

A page visitors read is kept (stored as a file, infra/stored/, or cached, infra/cache.py)
with the *keys* it showed while it rendered (``infra.stored.shows``: ``vendor-12``,
``lane-3``, ``entries``, ``axes``, and ``site`` on every page). When what visitors see
changes, the app names the keys it touched, once, through ``infra.stored.changed``, which

- renders again the stored pages that show one of them (their index says which), and
- here, gives each key the next number of the site's *change counter* (``changed``), in the
  shared cache, so every app server reads the same numbers.

A cached page keeps the counter's value from when its render began (``count_now``) and is
fresh while no key it shows has a higher number (``fresh``): a change that commits after the
render began has one, a change before it has a lower one. Numbers only grow, so no clock of
any server is trusted. A publish of Groq gives ``vendor-<Groq>`` (and, when its row changed,
its lane's and the lists') a new number; a cached filter of another lane, a search that does
not find Groq and a comparison of two other vendors keep theirs and stay warm.

The counter starts from the clock in milliseconds, so if the cache loses it (an eviction, a
restart) it starts again above every number it gave before. A key the cache does not hold
(never changed, or evicted) is taken as changed when the page being kept began: ``settle``
writes that number only where none is (``add``), so it never hides a change.

Every change also numbers ``ANY_CHANGE``: what depends on everything (the whole-site file, a
page that records nothing it shows) names it, and is dropped at every change, as before keys.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.cache import cache, caches
from django.db import transaction

COUNT_KEY = "changes:count"
AT_KEY = "changes:at"  # when the last change was numbered (time.time() of the server that made it)
# What is built from everything (the whole-site file, a page that says nothing of what it shows):
# every change numbers it. A stored page showing it is due at every change (infra.stored.DEFERRED).
ANY_CHANGE = "dump"


def number_key(key: str) -> str:
    """The cache's key of the change number of the page key ``key``."""
    return f"changed:{key}"


def _start() -> None:
    """The counter, from the clock, where the cache holds none (the first change, or after a loss)."""
    cache.add(COUNT_KEY, int(time.time() * 1000), timeout=None)
    cache.add(AT_KEY, time.time(), timeout=None)


def count_now(found: Mapping[str, object] | None = None) -> int | None:
    """The counter's value now (``found``: what a lookup already read with COUNT_KEY among its
    keys), or None when the cache does not answer (Redis away: nothing is kept then)."""
    value = found.get(COUNT_KEY) if found is not None else cache.get(COUNT_KEY)
    if value is None:
        _start()
        value = cache.get(COUNT_KEY)
    return value if isinstance(value, int) else None


def _number(keys: list[str]) -> None:
    _start()
    try:
        count = cache.incr(COUNT_KEY)
    except ValueError:  # lost between the two calls: counted from the clock again
        _start()
        count = cache.get(COUNT_KEY)
    if not isinstance(count, int):
        return  # the cache is away: nothing is served from it either
    cache.set_many({number_key(key): count for key in keys}, timeout=None)
    cache.set(AT_KEY, time.time(), timeout=None)
    if (layer := getattr(caches["default"], "local", None)) is not None:
        layer.announce_keys(keys)  # every process drops its own copies that show one


def changed(keys: Iterable[str]) -> None:
    """What visitors see has changed for ``keys``: each gets a new number now, and again once
    the transaction commits (a render that began in between read what was there before)."""
    named = sorted({*keys, ANY_CHANGE})
    _number(named)
    transaction.on_commit(lambda: _number(named))


def numbers(keys: Iterable[str], found: Mapping[str, Any] | None = None) -> dict[str, int]:
    """{page key: its change number} for the keys the cache holds a number of, read from
    ``found`` when given (a ``get_many`` answer that asked for their ``number_key``s with
    other entries, in one round trip), else from the cache."""
    keys = list(keys)
    if found is None:
        found = cache.get_many([number_key(key) for key in keys])
    return {key: found[number_key(key)] for key in keys if number_key(key) in found}


def fresh(keys: Iterable[str], started: int, held: Mapping[str, int]) -> bool:
    """Whether a page that began rendering at count ``started`` and shows ``keys`` is still
    true, by the numbers ``held`` ({page key: number}; a key without one is not known fresh)."""
    return all((number := held.get(key)) is not None and number <= started for key in keys)


def settle(keys: Iterable[str], started: int) -> None:
    """Each of ``keys`` without a number gets ``started``: from now on a page kept from a render
    that began then is fresh, and any page kept from before is not."""
    keys = list(keys)
    held = numbers(keys)
    for key in keys:
        if key not in held:
            cache.add(number_key(key), started, timeout=None)


def settled_for(seconds: float, found: Mapping[str, object]) -> bool:
    """Whether the last change was numbered more than ``seconds`` ago (``found`` read AT_KEY):
    long enough for a read replica to have it (infra/replica.py)."""
    at = found.get(AT_KEY)
    return isinstance(at, float) and time.time() - at > seconds
