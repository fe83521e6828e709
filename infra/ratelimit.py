"""How often one address may do something: a fixed window per address, counted by every app
server together in the shared cache.

Each process counts an address's requests itself and adds them to the shared count in
batches: at most an eighth of what the address has left in the window (and at most
``BATCH_AT_MOST``), so an address far below its limit costs no round trip to Redis on most
requests, and one near it is counted on every request. With up to eight app processes the
unsent counts together stay within what was left, so the limit holds to within a few
requests; within one process it holds exactly. An address over its limit is refused by each
process from what it knows, without asking Redis again until the window ends.

When Redis does not answer, the limit does not lapse: each process goes on counting alone and
allows an address its share of the limit, ``limit / processes()`` rounded up, so that the app
servers' processes together allow about the limit (an address whose requests all reach one
process gets that process's share). The fallback is logged once when Redis goes and once when
it answers again; /readyz says "degraded" meanwhile (infra/health.py).
"""

import ipaddress
import logging
import math
import os
import threading
import time

from django.core.cache import cache

from .client import client_ip

log = logging.getLogger(__name__)

BATCH_AT_MOST = 64  # requests a process counts before it tells the shared count, at most
HEADROOM_SHARE = 8  # ... and at most this share of what the address has left
# App processes an address's requests are spread over when each must count alone: the
# Procfile's gunicorn --workers, unless WEB_CONCURRENCY (gunicorn's own default) says otherwise.
PROCFILE_WORKERS = 3


def processes() -> int:
    """How many app processes share the limit while Redis is away."""
    try:
        return max(1, int(os.environ.get("WEB_CONCURRENCY") or PROCFILE_WORKERS))
    except ValueError:
        return PROCFILE_WORKERS


class Window:
    """One address's count in one window, as this process knows it."""

    __slots__ = ("alone", "shared", "unsent")

    def __init__(self, *, alone: bool = False) -> None:
        self.shared = 0  # the shared count when last told
        self.unsent = 0  # counted here since
        self.alone = alone  # the shared count did not answer: this process counts on its own


class LocalCounts:
    """One process's counts: {key: Window}, only the current windows' (older ones are dropped
    when a new window starts), and whether Redis answered when last asked."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.windows: dict[str, Window] = {}
        self.alone_since: float | None = None  # when Redis stopped answering, if it has

    def count(self, key: str, *, limit: int, started: int, timeout: int) -> tuple[int, int]:
        """The address's requests in this window, this one included, as far as this process
        knows, and what it may make: ``limit``, or this process's share of it while Redis
        is away."""
        with self.lock:
            state = self.windows.get(key)
            if state is None:
                self._forget_before(started)
                # A window that starts during an outage is counted alone from its first request.
                state = self.windows[key] = Window(alone=self.alone_since is not None)
            state.unsent += 1
            shared, unsent = state.shared, state.unsent
            allowed = share(limit) if state.alone else limit
            over = shared > allowed  # refused until the window ends: nothing more to tell
            batch = min(BATCH_AT_MOST, max(1, (allowed - shared - unsent) // HEADROOM_SHARE))
            if over or unsent < batch:
                return shared + unsent, allowed
            state.unsent = 0
        total = add_to_shared_count(key, unsent, timeout=timeout)
        with self.lock:
            self._note_answer(answered=total is not None, limit=limit)
            if total is None:  # Redis away: from now on this process counts on its own
                state.shared, state.alone = shared + unsent, True
            else:  # answered (again): the shared count, never below what this process counted
                state.shared, state.alone = max(total, shared + unsent), False
            allowed = share(limit) if state.alone else limit
            return state.shared + state.unsent, allowed

    def _note_answer(self, *, answered: bool, limit: int) -> None:
        """Log when Redis stops answering and when it answers again: once each, not per request."""
        if not answered and self.alone_since is None:
            self.alone_since = time.monotonic()
            log.error(
                "The rate limits' shared count (Redis) does not answer; until it is back, each "
                "process allows an address its share of a limit (1/%d: %d of %d for this one).",
                processes(),
                share(limit),
                limit,
            )
        elif answered and self.alone_since is not None:
            log.warning(
                "The rate limits' shared count (Redis) answers again after %.0f s.",
                time.monotonic() - self.alone_since,
            )
            self.alone_since = None

    def clear(self) -> None:
        with self.lock:
            self.windows.clear()
            self.alone_since = None

    def _forget_before(self, started: int) -> None:
        for key in [k for k in self.windows if int(k.rsplit(":", 1)[1]) < started]:
            del self.windows[key]


LOCAL = LocalCounts()  # this process's


def share(limit: int) -> int:
    """What one process allows an address while Redis is away: its part of ``limit``, rounded up."""
    return math.ceil(limit / processes())


def counting_alone() -> bool:
    """Whether this process's rate limits count on their own because Redis did not answer."""
    return LOCAL.alone_since is not None


def wait_seconds(request, *, scope, limit, window, counts=None):
    """Seconds this address must wait because it has done ``scope`` ``limit`` times in the
    current ``window`` seconds; 0 when it may go on (and this time is counted)."""
    now = time.time()
    started = int(now // window) * window
    key = f"rate:{scope}:{_counted_as(client_ip(request))}:{started}"
    used, allowed = (counts or LOCAL).count(key, limit=limit, started=started, timeout=window + 1)
    if used <= allowed:
        return 0
    return max(1, math.ceil(started + window - now))


def add_to_shared_count(key, amount, *, timeout):
    """Add ``amount`` to the shared count under ``key`` (kept ``timeout`` seconds from its first
    count) and return the new total; None when the cache is away."""
    if hasattr(cache, "count"):  # Redis (infra/cache_backends.py): one round trip
        return cache.count(key, timeout=timeout, amount=amount)
    cache.add(key, 0, timeout=timeout)
    try:
        return cache.incr(key, amount)
    except ValueError:  # the entry expired between add() and incr()
        return amount


def _counted_as(address):
    """An IPv4 address itself; an IPv6 one by its /64, the block one subscriber is given, so
    that rotating through it does not reset the count."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))
