"""PostgreSQL's driver, tuned for the site's reads.

psycopg converts each query's ``%s`` placeholders to the ones PostgreSQL takes, and keeps the
conversion of a query it has seen, but only of one with at most 50 parameters. A list page reads
its kept rows and its items by a page of keys (infra/rows/): 50 keys and more, so psycopg split
those queries afresh on every page: some 600 Python calls, 2 to 3 % of such a page (at 10,000
vendors: rankings by an axis, reader weights, chips filtered, what fits). Here it keeps them up
to PAGE_OF_KEYS parameters. Its cache holds 128 queries of at most 4 KB whatever their
parameters, so the memory it takes stays as bounded as before.
"""

PAGE_OF_KEYS = 200  # parameters of a query whose conversion psycopg keeps


def keep_conversions() -> None:
    """Let psycopg keep the conversion of queries of up to PAGE_OF_KEYS parameters (its own
    limit, a module constant it reads at every query, is 50)."""
    try:
        from psycopg import _queries
    except ImportError:  # SQLite alone: no driver to tune
        return
    if getattr(_queries, "MAX_CACHED_STATEMENT_PARAMS", PAGE_OF_KEYS) < PAGE_OF_KEYS:
        _queries.MAX_CACHED_STATEMENT_PARAMS = PAGE_OF_KEYS
