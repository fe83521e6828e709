"""`manage.py run_worker` for real: a process of its own, on the test database, with the database
backend, running a task this test enqueues and the periodic schedule beside it."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection, connections
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from infra.models import PeriodicRun
from tests.infra.worker_tasks import write_file

ROOT = Path(__file__).resolve().parents[2]
# A worker that looks at its queue and schedule often, so a test waits little for it.
WORKER_COMMAND = [
    sys.executable,
    "manage.py",
    "run_worker",
    "--check-every=0.5",
    "--interval=0.1",
    "--no-startup-delay",
]


def wait_until(condition, *, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s still waiting for {what}")
        time.sleep(0.1)


@pytest.fixture
def shared_database(transactional_db, tmp_path):
    """A DATABASE_URL through which another process sees what this test commits.

    PostgreSQL's test database is one already. SQLite's is in this process's memory: the test
    works on a file copy of it instead (schema and all), made this test's default connection
    until it ends; the database in memory is left open and untouched for the tests after."""
    settings_dict = connection.settings_dict
    if connection.vendor == "postgresql":
        credentials = quote(settings_dict["USER"] or "")
        if settings_dict["PASSWORD"]:
            credentials += ":" + quote(settings_dict["PASSWORD"])
        host = settings_dict["HOST"] or "localhost"
        port = settings_dict["PORT"] or "5432"
        yield f"postgres://{credentials}@{host}:{port}/{quote(settings_dict['NAME'])}"
        return
    if connection.vendor != "sqlite":
        pytest.skip(f"no way to share a {connection.vendor} test database is written here")
    if not connection.is_in_memory_db():
        yield f"sqlite:///{settings_dict['NAME']}"
        return
    path = tmp_path / "worker.sqlite3"
    connection.ensure_connection()
    copy = sqlite3.connect(path)
    connection.connection.backup(copy)
    copy.close()
    in_memory = connections["default"]
    on_file = type(in_memory)({**settings_dict, "NAME": str(path)}, alias="default")
    connections["default"] = on_file
    try:
        yield f"sqlite:///{path}"
    finally:
        on_file.close()
        connections["default"] = in_memory


@pytest.fixture
def database_backend(settings):
    settings.TASKS = {"default": {**settings.TASKS["default"], "BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def worker(shared_database, database_backend):
    env = {
        key: value for key, value in os.environ.items() if key not in {"DATABASE_REPLICA_URL", "REDIS_URL"}
    }
    env.update(
        DATABASE_URL=shared_database,
        TASKS_BACKEND="database",
        SECRET_KEY="test-only-secret-key",
        DEBUG="1",
        PYTHONUNBUFFERED="1",
    )
    process = subprocess.Popen(
        WORKER_COMMAND,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_the_worker_runs_queued_tasks_and_the_schedule_and_stops_on_sigterm(worker, tmp_path):
    marker = tmp_path / "ran.txt"

    result = write_file.enqueue(str(marker))

    def finished():
        result.refresh()
        return result.is_finished

    wait_until(finished, timeout=15, what="the worker to run the task")
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert marker.read_text() == "ran"
    # The schedule ran in the same process: the source check, never run here, was due at once.
    wait_until(
        lambda: DBTaskResult.objects.filter(
            task_path="vendors.tasks.check_all_sources", status=TaskResultStatus.SUCCESSFUL
        ).exists(),
        timeout=10,
        what="the periodic source check to run",
    )
    assert PeriodicRun.objects.get(name="check_sources").last_enqueued_at is not None

    worker.send_signal(signal.SIGTERM)
    output, _ = worker.communicate(timeout=10)

    assert worker.returncode == 0, output
    assert "Enqueued periodic task check_sources (every day)" in output
    assert "Task tests.infra.worker_tasks.write_file id=" in output and "succeeded" in output
