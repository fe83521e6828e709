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
(vendors/pages.py), and a publish that does not leaves them alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from django.utils.text import Truncator

from .documents import Fact, VendorDocument

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


def _first_cited(page: VendorDocument, label: str) -> Fact | None:
    return next((fact for fact in page.facts if fact.attribute.name == label and fact.sources), None)


def reasons(page: VendorDocument, other: VendorDocument, *, axes: Sequence[NamedAxis]) -> list[Reason]:
    """Why ``other`` is worth a look from ``page``'s profile, from their scores and cited facts."""
    mine = {axis.pk: score.value for axis, score in page.scores_on(axes) if score}
    theirs = {axis.pk: score.value for axis, score in other.scores_on(axes) if score}
    gaps = sorted(
        (
            (theirs[axis.pk] - mine[axis.pk], position, axis.name, theirs[axis.pk], mine[axis.pk])
            for position, axis in enumerate(axes)
            if axis.pk in mine and axis.pk in theirs and theirs[axis.pk] > mine[axis.pk]
        ),
        key=lambda gap: (-gap[0], gap[1]),
    )
    found = [
        Reason(f"scores higher on {name} ({high} vs {low})") for _, _, name, high, low in gaps[:SCORE_REASONS]
    ]
    for label in FACT_REASON_LABELS:
        fact = _first_cited(other, label)
        own = _first_cited(page, label)
        if fact is None or (own is not None and own.value.strip() == fact.value.strip()):
            continue
        value = Truncator(fact.value.strip()).words(FACT_WORDS, truncate="…")
        found.append(Reason(f"{label}: {value}", url=f"{other.vendor.get_absolute_url()}#fact-{fact.id}"))
        break
    return found


def reason_inputs(page: VendorDocument | None) -> tuple:
    """What another profile's reasons for this vendor are made of: its scores and its cited
    facts under the reason labels. Equal before and after a publish: no other page changes."""
    if page is None:
        return ()
    return (
        tuple(sorted((score.axis.id, score.value) for score in page.scores)),
        tuple(
            (fact.id, fact.value)
            for fact in page.facts
            if fact.attribute.name in FACT_REASON_LABELS and fact.sources
        ),
        page.vendor.get_absolute_url(),
    )


def page_key(item_id: int) -> str:
    """What a stored profile giving reasons for vendor ``item_id`` shows (infra/stored/)."""
    return f"alternative-{item_id}"
