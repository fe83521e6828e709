"""A Redis cache that fails open: when Redis is down, reads miss and writes are dropped.

Pages are then served uncached, at database speed, instead of failing. The outage is
logged once when it starts and once when it ends, not on every request.
"""

import logging

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger("chipsite.cache")

_down = False


def _failed(error):
    global _down
    if not _down:
        log.error("The cache (Redis) is unreachable; serving pages uncached until it is back: %s", error)
    _down = True


def _worked():
    global _down
    if _down:
        log.warning("The cache (Redis) is back.")
    _down = False


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client builds a new redis.Redis for every call, and each one builds a table
    of some 170 response callbacks: a third of a cache hit's time. Keep one per pool."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(index))
        return client


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def _guard(self, method, default, *args, **kwargs):
        try:
            result = getattr(super(), method)(*args, **kwargs)
        except Exception as error:  # any connection or timeout error of the client  # noqa: BLE001
            _failed(error)
            return default
        _worked()
        return result

    def get(self, key, default=None, version=None):
        return self._guard("get", default, key, default, version)

    def get_many(self, keys, version=None):
        return self._guard("get_many", {}, keys, version)

    def set(self, key, value, timeout=None, version=None):  # noqa: A003
        return self._guard("set", None, key, value, timeout=timeout, version=version)

    def add(self, key, value, timeout=None, version=None):
        return self._guard("add", False, key, value, timeout=timeout, version=version)

    def delete(self, key, version=None):
        return self._guard("delete", False, key, version)

    def set_many(self, data, timeout=None, version=None):
        return self._guard("set_many", list(data), data, timeout=timeout, version=version)

    def delete_many(self, keys, version=None):
        return self._guard("delete_many", None, keys, version)

    def incr(self, key, delta=1, version=None):
        return self._guard("incr", None, key, delta, version)

    def has_key(self, key, version=None):
        return self._guard("has_key", False, key, version)

    def clear(self):
        return self._guard("clear", None)

    def touch(self, key, timeout=None, version=None):
        return self._guard("touch", False, key, timeout=timeout, version=version)
