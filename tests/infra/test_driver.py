"""PostgreSQL as a page reads it: the driver keeps the conversion of a list page's reads by key
(infra/driver.py), and the database runs them without compiling them first."""

import pytest
from django.db import connection

from infra.driver import PAGE_OF_KEYS
from vendors.models import Lane

pytestmark = pytest.mark.django_db


def test_a_read_of_a_page_of_keys_is_converted_by_the_driver_once_not_on_every_page():
    if connection.vendor != "postgresql":
        pytest.skip("psycopg's conversion: PostgreSQL only")
    from psycopg import _queries

    keys = list(range(1, 61))  # more than the 50 parameters psycopg keeps by itself
    read = Lane.objects.filter(pk__in=keys)
    list(read)
    before = _queries._query2pg_client.cache_info()
    list(Lane.objects.filter(pk__in=keys))
    after = _queries._query2pg_client.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses
    assert _queries.MAX_CACHED_STATEMENT_PARAMS == PAGE_OF_KEYS


def test_the_database_does_not_compile_a_pages_reads_just_in_time():
    """JIT compiled a chip list sorted by $ per PFLOP-hour for 17 ms that then ran in 6
    (chipsite/settings.py): every connection asks PostgreSQL not to."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's JIT")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"
