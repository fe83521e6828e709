"""Task worker leases: a task whose worker died while running it is queued again.

With the database backend a worker marks the task it takes RUNNING and marks it finished when
it ends; a worker killed in between (SIGKILL, the kernel's OOM killer, a deploy that does not
wait) leaves the row RUNNING for good, and the render it held never happens. So each worker
(``run_worker``) holds a lease (``TaskWorker``) that it renews at every look at the schedule:

- a worker starting under a ``--worker-id`` it had before takes back what its previous
  process left running (``reclaim_own``), at once;
- every worker, at every look, queues again the running tasks of workers whose lease has ended
  (``reclaim_expired``): TASKS_WORKER_LEASE_SECONDS (30) after the last renewal, or three looks
  of that worker if those are longer.

A task run twice does its work twice: the tasks queued here (renders, the sweep, source checks)
change nothing more the second time.
"""

from __future__ import annotations

import datetime as dt
import logging
from uuid import UUID

from django.conf import settings
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from .models import TaskWorker

logger = logging.getLogger("infra.periodic")
LEASE_SECONDS = 30.0


def lease() -> dt.timedelta:
    return dt.timedelta(seconds=float(getattr(settings, "TASKS_WORKER_LEASE_SECONDS", LEASE_SECONDS)))


def renew(worker_id: str, *, check_every: float, now: dt.datetime | None = None) -> None:
    """``worker_id`` is alive: its lease runs for the lease's length, or three of its looks."""
    now = now or timezone.now()
    length = max(lease(), dt.timedelta(seconds=3 * check_every))
    TaskWorker.objects.update_or_create(worker_id=worker_id, defaults={"alive_until": now + length})


def release(worker_id: str) -> None:
    """The worker stops cleanly, after the task it was running: it holds nothing any more."""
    TaskWorker.objects.filter(worker_id=worker_id).delete()


def reclaim_own(worker_id: str) -> int:
    """At a worker's start: queue again what a previous process under this id left running."""
    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    held = [
        pk for pk, workers in running.values_list("pk", "worker_ids") if workers and workers[-1] == worker_id
    ]
    return _requeue(held, why=f"its worker {worker_id} started again")


def reclaim_expired(*, now: dt.datetime | None = None) -> int:
    """Queue again the running tasks whose worker's lease has ended, and those no lease covers
    (a worker that holds none) that started longer than a lease ago."""
    now = now or timezone.now()
    lease_ends = dict(TaskWorker.objects.values_list("worker_id", "alive_until"))
    running = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)
    cut_short: list[UUID] = []
    for pk, workers, started_at in running.values_list("pk", "worker_ids", "started_at"):
        until = lease_ends.get(workers[-1]) if workers else None
        if (until is not None and until <= now) or (until is None and (started_at or now) <= now - lease()):
            cut_short.append(pk)
    TaskWorker.objects.filter(alive_until__lte=now - 100 * lease()).delete()  # long gone
    return _requeue(cut_short, why="its worker's lease ended")


def _requeue(pks: list[UUID], *, why: str) -> int:
    if not pks:
        return 0
    running = DBTaskResult.objects.filter(pk__in=pks, status=TaskResultStatus.RUNNING)
    count = running.update(status=TaskResultStatus.READY)
    if count:
        logger.warning("Queued again %d task(s) left running (%s).", count, why)
    return count
