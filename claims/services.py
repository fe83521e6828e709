"""Writes on the citation kernel: a new source, and the evidence of a row's citations.

Keyword arguments only; the callers (the admin's dialog and evidence fields, the CSV import)
have validated what an editor typed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Model

from .models import Source, Support


@dataclass(frozen=True)
class EvidenceInput:
    """What an editor typed for one citation: the source's words and how far they support the row."""

    quote: str = ""
    support: str = Support.FULL


def set_evidence(*, row: Model, evidence: Mapping[int, EvidenceInput]) -> int:
    """Write the quote and support of ``row``'s citations of the sources in ``evidence`` (by
    source id); citations of other sources keep theirs, and a source the row does not cite is
    not cited by this. The caller has validated the values (claims.admin.evidence): the
    database holds the same limits. Returns how many citations changed."""
    through = type(row)._meta.get_field("sources").remote_field.through  # type: ignore[union-attr]
    changed = 0
    for citation in through.objects.filter(cited=row, source_id__in=list(evidence)):
        wanted = evidence[citation.source_id]
        if (citation.quote, citation.support) != (wanted.quote, wanted.support):
            citation.quote, citation.support = wanted.quote, wanted.support
            citation.save(update_fields=["quote", "support"])
            changed += 1
    return changed


def add_source(*, title: str, url: str, publisher: str = "", accessed_on: dt.date | None = None) -> Source:
    """A new source, as the change page's “Add a new source” dialog enters it. The caller has
    validated the fields (a Source form) and looked for the URL (``Source.objects.with_url``)."""
    return Source.objects.create(title=title, url=url, publisher=publisher, accessed_on=accessed_on)
