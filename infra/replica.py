"""Visitors' reads from a read replica, without ever serving a page older than a write.

With ``DATABASE_REPLICA_URL`` set, ``settings.DATABASES`` has a "replica" and this router
sends reads there while ``reads_from_replica()`` is in force, which the page cache
(infra.page_cache) turns on for an anonymous GET of a public page only. It does so only when
the last change (infra/freshness.py) was made more than ``REPLICA_LAG_SECONDS`` ago: right
after a publish, a verification or a revert, the page that is rendered and cached reads the
primary, and the replica has time to catch up before anyone reads from it. Editors
and the admin always read and write the primary.
"""

from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings

REPLICA = "replica"
_visitor_read = ContextVar("visitor_read", default=False)


def replica_configured():
    return REPLICA in settings.DATABASES


@contextmanager
def reads_from_replica(allowed=True):
    """Within it, reads go to the replica when there is one and ``allowed`` is true."""
    reset = _visitor_read.set(bool(allowed) and replica_configured())
    try:
        yield
    finally:
        _visitor_read.reset(reset)


class VisitorReadsToReplica:
    def db_for_read(self, model, **hints):
        return REPLICA if _visitor_read.get() else None

    def db_for_write(self, model, **hints):
        return None  # the primary, always

    def allow_relation(self, obj1, obj2, **hints):
        return True  # the same data on both

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return db != REPLICA  # the replica follows the primary's schema by replication
