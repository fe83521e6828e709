"""The workflow's reads: an item's versions, where it stands, what its working copy changes.

The writes (``services``) and the admin's pages read through these; none of them writes.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, TypedDict

from django.db import models
from django.db.models import Case, Exists, OuterRef, Subquery, Value, When
from django.template.defaultfilters import date as format_date
from django.utils import timezone
from reversion.models import Version

from .diff import describe_changes
from .document_diff import document_changes
from .registry import publication_for
from .revisions import latest_version_id

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    from .models import Editable, PublishedVersion, VersionQuerySet

DATETIME = "j M Y H:i"  # the admin's one date-and-time format (24-hour, the site's time zone)


def when(moment: dt.datetime) -> str:
    """A moment as the admin writes it: ``6 Dec 2026 09:30``, in the site's time zone."""
    return format_date(timezone.localtime(moment), DATETIME)


def versions_of(obj: Editable) -> VersionQuerySet[PublishedVersion]:
    return _versions(type(obj), item=obj)


def _versions(model: type[Editable], *, item: Editable | OuterRef) -> VersionQuerySet[PublishedVersion]:
    """The versions of ``item``, an item of ``model`` (or a reference to one in a subquery)."""
    # Every concrete version model has ``item``; django-stubs reads the abstract one, which has not.
    return publication_for(model).version_model.objects.filter(item=item)  # type: ignore[misc]


def live_version(obj: Editable, *, at: dt.datetime | None = None) -> PublishedVersion | None:
    return versions_of(obj).live(at=at).first()


def pending_version(obj: Editable, *, at: dt.datetime | None = None) -> PublishedVersion | None:
    return versions_of(obj).pending(at=at).order_by("published_at").first()


def unpublished_changes(
    obj: Editable, *, live: PublishedVersion | None, pending: PublishedVersion | None
) -> list[str]:
    """What the working copy changes against the version visitors get next (the scheduled one,
    else the live one), in lines such as “Memory: 96 GB -> 144 GB”; [] when it changes nothing."""
    basis = pending or live
    if basis is None or not obj.has_unpublished_changes or not basis.source_version_id:
        return []
    publication = publication_for(obj)
    if publication.document_schema is not None:  # read from the documents: what visitors get
        schema = publication.document_schema
        return document_changes(
            schema.model_validate(basis.document), schema.model_validate(publication.document(obj))
        )
    if not Version.objects.filter(pk=basis.source_version_id).exists():
        return []
    return describe_changes(obj, basis.source_version_id, latest_version_id(obj))


def unpublishing_at(*, live: PublishedVersion | None, pending: PublishedVersion | None) -> dt.datetime | None:
    """When the ``live`` version goes off the site with no ``pending`` one to follow it, or None."""
    if live is None or pending is not None:
        return None
    return live.superseded_at


class State(models.TextChoices):
    """Where an item stands: every item is in exactly one of these (see ``with_state``)."""

    DRAFT = "draft", "Draft"
    UNPUBLISHED = "unpublished", "Unpublished"
    SCHEDULED = "scheduled", "Scheduled"
    LIVE = "live", "Live"
    UNPUBLISHING = "unpublishing", "Live, unpublishing"
    CHANGES = "changes", "Live + unpublished changes"
    CHANGES_SCHEDULED = "changes-scheduled", "Live + changes scheduled"
    REVIEW = "review", "Waiting for review"


class ItemState(TypedDict):
    """What ``with_state`` annotates an item with."""

    live_since: dt.datetime | None
    live_until: dt.datetime | None
    pending_at: dt.datetime | None
    was_live: bool
    state: str  # a State value


def with_state(
    queryset: models.QuerySet[Editable], *, at: dt.datetime | None = None
) -> models.QuerySet[WithAnnotations[Editable, ItemState]]:
    """Annotate each item with ``live_since``, ``live_until``, ``pending_at``, ``was_live`` and
    its ``state`` (a State value).

    The one place the states are told apart, in the list's own query: the admin's state
    filter selects on ``state`` and every status tag (``state()``) reads it. A request for
    review comes first: it is what a publisher acts on, whatever else is true of the item;
    then a time set for it to go live or off the site. An item not live that has been is
    unpublished, not a draft.
    """
    at = at or timezone.now()
    mine = _versions(queryset.model, item=OuterRef("pk"))
    return queryset.annotate(
        live_since=Subquery(mine.live(at=at).values("published_at")[:1]),
        live_until=Subquery(mine.live(at=at).values("superseded_at")[:1]),
        pending_at=Subquery(mine.pending(at=at).order_by("published_at").values("published_at")[:1]),
        was_live=Exists(mine.filter(published_at__lte=at)),
    ).annotate(
        state=Case(
            When(review_requested_at__isnull=False, has_unpublished_changes=True, then=Value(State.REVIEW)),
            When(pending_at__isnull=False, live_since__isnull=False, then=Value(State.CHANGES_SCHEDULED)),
            When(pending_at__isnull=False, then=Value(State.SCHEDULED)),
            When(live_since__isnull=True, was_live=True, then=Value(State.UNPUBLISHED)),
            When(live_since__isnull=True, then=Value(State.DRAFT)),
            When(live_until__isnull=False, then=Value(State.UNPUBLISHING)),
            When(has_unpublished_changes=True, then=Value(State.CHANGES)),
            default=Value(State.LIVE),
            output_field=models.CharField(),
        )
    )


def state(obj: Editable, *, now: dt.datetime | None = None) -> str:
    """The one status tag of an item, as every admin list and page says it: its State's label,
    with the time a scheduled version goes live or the live one goes off the site.

    A list's rows come annotated (``with_state``); an item on its own is looked up in one query.
    """
    if now is None and hasattr(obj, "state") and hasattr(obj, "pending_at") and hasattr(obj, "live_until"):
        value, pending_at, live_until = obj.state, obj.pending_at, obj.live_until
    else:
        one = with_state(type(obj)._default_manager.filter(pk=obj.pk), at=now)
        value, pending_at, live_until = one.values_list("state", "pending_at", "live_until").get()
    label = State(value).label
    if value in (State.SCHEDULED, State.CHANGES_SCHEDULED):
        return f"{label} for {when(pending_at)}"
    if value == State.UNPUBLISHING:
        return f"{label} {when(live_until)}"
    return label
