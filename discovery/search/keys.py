# mypy: disallow-untyped-defs, disallow-incomplete-defs
# (as pyproject.toml asks of discovery.search, whose override names the package, not its modules)
"""What a results page shows, as keys (infra/freshness.py), so a cached search is dropped only
by a publish that can change it.

A results page for "HBM3e" is made of the live entries with a word that starts with "hbm3e"
(after stemming), or, for a word of MIN_FUZZY_LENGTH letters or more, with a title like it. So
it shows

- ``search-hb``: the words of two first letters "hb" (stemming keeps a word's first letters,
  so every word it can match begins with its term's first two; a term of fewer letters has a
  key of its own);
- ``search-titles``, when a term is long enough to match titles by likeness.

A publish changes the entries of one item (``changed``): the keys of every word of each entry
that is not the same before and after (added, removed or changed: its words, its title, its
place among the item's entries), and ``search-titles`` when the titles changed. A search that
finds the item's entries, or could now, is dropped; a search that finds neither (Groq's publish,
"HBM3e") stays warm.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from editorial.registry import publications

from .matching import MIN_FUZZY_LENGTH
from .query import query_words

if TYPE_CHECKING:
    from editorial.models import PublishedVersion

TITLES_KEY = "search-titles"
ENTRY_FIELDS = ("kind", "title", "keywords", "body", "page", "url", "position")


def word_key(word: str) -> str:
    """The key of the results pages a word can be found by: its first two letters, lower case."""
    return f"search-{word.lower()[:2]}"


def query_keys(terms: Iterable[str]) -> set[str]:
    """What a results page for ``terms`` shows."""
    terms = list(terms)
    keys = {word_key(term) for term in terms}
    if any(len(term) >= MIN_FUZZY_LENGTH for term in terms):
        keys.add(TITLES_KEY)
    return keys


def _entries(version: PublishedVersion | None) -> Counter[tuple[Any, ...]]:
    if version is None or not version.document:
        return Counter()
    publication = next(p for p in publications() if isinstance(version, p.version_model))
    entries = publication.search_entries(version.document)
    return Counter(tuple(entry[field] for field in ENTRY_FIELDS) for entry in entries)


def changed(before: PublishedVersion | None, after: PublishedVersion | None) -> set[str]:
    """The keys of the results pages that a change from ``before`` to ``after`` (live until now
    and live now, either None) may change."""
    old, new = _entries(before), _entries(after)
    differ = (old - new) + (new - old)
    keys = set()
    for entry in differ:
        for text in entry[1:4]:  # title, keywords, body
            keys |= {word_key(word) for word in query_words(str(text))}
    if Counter(entry[1] for entry in old.elements()) != Counter(entry[1] for entry in new.elements()):
        keys.add(TITLES_KEY)
    return keys
