"""Purging the CDN in front by surrogate key, when stored pages are rendered again.

Each stored page is tagged with surrogate keys (``vendor-12``, ``lane-3``, ``axes``, ``site``;
a key never holds a space). Its response names them in two headers (``surrogate_headers``):
Fastly reads ``Surrogate-Key``, Cloudflare ``Cache-Tag``, and a Varnish with the xkey vmod can be
told to read either. When pages are rendered again, ``purge_keys(keys)`` asks the configured
purger (``CDN_PURGER``) to drop every cached copy carrying any of those keys:

- ``none`` (the default): nothing is sent;
- ``fastly``: ``FastlyPurger``, Fastly's batch purge by surrogate key;
- ``cloudflare``: ``CloudflarePurger``, Cloudflare's purge by cache tag;
- ``http``: ``HttpPurgePurger``, a ``PURGE`` request to a Varnish or nginx cache of our own.

A purge that fails (a status other than 2xx, a refused connection, no answer within
``CDN_PURGE_TIMEOUT``) is tried once more, then logged in one warning line naming the purger,
what went wrong and how many keys were left unpurged; it never raises into the caller. The
pages are already fresh at the origin, and the ``max-age`` of ``Cache-Control`` bounds how long
the CDN may go on serving its old copy. The token is never logged.
"""

import logging
from collections.abc import Iterable, Iterator
from typing import Protocol

import httpx
from django.conf import settings

log = logging.getLogger(__name__)

# Fastly caps its Surrogate-Key header at 16,384 bytes and Cloudflare the Cache-Tag headers of
# one response at 16 KB in all: a page names no more keys than fit in both.
HEADER_MAX_BYTES = 16 * 1024

FASTLY_API = "https://api.fastly.com"
CLOUDFLARE_API = "https://api.cloudflare.com"


def unique_keys(keys: Iterable[str]) -> list[str]:
    """The keys without blanks or repeats, in the order given."""
    return list(dict.fromkeys(key.strip() for key in keys if key and key.strip()))


def _joined_bytes(keys: list[str]) -> int:
    """The length of the keys joined by one separator (a space or a comma)."""
    return sum(len(key.encode()) for key in keys) + max(len(keys) - 1, 0)


def chunks(keys: list[str], *, max_keys: int, max_bytes: int) -> Iterator[list[str]]:
    """The keys in runs of at most ``max_keys`` whose joined length is at most ``max_bytes``."""
    run: list[str] = []
    for key in keys:
        if run and (len(run) == max_keys or _joined_bytes([*run, key]) > max_bytes):
            yield run
            run = []
        run.append(key)
    if run:
        yield run


def surrogate_headers(keys: Iterable[str]) -> dict[str, str]:
    """The headers that tag a response with its surrogate keys:
    ``{"Surrogate-Key": "k1 k2", "Cache-Tag": "k1,k2"}`` (Fastly reads the first, Cloudflare the
    second); no keys, no headers.

    Blank and repeated keys are left out. Both CDNs cap the header at 16 KB
    (``HEADER_MAX_BYTES``): keys are kept in the order given until the next one would pass the
    cap, and the rest are dropped, so callers name the keys a purge must never miss (the page's
    own, ``site``) first. A page is not purged by a key it dropped; it still expires at its
    max-age.
    """
    kept: list[str] = []
    size = 0
    for key in unique_keys(keys):
        grown = size + len(key.encode()) + (1 if kept else 0)
        if grown > HEADER_MAX_BYTES:
            break
        kept.append(key)
        size = grown
    if not kept:
        return {}
    return {"Surrogate-Key": " ".join(kept), "Cache-Tag": ",".join(kept)}


class Purger(Protocol):
    name: str

    def purge(self, keys: list[str]) -> None: ...


class HttpPurger:
    """What the three purgers share: the keys in chunks, one request per chunk, each tried
    twice at most. A chunk that fails twice ends the purge (the CDN is not answering: the rest
    would fail too, each after its own timeout) with one warning line for all unpurged keys."""

    name = "http"
    max_keys = 256
    max_bytes = HEADER_MAX_BYTES

    def __init__(self, *, timeout: float = 5.0) -> None:
        self.timeout = timeout

    def request(self, client: httpx.Client, keys: list[str]) -> httpx.Request:
        raise NotImplementedError

    def purge(self, keys: list[str]) -> None:
        keys = unique_keys(keys)
        if not keys:
            return
        sent = 0
        with httpx.Client(timeout=self.timeout, trust_env=False) as client:
            for run in chunks(keys, max_keys=self.max_keys, max_bytes=self.max_bytes):
                failure = self._send(client, run)
                if failure:  # once more: a CDN's API fails now and then for a moment
                    failure = self._send(client, run)
                if failure:
                    log.warning(
                        "CDN purge failed: %s purger, %s (tried twice), %d of %d keys not purged;"
                        " those pages refresh when their max-age runs out",
                        self.name,
                        failure,
                        len(keys) - sent,
                        len(keys),
                    )
                    return
                sent += len(run)

    def _send(self, client: httpx.Client, keys: list[str]) -> str:
        """Send one chunk: "" when the CDN took it, else what went wrong, in words that hold
        no header (the token is in one)."""
        try:
            response = client.send(self.request(client, keys))
        except httpx.TimeoutException:
            return f"no answer within {self.timeout:g} s"
        except httpx.HTTPError as exc:
            return f"request failed ({type(exc).__name__})"
        if response.is_success:
            return ""
        return f"status {response.status_code}"


class FastlyPurger(HttpPurger):
    """Fastly's batch purge: ``POST {base}/service/{service_id}/purge`` with the keys in the
    ``Surrogate-Key`` header, at most 256 to a request. A soft purge marks the copies stale
    (Fastly may still serve them while it fetches anew, or when the origin fails) rather than
    dropping them."""

    name = "fastly"
    max_keys = 256

    def __init__(
        self,
        *,
        token: str,
        service_id: str,
        base_url: str = FASTLY_API,
        soft: bool = False,
        timeout: float = 5.0,
    ) -> None:
        super().__init__(timeout=timeout)
        self.token = token
        self.service_id = service_id
        self.base_url = base_url.rstrip("/")
        self.soft = soft

    def request(self, client: httpx.Client, keys: list[str]) -> httpx.Request:
        headers = {"Fastly-Key": self.token, "Surrogate-Key": " ".join(keys), "Accept": "application/json"}
        if self.soft:
            headers["Fastly-Soft-Purge"] = "1"
        return client.build_request(
            "POST", f"{self.base_url}/service/{self.service_id}/purge", headers=headers
        )


class CloudflarePurger(HttpPurger):
    """Cloudflare's purge by cache tag: ``POST {base}/client/v4/zones/{zone_id}/purge_cache``
    with ``{"tags": [...]}``, at most 30 tags to a request (most plans' limit)."""

    name = "cloudflare"
    max_keys = 30

    def __init__(
        self,
        *,
        token: str,
        zone_id: str,
        base_url: str = CLOUDFLARE_API,
        timeout: float = 5.0,
    ) -> None:
        super().__init__(timeout=timeout)
        self.token = token
        self.zone_id = zone_id
        self.base_url = base_url.rstrip("/")

    def request(self, client: httpx.Client, keys: list[str]) -> httpx.Request:
        return client.build_request(
            "POST",
            f"{self.base_url}/client/v4/zones/{self.zone_id}/purge_cache",
            headers={"Authorization": f"Bearer {self.token}"},
            json={"tags": keys},
        )


class HttpPurgePurger(HttpPurger):
    """A cache of our own (Varnish with the xkey vmod, nginx): ``PURGE {url}`` with the keys,
    space-separated, in one header (``xkey`` unless told otherwise), at most 256 keys and 8 KB
    to a request (Varnish's default limit on one request header). With a token, it is sent as
    ``Authorization: Bearer``."""

    name = "http"
    max_keys = 256
    max_bytes = 8 * 1024

    def __init__(self, *, url: str, header: str = "xkey", token: str = "", timeout: float = 5.0) -> None:
        super().__init__(timeout=timeout)
        self.url = url
        self.header = header
        self.token = token

    def request(self, client: httpx.Client, keys: list[str]) -> httpx.Request:
        headers = {self.header: " ".join(keys)}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        return client.build_request("PURGE", self.url, headers=headers)


PURGERS = ("none", "fastly", "cloudflare", "http")


def configured_purger() -> Purger | None:
    """The purger ``CDN_PURGER`` names, built from the settings; None for ``none``."""
    name = settings.CDN_PURGER
    timeout = settings.CDN_PURGE_TIMEOUT
    base = settings.CDN_PURGE_URL
    token = settings.CDN_PURGE_TOKEN
    if name == "fastly":
        return FastlyPurger(
            token=token,
            service_id=settings.CDN_FASTLY_SERVICE_ID,
            soft=settings.CDN_FASTLY_SOFT_PURGE,
            timeout=timeout,
            base_url=base or FASTLY_API,
        )
    if name == "cloudflare":
        return CloudflarePurger(
            token=token,
            zone_id=settings.CDN_CLOUDFLARE_ZONE_ID,
            timeout=timeout,
            base_url=base or CLOUDFLARE_API,
        )
    if name == "http":
        return HttpPurgePurger(url=base, header=settings.CDN_PURGE_HEADER, token=token, timeout=timeout)
    return None


def purge_keys(keys: Iterable[str]) -> None:
    """Ask the configured CDN to drop every copy tagged with any of these keys. Never raises:
    a failure is one warning line (see the module's docstring)."""
    keys = unique_keys(keys)
    if not keys or settings.CDN_PURGER == "none":
        return
    purger = configured_purger()
    if purger is None:
        log.warning("CDN purge skipped: CDN_PURGER %r is not one of %s", settings.CDN_PURGER, PURGERS)
        return
    try:
        purger.purge(keys)
    except Exception as exc:  # the pages are fresh at the origin: a purge never fails a publish
        log.warning(
            "CDN purge failed: %s purger, %s, %d keys not purged", purger.name, type(exc).__name__, len(keys)
        )
