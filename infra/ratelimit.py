"""How often one address may do something: a fixed window per address in the shared cache."""

import ipaddress
import math
import time

from django.core.cache import cache

from .client import client_ip


def wait_seconds(request, *, scope, limit, window):
    """Seconds this address must wait because it has done ``scope`` ``limit`` times in the
    current ``window`` seconds; 0 when it may go on (and this time is counted).

    Every app server counts together, in the shared cache. If the cache is down (the Redis
    backend fails open), nobody is limited.
    """
    now = time.time()
    started = int(now // window) * window
    key = f"rate:{scope}:{_counted_as(client_ip(request))}:{started}"
    if hasattr(cache, "count"):  # Redis (infra/cache_backends.py): one round trip per request
        used = cache.count(key, timeout=window + 1)
    else:
        cache.add(key, 0, timeout=window + 1)
        try:
            used = cache.incr(key)
        except ValueError:  # the entry expired between add() and incr()
            return 0
    if used is None or used <= limit:
        return 0
    return max(1, math.ceil(started + window - now))


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
