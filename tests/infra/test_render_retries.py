"""Renders that always finish (infra/stored/retries.py, infra/leases.py): a failed render is
tried again by the sweep until it works, the store unwritable loses nothing, and a task whose
worker died is queued again."""

import datetime as dt
from unittest import mock

import pytest
from django.core.management import call_command
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from infra import leases
from infra.models import StoredPage, TaskWorker, retry_after
from infra.stored import AtomicFileSystemStorage, render_due, store
from tests.factories import make_staff_user
from tests.infra.test_stored import demo, publish_groq_fact  # noqa: F401 - the small stored site
from tests.infra.test_worker import database_backend  # noqa: F401
from tests.infra.worker_tasks import write_file

pytestmark = pytest.mark.django_db(transaction=True)


def read_only_store():
    """The page store refuses every write, as a full or read-only disk does."""
    return mock.patch.object(
        AtomicFileSystemStorage, "_save", side_effect=OSError(30, "Read-only file system")
    )


def test_a_failed_render_is_tried_again_after_30_s_then_twice_as_long_up_to_10_minutes():
    waits = [retry_after(attempts).total_seconds() for attempts in range(1, 9)]

    assert waits == [30, 60, 120, 240, 480, 600, 600, 600]


def test_with_the_store_unwritable_a_publish_succeeds_and_visitors_keep_the_previous_page(
    demo,  # noqa: F811
    visitor,
    admin_client,
):
    with read_only_store():
        publish_groq_fact()  # no exception: the publish is done

        response = visitor.get("/vendors/groq/")
        assert response.status_code == 200
        assert b"(checked)" not in response.content  # the page as it was before the publish

    page = StoredPage.objects.get(path="/vendors/groq/")
    assert "Read-only file system" in page.error
    assert page.next_try > timezone.now()
    listed = admin_client.get("/admin/infra/storedpage/?render=failed")
    assert b"/vendors/groq/" in listed.content and b"Read-only file system" in listed.content


def test_once_the_store_is_writable_the_next_sweep_makes_every_failed_page_true(demo, visitor):  # noqa: F811
    with read_only_store():
        publish_groq_fact()
    failed = set(StoredPage.objects.exclude(error="").values_list("path", flat=True))
    assert "/vendors/groq/" in failed
    assert StoredPage.objects.exclude(error="").filter(next_try__lte=timezone.now()).count() == 0

    render_due.call()  # before any page's next try: one tried, it works, the rest follow

    assert not StoredPage.objects.exclude(error="").exists()
    response = visitor.get("/vendors/groq/")
    assert response["X-Stored-Page"] == "hit"
    assert b"(checked)" in response.content


def test_a_page_that_keeps_failing_waits_longer_each_time(demo):  # noqa: F811
    with read_only_store():
        publish_groq_fact()
        first = StoredPage.objects.get(path="/vendors/groq/")
        StoredPage.objects.exclude(error="").update(next_try=timezone.now())
        render_due.call()

    again = StoredPage.objects.get(path="/vendors/groq/")
    assert (first.attempts, again.attempts) == (1, 2)
    assert again.failed_at == first.failed_at  # failing since the first failure
    assert again.next_try - timezone.now() > dt.timedelta(seconds=45)


def test_a_visitor_asking_for_a_due_page_while_the_store_is_unwritable_gets_the_previous_bytes(
    demo,  # noqa: F811
    visitor,
):
    before = visitor.get("/vendors/groq/").content
    store.due("/vendors/groq/", timezone.now() - dt.timedelta(seconds=1))
    store.copies.clear()

    with read_only_store():
        response = visitor.get("/vendors/groq/")

    assert response.status_code == 200
    assert response["X-Stored-Page"] == "stale"
    assert response.content == before


def test_render_pages_without_options_renders_failed_pages_whatever_their_next_try(demo):  # noqa: F811
    with read_only_store():
        publish_groq_fact()
    assert StoredPage.objects.exclude(error="").exists()

    call_command("render_pages", jobs=1)

    assert not StoredPage.objects.exclude(error="").exists()


def test_superusers_see_on_the_admin_index_renders_failing_for_more_than_ten_minutes(
    demo,  # noqa: F811
    admin_client,
    client,
):
    with read_only_store():
        publish_groq_fact()
    assert b"not rendered for more than" not in admin_client.get("/admin/").content  # just failed

    StoredPage.objects.exclude(error="").update(failed_at=timezone.now() - dt.timedelta(minutes=11))

    assert b"not rendered for more than 10 minutes" in admin_client.get("/admin/").content
    client.force_login(make_staff_user(group="Editor"))
    assert b"not rendered for more than" not in client.get("/admin/").content


def running_task(worker_id, *, started_ago):
    result = write_file.enqueue("/nonexistent/never-written")
    DBTaskResult.objects.filter(pk=result.id).update(
        status=TaskResultStatus.RUNNING,
        worker_ids=[worker_id],
        started_at=timezone.now() - dt.timedelta(seconds=started_ago),
    )
    return result.id


def status(pk):
    return DBTaskResult.objects.get(pk=pk).status


def test_a_task_held_by_a_worker_whose_lease_ended_is_queued_again(database_backend):  # noqa: F811
    leases.renew("alive", check_every=5)
    TaskWorker.objects.create(worker_id="killed", alive_until=timezone.now() - dt.timedelta(seconds=1))
    killed = running_task("killed", started_ago=5)
    held = running_task("alive", started_ago=600)
    unknown_long = running_task("no lease", started_ago=600)
    unknown_new = running_task("no lease", started_ago=1)

    assert leases.reclaim_expired() == 2

    assert status(killed) == status(unknown_long) == TaskResultStatus.READY
    assert status(held) == status(unknown_new) == TaskResultStatus.RUNNING


def test_a_worker_started_again_under_its_id_takes_back_what_it_left_running(database_backend):  # noqa: F811
    mine = running_task("worker-1", started_ago=1)
    other = running_task("worker-2", started_ago=1)

    assert leases.reclaim_own("worker-1") == 1

    assert status(mine) == TaskResultStatus.READY
    assert status(other) == TaskResultStatus.RUNNING
