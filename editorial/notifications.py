"""Telling people about the workflow, by e-mail through Django's mail (settings.EMAIL_*).

- A submit for review reaches every Publisher of the item; requested changes, a publish and a
  schedule reach whoever submitted it. Each message links to the item's change page, absolute
  from SITE_URL.
- Each user chooses (``NotificationSetting``): an e-mail for each, one daily digest, or none.
- A message is a ``Notification`` row first, written in the workflow step's transaction, and
  sent after it commits by a task (``send_waiting``) that the worker also runs every minute: an
  SMTP server that fails never undoes the step, and what failed is retried (``MAX_ATTEMPTS``)
  with its error on the row, which the admin lists.
- Once a day (``send_digests``) each user who takes a digest gets what was held for them, and
  every editor who has not turned e-mail off gets the parts the apps add (``register_digest_part``):
  their stale rows and dead sources.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.tasks import task
from django.urls import reverse
from django.utils import timezone

from .models import Notification, NotificationSetting

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from .models import Editable, PublishedVersion

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 10  # then it stays in the admin's list, unsent, for someone to look at
_digest_parts: list[Callable[[User], list[str]]] = []


def register_digest_part(part: Callable[[User], list[str]]) -> None:
    """``part(user)`` gives the lines of the user's daily digest an app adds ([] for nothing)."""
    _digest_parts.append(part)


def how(user: User) -> str:
    setting = NotificationSetting.objects.filter(user=user).values_list("how", flat=True).first()
    return setting or NotificationSetting.How.EACH


def absolute(path: str) -> str:
    """``path`` on the site's one address (SITE_URL): links in an e-mail open from anywhere."""
    return settings.SITE_URL.rstrip("/") + path


def change_page(obj: Editable, *, page: str = "change") -> str:
    """The item's change page in the admin, or another of its admin pages (``preview``)."""
    opts = obj._meta
    return absolute(reverse(f"admin:{opts.app_label}_{opts.model_name}_{page}", args=[obj.pk]))


def publishers_of(obj: Editable) -> list[User]:
    """Active staff who may publish ``obj``."""
    opts = obj._meta
    codename = f"publish_{opts.model_name}"
    may = (
        Q(is_superuser=True)
        | Q(
            groups__permissions__codename=codename,
            groups__permissions__content_type__app_label=opts.app_label,
        )
        | Q(user_permissions__codename=codename, user_permissions__content_type__app_label=opts.app_label)
    )
    return list(get_user_model().objects.filter(may, is_active=True, is_staff=True).distinct().order_by("pk"))


def notify(
    *, users: Iterable[User | None], subject: str, body: str, leave_out: User | None = None
) -> list[Notification]:
    """Write a message to each of ``users`` with an address (but ``leave_out``, who did it) as
    they chose, and send the ones for now once the transaction commits."""
    written = []
    for user in {u.pk: u for u in users if u is not None}.values():
        if not user.email or (leave_out is not None and user.pk == leave_out.pk):
            continue
        choice = how(user)
        if choice == NotificationSetting.How.OFF:
            continue
        written.append(
            Notification.objects.create(
                recipient=user, subject=subject, body=body, digest=choice == NotificationSetting.How.DAILY
            )
        )
    if any(not n.digest for n in written):
        transaction.on_commit(lambda: send_waiting.enqueue())
    return written


def _sign(body: str) -> str:
    settings_page = absolute(reverse("admin:editorial_notificationsetting_changelist"))
    return f"{body}\n\n-- \nchipsite: change how you hear about this at {settings_page}\n"


def submitted(*, obj: Editable, by: User, message: str) -> None:
    said = f"\n\nTheir message:\n{message.strip()}" if message.strip() else ""
    notify(
        users=publishers_of(obj),
        leave_out=by,
        subject=f"Waiting for your review: {obj}",
        body=_sign(
            f"{by} submitted “{obj}” for review.{said}\n\nReview it: {change_page(obj)}\n"
            f"The working copy beside the live page: {change_page(obj, page='preview')}"
        ),
    )


def changes_requested(*, obj: Editable, by: User, to: User | None, comment: str) -> None:
    notify(
        users=[to],
        leave_out=by,
        subject=f"Changes requested: {obj}",
        body=_sign(
            f"{by} sent “{obj}” back with this comment:\n\n{comment.strip()}\n\nOpen it: {change_page(obj)}"
        ),
    )


def published(
    *, obj: Editable, version: PublishedVersion, by: User | None, to: User | None, when: str | None
) -> None:
    """Tell whoever submitted ``obj`` that ``version`` is live (or when it goes live), with its
    public note and the page readers see."""
    what = f"scheduled “{obj}” to go live {when}" if when else f"published “{obj}”: visitors see it now"
    note = f"\n\nThe public note, in the change log: {version.note}" if version.note else ""
    page = f"The page, live from {when}" if when else "The live page"
    notify(
        users=[to],
        leave_out=by,
        subject=f"{'Scheduled' if when else 'Published'}: {obj}",
        body=_sign(
            f"{by or 'Someone'} {what}.{note}\n\n{page}: {absolute(version.get_absolute_url())}\n"
            f"Open it in the admin: {change_page(obj)}"
        ),
    )


def _send(notification: Notification, *, body: str | None = None) -> bool:
    try:
        send_mail(
            notification.subject,
            body or notification.body,
            settings.DEFAULT_FROM_EMAIL,
            [notification.recipient.email],
        )
    except Exception as error:  # noqa: BLE001 - any SMTP or network failure: kept, retried
        notification.attempts += 1
        notification.last_error = f"{type(error).__name__}: {error}"[:2000]
        notification.save(update_fields=["attempts", "last_error"])
        log.warning("Notification %s not sent (try %s): %s", notification.pk, notification.attempts, error)
        return False
    notification.sent_at = timezone.now()
    notification.attempts += 1
    notification.last_error = ""
    notification.save(update_fields=["sent_at", "attempts", "last_error"])
    return True


@task()
def send_waiting() -> dict[str, int]:
    """Send every message that is for now and not yet sent (up to MAX_ATTEMPTS tries each)."""
    waiting = Notification.objects.unsent().filter(digest=False, attempts__lt=MAX_ATTEMPTS)
    sent = failed = 0
    for notification in waiting.select_related("recipient").order_by("pk"):
        if _send(notification):
            sent += 1
        else:
            failed += 1
    return {"sent": sent, "failed": failed}


@task()
def send_digests() -> dict[str, int]:
    """Each user's daily digest: what was held for them, and what the apps add."""
    sent = 0
    for user in (
        get_user_model().objects.filter(is_active=True, is_staff=True).exclude(email="").order_by("pk")
    ):
        choice = how(user)
        if choice == NotificationSetting.How.OFF:
            continue
        held = list(Notification.objects.unsent().filter(recipient=user, digest=True).order_by("pk"))
        parts = [line for part in _digest_parts for line in part(user)]
        if not held and not parts:
            continue
        lines = [f"- {n.subject}\n  {n.body.split(chr(10) + chr(10) + '-- ')[0].strip()}" for n in held]
        body = _sign("\n\n".join([*lines, *parts]))
        with transaction.atomic():
            # What it holds goes with it; the digest itself is sent (and retried) as any message.
            digest = Notification.objects.create(recipient=user, subject="Your chipsite digest", body=body)
            Notification.objects.filter(pk__in=[n.pk for n in held]).update(sent_at=timezone.now())
        sent += _send(digest)
    return {"sent": sent}
