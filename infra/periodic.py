"""Periodic tasks: what the worker (`manage.py run_worker`) enqueues, and when.

An app registers its periodic tasks in its ``AppConfig.ready()``. Each is a django.tasks Task
(a function already decorated with ``@task``) that takes no arguments::

    # vendors/tasks.py
    from django.tasks import task

    @task
    def check_sources_task() -> dict[str, int]: ...

    # vendors/apps.py
    def ready(self):
        from infra import periodic

        from .tasks import check_sources_task

        periodic.every(check_sources_task, hours=settings.SOURCE_CHECK_EVERY_HOURS, name="check_sources")

The two ways to say when:

- ``every(task, *, seconds=0, minutes=0, hours=0, days=0, name=None) -> Schedule``: due once that
  long has passed since it was last enqueued; the first time, at once.
- ``daily(task, *, at=time(0, 0), name=None) -> Schedule``: due once a day at ``at``, a wall-clock
  time in ``TIME_ZONE``. A worker that was down then enqueues it once when it is back (not once
  per missed day); the first time, at once if today's time has passed.

``name`` (the task's module path unless given) keys the task's row in ``PeriodicRun``, which keeps
when it was last enqueued: in the database, so that every worker process reads the same time and
a restart forgets nothing. Renaming a schedule makes it new (due at once). Registering one name
twice with a different schedule is an error.

The worker looks at the schedule every few seconds (``run_worker --check-every``, 5). A run is
claimed with one conditional UPDATE of its row ("set it to now where it is still due"), so when
several workers look at once exactly one enqueues it. With the database backend the claim and the
enqueued task are committed together; with the immediate backend the claim is committed first and
the task then runs inside ``run_worker``, one after another, so a long task delays the next look.
A task that fails is not retried before its next time; ``infra.tasklog`` logs it in one line.

``due(now, last_runs)`` is the rule alone, without the database, for tests and for reading.
"""

import datetime as dt
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.tasks import Task
from django.tasks.backends.immediate import ImmediateBackend
from django.utils import timezone

from .models import PeriodicRun

logger = logging.getLogger(__name__)

# The queue the schedule's tasks go to: long runs (the whole-site file, every source checked)
# that a worker of their own takes (`run_worker --queue-name periodic`), so that a publish's
# render on the default queue never waits behind one. A worker started without the option
# runs both.
PERIODIC_QUEUE = "periodic"


@dataclass(frozen=True)
class Schedule:
    """One periodic task: ``interval`` (from ``every``) or ``at`` (from ``daily``), not both."""

    name: str
    task: Task
    interval: dt.timedelta | None = None
    at: dt.time | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.task, Task):
            raise TypeError(f"{self.name}: a periodic task is a django.tasks Task (decorate it with @task).")
        if (self.interval is None) == (self.at is None):
            raise ValueError(f"{self.name}: give an interval or a time of day, not both.")
        if self.interval is not None and self.interval <= dt.timedelta(0):
            raise ValueError(f"{self.name}: the interval must be more than 0.")
        if self.at is not None and self.at.tzinfo is not None:
            raise ValueError(f"{self.name}: give the time of day without a time zone (it is TIME_ZONE's).")

    def latest_slot(self, now: dt.datetime) -> dt.datetime:
        """The daily time most recently reached at ``now``: today's, or yesterday's before it."""
        assert self.at is not None
        zone = timezone.get_default_timezone()
        today = now.astimezone(zone).date()
        slot = dt.datetime.combine(today, self.at, tzinfo=zone)
        if slot > now:
            slot = dt.datetime.combine(today - dt.timedelta(days=1), self.at, tzinfo=zone)
        return slot

    def is_due(self, *, now: dt.datetime, last: dt.datetime | None) -> bool:
        if last is None:
            return True
        if self.interval is not None:
            return last <= now - self.interval
        return last < self.latest_slot(now)

    def still_due(self, now: dt.datetime) -> Q:
        """``is_due`` as a condition on the ``PeriodicRun`` row, for the claim's UPDATE."""
        never = Q(last_enqueued_at__isnull=True)
        if self.interval is not None:
            return never | Q(last_enqueued_at__lte=now - self.interval)
        return never | Q(last_enqueued_at__lt=self.latest_slot(now))

    def describe(self) -> str:
        if self.at is not None:
            return f"daily at {self.at:%H:%M}"
        assert self.interval is not None
        seconds = self.interval.total_seconds()
        for unit, length in (("day", 86400), ("hour", 3600), ("minute", 60)):
            if seconds >= length and seconds % length == 0:
                count = int(seconds // length)
                return f"every {unit}" if count == 1 else f"every {count} {unit}s"
        return f"every {seconds:g} s"


_schedules: dict[str, Schedule] = {}


def register(schedule: Schedule) -> Schedule:
    """Add ``schedule`` to the worker's; the same one twice is harmless, another under its name is not."""
    existing = _schedules.get(schedule.name)
    if existing is not None and existing != schedule:
        raise ValueError(f"A different periodic task is already registered as {schedule.name!r}.")
    _schedules[schedule.name] = schedule
    return schedule


def every(
    task: Task,
    *,
    seconds: float = 0,
    minutes: float = 0,
    hours: float = 0,
    days: float = 0,
    name: str | None = None,
) -> Schedule:
    """Enqueue ``task`` once this long has passed since it was last enqueued (the first time, at once)."""
    interval = dt.timedelta(days=days, hours=hours, minutes=minutes, seconds=seconds)
    return register(Schedule(name=_name(task, name), task=task, interval=interval))


def daily(task: Task, *, at: dt.time = dt.time(0, 0), name: str | None = None) -> Schedule:
    """Enqueue ``task`` once a day at ``at`` (TIME_ZONE's wall clock)."""
    return register(Schedule(name=_name(task, name), task=task, at=at))


def _name(task: Task, name: str | None) -> str:
    # A plain function has no module path: Schedule then says to decorate it.
    return name or str(getattr(task, "module_path", repr(task)))


def registered() -> list[Schedule]:
    return sorted(_schedules.values(), key=lambda schedule: schedule.name)


def due(
    now: dt.datetime,
    last_runs: Mapping[str, dt.datetime | None],
    *,
    schedules: Iterable[Schedule] | None = None,
) -> list[Schedule]:
    """The schedules due at ``now``, given when each was last enqueued (a name missing: never)."""
    return [
        schedule
        for schedule in (registered() if schedules is None else schedules)
        if schedule.is_due(now=now, last=last_runs.get(schedule.name))
    ]


def last_runs(schedules: Iterable[Schedule]) -> dict[str, dt.datetime | None]:
    """When each schedule was last enqueued, making the rows of those that have none yet."""
    names = {schedule.name for schedule in schedules}
    found: dict[str, dt.datetime | None] = dict(
        PeriodicRun.objects.filter(name__in=names).values_list("name", "last_enqueued_at")
    )
    if missing := names - found.keys():
        # Two workers starting together may both try: the second's rows are ignored.
        PeriodicRun.objects.bulk_create([PeriodicRun(name=name) for name in missing], ignore_conflicts=True)
    return found


def claim(schedule: Schedule, *, now: dt.datetime) -> bool:
    """Mark the run of ``schedule`` due at ``now`` as enqueued, unless another worker did first.

    One UPDATE whose condition is that the run is still due: of two workers racing for it, the
    second finds the row already moved (PostgreSQL re-reads it after the first commits; SQLite
    runs one writer at a time) and gets False."""
    PeriodicRun.objects.bulk_create([PeriodicRun(name=schedule.name)], ignore_conflicts=True)
    updated = PeriodicRun.objects.filter(schedule.still_due(now), name=schedule.name).update(
        last_enqueued_at=now
    )
    return updated == 1


def _enqueue(schedule: Schedule, *, now: dt.datetime) -> bool:
    if isinstance(schedule.task.get_backend(), ImmediateBackend):
        # enqueue() runs the task here and now: commit the claim first, so that no row stays
        # locked while it runs.
        if not claim(schedule, now=now):
            return False
        logger.info("Running periodic task %s (%s)", schedule.name, schedule.describe())
        schedule.task.using(queue_name=PERIODIC_QUEUE).enqueue()
        return True
    with transaction.atomic():  # claimed and enqueued together, or neither
        if not claim(schedule, now=now):
            return False
        schedule.task.using(queue_name=PERIODIC_QUEUE).enqueue()
    logger.info("Enqueued periodic task %s (%s)", schedule.name, schedule.describe())
    return True


def run_due(*, now: dt.datetime | None = None, schedules: Iterable[Schedule] | None = None) -> list[Schedule]:
    """Enqueue every schedule due at ``now`` that this worker claims; returns those it enqueued."""
    now = now or timezone.now()
    chosen = registered() if schedules is None else list(schedules)
    ready = due(now, last_runs(chosen), schedules=chosen)
    return [schedule for schedule in ready if _enqueue(schedule, now=now)]


class Scheduler:
    """The loop `run_worker` runs: every ``check_every`` seconds, enqueue what is due, until ``stop``
    (and first, ``beat``: the database worker renews its lease and takes back tasks cut short)."""

    def __init__(
        self,
        *,
        check_every: float,
        stop: threading.Event | None = None,
        beat: Callable[[], object] | None = None,
    ) -> None:
        self.check_every = check_every
        self.stop = stop or threading.Event()
        self.beat = beat

    def run(self) -> None:
        logger.info(
            "Periodic schedule: %s",
            "; ".join(f"{s.name} {s.describe()}" for s in registered()) or "nothing registered",
        )
        try:
            while not self.stop.is_set():
                close_old_connections()
                try:
                    if self.beat is not None:
                        self.beat()
                    run_due()
                except Exception as error:  # a database away for a moment: look again next time
                    logger.error("Periodic schedule not checked: %s: %s", type(error).__name__, error)
                self.stop.wait(self.check_every)
        finally:
            connection.close()  # this thread's own
