# mypy: disallow-untyped-defs, disallow-incomplete-defs
# (as pyproject.toml asks of discovery.search, whose override names the package, not its modules)
"""Reading a query: what is searched for, once it is cleaned and cut into words."""

from __future__ import annotations

import re

MAX_QUERY_LENGTH = 200  # characters searched; the rest of a longer query is dropped, saying so
# The longest query string the results page reads: any longer (only a hand-made address can
# be) is cut first. Far above what the search box can send (200 characters, 12 bytes each
# at most once percent-encoded, is 2,400) and below what gunicorn refuses (its request line
# limit, 8,190 bytes in docs/operators.md's command; nginx's 8 KB).
MAX_QUERY_STRING = 4000
MAX_TERMS = 12

# PostgreSQL's English stop words (tsearch_data/english.stop): it never indexes them, so they
# are left out of a query on SQLite too, and "every word" means the same on both.
_STOP_WORDS = (
    "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself "
    "she her hers herself it its itself they them their theirs themselves what which who whom "
    "this that these those am is are was were be been being have has had having do does did "
    "doing a an the and but if or because as until while of at by for with about against "
    "between into through during before after above below to from up down in out on off over "
    "under again further then once here there when where why how all any both each few more "
    "most other some such no nor not only own same so than too very s t can will just don "
    "should now"
)
STOP_WORDS = frozenset(_STOP_WORDS.split())


def clean_query(raw: str | None) -> tuple[str, list[str]]:
    """(query, notices): control characters (NUL included) removed, spaces collapsed, cut
    to MAX_QUERY_LENGTH characters. Nothing else about a query is refused."""
    notices = []
    text = " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", raw or "").split())
    if len(text) > MAX_QUERY_LENGTH:
        text = text[:MAX_QUERY_LENGTH].rsplit(" ", 1)[0] or text[:MAX_QUERY_LENGTH]
        notices.append(f"Your search was long: only its first {MAX_QUERY_LENGTH} characters were searched.")
    return text, notices


def query_words(text: str) -> list[str]:
    """The words of a query as PostgreSQL and pg_trgm see them: letters and digits."""
    return re.findall(r"[^\W_]+", text)


def search_terms(text: str) -> list[str]:
    """The words searched for: each once, without stop words, at most MAX_TERMS of them."""
    seen: dict[str, str] = {}
    for word in query_words(text):
        if word.lower() not in STOP_WORDS:
            seen.setdefault(word.lower(), word)
    return list(seen.values())[:MAX_TERMS]
