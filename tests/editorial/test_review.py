"""The review conversation: a submit's message, changes requested with a comment, comments
on the change page and in the history, and unpublishing scheduled ahead."""

import datetime as dt
from contextlib import contextmanager
from unittest import mock

import pytest
from django.utils import timezone

from editorial import services
from editorial.models import Comment
from tests import factories as f
from vendors.models import Vendor, VendorVersion

pytestmark = pytest.mark.django_db


@contextmanager
def clock(moment):
    """Every timezone.now() (the live rule among them) reads ``moment``."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


@pytest.fixture
def editor(client):
    return f.make_staff_user(group="Editor", username="eddie")


@pytest.fixture
def publisher():
    return f.make_staff_user(group="Publisher", username="pat")


@pytest.fixture
def edited():
    """A live profile with an unpublished edit in its working copy."""
    vendor = f.make_vendor(name="AWS Trainium", summary="Live words.")
    Vendor.objects.filter(pk=vendor.pk).update(summary="Edited words.", has_unpublished_changes=True)
    vendor.refresh_from_db()
    return vendor


def step(client, user, item, name, **data):
    client.force_login(user)
    return client.post(f.admin_workflow_url(item, name), data, follow=True)


def test_a_submit_carries_its_message_into_the_conversation_on_the_change_page(client, editor, edited):
    page = step(client, editor, edited, "submit", message="Check the HBM figure, please.")

    edited.refresh_from_db()
    assert edited.review_requested_by == editor
    (comment,) = Comment.objects.on(edited)
    assert (comment.kind, comment.text, comment.author) == (
        Comment.Kind.SUBMITTED,
        "Check the HBM figure, please.",
        editor,
    )
    html = page.content.decode()
    assert "Review conversation" in html and "Check the HBM figure, please." in html


def test_requested_changes_send_it_back_with_the_comment_on_the_page_and_in_the_history(
    client, editor, publisher, edited
):
    step(client, editor, edited, "submit")

    page = step(client, publisher, edited, "request-changes", comment="Cite the spec sheet for memory.")

    edited.refresh_from_db()
    assert edited.review_requested_at is None  # no longer waiting for review
    assert "Sent back with your comment" in page.content.decode()
    client.force_login(editor)
    change_page = client.get(f.admin_change_url(edited)).content.decode()
    assert "Changes requested" in change_page and "Cite the spec sheet for memory." in change_page
    history = client.get(f"/admin/vendors/vendor/{edited.pk}/history/").content.decode()
    assert "Cite the spec sheet for memory." in history
    assert "Submit for review</button>" in change_page  # and it may be submitted again


@pytest.mark.parametrize("comment", ["", "   "])
def test_changes_requested_without_a_comment_are_refused_and_nothing_changes(
    client, editor, publisher, edited, comment
):
    step(client, editor, edited, "submit")

    page = step(client, publisher, edited, "request-changes", comment=comment)

    assert "a comment is required" in page.content.decode()
    edited.refresh_from_db()
    assert edited.review_requested_by == editor
    assert list(Comment.objects.on(edited).values_list("kind", flat=True)) == [Comment.Kind.SUBMITTED]


@pytest.mark.parametrize("name", ["request-changes", "schedule-unpublish", "cancel-unpublish"])
def test_an_editors_forged_post_to_a_publishers_step_is_a_403_and_changes_nothing(
    client, editor, edited, name
):
    client.force_login(editor)
    at = (timezone.localtime() + dt.timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    response = client.post(f.admin_workflow_url(edited, name), {"comment": "Nope.", "at": at})
    assert response.status_code == 403
    assert not Comment.objects.on(edited).exists()
    assert VendorVersion.objects.get(item=edited).superseded_at is None


def test_unpublishing_three_days_ahead_leaves_the_page_live_now_and_takes_it_down_then(
    client, publisher, edited
):
    at = timezone.localtime().replace(second=0, microsecond=0) + dt.timedelta(days=3)

    page = step(client, publisher, edited, "schedule-unpublish", at=at.strftime("%Y-%m-%dT%H:%M"))

    assert "it stays live until" in page.content.decode()
    client.logout()
    assert client.get(edited.get_absolute_url()).status_code == 200
    with clock(at - dt.timedelta(minutes=1)):
        assert client.get(edited.get_absolute_url()).status_code == 200
    with clock(at + dt.timedelta(minutes=1)):
        assert client.get(edited.get_absolute_url()).status_code == 404
        assert edited.name not in client.get("/vendors/").content.decode()


def test_unpublishing_at_a_time_gone_by_is_refused_and_nothing_changes(client, publisher, edited):
    past = (timezone.localtime() - dt.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")

    page = step(client, publisher, edited, "schedule-unpublish", at=past)

    assert "Pick a time still to come" in page.content.decode()
    assert VendorVersion.objects.get(item=edited).superseded_at is None


def test_a_scheduled_unpublishing_can_be_called_off(client, publisher, edited):
    at = timezone.now() + dt.timedelta(days=3)
    services.schedule_unpublish(obj=edited, user=publisher, at=at)
    assert (
        "Scheduled unpublishing cancelled"
        in step(client, publisher, edited, "cancel-unpublish").content.decode()
    )

    assert VendorVersion.objects.get(item=edited).superseded_at is None
    with clock(at + dt.timedelta(minutes=1)):
        client.logout()
        assert client.get(edited.get_absolute_url()).status_code == 200


def test_the_editor_marks_a_requested_change_resolved_and_it_stays_in_the_thread(
    client, editor, publisher, edited
):
    comment = services.request_changes(obj=edited, user=publisher, comment="Fix the memory figure.")

    step(client, editor, edited, "resolve", comment_id=comment.pk)

    comment.refresh_from_db()
    assert comment.resolved_by == editor and comment.resolved_at is not None
    html = client.get(f.admin_change_url(edited)).content.decode()
    assert "Fix the memory figure." in html and "resolved by eddie" in html


def test_my_work_on_the_admin_index_shows_what_was_returned_and_my_drafts(client, editor, publisher, edited):
    services.submit_for_review(obj=edited, user=editor)
    services.request_changes(obj=edited, user=publisher, comment="Cite the spec sheet.")
    draft = f.make_vendor(name="Etched", published=False)
    from editorial.revisions import record_revision

    record_revision(draft, comment="First draft", user=editor)
    client.force_login(editor)

    index = client.get("/admin/").content.decode()

    assert "My work" in index
    returned = index[index.index("Returned to me") : index.index("My drafts")]
    assert "AWS Trainium" in returned and "Cite the spec sheet." in returned and "pat" in returned
    drafts = index[index.index("My drafts") :]
    assert "Etched" in drafts[: drafts.index("</table>")]
    client.force_login(publisher)
    assert "Returned to me" not in client.get("/admin/").content.decode()  # it was for the editor


def test_a_publisher_reviewing_a_new_profile_sees_a_summary_of_what_it_holds(client, publisher):
    vendor = f.make_vendor(name="Etched", published=False)
    memory = f.make_attribute(name="Memory")
    f.make_fact(vendor=vendor, attribute=memory, value="144 GB HBM3e", sources=[f.make_source()])
    f.make_fact(vendor=vendor, attribute=f.make_attribute(name="Process"), value="4 nm", verified_on=None)
    client.force_login(publisher)

    page = client.get(f.admin_change_url(vendor)).content.decode()

    summary = page[page.index("What this new vendor holds") :]
    summary = summary[: summary.index("</ul>")]
    assert "2 facts, 0 events, 0 scores, 0 FAQs, citing 1 source." in summary
    assert "Memory: 144 GB HBM3e" in summary and "Without a source: Process." in summary
    assert "1 row never verified" in summary


def test_a_cached_list_is_not_served_past_a_scheduled_unpublishing(client, publisher, edited, settings):
    settings.PAGE_CACHE_ENABLED = True
    noon = (timezone.localtime() + dt.timedelta(days=1)).replace(hour=12, minute=0, second=0, microsecond=0)
    with clock(noon):  # a day's pages are cached until midnight at the latest: this is before it
        services.schedule_unpublish(obj=edited, user=publisher, at=noon + dt.timedelta(hours=1))
        assert "AWS Trainium" in client.get("/vendors/?sort=name").content.decode()  # cached now

    with clock(noon + dt.timedelta(hours=1, minutes=1)):
        assert "AWS Trainium" not in client.get("/vendors/?sort=name").content.decode()
