"""The periodic schedule (infra/periodic.py): when a task is due, and that one run is enqueued once
however many workers look at the same moment."""

import datetime as dt
import logging
import threading
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.tasks import Task
from django_tasks_db.models import DBTaskResult

from infra import periodic
from infra.models import PeriodicRun
from infra.periodic import Schedule, claim, due, run_due
from tests.infra import worker_tasks
from tests.infra.worker_tasks import fail, remember

BERLIN = ZoneInfo("Europe/Berlin")
NOW = dt.datetime(2026, 12, 3, 9, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def no_runs_yet():
    worker_tasks.RUNS.clear()
    yield
    worker_tasks.RUNS.clear()


@pytest.fixture
def berlin(settings):
    settings.TIME_ZONE = "Europe/Berlin"


def hourly():
    return Schedule(name="hourly", task=remember, interval=dt.timedelta(hours=1))


def at_four():
    return Schedule(name="at-four", task=remember, at=dt.time(4, 0))


class TestWhenDue:
    def test_a_task_never_enqueued_is_due_at_once(self):
        schedule = hourly()

        assert due(NOW, {}, schedules=[schedule]) == [schedule]
        assert due(NOW, {"hourly": None}, schedules=[schedule]) == [schedule]

    def test_an_interval_task_is_due_again_once_its_interval_has_passed(self):
        schedule = hourly()

        assert due(NOW, {"hourly": NOW - dt.timedelta(minutes=59)}, schedules=[schedule]) == []
        assert due(NOW, {"hourly": NOW - dt.timedelta(hours=1)}, schedules=[schedule]) == [schedule]

    def test_a_daily_task_is_due_at_its_time_in_the_sites_time_zone(self, berlin):
        schedule = at_four()
        yesterday = dt.datetime(2026, 12, 2, 4, 0, 2, tzinfo=BERLIN)

        just_before = dt.datetime(2026, 12, 3, 3, 59, 59, tzinfo=BERLIN)
        at_four_berlin = dt.datetime(2026, 12, 3, 4, 0, tzinfo=BERLIN)  # 03:00 UTC
        assert due(just_before, {"at-four": yesterday}, schedules=[schedule]) == []
        assert due(at_four_berlin, {"at-four": yesterday}, schedules=[schedule]) == [schedule]

    def test_a_daily_task_runs_once_a_day(self, berlin):
        schedule = at_four()
        ran = dt.datetime(2026, 12, 3, 4, 0, 3, tzinfo=BERLIN)

        for later in (dt.time(4, 0, 8), dt.time(12, 0), dt.time(23, 59)):
            now = dt.datetime.combine(dt.date(2026, 12, 3), later, tzinfo=BERLIN)
            assert due(now, {"at-four": ran}, schedules=[schedule]) == []
        next_day = dt.datetime(2026, 12, 4, 4, 0, tzinfo=BERLIN)
        assert due(next_day, {"at-four": ran}, schedules=[schedule]) == [schedule]

    def test_a_worker_down_for_days_runs_a_daily_task_once_when_it_is_back(self, berlin):
        schedule = at_four()
        back = dt.datetime(2026, 12, 6, 10, 0, tzinfo=BERLIN)

        assert due(back, {"at-four": back - dt.timedelta(days=4)}, schedules=[schedule]) == [schedule]
        assert due(back + dt.timedelta(hours=1), {"at-four": back}, schedules=[schedule]) == []

    def test_the_database_condition_agrees_with_the_rule(self, db, berlin):
        """``still_due`` (the claim's UPDATE) and ``is_due`` (the rule in Python) answer alike."""
        for schedule in (hourly(), at_four()):
            for ago in (None, dt.timedelta(minutes=30), dt.timedelta(hours=1), dt.timedelta(days=1)):
                last = None if ago is None else NOW - ago
                PeriodicRun.objects.update_or_create(name=schedule.name, defaults={"last_enqueued_at": last})
                in_database = PeriodicRun.objects.filter(schedule.still_due(NOW), name=schedule.name).exists()
                assert in_database == schedule.is_due(now=NOW, last=last), (schedule.name, last)


class TestRegistering:
    @pytest.fixture(autouse=True)
    def own_registry(self, monkeypatch):
        monkeypatch.setattr(periodic, "_schedules", {})

    def test_every_and_daily_register_by_the_tasks_path_unless_named(self):
        periodic.every(remember, minutes=30)
        periodic.daily(fail, at=dt.time(0, 0), name="midnight")

        assert [(s.name, s.describe()) for s in periodic.registered()] == [
            ("midnight", "daily at 00:00"),
            ("tests.infra.worker_tasks.remember", "every 30 minutes"),
        ]

    def test_registering_the_same_schedule_twice_is_harmless(self):
        periodic.every(remember, hours=2, name="twice")
        periodic.every(remember, hours=2, name="twice")

        assert len(periodic.registered()) == 1

    def test_another_schedule_under_a_taken_name_is_refused(self):
        periodic.every(remember, hours=2, name="taken")

        with pytest.raises(ValueError, match="already registered as 'taken'"):
            periodic.every(fail, hours=2, name="taken")

    def test_a_plain_function_or_no_interval_is_refused(self):
        with pytest.raises(TypeError, match="decorate it with @task"):
            periodic.every(lambda: None, hours=1)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="more than 0"):
            periodic.every(remember, name="never")


@pytest.mark.django_db
class TestEnqueuing:
    def test_a_due_task_runs_once_and_its_time_is_kept(self):
        schedule = hourly()

        assert run_due(now=NOW, schedules=[schedule]) == [schedule]
        assert run_due(now=NOW + dt.timedelta(minutes=5), schedules=[schedule]) == []
        assert worker_tasks.RUNS == ["remember"]
        assert PeriodicRun.objects.get(name="hourly").last_enqueued_at == NOW

        run_due(now=NOW + dt.timedelta(hours=1), schedules=[schedule])
        assert worker_tasks.RUNS == ["remember", "remember"]

    def test_two_schedulers_that_both_see_a_run_due_enqueue_it_once(self, berlin):
        """Both read the last runs before either claims: the claim's condition decides."""
        for schedule in (hourly(), at_four()):
            first_look = periodic.last_runs([schedule])
            second_look = periodic.last_runs([schedule])
            assert due(NOW, first_look, schedules=[schedule]) == [schedule]
            assert due(NOW, second_look, schedules=[schedule]) == [schedule]

            a_moment_later = NOW + dt.timedelta(seconds=2)
            assert [claim(schedule, now=NOW), claim(schedule, now=a_moment_later)] == [True, False]
            assert PeriodicRun.objects.get(name=schedule.name).last_enqueued_at == NOW

    def test_with_the_database_backend_the_task_is_queued_with_its_claim(self, settings):
        settings.TASKS = {
            "default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}
        }

        run_due(now=NOW, schedules=[hourly()])

        queued = DBTaskResult.objects.get()
        assert (queued.task_path, queued.status) == ("tests.infra.worker_tasks.remember", "READY")
        assert worker_tasks.RUNS == []  # the worker runs it, not the scheduler

    def test_a_periodic_task_goes_to_the_periodic_queue_not_the_one_publishes_use(self, settings):
        settings.TASKS = {
            "default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}
        }

        run_due(now=NOW, schedules=[hourly()])
        remember.enqueue()  # as a publish enqueues its render

        queues = sorted(DBTaskResult.objects.values_list("queue_name", flat=True))
        assert queues == ["default", "periodic"]

    def test_a_task_that_cannot_be_queued_leaves_the_run_due(self, settings, monkeypatch):
        settings.TASKS = {
            "default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}
        }

        def refuse(self, *args, **kwargs):
            raise RuntimeError("queue unavailable")

        monkeypatch.setattr(Task, "enqueue", refuse)

        with pytest.raises(RuntimeError):
            run_due(now=NOW, schedules=[hourly()])

        assert PeriodicRun.objects.get(name="hourly").last_enqueued_at is None
        assert not DBTaskResult.objects.exists()

    def test_a_failing_task_is_logged_in_one_line(self, caplog):
        caplog.set_level(logging.INFO)

        run_due(now=NOW, schedules=[Schedule(name="fails", task=fail, interval=dt.timedelta(hours=1))])

        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1
        message = errors[0].getMessage()
        assert message.startswith("Task tests.infra.worker_tasks.fail id=")
        assert message.endswith("ValueError: the source list is gone") and "\n" not in message
        assert errors[0].exc_info is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="two connections racing need PostgreSQL")
def test_two_workers_looking_at_once_enqueue_one_run_once():
    schedule = hourly()
    start = threading.Barrier(4)
    enqueued = []

    def worker():
        try:
            start.wait()
            enqueued.extend(run_due(now=NOW, schedules=[schedule]))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)

    assert enqueued == [schedule]
    assert worker_tasks.RUNS == ["remember"]
