"""Renders that always finish: a real worker (`manage.py run_worker`, the database backend) is
killed with SIGKILL at random moments while 20 publishes of different kinds are rendered, and
started again; within a minute of the last start every stored page is what a fresh render of
the live site gives, and no task is left running (infra/leases.py, infra/stored/retries.py)."""

import os
import random
import re
import signal
import subprocess
import time
from unittest import mock

import pytest
from django.db import transaction
from django.tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from infra.models import StoredPage
from infra.stored import every_path, meta_name, store
from infra.stored.rendering import render_one
from infra.stored.store import Entry
from tests.infra.test_stored import demo  # noqa: F401 - the small site every page is stored for
from tests.infra.test_worker import ROOT, WORKER_COMMAND, database_backend, shared_database  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

DEADLINE = 60  # seconds after the last start (the "within a minute")
WORKER_ID = "killed-and-started-again"
# What differs between two renders of one live page: the moment it was rendered, and the nonce
# of each answer's inline scripts.
RENDER_MOMENT = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?|nonce=\"[^\"]*\"")


class Worker:
    """`run_worker` in a process of its own, under one lasting --worker-id, started again after each kill."""

    def __init__(self, *, database_url, pages, log):
        self.log = log
        self.env = {
            key: value
            for key, value in os.environ.items()
            if key not in {"DATABASE_REPLICA_URL", "REDIS_URL"}
        }
        self.env.update(
            DATABASE_URL=database_url,
            TASKS_BACKEND="database",
            SECRET_KEY="test-only-secret-key",
            DEBUG="1",
            PYTHONUNBUFFERED="1",
            STORED_PAGES="1",
            STORED_PAGES_ROOT=str(pages),
            STORED_PAGES_SWEEP_SECONDS="2",
            STORED_PAGES_RENDER_JOBS="1",
            SITE_URL="http://testserver",
            ALLOWED_HOSTS="testserver,localhost,127.0.0.1",
        )
        self.process = None
        self.started_at = 0.0

    def start(self):
        with open(self.log, "a") as out:
            self.process = subprocess.Popen(
                [*WORKER_COMMAND, f"--worker-id={WORKER_ID}"],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.started_at = time.monotonic()

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)
        return self.process.returncode


def running():
    return DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING)


def stored_body(pages, path):
    try:
        entry = Entry.parse((pages / meta_name(path)).read_bytes())
        return (pages / entry.file).read_bytes()
    except OSError:
        return None


def fresh_renders(paths, scratch, settings):
    """What each address answers now, rendered as the worker renders it, into a store of its own
    (nothing of the shared store or its index is touched)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "pages": {**settings.STORAGES["pages"], "OPTIONS": {"location": scratch}},
    }
    answers = {}
    with mock.patch.object(StoredPage, "record_many"), mock.patch.object(store, "delete"):
        for path in paths:
            store.copies.clear()
            response = render_one(path)
            answers[path] = response.content if response.status_code == 200 else None
    return answers


def untrue_pages(pages, scratch, settings):
    """The addresses whose stored page is not what a fresh render gives (less the render moment)."""
    paths = sorted({*every_path(), *StoredPage.objects.values_list("path", flat=True)})
    fresh = fresh_renders(paths, scratch, settings)
    return [
        path
        for path, body in fresh.items()
        if (None if body is None else RENDER_MOMENT.sub(b"", body))
        != (None if (kept := stored_body(pages, path)) is None else RENDER_MOMENT.sub(b"", kept))
    ]


def publishes():
    """Twenty publishes of different kinds: facts, scores, a lane renamed, an unpublish and the
    publish that brings it back, a comparison."""
    from comparisons.models import Comparison
    from editorial import pages as editorial_pages
    from editorial import services
    from vendors.models import Fact, Lane, Score, Vendor

    def fact(slug, n):
        vendor = Vendor.objects.get(slug=slug)
        first = vendor.facts.order_by("pk").first()
        Fact.objects.filter(pk=first.pk).update(value=f"{vendor.name} memory, reading {n}")
        services.publish(obj=vendor, user=None, note=f"Fact {n}.")

    def score(slug, n):
        vendor = Vendor.objects.get(slug=slug)
        Score.objects.filter(vendor=vendor).update(value=1 + n % 5)
        services.publish(obj=vendor, user=None, note=f"Score {n}.")

    def rename_lane(n):
        with transaction.atomic():
            lane = Lane.objects.get(slug="inference-specialist")
            lane.name = f"inference specialist {n}"
            lane.save()
            editorial_pages.vocabulary_changed(None)

    def unpublish(slug):
        services.unpublish(obj=Vendor.objects.get(slug=slug), user=None)

    def republish(slug):
        services.publish(obj=Vendor.objects.get(slug=slug), user=None, note="Back.")

    def comparison(n):
        item = Comparison.objects.get(slug="cerebras-vs-groq")
        Comparison.objects.filter(pk=item.pk).update(title=f"Cerebras vs Groq, take {n}")
        services.publish(obj=item, user=None, note=f"Title {n}.")

    vendors = ["groq", "cerebras", "aws-trainium", "google-tpu"]
    steps = []
    for n in range(20):
        kind = n % 6
        slug = vendors[n % 4]
        steps.append(
            [
                lambda s=slug, n=n: fact(s, n),
                lambda s=slug, n=n: score(s, n),
                lambda n=n: rename_lane(n),
                lambda n=n: comparison(n),
                lambda: unpublish("google-tpu"),
                lambda: republish("google-tpu"),
            ][kind]
        )
    return steps


def test_pages_come_true_after_the_worker_is_killed_mid_render_again_and_again(
    shared_database,  # noqa: F811
    database_backend,  # noqa: F811
    demo,  # noqa: F811
    tmp_path,
    settings,
):
    pages, scratch, log = demo, tmp_path / "fresh", tmp_path / "worker.log"
    rng = random.Random(45)
    worker = Worker(database_url=shared_database, pages=pages, log=log)
    worker.start()
    kills_mid_task = 0
    try:
        for n, step in enumerate(publishes()):
            step()
            if n % 3 != 2:
                continue
            # A random moment of the render this publish enqueued (or the next one it is running).
            deadline = time.monotonic() + 10
            while not running().exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(rng.uniform(0, 0.4))
            kills_mid_task += running().exists()
            worker.kill()
            worker.start()

        deadline = worker.started_at + DEADLINE
        untrue = untrue_pages(pages, scratch, settings)
        while untrue or running().exists():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"{DEADLINE} s after the worker's last start, {len(untrue)} pages are not true "
                    f"({untrue[:5]}) and {running().count()} tasks are running.\n{log.read_text()[-3000:]}"
                )
            time.sleep(0.5)
            untrue = untrue_pages(pages, scratch, settings)
    finally:
        if worker.process.poll() is None:
            assert worker.stop() == 0, log.read_text()[-3000:]

    assert kills_mid_task, "no kill caught the worker running a task: the test proved nothing"
    assert "Queued again" in log.read_text()  # what a killed worker held ran again
    assert not running().exists()
    assert untrue_pages(pages, scratch, settings) == []
    assert not StoredPage.objects.exclude(error="").exists()
