import datetime as dt
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models

if TYPE_CHECKING:
    from .stored import Entry


class SecurityEvent(models.Model):
    """One thing that matters to the site's security: a sign-in, a failure, a lockout and its
    clearing, a change of someone's role or second factor. Written by
    ``infra.security.record_security_event``; never changed afterwards."""

    class Kind(models.TextChoices):
        SIGN_IN = "sign_in", "Signed in"
        SIGN_IN_FAILED = "sign_in_failed", "Sign-in failed"
        LOCKED_OUT = "locked_out", "Sign-in paused (too many failures)"
        LOCKOUT_CLEARED = "lockout_cleared", "Sign-in pause lifted"
        ROLE_CHANGED = "role_changed", "Role changed"
        SECOND_FACTOR_ADDED = "second_factor_added", "Second factor added"
        SECOND_FACTOR_REMOVED = "second_factor_removed", "Second factor removed"
        SECOND_FACTOR_FAILED = "second_factor_failed", "Second factor refused"

    at = models.DateTimeField("when", auto_now_add=True, db_index=True)
    kind = models.CharField(max_length=32, choices=Kind.choices, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="security_events",
        help_text="The account the event is about, if it exists.",
    )
    username = models.CharField(
        max_length=150,
        blank=True,
        help_text="The username as typed or as it was then; kept when the account is gone.",
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="by",
        help_text="Who was signed in and made the change, when it is someone else's.",
    )
    ip_address = models.GenericIPAddressField(
        "from address", null=True, blank=True, help_text="The client's address (infra/client.py)."
    )
    detail = models.TextField(blank=True, help_text="What changed, in words.")

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = "security event"

    def __str__(self):
        return f"{self.get_kind_display()}: {self.username or 'no username'}"


class StoredPage(models.Model):
    """The index of the page store (infra/stored/): which address shows what, its ETag, and
    the last render's failure. The bytes themselves live in the store, never in this table, so
    the site answers from them while the database is away."""

    path = models.CharField(max_length=500, unique=True)
    file = models.CharField(max_length=500, help_text="Its file in the store and the export.")
    etag = models.CharField(max_length=64)
    release = models.CharField(max_length=64, db_index=True)
    rendered_at = models.DateTimeField(null=True, blank=True)
    until = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When it stops being true by itself."
    )
    error = models.TextField(blank=True, help_text="Why the last render failed; empty when it worked.")
    failed_at = models.DateTimeField(
        "failing since", null=True, blank=True, db_index=True, help_text="When its renders began to fail."
    )
    attempts = models.PositiveIntegerField(
        "failed renders", default=0, help_text="Renders that failed in a row; 0 once one works."
    )
    next_try = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When the worker's sweep renders a failed page again."
    )

    class Meta:
        ordering = ["path"]
        verbose_name = "stored page"

    def __str__(self):
        return self.path

    @classmethod
    def record_many(cls, entries):
        """Renders stored ``entries`` (infra.stored.Entry): index each under its keys, in one
        transaction. A page whose row a newer render wrote meanwhile keeps that row."""
        from django.db import transaction

        def moment(timestamp):
            return dt.datetime.fromtimestamp(timestamp, tz=dt.UTC) if timestamp else None

        latest: dict[str, Entry] = {}
        for entry in entries:  # an address written twice in one batch: its last render
            if entry.path not in latest or entry.rendered_at >= latest[entry.path].rendered_at:
                latest[entry.path] = entry
        with transaction.atomic():
            newer = set(cls.objects.filter(path__in=list(latest)).values_list("path", "rendered_at"))
            for path, rendered_at in newer:
                if rendered_at is not None and rendered_at > moment(latest[path].rendered_at):
                    del latest[path]
            if not latest:
                return
            # One statement for every page, new or not (a full render writes thousands).
            StoredPage.objects.bulk_create(
                [
                    StoredPage(
                        path=entry.path,
                        file=entry.file,
                        etag=entry.etag,
                        release=entry.release,
                        rendered_at=moment(entry.rendered_at),
                        until=moment(entry.until),
                        error="",
                        failed_at=None,
                        attempts=0,
                        next_try=None,
                    )
                    for entry in latest.values()
                ],
                update_conflicts=True,
                unique_fields=["path"],
                update_fields=[
                    *["file", "etag", "release", "rendered_at", "until"],
                    *["error", "failed_at", "attempts", "next_try"],
                ],
            )
            ids = dict(cls.objects.filter(path__in=list(latest)).values_list("path", "pk"))
            known = set(StoredPageKey.objects.filter(page_id__in=ids.values()).values_list("page_id", "key"))
            wanted = {(ids[path], key) for path, entry in latest.items() for key in entry.keys}
            gone = known - wanted
            if gone:
                by_page: dict[int, list[str]] = {}
                for page_id, key in gone:
                    by_page.setdefault(page_id, []).append(key)
                for page_id, keys in by_page.items():
                    StoredPageKey.objects.filter(page_id=page_id, key__in=keys).delete()
            StoredPageKey.objects.bulk_create(
                [StoredPageKey(page_id=page_id, key=key) for page_id, key in sorted(wanted - known)]
            )

    @classmethod
    def failed(cls, path: str, error: str, *, now: dt.datetime | None = None) -> None:
        """A render of ``path`` failed: keep why, and when the sweep tries again (``retry_after``).
        An address never stored gets a row of its own (no file yet), so that it is retried too."""
        from django.db import transaction
        from django.utils import timezone

        now = now or timezone.now()
        with transaction.atomic():
            cls.objects.get_or_create(path=path, defaults={"file": "", "etag": "", "release": ""})
            page = cls.objects.select_for_update().get(path=path)
            page.attempts += 1
            page.error = error[:2000]
            page.failed_at = page.failed_at or now
            page.next_try = now + retry_after(page.attempts)
            page.save(update_fields=["attempts", "error", "failed_at", "next_try"])


# A failed render is tried again after 30 s, then 1 min, 2 min, 4 min, 8 min, then every 10 min.
RETRY_FIRST = dt.timedelta(seconds=30)
RETRY_AT_MOST = dt.timedelta(minutes=10)


def retry_after(attempts: int) -> dt.timedelta:
    """How long after its ``attempts``-th failure in a row a page is rendered again."""
    return min(RETRY_FIRST * 2 ** min(max(attempts - 1, 0), 16), RETRY_AT_MOST)


class StoredPageKey(models.Model):
    """One thing a stored page shows (``vendor-12``, ``lane-3``, ``entries``)."""

    page = models.ForeignKey(StoredPage, on_delete=models.CASCADE, related_name="keys")
    key = models.CharField(max_length=100, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["page", "key"], name="stored_page_key_once")]

    def __str__(self):
        return self.key


class PeriodicRun(models.Model):
    """When the worker last enqueued one periodic task (infra/periodic.py). Kept in the database
    so that every worker process reads the same time and a restart forgets nothing; a run is
    claimed by a conditional UPDATE of this row, so two workers never both enqueue it."""

    name = models.CharField(
        max_length=200, unique=True, help_text="The schedule's name, as it was registered in code."
    )
    last_enqueued_at = models.DateTimeField(
        "last enqueued", null=True, blank=True, help_text="Empty until the task is first enqueued."
    )

    class Meta:
        ordering = ["name"]
        verbose_name = "periodic task run"

    def __str__(self):
        return self.name


class TaskWorker(models.Model):
    """One task worker process (``run_worker`` with the database backend) and how long it is
    known to be alive: it renews the lease every few seconds. A task it holds as running once the
    lease has ended was cut short (the process was killed) and is queued again (infra/leases.py)."""

    worker_id = models.CharField(
        max_length=200, unique=True, help_text="Its --worker-id, or the random one it was given."
    )
    alive_until = models.DateTimeField(db_index=True, help_text="When its lease ends unless renewed.")

    class Meta:
        ordering = ["worker_id"]
        verbose_name = "task worker"

    def __str__(self):
        return self.worker_id


class KeptRow(models.Model):
    """A row a list repeats, rendered once for a published version and kept with it (infra/rows/):
    its HTML, the keys its render showed with the change counter's value then, and when it stops
    being true by itself."""

    kind = models.CharField(max_length=40)
    owner = models.BigIntegerField(help_text="The published version's primary key.")
    html = models.TextField()
    keys = models.JSONField(default=list)
    stamp = models.BigIntegerField(help_text="The change counter when its render began.")
    until = models.DateTimeField(null=True, blank=True)
    data = models.JSONField(
        default=dict, blank=True, help_text="What a page computes with beside the HTML (a chip's memory)."
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "owner"], name="kept_row_once")]

    def __str__(self):
        return f"{self.kind} row of {self.owner}"
