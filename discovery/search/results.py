# mypy: disallow-untyped-defs, disallow-incomplete-defs
# (as pyproject.toml asks of discovery.search, whose override names the package, not its modules)
"""Results as the page shows them: hits grouped by kind, each quoting a passage with the
words searched for marked, and the addresses of a kind's pages."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from ..models import SearchEntry
from .matching import Match

SNIPPET_WORDS = 28
KEYWORDS_QUOTED = {"vendor", "comparison"}  # kinds whose keywords read as words, not labels
NOUNS = {  # what one and several results of each kind are called
    "vendor": ("vendor", "vendors"),
    "chip": ("chip", "chips"),
    "comparison": ("comparison", "comparisons"),
    "fact": ("fact", "facts"),
    "event": ("change", "changes"),
    "faq": ("question", "questions"),
}


@dataclass
class Hit:
    kind: str
    title: str
    page: str
    url: str
    snippet: str
    missing: list[str] = field(default_factory=list)  # words searched for that it does not have


@dataclass
class Group:
    kind: str
    label: str
    total: int
    hits: list[Hit] = field(default_factory=list)
    query: str = ""
    first: int = 1  # the position of its first hit among all of its kind

    @property
    def more(self) -> int:
        """Hits of this kind after the ones shown."""
        return self.total - (self.first - 1) - len(self.hits)

    @property
    def more_noun(self) -> str:
        return NOUNS[self.kind][self.more != 1]

    @property
    def total_noun(self) -> str:
        return NOUNS[self.kind][self.total != 1]

    @property
    def url(self) -> str:
        """Every hit of this kind, on a page of its own."""
        return results_url(self.query, kind=self.kind)


@dataclass
class Results:
    query: str  # what was searched, after cleaning
    notices: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    searched: bool = False  # the query had words to search for
    widened: bool = False  # no entry held every word: these hold some of them
    kind: str | None = None  # one kind of result, all of its hits page by page
    page: int = 1
    pages: int = 1

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)

    @property
    def kind_label(self) -> str:
        return dict(SearchEntry.Kind.choices).get(self.kind or "", "")

    @property
    def every_kind_url(self) -> str:
        return results_url(self.query)

    @property
    def previous_url(self) -> str | None:
        return results_url(self.query, kind=self.kind, page=self.page - 1) if self.page > 1 else None

    @property
    def next_url(self) -> str | None:
        return results_url(self.query, kind=self.kind, page=self.page + 1) if self.page < self.pages else None


def results_url(query: str, *, kind: str | None = None, page: int = 1) -> str:
    """The address of a results page: the query, and a kind and a page when there are."""
    params: dict[str, str | int] = {"q": query}
    if kind:
        params["kind"] = kind
    if page > 1:
        params["page"] = page
    return f"{reverse('search')}?{urlencode(params)}"


def grouped(rows: Iterable[Match], terms: Sequence[str], query: str, *, first: int) -> list[Group]:
    """The entries found as hits, grouped by kind in the kinds' order."""
    labels = dict(SearchEntry.Kind.choices)
    groups: dict[str, Group] = {}
    pattern = _word_pattern(terms)
    for row in rows:
        group = groups.get(row["kind"])
        if group is None:
            group = groups[row["kind"]] = Group(
                row["kind"], labels[row["kind"]], row["kind_total"], query=query, first=first
            )
        group.hits.append(
            Hit(
                kind=row["kind"],
                title=row["title"],
                page=row["page"],
                url=row["url"],
                snippet=highlight(_quoted(row, pattern), terms),
                missing=[term for term, has in zip(terms, row["has"], strict=True) if not has],
            )
        )
    order = list(labels)
    return sorted(groups.values(), key=lambda group: order.index(group.kind))


def _quoted(row: Match, pattern: re.Pattern[str]) -> str:
    """The text a hit quotes: its own, or a vendor's company and lane (a comparison's criteria)
    when only they hold a word searched for ("inference" in "inference specialist")."""
    if (
        row["kind"] not in KEYWORDS_QUOTED
        or pattern.search(row["body"])
        or not pattern.search(row["keywords"])
    ):
        return row["body"]
    return row["keywords"]


def _word_pattern(terms: Sequence[str]) -> re.Pattern[str]:
    # A word's start is enough ("infer" marks "inference"), as English stemming would match.
    stems = sorted({term[: max(4, len(term) - 2)] for term in terms}, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(stem) for stem in stems) + r")\w*", re.IGNORECASE)


def highlight(text: str, terms: Sequence[str]) -> SafeString:
    """A short passage of ``text`` around the first word searched for, the words marked.

    The text is escaped before anything is marked: nothing an editor typed runs as HTML."""
    words = text.split()
    if not words:
        return SafeString("")
    pattern = _word_pattern(terms)
    first = next((i for i, word in enumerate(words) if pattern.search(word)), 0)
    start = max(0, first - SNIPPET_WORDS // 3)
    passage = " ".join(words[start : start + SNIPPET_WORDS])
    pieces, last = [], 0
    for match in pattern.finditer(passage):
        pieces += [escape(passage[last : match.start()]), f"<mark>{escape(match.group(0))}</mark>"]
        last = match.end()
    pieces.append(escape(passage[last:]))
    prefix = "… " if start > 0 else ""
    suffix = " …" if start + SNIPPET_WORDS < len(words) else ""
    return mark_safe(prefix + "".join(pieces) + suffix)  # noqa: S308 - each piece escaped above
