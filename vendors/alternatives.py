"""Why a reader might look at another vendor: reasons built from the two published documents.

The one rule for an alternative's reasons, so that every surface says the same. A reason is
made of what both pages publish, never of other words:

- a score: “scores higher on Software (4 vs 3)”, on an active axis where both are scored and
  the alternative's mark is higher (the two widest gaps first);
- a cited fact: the alternative's own value under “Where to get it” (“Where to get it: Google
  Cloud only, …”) when it says something else than this vendor's, linking to the fact on its
  page, where its sources are.

A vendor with neither (no scores in common, no differing cited fact) gets no reason.

A stored profile shows ``alternative-<id>`` for each alternative it gives reasons for; a publish
that changes what they are made of (``reason_inputs``) renders those profiles again
(vendors/pages.py), and a publish that does not leaves them alone. It shows ``lane-cards-<id>``
for each lane it lists alternatives of: that lane's first few vendors by name, as cards (their
name, address, lane and one-line blurb: ``card_entry``); a new total or verified date is on no
card, so it renders no other profile, and nor does a vendor published or moved beyond a lane's
first few. A profile also shows ``lane-count-<id>`` of its own lane, whose count it prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.utils.text import Truncator

from .documents import VendorDocument
from .models import SCORE_MAX, SCORE_MIN

SCORE_REASONS = 2  # the widest gaps
FACT_REASON_LABELS = ("Where to get it",)  # the first that differs is given
FACT_WORDS = 16  # a reason quotes a fact's value up to this many words


class NamedAxis(Protocol):
    pk: int
    name: str


@dataclass(frozen=True)
class Reason:
    text: str
    url: str = ""  # the fact on the alternative's page, with its sources; empty for a score


@dataclass(frozen=True)
class Card:
    """What reasons are made of, of one published document: its scores by axis id, its cited
    facts under the reason labels (label, fact id, value), its page. Small enough to cache
    with the alternatives' list (vendors.selectors.alternatives_by_lane), and compared before
    and after a publish to know whether other profiles' reasons changed (vendors/pages.py)."""

    scores: tuple[tuple[int, int], ...]
    facts: tuple[tuple[str, int, str], ...]
    url: str

    def score_on(self, axis_id: int) -> int | None:
        return dict(self.scores).get(axis_id)

    def fact(self, label: str) -> tuple[int, str] | None:
        return next(((pk, value) for name, pk, value in self.facts if name == label), None)


def lane_key(lane_id: int) -> str:
    """What a profile shows of a lane: its first few vendors' cards (one more than it lists,
    which says whether the lane has more)."""
    return f"lane-cards-{lane_id}"


def lane_count_key(lane_id: int) -> str:
    """What a profile shows of its own lane: how many other vendors it has."""
    return f"lane-count-{lane_id}"


def card_entry(version: Any) -> tuple[str, str, int, str] | None:
    """What an alternative's card shows of a live version, and what orders the lane's first few
    (its name); None when there is no live version (a publish or unpublish moves the count)."""
    if version is None:
        return None
    return (version.slug, version.name, version.lane_id, version.alternative_blurb)


def card(page: VendorDocument) -> Card:
    return Card(
        scores=tuple(sorted((score.axis.id, score.value) for score in page.scores)),
        facts=tuple(
            (fact.attribute.name, fact.id, fact.value.strip())
            for fact in page.facts
            if fact.attribute.name in FACT_REASON_LABELS and fact.sources
        ),
        url=page.vendor.get_absolute_url(),
    )


def reasons(mine: Card, other: Card, *, axes: Sequence[NamedAxis]) -> list[Reason]:
    """Why ``other`` is worth a look from the profile whose card is ``mine``."""
    gaps = []
    for position, axis in enumerate(axes):
        high, low = other.score_on(axis.pk), mine.score_on(axis.pk)
        if high is not None and low is not None and high > low:
            gaps.append((high - low, position, axis.name, high, low))
    gaps.sort(key=lambda gap: (-gap[0], gap[1]))
    found = [
        Reason(f"scores higher on {name} ({high} vs {low})") for _, _, name, high, low in gaps[:SCORE_REASONS]
    ]
    for label in FACT_REASON_LABELS:
        theirs, own = other.fact(label), mine.fact(label)
        if theirs is None or (own is not None and own[1] == theirs[1]):
            continue
        pk, value = theirs
        found.append(
            Reason(
                f"{label}: {Truncator(value).words(FACT_WORDS, truncate='…')}", url=f"{other.url}#fact-{pk}"
            )
        )
        break
    return found


def reason_inputs(page: VendorDocument | None) -> Card | None:
    """What another profile's reasons for this vendor are made of. Equal before and after a
    publish: no other profile changes."""
    return card(page) if page is not None else None


def page_key(item_id: int) -> str:
    """What a stored profile giving reasons for vendor ``item_id`` shows (infra/stored/): its
    cited facts and its address (its scores: ``score_key``)."""
    return f"alternative-{item_id}"


def score_key(item_id: int, axis_id: int, mine: int) -> str:
    """What a stored profile scored ``mine`` on an axis shows of vendor ``item_id``'s score on
    it: whether, and by how much, it is higher."""
    return f"alternative-{item_id}-{axis_id}-{mine}"


def keys_shown(item_id: int, mine: Card, *, axes: Sequence[NamedAxis]) -> list[str]:
    """What a profile whose card is ``mine`` shows of the reasons for vendor ``item_id``: its
    facts and address, and its score on each active axis this profile could be beaten on."""
    return [
        page_key(item_id),
        *(
            score_key(item_id, axis.pk, own)
            for axis in axes
            if (own := mine.score_on(axis.pk)) is not None and own < SCORE_MAX
        ),
    ]


def keys_changed(item_id: int, before: Card | None, after: Card | None) -> set[str]:
    """What a publish changes of other profiles' reasons for vendor ``item_id``: its facts and
    address, and for each axis whose score moved, the profiles scored below the higher of the
    two (a profile scored at or above both shows no gap on it, before or after)."""
    if before == after:
        return set()
    keys = set()
    if before is None or after is None or (before.facts, before.url) != (after.facts, after.url):
        keys.add(page_key(item_id))
    axis_ids = {axis_id for card in (before, after) if card is not None for axis_id, _ in card.scores}
    for axis_id in axis_ids:
        values = [card.score_on(axis_id) if card is not None else None for card in (before, after)]
        if values[0] != values[1]:
            higher = max(value for value in values if value is not None)
            keys |= {score_key(item_id, axis_id, own) for own in range(SCORE_MIN, higher)}
    return keys
