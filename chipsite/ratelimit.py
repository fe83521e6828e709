"""How often one address may do something: a fixed window per address in the shared cache."""

import math
import time

from django.core.cache import cache

from .auth import client_ip


def wait_seconds(request, *, scope, limit, window):
    """Seconds this address must wait because it has done ``scope`` ``limit`` times in the
    current ``window`` seconds; 0 when it may go on (and this time is counted).

    Every app server counts together, in the shared cache. If the cache is down (the Redis
    backend fails open), nobody is limited.
    """
    now = time.time()
    started = int(now // window) * window
    key = f"rate:{scope}:{client_ip(request)}:{started}"
    cache.add(key, 0, timeout=window + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # the entry expired between add() and incr()
        return 0
    if used is None or used <= limit:
        return 0
    return max(1, math.ceil(started + window - now))
