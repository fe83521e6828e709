"""Production settings: HTTPS on by default, a strong key required, features denied.

Settings are read from the environment when the process starts, so the production cases run
``manage.py`` in a fresh process with DEBUG off, as gunicorn would.
"""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent


def production(*args, **env):
    """Run ``manage.py *args`` with the production defaults: DEBUG off, nothing else set."""
    keep = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG"}}
    settings = {
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "chipsite.example.com",
        "DATABASE_URL": "sqlite:///:memory:",
        **env,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**keep, **settings},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_at_warning_level_with_production_settings():
    result = production("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_warns_when_https_is_turned_off():
    result = production(
        "check", "--deploy", "--fail-level", "WARNING", SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0"
    )
    assert result.returncode != 0
    assert "security.W004" in result.stderr and "security.W008" in result.stderr


@pytest.mark.parametrize(
    "key",
    ["short", "x" * 80, "abcd" * 20],
    ids=["5 characters", "one character repeated", "4 distinct characters"],
)
def test_production_refuses_a_weak_secret_key(key):
    result = production("check", SECRET_KEY=key)
    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = production("check", SECRET_KEY="")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


@pytest.mark.django_db
def test_pages_deny_browser_features_the_site_does_not_use(client):
    policy = client.get("/").headers["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"):
        assert feature in policy


@pytest.mark.django_db
@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
)
def test_http_redirects_to_https_which_carries_hsts_and_probes_stay_on_http(client):
    plain = client.get("/vendors/")
    assert plain.status_code == 301 and plain["Location"] == "https://testserver/vendors/"
    secure = client.get("/vendors/", secure=True)
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_a_large_anonymous_post_is_refused_unread(client):
    response = client.post("/admin/login/", {"username": "editor", "password": "x" * 200_000})
    assert response.status_code == 413


@pytest.mark.django_db
def test_a_signed_in_editor_may_post_more_than_a_visitor(admin_client):
    from vendors.models import Lane

    response = admin_client.post(
        "/admin/vendors/lane/add/",
        {"name": "Big", "slug": "big", "position": 9, "description": "x" * 200_000},
    )
    assert response.status_code == 302
    assert len(Lane.objects.get(slug="big").description) == 200_000


def test_the_operators_manual_lists_every_variable_the_settings_read():
    source = (ROOT / "chipsite" / "settings.py").read_text()
    read = set(re.findall(r"""(?:env_bool|env_list|environ\.get)\(\s*["']([A-Z_]+)["']""", source))
    manual = (ROOT / "docs" / "operators.md").read_text()
    table = manual[manual.index("| variable | default | meaning |") :].split("\n\n")[0]
    listed = set(re.findall(r"`([A-Z_]+)`", table))
    assert read, "no variables found: the pattern no longer matches settings.py"
    assert read - listed == set()


def test_the_procfiles_gunicorn_reads_the_request_lines_nginx_lets_through():
    """nginx passes request lines up to 8 KB (a longer one goes to the search page, which says
    it was too long); gunicorn's default, 4,094 bytes, would answer a 400 to a long search."""
    import shlex

    from gunicorn.config import Config

    (web,) = [line for line in (ROOT / "Procfile").read_text().splitlines() if line.startswith("web:")]
    config = Config()
    args = config.parser().parse_args(shlex.split(web.removeprefix("web:"))[1:])
    config.set("limit_request_line", args.limit_request_line)

    assert config.limit_request_line == 8190
