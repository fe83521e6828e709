"""How often one address may do something: a fixed window per address, counted by every app
server together in the shared cache.

Each process counts an address's requests itself and adds them to the shared count in
batches: at most an eighth of what the address has left in the window (and at most
``BATCH_AT_MOST``), so an address far below its limit costs no round trip to Redis on most
requests, and one near it is counted on every request. With up to eight app processes the
unsent counts together stay within what was left, so the limit holds to within a few
requests; within one process it holds exactly. An address over its limit is refused by each
process from what it knows, without asking Redis again until the window ends.
"""

import ipaddress
import math
import threading
import time

from django.core.cache import cache

from .client import client_ip

BATCH_AT_MOST = 64  # requests a process counts before it tells the shared count, at most
HEADROOM_SHARE = 8  # ... and at most this share of what the address has left


class LocalCounts:
    """One process's counts: {key: [shared count when last sent, counted here since]}."""

    def __init__(self):
        self.lock = threading.Lock()
        self.windows = {}

    def count(self, key, *, limit, started, timeout):
        """The address's requests in this window, this one included, as far as this process knows."""
        with self.lock:
            state = self.windows.get(key)
            if state is None:
                self._forget_before(started)
                state = self.windows[key] = [0, 0]
            state[1] += 1
            shared, unsent = state
            over = shared > limit  # refused until the window ends: nothing more to tell
            batch = min(BATCH_AT_MOST, max(1, (limit - shared - unsent) // HEADROOM_SHARE))
            if over or unsent < batch:
                return shared + unsent
            state[1] = 0
        total = add_to_shared_count(key, unsent, timeout=timeout)
        with self.lock:
            # Redis away (None): this process goes on counting on its own.
            state[0] = total if total is not None else shared + unsent
            return state[0] + state[1]

    def clear(self):
        with self.lock:
            self.windows.clear()

    def _forget_before(self, started):
        for key in [k for k in self.windows if int(k.rsplit(":", 1)[1]) < started]:
            del self.windows[key]


LOCAL = LocalCounts()  # this process's


def wait_seconds(request, *, scope, limit, window, counts=None):
    """Seconds this address must wait because it has done ``scope`` ``limit`` times in the
    current ``window`` seconds; 0 when it may go on (and this time is counted)."""
    now = time.time()
    started = int(now // window) * window
    key = f"rate:{scope}:{_counted_as(client_ip(request))}:{started}"
    used = (counts or LOCAL).count(key, limit=limit, started=started, timeout=window + 1)
    if used <= limit:
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
