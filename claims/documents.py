"""The published document's shared parts: what every kind of published document (a vendor's
profile, a comparison) is made of and how it reads its sources.

``PublishedDocument`` is schema 2 with the sources it cites by id and rows (``Claim``) that cite
them; on read each row gets its cited sources and, when it is ``Verified``, whether it is stale
today by the one rule (claims/freshness.py). ``Evidence`` is what a cited source says for a row,
``Changes`` what a preview marks against the live document. The content apps' documents
(vendors/documents.py, comparisons/documents.py) subclass these.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final, Literal, Self

from django.utils import timezone
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    computed_field,
    field_validator,
    model_validator,
)

from infra.stored import expires, recording, shows

from .changes import Changes, mark_changes
from .document_checks import QUOTE_CHECKS
from .freshness import fresh_until, is_stale, stale_before
from .models import QUOTE_MAX, Support, Wording, citations_of, display_date

SCHEMA: Final = 2


class Part(BaseModel):
    """A part of a published document: immutable, read from the working copy's attributes."""

    model_config = ConfigDict(frozen=True, from_attributes=True, extra="ignore")

    @property
    def pk(self) -> int:
        return self.id  # type: ignore[attr-defined]

    def _private(self, name: str) -> Any:
        """A private attribute, read from pydantic's store directly: ``self._name`` takes its
        ``__getattr__``, and a comparison's footnotes ask hundreds of rows and sources for theirs."""
        return self.__pydantic_private__[name]  # type: ignore[index]


def related_rows(value: Any) -> Any:
    """A related manager (a working copy's child rows) as the list of its rows."""
    return list(value.all()) if hasattr(value, "all") else value


def _ids(value: Any) -> Any:
    """A related manager (the working copy's citations) as the ids it holds, lowest first."""
    if hasattr(value, "all"):
        return sorted(row.pk for row in value.all())
    return value


class Source(Part):
    """A document cited: as readers see it, and since when its checks found a problem."""

    title: str
    publisher: str
    url: str = Field(description="The document's address (http or https).")
    accessed_on: dt.date | None = Field(description="When an editor last read it.")
    archive_url: str = Field("", description="An archived copy of the document; empty when there is none.")
    problem_at: dt.datetime | None = Field(
        None, description="When the site's checks found the document gone or moved; null when fine."
    )
    _pk: int = PrivateAttr(0)

    @property
    def pk(self) -> int:
        return self._private("_pk")


@dataclass(frozen=True)
class Note:
    """One footnote of a row on a page: the source's number there, the source, and what it says."""

    number: int
    source: Source
    evidence: Evidence


type SupportValue = Literal["full", "partial", "contradicts"]
type WordingValue = Literal["quote", "summary"]


class Evidence(Part):
    """What one cited source says for a row: its words (the source's own, or our summary of
    them), how far they support it, and what the last check of the source found of a quote."""

    source: int = Field(description="The id of the source (a key of the document's sources).")
    quote: str = Field(
        "",
        max_length=QUOTE_MAX,
        description="The citation's words: the source's own (`wording` quote) or the editors' "
        "summary of what it says (`wording` summary); empty when none.",
    )
    support: SupportValue = Field(
        "full", description="Whether the source supports the row fully, only partly, or contradicts it."
    )
    wording: WordingValue = Field(
        "quote",
        description="“quote”: `quote` is the source's own words, checked against its page; "
        "“summary”: it is the editors' summary of what the source says, never checked as a quote.",
    )
    quote_found: bool | None = Field(
        None,
        description="Whether the last check of the source found the quote on its page; "
        "null when not checked yet (and for a summary).",
    )
    quote_checked_at: dt.datetime | None = Field(
        None, description="When the source's page was last checked for the quote; null when never."
    )
    quote_missing_at: dt.datetime | None = Field(
        None,
        description="When a check first did not find the quote, null while it is found: a problem "
        "moment, so a row verified before it is stale.",
    )

    @property
    def is_summary(self) -> bool:
        return self.wording == Wording.SUMMARY.value

    @property
    def check_text(self) -> str:
        """What readers see beside a quote: “Found on the source on 6 Dec 2026”, “Not found on
        the source at its last check (6 Dec 2026)”, or “Not checked against the source yet”;
        nothing beside a summary or without words."""
        if not self.quote or self.is_summary:
            return ""
        if self.quote_found is None or self.quote_checked_at is None:
            return "Not checked against the source yet"
        day = display_date(timezone.localdate(self.quote_checked_at), "day")
        if self.quote_found:
            return f"Found on the source on {day}"
        return f"Not found on the source at its last check ({day})"

    @property
    def partial(self) -> bool:
        return self.support == "partial"

    @property
    def contradicts(self) -> bool:
        return self.support == "contradicts"

    @property
    def support_text(self) -> str:
        """How the page says it: empty for full support (what a citation means by default)."""
        return "" if self.support == "full" else str(Support(self.support).label)


def _evidence_of(row: Any) -> list[dict[str, Any]]:
    """A working copy's row's citations (prefetched: evidence_prefetch) that say more than
    “this source supports it”: a quote, or partial or contradicting support. Citations that
    say nothing more are left out, so a document built before evidence existed reads the same."""
    citations = getattr(row, citations_of(type(row))).all()
    return [
        {
            "source": citation.source_id,
            "quote": citation.quote,
            "support": citation.support,
            "wording": citation.wording,
            **{name: getattr(citation, name) for name in QUOTE_CHECKS},
        }
        for citation in sorted(citations, key=lambda citation: citation.source_id)
        if citation.quote or citation.support != Support.FULL
    ]


class _WithEvidence:
    """A working copy's row read by attributes (aliases included), with its ``evidence``."""

    def __init__(self, row: Any) -> None:
        self.evidence = _evidence_of(row)
        self._row = row

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, name)


class Claim(Part):
    """A row that cites sources. ``cited`` and ``notes`` are filled on read (page order)."""

    id: int
    sources: list[int] = Field(
        description="The ids of the sources it cites (keys of the document's sources)."
    )
    evidence: list[Evidence] = Field(
        default_factory=list,
        description="What cited sources say: each citation with a quote or with partial or "
        "contradicting support, by source id; a cited source not listed fully supports it.",
    )
    _cited: list[Source] = PrivateAttr(default_factory=list)
    _notes: list[Note] = PrivateAttr(default_factory=list)

    normalise_sources = field_validator("sources", mode="before")(_ids)

    @model_validator(mode="before")
    @classmethod
    def _working_evidence(cls, data: Any) -> Any:
        """A working copy's row (from attributes) brings its evidence from its citations."""
        if isinstance(data, dict) or not hasattr(data, "_meta"):
            return data
        return _WithEvidence(data)

    @property
    def cited(self) -> list[Source]:
        return self._private("_cited")

    def evidence_from(self, source: int) -> Evidence:
        """The evidence of the citation of ``source``: full support and no quote unless it says more."""
        for found in self.evidence:
            if found.source == source:
                return found
        return Evidence(source=source)

    @property
    def citations(self) -> list[tuple[Source, Evidence]]:
        """Each cited source with what it says for the row (a comparison lists them in full)."""
        return [(source, self.evidence_from(source.pk)) for source in self.cited]

    @property
    def notes(self) -> list[Note]:
        """Its footnotes, once a page has numbered them (vendors.selectors.Footnotes)."""
        return self._private("_notes")

    @property
    def cited_as(self) -> str:
        """How a note names the row: its label (“Memory”), date or question."""
        return ""

    @property
    def anchor(self) -> str:
        """The id of the row's own note when its sources are grouped (vendors.selectors.Footnotes)."""
        return f"notes-{type(self).__name__.lower()}-{self.id}"


class Verified(Claim):
    """A claim an editor checks against its sources, stale by the one rule."""

    verified_on: dt.date | None = Field(description="When an editor last checked it; null when never.")
    verified_at: dt.datetime | None = Field(None, description="The moment of that check, when known.")
    _stale: bool = PrivateAttr(True)

    @computed_field(  # type: ignore[prop-decorator]  # mypy takes no decorator over @property
        description="Never verified, not within the freshness window, or citing a source "
        "whose checks found a problem after it was verified."
    )
    @property
    def stale(self) -> bool:
        return self._private("_stale")

    @property
    def is_stale(self) -> bool:
        return self._private("_stale")


class PublishedDocument(Part):
    """What every kind of published document is (profiles here, comparisons in their app):
    schema 2, the sources it cites by id, and rows that cite them. On read each row gets its
    cited sources and, when it is verified, whether it is stale today (claims/freshness.py)."""

    model_config = ConfigDict(frozen=True, from_attributes=True, extra="forbid", populate_by_name=True)

    schema_: Literal[2] = Field(SCHEMA, alias="schema", description="This document's schema version.")
    sources: dict[int, Source] = Field(description="Every source cited, by id.")

    def claims(self) -> Iterable[Claim]:
        """Every row that cites sources."""
        raise NotImplementedError

    @model_validator(mode="after")
    def _resolve(self) -> Self:
        for pk, source in self.sources.items():
            source._pk = pk
        cutoff = stale_before()
        for row in self.claims():
            cited = [self.sources[pk] for pk in row.sources]
            row._cited = cited
            if isinstance(row, Verified):
                row._stale = is_stale(
                    verified_on=row.verified_on,
                    verified_at=row.verified_at,
                    # a source's problem, or a check that no longer found a quote
                    problems=[
                        *(source.problem_at for source in cited),
                        *(evidence.quote_missing_at for evidence in row.evidence),
                    ],
                    cutoff=cutoff,
                )
        return self

    def as_json(self) -> dict[str, Any]:
        """What a version stores."""
        return self.model_dump(mode="json", by_alias=True, exclude_computed_fields=True)

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Self:
        return cls.model_validate(data)

    @classmethod
    def of(cls, version: Any) -> Self:
        """The one way to read a published version: parsed once, kept on the version. A stored
        page being rendered records that it shows this item, until a row of it turns stale."""
        parsed: Self | None = getattr(version, "_parsed_document", None)
        if parsed is None:
            parsed = cls.parse(version.document)
            version._parsed_document = parsed  # a cache the model does not declare
        return parsed.read_from(version)

    def read_from(self, version: Any) -> Self:
        """This document, as read from ``version`` (the whole of it, or the parts a page shows): a
        stored page being rendered records that it shows the item, until a row of it turns stale."""
        if recording():  # only a stored page's render needs to know; other reads skip the work
            if not getattr(version, "archived", False):  # read_as_archived() said what it shows
                shows(version.page_key)
            expires(self.turns_stale_at)
        return self

    @property
    def turns_stale_at(self) -> dt.datetime | None:
        """The next moment one of its fresh rows turns stale by the calendar (the start of the day
        after its freshness window ends, in the site's time zone), or None."""
        due = [
            fresh_until(row.verified_on)
            for row in self.claims()
            if isinstance(row, Verified) and not row.is_stale and row.verified_on is not None
        ]
        return min(due, default=None)

    def changes_from(self, live: Self | None) -> Changes:
        """What a preview of this working copy marks against the live document ``live``:
        each list of rows by id (new or changed), wherever it sits (a chip's specs, prices,
        ...: a part without an id is matched by its slug or name and its lists read in turn),
        and the fields of its own parts that differ."""
        if live is None:
            return Changes()
        rows: dict[str, dict[int, str]] = {}
        fields: set[str] = set()
        removed = mark_changes(self, live, rows=rows, fields=fields)
        return Changes(rows=rows, fields=frozenset(fields), removed=removed)

    @staticmethod
    def cited_by(rows: Iterable[Any]) -> dict[int, Any]:
        """The sources a working copy's rows cite, by id in id order (for ``build``)."""
        return dict(sorted({source.pk: source for row in rows for source in row.sources.all()}.items()))
