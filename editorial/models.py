"""What editors work on, and what visitors read.

An item (a vendor profile, a comparison) is edited in its working copy: the editing
tables. Visitors never read those. Publishing writes an immutable *published version*:
the whole document as it was published, plus the few indexed columns that lists sort
and filter on. The live version of an item is the one whose time span covers now:

    published_at <= now < superseded_at (or superseded_at is empty)

so a scheduled version (its publish time still to come) goes live by itself, with no
job to run, and unpublishing ends the live version's span without deleting it.
"""

import datetime as dt
from typing import TYPE_CHECKING, Self, TypeVar

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.db.models import Q
from django.utils import timezone

from infra.stored import shows


class Editable(models.Model):
    """A working copy: when it was made and changed, and where it stands in review."""

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    has_unpublished_changes = models.BooleanField(
        default=True,
        editable=False,
        help_text="The working copy differs from the live or scheduled version.",
    )
    review_requested_at = models.DateTimeField(null=True, blank=True, editable=False)
    review_requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )

    class Meta:
        abstract = True


# Covariant, as QuerySet's model is: a queryset of annotated versions is one of versions.
V = TypeVar("V", bound="PublishedVersion", covariant=True)


class VersionQuerySet(models.QuerySet[V]):
    def live(self, *, at: dt.datetime | None = None) -> Self:
        """The versions visitors read: published, their time come, not yet superseded."""
        at = at or timezone.now()
        return self.filter(published_at__lte=at).filter(
            Q(superseded_at__isnull=True) | Q(superseded_at__gt=at)
        )

    def pending(self, *, at: dt.datetime | None = None) -> Self:
        """Versions scheduled for a time still to come."""
        return self.filter(published_at__gt=at or timezone.now())

    def past(self, *, at: dt.datetime | None = None) -> Self:
        """Every version that has been live, newest first: the change log's material."""
        return self.filter(published_at__lte=at or timezone.now()).order_by("-published_at", "-number")


class PublishedVersion(models.Model):
    """One immutable published version of an item. Concrete models add ``item`` and their columns."""

    number = models.PositiveIntegerField(help_text="1 for the first published version, then 2, 3, ...")
    published_at = models.DateTimeField(
        "live from", db_index=True, help_text="Visitors see this version from this time on."
    )
    superseded_at = models.DateTimeField(
        "live until",
        null=True,
        blank=True,
        db_index=True,
        help_text="When the next version took over or the item was unpublished.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    note = models.CharField(
        "public note", max_length=300, blank=True, help_text="Shown to readers in the change log."
    )
    changes = models.JSONField(
        default=list, blank=True, help_text="What changed since the previous version, in words."
    )
    history = models.JSONField(
        default=list,
        blank=True,
        help_text="The change log up to and including this version, oldest first: the public "
        "history travels with the version, so a page reads it with the version itself.",
    )
    content_changed = models.BooleanField(
        default=True, help_text="False for a version that only moved verified dates."
    )
    source_version_id = models.PositiveIntegerField(
        null=True, blank=True, help_text="The working-copy revision (django-reversion) it was made from."
    )
    document = models.JSONField(help_text="The whole page as published.")

    objects = VersionQuerySet.as_manager()

    if TYPE_CHECKING:  # every concrete version model has its foreign key to the item, and its page
        item: Editable
        item_id: int

        def get_absolute_url(self) -> str: ...

    class Meta:
        abstract = True
        ordering = ["-published_at", "-number"]
        get_latest_by = "published_at"

    def __str__(self):
        return f"{self.item} version {self.number}"

    @classmethod
    def page_key_prefix(cls) -> str:
        """``vendor`` for VendorVersion: the stored pages' key of an item is ``vendor-12``."""
        return cls._meta.label_lower.partition(".")[2].removesuffix("version")  # "vendors.vendorversion"

    @property
    def page_key(self) -> str:
        """What a stored page that reads this item's published document shows (infra/stored/)."""
        return f"{self.page_key_prefix()}-{self.item_id}"

    @property
    def archive_key(self) -> str:
        """What a page of one of its versions at their permanent addresses shows: the versions
        are immutable, so only the item going live or away, or a new address, changes them."""
        return f"{self.page_key}-versions"

    @property
    def history_key(self) -> str:
        """What a page of the item's change log shows (its page, feed and API list): its address,
        name, lane and published changes, which a verification's new version leaves as they were."""
        return f"{self.page_key}-history"

    @property
    def chips_key(self) -> str:
        """What a page that reads only the chips part of the item's document shows (a chip's
        page, the chip list): the vendor's name and address, its chips and their sources."""
        return f"{self.page_key}-chips"

    def read_as_archived(self, *, banner: bool = True) -> Self:
        """This version, read at its permanent address (a version page, its citation files):
        such a page shows the item's versions, not its live document. A version page's
        ``banner`` names the current version and counts them (“version 1 of 3”), so each new
        version changes it; a citation file has none."""
        self.archived = True
        shows(self.archive_key)
        if banner:
            shows(self.page_key)
        return self

    @property
    def is_live(self):
        now = timezone.now()
        return self.published_at <= now and (self.superseded_at is None or self.superseded_at > now)


class CommentQuerySet(models.QuerySet["Comment"]):
    def on(self, item: models.Model) -> Self:
        """The conversation about ``item``, oldest first."""
        return self.filter(content_type=ContentType.objects.get_for_model(item), object_id=item.pk)

    def open(self) -> Self:
        return self.filter(resolved_at__isnull=True)


class Comment(models.Model):
    """One word in an item's review conversation: the message of a submit for review, or the
    changes a publisher asks for. Editors see the thread on the change page and in the history."""

    class Kind(models.TextChoices):
        SUBMITTED = "submitted", "Submitted for review"
        CHANGES_REQUESTED = "changes_requested", "Changes requested"

    content_type = models.ForeignKey(ContentType, on_delete=models.CASCADE)
    object_id = models.PositiveIntegerField()
    item = GenericForeignKey("content_type", "object_id")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    text = models.TextField(max_length=2000, blank=True)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    addressed_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who it is for: the editor who submitted the item, for changes requested.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = CommentQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["content_type", "object_id"], name="comment_item")]

    def __str__(self):
        return f"{self.get_kind_display()} by {self.author or 'someone'}"


class NotificationSetting(models.Model):
    """How one user hears about the workflow (editorial/notifications.py)."""

    class How(models.TextChoices):
        EACH = "each", "An e-mail for each"
        DAILY = "daily", "One daily digest"
        OFF = "off", "None"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    how = models.CharField(
        "e-mail me", max_length=5, choices=How.choices, default=How.EACH,
        help_text="Submits, requested changes, publishes and schedules of your work; and, daily, "
        "your stale rows and dead sources.",
    )  # fmt: skip

    def __str__(self):
        return f"{self.user}: {self.get_how_display()}"


class NotificationQuerySet(models.QuerySet["Notification"]):
    def unsent(self) -> Self:
        return self.filter(sent_at__isnull=True)

    def failing(self) -> Self:
        """Tried and not sent yet (the mail server refused or was away): retried every minute."""
        return self.unsent().filter(attempts__gt=0)


class Notification(models.Model):
    """One message to one user: sent at once (``digest`` False), retried until it goes, or held
    for their daily digest. Kept after sending, as a record of who was told what."""

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    subject = models.CharField(max_length=200)
    body = models.TextField()
    digest = models.BooleanField(default=False, help_text="Held for the recipient's daily digest.")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, help_text="Why the last try to send it failed.")

    objects = NotificationQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self):
        return f"To {self.recipient}: {self.subject}"
