import os
import uuid

import pytest
import redis
from django.core.cache import caches

from tests.factories import make_superuser


@pytest.fixture
def superuser(db):
    return make_superuser()


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Uploads in a test never land in the real media folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture(autouse=True)
def tasks_run_at_once(settings):
    """Tasks run as they are enqueued, whatever TASKS_BACKEND says; a test that needs the
    database backend sets it itself (tests/infra/test_worker.py)."""
    settings.TASKS = {
        "default": {
            **settings.TASKS["default"],
            "BACKEND": "django.tasks.backends.immediate.ImmediateBackend",
        }
    }


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """PBKDF2 is slow on purpose; tests log in often and need no protection from guessing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def visitor():
    """An anonymous browser of its own (``client`` and ``admin_client`` are one and the same)."""
    from django.test import Client

    return Client()


@pytest.fixture(autouse=True)
def no_page_cache(settings):
    """Pages and reference data are read afresh in tests, so that each test's query counts
    are the cold ones; tests/infra/test_cache.py turns the cache on to test it.

    The cache is this process's own memory whatever REDIS_URL says, and only it is cleared:
    a test never empties a Redis it did not fill (tests/infra/test_cache.py brings its own)."""
    from django.core.cache import caches

    settings.PAGE_CACHE_ENABLED = False
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    from infra.ratelimit import LOCAL as local_rate_counts

    local = caches["default"]
    local.clear()
    local_rate_counts.clear()  # what this process counted towards the rate limits, too
    yield
    local.clear()
    local_rate_counts.clear()


@pytest.fixture(autouse=True)
def no_stored_pages(settings):
    """Pages render on each request in tests, so that their query counts are the cold ones;
    tests/infra/test_stored.py turns the store on (``stored_pages``) to test it."""
    settings.STORED_PAGES_ENABLED = False


@pytest.fixture
def stored_pages(settings, tmp_path):
    """The page store on, in a folder of this test's own, for the test client's address."""
    from infra.stored import store

    settings.STORED_PAGES_ENABLED = True
    settings.SITE_URL = "http://testserver"
    settings.STORAGES = {
        **settings.STORAGES,
        "pages": {
            "BACKEND": "infra.stored.AtomicFileSystemStorage",
            "OPTIONS": {"location": tmp_path / "pages"},
        },
    }
    store.copies.clear()
    yield tmp_path / "pages"
    store.copies.clear()


@pytest.fixture
def redis_cache(settings):
    """The Redis backend on TEST_REDIS_URL, under a key prefix of this test's own.

    The database may hold someone else's data (a developer's site, another test run): it is
    never flushed. Afterwards exactly the keys under the prefix are deleted. Without
    TEST_REDIS_URL the test is skipped; CI sets it (.ci/run)."""
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379/14) to run the Redis tests")
    prefix = f"chipsite-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "infra.cache_backends.FailOpenRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": prefix,
        }
    }
    backend = caches["default"]
    backend.ping()  # set but not answering is a failure, not a skip
    yield backend
    client = redis.Redis.from_url(url)
    try:
        if own := list(client.scan_iter(match=f"{prefix}:*", count=1000)):
            client.delete(*own)
    finally:
        client.close()
