"""Writes on the citation kernel: a new source, and the evidence of a row's citations.

Keyword arguments only; the callers (the admin's dialog and evidence fields, the CSV import)
have validated what an editor typed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Model
from django.utils import timezone

from .models import Source, Support, Wording
from .quotes import QUOTE_FIELDS, check_typed

EVIDENCE_FIELDS = ["quote", "support", "wording"]


@dataclass(frozen=True)
class EvidenceInput:
    """What an editor typed for one citation: its words (the source's own, a quote, or our
    summary of them) and how far the source supports the row."""

    quote: str = ""
    support: str = Support.FULL
    wording: str = Wording.QUOTE


def set_evidence(*, row: Model, evidence: Mapping[int, EvidenceInput]) -> int:
    """Write the words, wording and support of ``row``'s citations of the sources in ``evidence``
    (by source id); citations of other sources keep theirs, and a source the row does not cite
    is not cited by this. A quote whose words or wording changed is checked at once against the
    source's page text already read (claims/quotes.py; nothing is fetched): found, not found
    (a problem moment, as at a check), or not checked while the source's page was never read.
    The caller has validated the values (claims.admin.evidence): the database holds the same
    limits. Returns how many citations changed."""
    through = type(row)._meta.get_field("sources").remote_field.through  # type: ignore[union-attr]
    changed, reworded = [], []
    citations = through.objects.filter(cited=row, source_id__in=list(evidence)).select_related("source")
    for citation in citations.only(*EVIDENCE_FIELDS, *QUOTE_FIELDS, "cited", "source__page_text"):
        wanted = evidence[citation.source_id]
        if (citation.quote, citation.wording) != (wanted.quote, wanted.wording):
            reworded.append(citation)
        if [getattr(citation, name) for name in EVIDENCE_FIELDS] != [
            wanted.quote,
            wanted.support,
            wanted.wording,
        ]:
            citation.quote, citation.support, citation.wording = wanted.quote, wanted.support, wanted.wording
            changed.append(citation)
    check_typed(reworded, now=timezone.now())
    if changed:
        through.objects.bulk_update(changed, [*EVIDENCE_FIELDS, *QUOTE_FIELDS])
    return len(changed)


def add_source(*, title: str, url: str, publisher: str = "", accessed_on: dt.date | None = None) -> Source:
    """A new source, as the change page's “Add a new source” dialog enters it. The caller has
    validated the fields (a Source form) and looked for the URL (``Source.objects.with_url``)."""
    return Source.objects.create(title=title, url=url, publisher=publisher, accessed_on=accessed_on)
