"""The workflow's writes: publish, schedule, unpublish, discard, revert, submit for review.

Every one takes keyword arguments and works on any registered item (see registry.py);
the admin's buttons and actions only call these. They write versions and send one event
(``events.Changed``: published, unpublished, re-stamped, rescheduled); what visitors' pages
do about it is ``editorial.pages``'s business, not theirs. The reads are in ``selectors``.
The rules:

- Publishing writes a new immutable version from the working copy. A publish time to
  come schedules it; the live version keeps serving until then. A newer publish or
  schedule replaces a version still waiting: the working copy holds all it had.
- Unpublishing ends the live version's time span now; nothing is deleted.
- Discard returns the working copy to the live version (and cancels a schedule).
- Revert loads an old revision into the working copy, as unpublished changes: it never
  touches the live page.
- Verification moves the live page's verified dates at once, without publishing any
  pending content change (see ``refresh_verification``).
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from django.db import transaction
from django.utils import timezone
from reversion.models import Version

from . import document_diff, notifications
from .diff import PUBLIC_SKIP, describe_changes
from .events import Changed, Kind, send
from .models import Comment
from .registry import Document, Publication, publication_for, version_written
from .revisions import latest_version_id, record_revision
from .selectors import live_version, pending_version, unpublishing_at, versions_of, when

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    from .models import Editable, PublishedVersion

    type Editor = User | AnonymousUser | None  # who takes a step; None for a script or migration


class WorkflowError(ValueError):
    """A workflow step that cannot be taken, in words an editor can act on."""


class HistoryEntry(TypedDict):
    """One entry of a version's change log (``PublishedVersion.history``), as ``publish``
    writes it; each kind of item may add its own keys (``Publication.history_entry``)."""

    number: int
    published_at: str  # ISO 8601
    changes: list[str]
    note: str
    first: NotRequired[bool]  # missing from entries written before it was kept


def _write_version(publication: Publication, obj: Editable, **fields: Any) -> PublishedVersion:
    """Store a new version of ``obj``, then its app's rows and the hooks (site search)."""
    # As in selectors._versions: ``item`` is on every concrete version model, not on the abstract one.
    version = publication.version_model.objects.create(item=obj, **fields)  # type: ignore[misc]
    version_written(version)
    return version


def _lock(obj: Editable) -> None:
    """Hold the item's row until the transaction ends: two workflow steps never interleave."""
    list(type(obj)._default_manager.select_for_update().filter(pk=obj.pk).values_list("pk"))


def _next_number(obj: Editable) -> int:
    latest = versions_of(obj).order_by("-number").values_list("number", flat=True).first()
    return (latest or 0) + 1


def _set_state(obj: Editable, **fields: Any) -> None:
    fields.setdefault("updated_at", timezone.now())
    type(obj)._default_manager.filter(pk=obj.pk).update(**fields)
    for name, value in fields.items():
        setattr(obj, name, value)


@transaction.atomic
def publish(
    *, obj: Editable, user: Editor, at: dt.datetime | None = None, note: str = ""
) -> PublishedVersion:
    """Publish the working copy now, or schedule it for ``at``. Returns the new version."""
    publication = publication_for(obj)
    now = timezone.now()
    at = at or now
    _lock(obj)
    live = live_version(obj, at=now)
    if live is not None and at < live.published_at:
        raise WorkflowError(
            f"The live version has been live since {when(live.published_at)}: pick a later time."
        )
    versions_of(obj).pending(at=now).delete()
    previous = live or versions_of(obj).past(at=now).first()
    revision_id = record_revision(
        obj, user=user, comment="Published." if at <= now else f"Scheduled for {when(at)}."
    )
    document = publication.document(obj)
    number, changes = _next_number(obj), _changes(obj, previous, revision_id, document)
    entry = {
        "number": number,
        "published_at": at.isoformat(),
        "changes": changes,
        "note": note.strip(),
        "first": previous is None,
        **publication.history_entry(document),
    }
    version = _write_version(
        publication,
        obj,
        number=number,
        published_at=at,
        created_by=user if user is not None and user.is_authenticated else None,
        note=note.strip(),
        changes=changes,
        history=[*(previous.history if previous else []), entry],
        document=document,
        source_version_id=revision_id,
        **publication.columns(document),
    )
    if live is not None:
        live.superseded_at = at
        live.save(update_fields=["superseded_at"])
    submitter = obj.review_requested_by
    _set_state(obj, has_unpublished_changes=False, review_requested_at=None, review_requested_by=None)
    notifications.published(
        obj=obj, version=version, by=user if user is not None and user.is_authenticated else None,
        to=submitter, when=when(at) if at > now else None,
    )  # fmt: skip
    send(Changed(Kind.PUBLISHED, obj, publication, before=live, after=version, at=at if at > now else None))
    return version


def _changes(
    obj: Editable, previous: PublishedVersion | None, revision_id: int, document: Document
) -> list[str]:
    """The change log's lines: what ``document`` changes against the ``previous`` version's."""
    schema = publication_for(obj).document_schema
    if previous is not None and schema is not None:
        return document_diff.document_changes(
            schema.model_validate(previous.document),
            schema.model_validate(document),
            skip=document_diff.PUBLIC_SKIP,
        )
    if previous is None or not previous.source_version_id:
        return []
    if not Version.objects.filter(pk=previous.source_version_id).exists():
        return []
    return describe_changes(obj, previous.source_version_id, revision_id, skip=PUBLIC_SKIP)


@transaction.atomic
def unpublish(*, obj: Editable, user: Editor) -> None:
    """Take the item off the site now: the live version ends, a scheduled one is cancelled."""
    now = timezone.now()
    _lock(obj)
    versions_of(obj).pending(at=now).delete()
    live = live_version(obj, at=now)
    if live is None:
        raise WorkflowError("It is not live, so there is nothing to unpublish.")
    live.superseded_at = now
    live.save(update_fields=["superseded_at"])
    record_revision(obj, user=user, comment="Unpublished.")
    _set_state(obj, has_unpublished_changes=True)
    send(Changed(Kind.UNPUBLISHED, obj, publication_for(obj), before=live))


@transaction.atomic
def cancel_schedule(*, obj: Editable, user: Editor) -> None:
    """Drop the version waiting for its time; the working copy keeps its changes."""
    now = timezone.now()
    _lock(obj)
    deleted, _ = versions_of(obj).pending(at=now).delete()
    if not deleted:
        raise WorkflowError("Nothing is scheduled.")
    versions_of(obj).live(at=now).update(superseded_at=None)
    record_revision(obj, user=user, comment="Schedule cancelled.")
    refresh_state(obj=obj)
    send(Changed(Kind.RESCHEDULED, obj, publication_for(obj)))


@transaction.atomic
def discard_changes(*, obj: Editable, user: Editor) -> None:
    """Return the working copy to the live version; a scheduled change is cancelled too."""
    publication = publication_for(obj)
    now = timezone.now()
    _lock(obj)
    live = live_version(obj, at=now)
    if live is None:
        raise WorkflowError("It is not live, so there is no published version to go back to.")
    source = Version.objects.filter(pk=live.source_version_id).select_related("revision").first()
    if source is None:
        raise WorkflowError("The revision the live version was made from has been pruned.")
    versions_of(obj).pending(at=now).delete()
    live.superseded_at = None
    live.save(update_fields=["superseded_at"])
    source.revision.revert(delete=True)
    obj.refresh_from_db()
    publication.carry_verification(obj, live.document)
    record_revision(obj, user=user, comment="Unpublished changes discarded: back to the live version.")
    _set_state(obj, has_unpublished_changes=False, review_requested_at=None, review_requested_by=None)
    send(Changed(Kind.RESCHEDULED, obj, publication))  # a cancelled schedule changes what visitors will see


@transaction.atomic
def revert_to(*, obj: Editable, user: Editor, version_id: int) -> None:
    """Load an earlier revision into the working copy. The live page is not touched."""
    publication = publication_for(obj)
    _lock(obj)
    version = Version.objects.get_for_object(obj).select_related("revision").filter(pk=version_id).first()
    if version is None:
        raise WorkflowError("That revision is not one of this item's.")
    if not describe_changes(obj, latest_version_id(obj), version.pk):
        # Loading it would change nothing and record an empty revision.
        raise WorkflowError("The working copy already holds this revision: there is nothing to load.")
    before = publication.document(obj)
    version.revision.revert(delete=True)
    obj.refresh_from_db()
    publication.carry_verification(obj, before)
    record_revision(
        obj, user=user, comment=f"Reverted to the revision of {when(version.revision.date_created)}."
    )
    refresh_state(obj=obj)


@transaction.atomic
def submit_for_review(*, obj: Editable, user: User, message: str = "") -> Comment:
    """Ask a Publisher to review the working copy, with an optional ``message``."""
    if not obj.has_unpublished_changes:
        raise WorkflowError("There is nothing unpublished to review.")
    _lock(obj)
    _set_state(obj, review_requested_at=timezone.now(), review_requested_by=user)
    notifications.submitted(obj=obj, by=user, message=message)
    return _comment(obj, user=user, kind=Comment.Kind.SUBMITTED, text=message)


@transaction.atomic
def request_changes(*, obj: Editable, user: User, comment: str) -> Comment:
    """Send the working copy back with ``comment`` (required): it stops waiting for review."""
    if not comment.strip():
        raise WorkflowError("Say what should change: a comment is required to send it back.")
    if not obj.has_unpublished_changes:
        raise WorkflowError("There is nothing unpublished to send back.")
    _lock(obj)
    submitter = obj.review_requested_by
    _set_state(obj, review_requested_at=None, review_requested_by=None)
    notifications.changes_requested(obj=obj, by=user, to=submitter, comment=comment)
    return _comment(obj, user=user, kind=Comment.Kind.CHANGES_REQUESTED, text=comment, to=submitter)


def _comment(obj: Editable, *, user: User, kind: str, text: str, to: User | None = None) -> Comment:
    return Comment.objects.create(
        item=obj,
        kind=kind,
        text=text.strip(),
        author=user if user.is_authenticated else None,
        addressed_to=to,
    )


@transaction.atomic
def resolve_comment(*, obj: Editable, user: User, comment_id: int) -> Comment:
    """Mark a comment of ``obj``'s conversation done with (it stays in the thread)."""
    comment = Comment.objects.on(obj).open().filter(pk=comment_id).first()
    if comment is None:
        raise WorkflowError("That comment is not an open one of this item's.")
    comment.resolved_at, comment.resolved_by = timezone.now(), user
    comment.save(update_fields=["resolved_at", "resolved_by"])
    return comment


@transaction.atomic
def schedule_unpublish(*, obj: Editable, user: Editor, at: dt.datetime) -> None:
    """Take the item off the site at ``at``, still to come: it stays live until then."""
    publication = publication_for(obj)
    now = timezone.now()
    if at <= now:
        raise WorkflowError("Pick a time still to come; to take it off the site now, use “Unpublish”.")
    _lock(obj)
    live = live_version(obj, at=now)
    if live is None:
        raise WorkflowError("It is not live, so there is nothing to unpublish.")
    if pending_version(obj, at=now) is not None:
        raise WorkflowError("A version is scheduled to go live: cancel the schedule first.")
    live.superseded_at = at
    live.save(update_fields=["superseded_at"])
    record_revision(obj, user=user, comment=f"Unpublishing scheduled for {when(at)}.")
    send(Changed(Kind.UNPUBLISHED, obj, publication, before=live, at=at))  # its pages go when its time comes


@transaction.atomic
def cancel_unpublish(*, obj: Editable, user: Editor) -> None:
    """Keep the item live after all."""
    _lock(obj)
    live = live_version(obj)
    if live is None or unpublishing_at(live=live, pending=pending_version(obj)) is None:
        raise WorkflowError("No unpublishing is scheduled.")
    live.superseded_at = None
    live.save(update_fields=["superseded_at"])
    record_revision(obj, user=user, comment="Scheduled unpublishing cancelled.")
    send(Changed(Kind.RESCHEDULED, obj, publication_for(obj)))


def refresh_state(*, obj: Editable) -> bool:
    """After an edit: does the working copy differ from the version visitors get next?"""
    publication = publication_for(obj)
    target = pending_version(obj) or live_version(obj)
    changed = target is None or publication.content(publication.document(obj)) != publication.content(
        target.document
    )
    fields: dict[str, Any] = {"has_unpublished_changes": changed}
    if not changed:
        fields.update(review_requested_at=None, review_requested_by=None)
    _set_state(obj, **fields)
    return changed


@transaction.atomic
def refresh_verification(*, obj: Editable, user: Editor) -> PublishedVersion | None:
    """Carry the working copy's new verified dates to the live page now, content untouched.

    The live version is immutable, so a new version takes over with the same content and
    the new dates (it is no change-log entry); a version still waiting gets them in place.
    Only rows whose content is the same in the working copy and the version are stamped:
    verifying a changed, unpublished fact vouches for the new value, not the live one.
    """
    publication = publication_for(obj)
    now = timezone.now()
    _lock(obj)
    pending = pending_version(obj, at=now)
    if pending is not None:
        document = publication.restamp(pending.document, obj)
        if document != pending.document:
            columns = publication.columns(document)
            for name, value in columns.items():
                setattr(pending, name, value)
            pending.document = document
            pending.save(update_fields=["document", *columns])
            send(Changed(Kind.RESCHEDULED, obj, publication))
    live = live_version(obj, at=now)
    if live is None:
        return None
    document = publication.restamp(live.document, obj)
    if document == live.document:
        return None
    version = _write_version(
        publication,
        obj,
        number=_next_number(obj),
        published_at=now,
        superseded_at=live.superseded_at,
        created_by=user if user is not None and user.is_authenticated else None,
        content_changed=False,
        history=live.history,
        document=document,
        source_version_id=live.source_version_id,
        **publication.columns(document),
    )
    live.superseded_at = now
    live.save(update_fields=["superseded_at"])
    send(Changed(Kind.RESTAMPED, obj, publication, before=live, after=version))
    return version
