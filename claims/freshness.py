"""What “stale” means: the one rule, for facts, events and scores, on every surface.

A claim is stale when it was never verified, was last verified before the freshness window
(``settings.FRESHNESS_DAYS``), or cites a source whose checks found a problem after the claim
was last verified: the source died or moved (``Source.problem_at``), or no longer says the quote
the claim cites it for (the citation's ``quote_missing_at``, claims/quotes.py). Verification
and problems are compared as moments, so a source that fails later the same day a fact was
verified makes it stale, and verifying it again after that clears it.

The rule is written twice here, side by side and nowhere else: once in Python for a
published document (``is_stale``), once as a database condition for the editors' queues
(``stale_condition``). tests/claims/test_freshness.py holds the two to the same answers.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import DateTimeField, Exists, F, OuterRef, Q
from django.db.models.functions import Cast, Coalesce
from django.utils import timezone

if TYPE_CHECKING:
    from .models import Citation


def stale_before(*, days: int | None = None, today: dt.date | None = None) -> dt.date:
    """The freshness cutoff: a claim last verified before this date is stale.

    ``days`` defaults to settings.FRESHNESS_DAYS and ``today`` to the local date, so a
    claim verified exactly ``days`` ago is still fresh and one a day older is stale.
    """
    days = settings.FRESHNESS_DAYS if days is None else days
    return (today or timezone.localdate()) - dt.timedelta(days=days)


def fresh_until(verified_on: dt.date) -> dt.datetime:
    """The moment a claim verified on ``verified_on`` turns stale by the calendar: the start of
    the day after its freshness window ends, in the site's time zone (``stale_before``'s rule
    seen from the other side). What a page's expiry and a sort key's freshness are read from."""
    day = verified_on + dt.timedelta(days=settings.FRESHNESS_DAYS + 1)
    return dt.datetime.combine(day, dt.time.min, tzinfo=timezone.get_current_timezone())


def verified_moment(verified_on: dt.date | None, verified_at: dt.datetime | None) -> dt.datetime | None:
    """When a claim was verified: the moment recorded, or the start of the day (UTC) when
    only the day is known (a row written before moments were kept)."""
    if verified_on is None:
        return None
    if verified_at is not None:
        return verified_at
    return dt.datetime.combine(verified_on, dt.time.min, tzinfo=dt.UTC)


def is_stale(
    *,
    verified_on: dt.date | None,
    verified_at: dt.datetime | None,
    problems: Iterable[dt.datetime | None],
    cutoff: dt.date,
) -> bool:
    """The rule for one claim: ``problems`` are the problem moments of the sources it cites and
    of its citations' quotes (``quote_missing_at``), None for one without a problem; ``cutoff``
    comes from ``stale_before``."""
    moment = verified_moment(verified_on, verified_at)
    if moment is None or verified_on is None or verified_on < cutoff:
        return True
    return any(problem is not None and problem > moment for problem in problems)


def verified_moment_expression() -> Coalesce:
    """``verified_moment`` in the database."""
    return Coalesce(F("verified_at"), Cast(F("verified_on"), DateTimeField()))


def stale_condition(
    citation_model: type[Citation],
    *,
    days: int | None = None,
    today: dt.date | None = None,
) -> Q:
    """``is_stale`` as a filter on a queryset of facts, events or scores, whose citations
    live in ``citation_model`` (``cited`` and ``source`` foreign keys)."""
    cutoff = stale_before(days=days, today=today)
    # ``cited`` is declared on each table citation_table builds, not on the abstract Citation.
    after = OuterRef("verified_moment")
    citations = citation_model._default_manager.filter(  # type: ignore[misc]
        Q(source__problem_at__gt=after) | Q(quote_missing_at__gt=after), cited=OuterRef("pk")
    )
    return Q(verified_on__isnull=True) | Q(verified_on__lt=cutoff) | Q(Exists(citations))
