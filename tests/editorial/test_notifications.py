"""E-mail about the workflow (editorial/notifications.py): who is told what, each as they chose,
through Django's test outbox and through a real SMTP server (aiosmtpd) on a port of the test's own."""

import socket

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.utils import timezone

from editorial import notifications, services
from editorial.models import Notification, NotificationSetting
from tests import factories as f
from vendors.models import Vendor

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://chipsite.example"


def staff(group, name):
    user = f.make_staff_user(group=group, username=name)
    user.email = f"{name}@example.com"
    user.save(update_fields=["email"])
    return user


@pytest.fixture
def people():
    return {
        "editor": staff("Editor", "eddie"),
        "pat": staff("Publisher", "pat"),
        "quinn": staff("Publisher", "quinn"),
    }


@pytest.fixture
def edited():
    vendor = f.make_vendor(name="AWS Trainium")
    Vendor.objects.filter(pk=vendor.pk).update(summary="Edited.", has_unpublished_changes=True)
    vendor.refresh_from_db()
    return vendor


def post_step(client, user, item, name, capture, **data):
    client.force_login(user)
    with capture(execute=True):  # what the step sends once its transaction commits
        return client.post(f.admin_workflow_url(item, name), data)


def test_a_submit_emails_every_publisher_naming_the_item_and_linking_to_its_change_page(
    client, people, edited, django_capture_on_commit_callbacks
):
    post_step(client, people["editor"], edited, "submit", django_capture_on_commit_callbacks, message="HBM?")

    assert sorted(m.to[0] for m in mail.outbox) == ["pat@example.com", "quinn@example.com"]
    message = mail.outbox[0]
    assert message.subject == "Waiting for your review: AWS Trainium"
    assert f"https://chipsite.example/admin/vendors/vendor/{edited.pk}/change/" in message.body
    assert "eddie submitted" in message.body and "HBM?" in message.body


def test_requested_changes_email_the_submitter_with_the_comment_and_a_resubmit_emails_again(
    client, people, edited, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    post_step(client, people["editor"], edited, "submit", capture)
    mail.outbox.clear()

    post_step(client, people["pat"], edited, "request-changes", capture, comment="Cite the spec sheet.")

    (message,) = mail.outbox
    assert message.to == ["eddie@example.com"] and message.subject == "Changes requested: AWS Trainium"
    assert "Cite the spec sheet." in message.body
    mail.outbox.clear()
    post_step(client, people["editor"], edited, "submit", capture)
    assert sorted(m.to[0] for m in mail.outbox) == ["pat@example.com", "quinn@example.com"]


def test_a_publish_tells_whoever_submitted_it(client, people, edited, django_capture_on_commit_callbacks):
    post_step(client, people["editor"], edited, "submit", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    post_step(client, people["pat"], edited, "publish", django_capture_on_commit_callbacks)
    (message,) = mail.outbox
    assert message.to == ["eddie@example.com"] and message.subject == "Published: AWS Trainium"


def test_the_published_email_has_the_public_note_and_a_link_to_the_live_page(
    client, people, edited, django_capture_on_commit_callbacks
):
    post_step(client, people["editor"], edited, "submit", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    post_step(
        client, people["pat"], edited, "publish", django_capture_on_commit_callbacks, note="Neuron added vLLM"
    )
    (message,) = mail.outbox
    assert "The public note, in the change log: Neuron added vLLM" in message.body
    assert f"The live page: https://chipsite.example/vendors/{edited.slug}/\n" in message.body
    assert f"Open it in the admin: https://chipsite.example/admin/vendors/vendor/{edited.pk}/change/" in (
        message.body
    )


def test_the_scheduled_email_says_from_when_the_page_is_live_with_its_note(
    client, people, edited, django_capture_on_commit_callbacks
):
    import datetime as dt

    post_step(client, people["editor"], edited, "submit", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    at = timezone.localtime() + dt.timedelta(days=1)
    post_step(
        client, people["pat"], edited, "schedule", django_capture_on_commit_callbacks,
        at=f"{at:%Y-%m-%dT%H:%M}", note="Trainium3 memory per AWS",
    )  # fmt: skip
    (message,) = mail.outbox
    assert message.subject == "Scheduled: AWS Trainium"
    assert "The public note, in the change log: Trainium3 memory per AWS" in message.body
    assert (
        f"The page, live from {at:%-d %b %Y %H:%M}: https://chipsite.example/vendors/{edited.slug}/\n"
        in message.body
    )


def test_each_user_chooses_each_a_digest_or_none(people, edited, django_capture_on_commit_callbacks):
    NotificationSetting.objects.create(user=people["pat"], how=NotificationSetting.How.OFF)
    NotificationSetting.objects.create(user=people["quinn"], how=NotificationSetting.How.DAILY)

    with django_capture_on_commit_callbacks(execute=True):
        services.submit_for_review(obj=edited, user=people["editor"])

    assert mail.outbox == []  # pat turned it off; quinn's waits for the digest
    notifications.send_digests.call()
    (digest,) = mail.outbox
    assert digest.to == ["quinn@example.com"] and digest.subject == "Your chipsite digest"
    assert "Waiting for your review: AWS Trainium" in digest.body
    assert not Notification.objects.unsent().filter(recipient=people["quinn"]).exists()


def test_the_daily_digest_lists_an_editors_stale_rows_and_dead_sources(people):
    vendor = f.make_vendor(name="Groq")
    dead = f.make_source(title="LPU spec sheet", url="https://groq.example/lpu")
    f.make_fact(
        vendor=vendor, value="230 MB SRAM", verified_by=people["editor"], verified_on=None, sources=[dead]
    )
    type(dead).objects.filter(pk=dead.pk).update(problem="returned 404", problem_on=timezone.localdate())

    notifications.send_digests.call()

    (digest,) = [m for m in mail.outbox if m.to == ["eddie@example.com"]]
    assert "1 of the facts you verified are stale: Groq:" in digest.body
    assert "A source you cite is failing (returned 404): LPU spec sheet" in digest.body


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        self.messages.append((envelope.rcpt_tos, envelope.content.decode()))
        return "250 OK"


def smtp_settings(settings, port):
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": 5},
        }
    }


def test_through_a_real_smtp_server_a_submit_reaches_the_publishers(
    settings, people, edited, django_capture_on_commit_callbacks
):
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        smtp_settings(settings, port)
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_for_review(obj=edited, user=people["editor"], message="Please look.")
    finally:
        controller.stop()

    assert sorted(to for (to,), _ in inbox.messages) == ["pat@example.com", "quinn@example.com"]
    assert all("Please look." in text for _, text in inbox.messages)


def test_a_failing_smtp_server_never_loses_the_step_and_the_message_goes_once_it_is_back(
    settings, people, edited, django_capture_on_commit_callbacks
):
    port = free_port()  # nothing listens there yet
    smtp_settings(settings, port)

    with django_capture_on_commit_callbacks(execute=True):
        services.submit_for_review(obj=edited, user=people["editor"])

    edited.refresh_from_db()
    assert edited.review_requested_by == people["editor"]  # the step stands
    waiting = Notification.objects.unsent()
    assert waiting.count() == 2 and all(n.attempts == 1 and n.last_error for n in waiting)

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        assert notifications.send_waiting.call() == {"sent": 2, "failed": 0}  # the worker's retry
    finally:
        controller.stop()
    assert len(inbox.messages) == 2 and not Notification.objects.unsent().exists()


def test_the_admin_lists_a_message_that_failed_and_why(admin_client, people):
    Notification.objects.create(
        recipient=people["pat"], subject="Waiting for your review: X", body="…", attempts=3,
        last_error="ConnectionRefusedError: [Errno 111] Connection refused",
    )  # fmt: skip
    page = admin_client.get("/admin/editorial/notification/?status=failed").content.decode()
    assert "Not sent after 3 tries" in page and "Connection refused" in page


def test_the_admin_home_tells_superusers_that_mail_is_failing_and_editors_nothing(
    client, admin_client, people
):
    Notification.objects.create(
        recipient=people["pat"], subject="Waiting for your review: X", body="…", attempts=2,
        last_error="ConnectionRefusedError: [Errno 111] Connection refused",
    )  # fmt: skip
    Notification.objects.create(recipient=people["pat"], subject="Sent", body="…", attempts=1,
                                sent_at=timezone.now())  # fmt: skip

    home = admin_client.get("/admin/").content.decode()
    assert '<a href="/admin/editorial/notification/?status=failed">1 e-mail to editors not sent</a>' in home
    client.force_login(people["editor"])
    assert "not sent" not in client.get("/admin/").content.decode()


def test_a_user_sets_how_they_hear_on_their_own_settings_page(client, people):
    client.force_login(people["editor"])
    page = client.get("/admin/editorial/notificationsetting/", follow=True)
    assert page.status_code == 200 and 'name="how"' in page.content.decode()
    own = NotificationSetting.objects.get(user=people["editor"])
    client.post(f"/admin/editorial/notificationsetting/{own.pk}/change/", {"how": "daily"})
    own.refresh_from_db()
    assert own.how == "daily"
    other = NotificationSetting.objects.create(user=people["pat"])
    assert client.get(f"/admin/editorial/notificationsetting/{other.pk}/change/").status_code in (302, 403)
