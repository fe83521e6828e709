"""Failed renders, tried again by the sweep until they work.

A render that fails keeps the previous bytes, and its index row keeps why (``error``), since
when (``failed_at``) and when the sweep tries again (``next_try``: 30 s after the first failure,
then twice as long each time, at most 10 minutes; ``StoredPage.failed``). An address that was
never stored gets a row without a file, so that it is retried too.

Each sweep renders the failed pages whose next try has come. When none has, it still tries the
one whose next try is nearest: if that works, the cause was likely the site's (the store could
not be written, the database was away), and every other failed page is rendered in the same
sweep, so that all of them are true again within one sweep of the cause going away.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet

from ..models import StoredPage


def failing() -> QuerySet[StoredPage]:
    return StoredPage.objects.exclude(error="")


def to_retry(now: dt.datetime) -> list[str]:
    """The failed pages whose next try has come; or else the one whose next try is nearest."""
    ready = list(failing().filter(next_try__lte=now).values_list("path", flat=True))
    if ready:
        return ready
    return list(failing().order_by("next_try", "path").values_list("path", flat=True)[:1])


def still_failing(tried: list[str]) -> list[str]:
    """Every other failed page, once one of those ``tried`` worked."""
    return list(failing().exclude(path__in=tried).values_list("path", flat=True))


def failing_since(moment: dt.datetime) -> QuerySet[StoredPage]:
    """The pages whose renders have failed since before ``moment`` and still do."""
    return failing().filter(failed_at__lte=moment)
