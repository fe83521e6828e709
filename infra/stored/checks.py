"""``manage.py check``: stored pages are rendered for SITE_URL, so the site must answer to it."""

from typing import Any

from django.conf import settings
from django.core.checks import Error, register
from django.http.request import validate_host

from .middleware import site_host


@register()
def site_url_is_allowed(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    if not settings.STORED_PAGES_ENABLED:
        return []
    scheme, host = site_host()
    allowed = [*settings.ALLOWED_HOSTS, *(["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])]
    if scheme not in ("http", "https") or not host:
        return [Error(f"SITE_URL ({settings.SITE_URL}) must be an http or https address.", id="stored.E001")]
    if not validate_host(host.rsplit(":", 1)[0] if not host.endswith("]") else host, allowed):
        return [
            Error(
                f"SITE_URL's host ({host}) is not in ALLOWED_HOSTS: stored pages are rendered for it "
                "and would all fail.",
                hint="Add it to ALLOWED_HOSTS, or set SITE_URL to the site's public address.",
                id="stored.E002",
            )
        ]
    return []
