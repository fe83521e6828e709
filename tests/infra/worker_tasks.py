"""Tasks for the worker's tests, importable by a worker started in another process."""

from pathlib import Path

from django.tasks import task

RUNS: list[str] = []  # what ran in this process


@task
def remember():
    RUNS.append("remember")


@task
def fail():
    raise ValueError("the source list is gone")


@task
def write_file(path):
    Path(path).write_text("ran")
    return path
