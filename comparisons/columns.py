"""A comparison's column: the parts of a live profile's published document that a comparison
shows (the vendor, its facts, its scores and the sources they cite), read from the database
by JSON key, not the whole document (whose chips, events and FAQs are most of it).

The parts are the published document's own types (vendors/documents.py): one schema, read in
part, as the lists read a profile's scores alone (``PublishedScores``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Self, cast

from django.db.models import F, QuerySet
from django.utils import timezone

from claims.documents import Claim, PublishedDocument
from infra.fixed import FixedRead
from vendors.documents import Fact, HasAxis, Score, Vendor, VendorDocument
from vendors.models import VendorVersion
from vendors.selectors import live_vendors

# The parts of a published document a column shows, each read as a version's column ``<part>_part``.
PARTS = ("vendor", "facts", "scores", "sources")


class ComparedProfile(PublishedDocument):
    """A published profile's vendor, facts and scores and the sources it cites. Each fact and
    score is cited and stale as the whole document says it (the one rule, claims/freshness.py)."""

    vendor: Vendor
    facts: list[Fact]
    scores: list[Score]

    # The whole document's rules (VendorDocument), on the same parts of it.
    def scores_on[A: HasAxis](self, axes: Sequence[A]) -> list[tuple[A, Score | None]]:
        return VendorDocument.scores_on(cast(VendorDocument, self), axes)

    def total_on(self, axes: Sequence[HasAxis]) -> int | None:
        return VendorDocument.total_on(cast(VendorDocument, self), axes)

    def claims(self) -> Iterable[Claim]:
        yield from self.facts
        yield from self.scores

    @classmethod
    def of(cls, version: Any) -> Self:
        """A version's column, parsed once: from its parts alone when it was read ``with_parts``."""
        parsed: Self | None = version.__dict__.get("_compared_profile")
        if parsed is None:
            read = version.__dict__
            whole = "facts_part" not in read  # not read ``with_parts``
            parts = {part: version.document[part] if whole else read[f"{part}_part"] for part in PARTS}
            parsed = version._compared_profile = cls.parse(parts)
        return parsed.read_from(version)


def with_parts(versions: QuerySet[VendorVersion]) -> QuerySet[VendorVersion]:
    """``versions`` with the parts of their documents a column shows, and not the rest."""
    parts = {f"{part}_part": F(f"document__{part}") for part in PARTS}
    return versions.defer("document", "history", "changes").annotate(**parts)


def live_with_parts(slugs: Sequence[str]) -> list[VendorVersion]:
    """The live versions at ``slugs`` (in no order), ``with_parts``: compiled once for each
    number of vendors a comparison names (infra/fixed.py), not for each page."""
    return _LIVE_WITH_PARTS(slugs=list(slugs), at=timezone.now())


_LIVE_WITH_PARTS = FixedRead(lambda slugs, at: with_parts(live_vendors(at=at).filter(slug__in=slugs)))
