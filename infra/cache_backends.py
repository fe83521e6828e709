"""A Redis cache that fails open: when Redis is down, reads miss and writes are dropped.

Pages are then served uncached, at database speed, instead of failing. The outage is
logged once when it starts and once when it ends, not on every request.
"""

import logging
import os
import threading
import time
from collections import OrderedDict

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

_down = False
_state = threading.Lock()


def _failed(error):
    global _down
    with _state:
        if not _down:
            log.error("The cache (Redis) is unreachable; serving pages uncached until it is back: %s", error)
        _down = True


def _worked():
    global _down
    if not _down:
        return
    with _state:
        if _down:
            log.warning("The cache (Redis) is back.")
        _down = False


class ReusingRedisCacheClient(RedisCacheClient):
    """Django's client builds a new redis.Redis for every call, and each one builds a table
    of some 170 response callbacks: a third of a cache hit's time. Keep one per pool."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    # Django's RedisCacheClient's own private helpers, which django-stubs does not declare.
    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)  # type: ignore[attr-defined]
        client = self._clients.get(index)
        if client is None:
            pool = self._get_connection_pool(index)  # type: ignore[attr-defined]
            client = self._clients[index] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
        self.local = LocalLayer(self)

    def _guard(self, method, default, *args, **kwargs):
        try:
            result = getattr(super(), method)(*args, **kwargs)
        except Exception as error:  # any connection or timeout error of the client  # noqa: BLE001
            _failed(error)
            return default
        _worked()
        return result

    def ping(self):
        """Ask Redis directly, raising when it does not answer (for /readyz)."""
        self._cache.get_client(write=True).ping()

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

    def count(self, key, timeout, amount=1, version=None):
        """Add ``amount`` to the counter ``key`` and return its new value, in one round trip:
        the counter lives ``timeout`` seconds from its first count. None when Redis is down."""
        key = self.make_and_validate_key(key, version=version)
        try:
            pipe = self._cache.get_client(key, write=True).pipeline(transaction=False)
            pipe.incr(key, amount)
            pipe.expire(key, timeout, nx=True)
            used, _ = pipe.execute()
        except Exception as error:  # noqa: BLE001
            _failed(error)
            return None
        _worked()
        return used

    def has_key(self, key, version=None):
        return self._guard("has_key", False, key, version)

    def clear(self):
        return self._guard("clear", None)

    def touch(self, key, timeout=None, version=None):
        return self._guard("touch", False, key, timeout=timeout, version=version)


CHANNEL = "content-changed"
LOCAL_PAGES = 512  # pages kept in each process
PAGES_PREFIX = b"pages:"  # a message naming stored pages, one address a line: only those are dropped
KEYS_PREFIX = b"keys:"  # a message naming page keys that changed (infra/freshness.py), one a line
STORED = b"stored"  # a render batch ended: every process reads its stored pages again (infra/stored/)


class LocalLayer:
    """Per-process copies of cached pages, so that a warm page costs no round trip to Redis.

    A thread in each process listens on a Redis channel; every server announces there the
    keys each change of what visitors see touched (infra.freshness.changed), and the copies
    that show one of them are dropped on the spot; the others stay. While the listener is
    not subscribed (Redis down or just restarted) nothing is served from here: every request
    asks Redis, as without this layer.

    A message naming stored pages (``announce_pages``) drops only those pages' copies, in
    the hooks ``on_pages`` holds (infra.stored.store's, for each process's copies of the store);
    the end of a render batch (``announce``) drops every copy of a stored page (they are kept
    under ``store_generation``). Any other message drops every copy.
    """

    def __init__(self, backend):
        self.backend = backend
        self.lock = threading.Lock()
        self.generation = 0
        self.store_generation = 0
        self.subscribed = False
        self.pid = None
        self.pages = OrderedDict()
        self.on_pages = []
        # Under the cache's KEY_PREFIX like its keys ("chipsite:content-changed" in production):
        # channels span every database of a Redis, and two sites (or a test run) sharing one
        # must not hear each other's changes.
        self.channel = f"{backend.key_prefix}:{CHANNEL}" if backend.key_prefix else CHANNEL

    def _ensure_listening(self):
        if self.pid != os.getpid():  # a new process (gunicorn forks): listen from here
            with self.lock:
                if self.pid != os.getpid():
                    self.pid, self.subscribed = os.getpid(), False
                    self.pages.clear()
                    threading.Thread(target=self._listen, name="content-changes", daemon=True).start()

    def _listen(self):
        while True:
            try:
                pubsub = self.backend._cache.get_client(write=True).pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(self.channel)
                self.subscribed = True
                for message in pubsub.listen():
                    if message["type"] != "message":
                        continue
                    data = message["data"]
                    if isinstance(data, bytes) and data.startswith(PAGES_PREFIX):
                        paths = data[len(PAGES_PREFIX) :].decode().splitlines()
                        for hook in self.on_pages:
                            hook(paths)
                    elif isinstance(data, bytes) and data.startswith(KEYS_PREFIX):
                        self.drop_showing(set(data[len(KEYS_PREFIX) :].decode().splitlines()))
                    elif data == STORED:
                        self.forget_stored()
                    else:
                        self.forget()
            except Exception as error:  # noqa: BLE001  any client error: fall back, then retry
                _failed(error)
            self.subscribed = False
            self.forget()
            time.sleep(1)

    def forget(self):
        with self.lock:
            self.generation += 1
            self.store_generation += 1
            self.pages.clear()

    def forget_stored(self):
        with self.lock:
            self.store_generation += 1

    def drop_showing(self, keys):
        """Drop the copies of pages that show any of ``keys``; a copy being read from the
        shared cache meanwhile is not kept (the generation moves on)."""
        with self.lock:
            self.generation += 1
            for digest in [d for d, page in self.pages.items() if not keys.isdisjoint(page.keys)]:
                del self.pages[digest]

    def current(self):
        """This process's generation: a copy read from the shared cache is kept only if no
        change was heard since (``keep``). Starts the listener."""
        self._ensure_listening()
        return self.generation

    def page(self, digest):
        if not self.subscribed:
            return None
        return self.pages.get(digest)

    def keep(self, digest, page, generation):
        with self.lock:
            if not self.subscribed or generation != self.generation:
                return
            self.pages[digest] = page
            self.pages.move_to_end(digest)
            while len(self.pages) > LOCAL_PAGES:
                self.pages.popitem(last=False)

    def announce_keys(self, keys):
        """Every process drops its copies of pages that show one of ``keys`` (this one at once)."""
        try:
            message = KEYS_PREFIX + "\n".join(keys).encode()
            self.backend._cache.get_client(write=True).publish(self.channel, message)
        except Exception as error:  # noqa: BLE001
            _failed(error)
        self.drop_showing(set(keys))

    def announce(self):
        """Every process drops its copies of stored pages (this one at once)."""
        try:
            self.backend._cache.get_client(write=True).publish(self.channel, STORED)
        except Exception as error:  # noqa: BLE001
            _failed(error)
        self.forget_stored()

    def announce_pages(self, paths):
        """Every process drops its copies of the stored pages at ``paths``, and nothing else."""
        try:
            self.backend._cache.get_client(write=True).publish(
                self.channel, PAGES_PREFIX + "\n".join(paths).encode()
            )
        except Exception as error:  # noqa: BLE001
            _failed(error)
