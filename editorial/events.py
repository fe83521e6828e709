"""What the workflow says after each write: one event, and who listens to it.

The workflow's writes (``services``) store versions and then ``send`` a ``Changed``: which
item, what kind of change, the version visitors read before and the one they read after, and
when it takes effect if that is still to come. They do not know who listens. Subscribers
register in an ``AppConfig.ready()``; today one does: ``editorial.pages``, the bridge to the
page cache and the page store.

A small explicit list rather than a Django signal: the STYLE keeps business logic out of
signals, and a plain call in the order subscribers registered is easy to read and to type.
Subscribers run inside the write's transaction; what they defer, they defer to its commit.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import Editable, PublishedVersion
    from .registry import Publication


class Kind(enum.StrEnum):
    """What changed for visitors."""

    PUBLISHED = "published"  # ``after`` goes live in place of ``before`` (None for a first publish)
    UNPUBLISHED = "unpublished"  # ``before`` leaves the site; ``after`` is None
    RESTAMPED = "restamped"  # ``after`` takes over from ``before`` with newer verified dates, same content
    # What is scheduled changed, nothing visitors see yet: a schedule cancelled, discarded or
    # re-stamped in place, an unpublishing ahead called off. ``before`` and ``after`` are None.
    RESCHEDULED = "rescheduled"


@dataclass(frozen=True)
class Changed:
    """One workflow write, as its subscribers hear of it."""

    kind: Kind
    item: Editable
    publication: Publication
    before: PublishedVersion | None = None
    after: PublishedVersion | None = None
    at: dt.datetime | None = None  # when it takes effect if still to come (a schedule); None: now


type Subscriber = Callable[[Changed], None]

_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> Subscriber:
    """Call ``subscriber(event)`` for every change the workflow sends (once, however often asked)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)
    return subscriber


def send(event: Changed) -> None:
    for subscriber in _subscribers:
        subscriber(event)
