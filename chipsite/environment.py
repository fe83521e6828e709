"""Reading and checking the environment for chipsite/settings.py.

The settings name every variable they read; these helpers parse a value and refuse to start
(ImproperlyConfigured) on one that production must not run with.
"""

import ipaddress
import os
from collections.abc import Collection, Mapping
from pathlib import Path

import dj_database_url
from dj_database_url import DBConfig
from django.core.exceptions import ImproperlyConfigured

DEVELOPMENT_SECRET_KEY = "insecure-development-key-never-use-in-production"

# What each CDN purger (infra/purge.py) needs set beside CDN_PURGER.
CDN_PURGER_NEEDS: dict[str, list[str]] = {
    "none": [],
    "fastly": ["CDN_PURGE_TOKEN", "CDN_FASTLY_SERVICE_ID"],
    "cloudflare": ["CDN_PURGE_TOKEN", "CDN_CLOUDFLARE_ZONE_ID"],
    "http": ["CDN_PURGE_URL"],
}


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def checked_secret_key(value: str, *, debug: bool) -> str:
    """The key, a fixed one on a laptop (DEBUG) without one; production needs a strong one."""
    if not value:
        if not debug:
            raise ImproperlyConfigured(
                "SECRET_KEY is not set. Set it in the environment, or set DEBUG=1 on a laptop."
            )
        return DEVELOPMENT_SECRET_KEY
    if not debug and (len(value) < 50 or len(set(value)) < 5):
        # Django's own rule for a key strong enough to sign sessions (check --deploy W009).
        raise ImproperlyConfigured(
            "SECRET_KEY is too weak: it needs at least 50 characters and 5 different ones. "
            'Make one with: python -c "import secrets; print(secrets.token_urlsafe(50))"'
        )
    return value


def checked_proxies(proxies: list[str]) -> list[str]:
    """TRUSTED_PROXIES, each an address or a CIDR."""
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise ImproperlyConfigured(f"TRUSTED_PROXIES: {proxy!r} is not an address or a CIDR.") from None
    return proxies


def check_cdn_purger(purger: str, settings: Mapping[str, object]) -> None:
    """CDN_PURGER names a known purger, and the settings it needs are set."""
    one_of("CDN_PURGER", purger, CDN_PURGER_NEEDS)
    if missing := [name for name in CDN_PURGER_NEEDS[purger] if not settings[name]]:
        raise ImproperlyConfigured(f"CDN_PURGER={purger} needs {' and '.join(missing)}.")


def one_of(name: str, value: str, choices: Collection[str]) -> str:
    """The value when it is one of the choices; else refuse to start, saying which are allowed."""
    if value not in choices:
        quoted = [f'"{choice}"' for choice in choices]
        raise ImproperlyConfigured(f"{name} must be {', '.join(quoted[:-1])} or {quoted[-1]}.")
    return value


def cache(redis_url: str) -> dict[str, object]:
    """Redis, shared by every app server, when REDIS_URL names one; else each process's own memory.
    If Redis is down, pages are served uncached (it fails open after a short timeout, logged once)."""
    if not redis_url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    return {
        "BACKEND": "infra.cache_backends.FailOpenRedisCache",
        "LOCATION": redis_url,
        "KEY_PREFIX": "chipsite",
        "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.25},
    }


def pages_storage(
    *, root: Path, bucket: str, endpoint_url: str | None, region: str | None, prefix: str
) -> dict[str, object]:
    """Where stored pages are kept: files under root, or the bucket when one is named
    (django-storages' S3Storage; objects get no ACL, the bucket's policy decides who reads them,
    and their URLs no signature)."""
    if not bucket:
        return {
            "BACKEND": "infra.stored.AtomicFileSystemStorage",
            "OPTIONS": {"location": root, "base_url": "/"},
        }
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url or None,
            "region_name": region or None,
            "location": prefix.strip("/"),
            "file_overwrite": True,  # one address, one object, replaced whole by each render
            "querystring_auth": False,
            "default_acl": None,
        },
    }


def replica_database(url: str, *, primary: DBConfig) -> DBConfig:
    """A read replica with the primary's connection settings, mirrored by it in tests."""
    replica = dj_database_url.parse(url, conn_max_age=primary["CONN_MAX_AGE"], conn_health_checks=True)
    replica["OPTIONS"] = dict(primary.get("OPTIONS", {}))
    replica["TEST"] = {"MIRROR": "default"}
    return replica


def smtp_mailer(
    *, host: str, port: int, username: str, password: str, use_ssl: bool, use_tls: bool, timeout: int
) -> dict[str, object]:
    return {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": host,
            "port": port,
            "username": username,
            "password": password,
            "use_ssl": use_ssl,
            "use_tls": use_tls,
            "timeout": timeout,
        },
    }
