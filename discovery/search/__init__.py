"""Site search: indexing a published version, and finding what is live.

Each app says what a version holds for search (``Publication.search_entries``); this package
stores those entries when the version is written (``indexing``) and ranks them for a query
(``query`` reads it, ``matching`` finds and ranks entries, ``results`` shapes the page). Both
databases search alike, so the laptop demo finds what production finds:

- A word matches the words it starts (after English stemming): "HBM3" finds "HBM3e",
  "inference" finds "inferencing". PostgreSQL: a weighted ``tsvector`` (title A, keywords B,
  body C) in a GIN-indexed column, queried with prefix lexemes (``'hbm3':*``) and ranked with
  ``ts_rank``. SQLite: an FTS5 index with the Porter stemmer (migration 0002), queried with
  prefix tokens (``"hbm3"*``), a word in the title weighing most.
- A word of four letters or more also matches a title like it, by pg_trgm's word similarity
  (``settings.SEARCH_WORD_SIMILARITY`` or more): "trainum" finds AWS Trainium. PostgreSQL has
  ``pg_trgm``; SQLite runs the same function ported to Python (discovery/trigrams.py).
- Entries with every word come first, then those with some of them, each saying which words
  it lacks; English stop words are not searched for on either database.
"""

from __future__ import annotations

from ..models import SearchEntry
from .indexing import CONFIG, VERSION_FIELD, index_all, index_version
from .matching import (
    MIN_FUZZY_LENGTH,
    MIN_PREFIX_LENGTH,
    Match,
    WordSimilarity,
    count_matches,
    live_entries,
    matches,
)
from .query import (
    MAX_QUERY_LENGTH,
    MAX_QUERY_STRING,
    MAX_TERMS,
    STOP_WORDS,
    clean_query,
    query_words,
    search_terms,
)
from .results import Group, Hit, Results, grouped, highlight, results_url

__all__ = [
    "CONFIG",
    "MAX_QUERY_LENGTH",
    "MAX_QUERY_STRING",
    "MAX_TERMS",
    "MIN_FUZZY_LENGTH",
    "MIN_PREFIX_LENGTH",
    "PER_GROUP",
    "PER_PAGE",
    "STOP_WORDS",
    "VERSION_FIELD",
    "Group",
    "Hit",
    "Match",
    "Results",
    "WordSimilarity",
    "clean_query",
    "highlight",
    "index_all",
    "index_version",
    "live_entries",
    "query_words",
    "results_url",
    "search",
    "search_terms",
]

PER_GROUP = 10  # hits shown per kind of result
PER_PAGE = 50  # hits on a page of one kind of result ("And 14 more facts" opens it)


def _page_number(raw: str | None) -> int | None:
    try:
        number = int(raw or 1)
    except ValueError:
        return None
    return number if number >= 1 else None


def search(raw: str | None, *, kind: str | None = None, page: str | None = None) -> Results:
    """What is live and matches ``raw``, grouped by kind of result, best first.

    Entries with every word come first, then those with some of them. With ``kind``, only
    that kind of result, PER_PAGE at a time (``page``), however many there are."""
    text, notices = clean_query(raw)
    results = Results(query=text, notices=notices)
    terms = search_terms(text)
    if not terms:
        if query_words(text):
            results.notices.append(
                f"“{text}” has only words too common to search for: add a name or a figure."
            )
        elif text:
            results.notices.append(f"“{text}” has no letters or digits to search for.")
        return results
    results.searched = True
    labels = dict(SearchEntry.Kind.choices)
    if kind and kind not in labels:
        results.notices.append("That kind of result does not exist: here are results of every kind.")
        kind = None
    number = _page_number(page) if kind else 1
    if number is None:
        results.notices.append(f"“{page}” is not a page number: here is the first page.")
        number = 1
    results.kind, results.page = kind, number
    per_group = PER_PAGE if kind else PER_GROUP
    first = (number - 1) * per_group + 1
    rows = matches(terms, kind=kind, first=first, count=per_group)
    if kind and not rows and number > 1:  # past the last page: show the last one
        total = count_matches(terms, kind)
        last = max(1, -(-total // per_group))
        results.notices.append(f"There is no page {number} of these results: here is page {last}.")
        results.page, first = last, (last - 1) * per_group + 1
        rows = matches(terms, kind=kind, first=first, count=per_group)
    results.groups = grouped(rows, terms, text, first=first)
    results.widened = bool(rows) and len(terms) > 1 and not any(row["matched"] == len(terms) for row in rows)
    if kind and results.groups:
        results.pages = max(1, -(-results.groups[0].total // per_group))
    return results
