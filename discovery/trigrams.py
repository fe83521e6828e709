"""pg_trgm's ``word_similarity`` in Python, so that SQLite forgives the same typos PostgreSQL does.

PostgreSQL finds a misspelt name ("trainum") with ``pg_trgm``: the query's trigrams against the
best continuous stretch of a title's trigrams, found when that likeness reaches
``pg_trgm.word_similarity_threshold`` (``settings.SEARCH_WORD_SIMILARITY``, 0.4). SQLite has no
such thing, so this module ports the function (PostgreSQL's ``contrib/pg_trgm/trgm_op.c``:
``generate_trgm_only`` and ``iterate_word_similarity``) and registers it on every SQLite
connection as ``chipsite_word_similarity``. ``tests/discovery/test_trigrams.py`` holds the port to
PostgreSQL's own answers.
"""

from __future__ import annotations

import re
from functools import lru_cache

SQLITE_FUNCTION = "chipsite_word_similarity"

_WORD = re.compile(r"[^\W_]+")  # pg_trgm's word characters: letters and digits


def trigrams(text: str) -> list[str]:
    """The trigrams of each word of ``text`` in order, as pg_trgm makes them: lower case,
    two spaces before each word and one after ("  ab" "abc" ... "yz ")."""
    found: list[str] = []
    for word in _WORD.findall(text.lower()):
        padded = f"  {word} "
        found += [padded[i : i + 3] for i in range(len(padded) - 2)]
    return found


@lru_cache(maxsize=256)
def _query_trigrams(query: str) -> frozenset[str]:
    return frozenset(trigrams(query))


@lru_cache(maxsize=65536)  # a search asks for each entry's likeness twice: to find it, and to rank it
def word_similarity(query: str | None, text: str | None) -> float:
    """How well ``query`` matches some stretch of ``text``, from 0 to 1, as pg_trgm says.

    A port of ``iterate_word_similarity`` (non-strict): the stretch grows to each trigram of
    ``text`` that the query has, and its start moves right while that raises the likeness
    (shared trigrams over the trigrams of either)."""
    if not query or not text:
        return 0.0
    wanted = _query_trigrams(query)
    if not wanted:
        return 0.0
    sequence = trigrams(text)
    ulen1 = len(wanted)
    found = [trigram in wanted for trigram in sequence]
    if not any(found):
        return 0.0

    def likeness(count: int, ulen2: int) -> float:
        return count / (ulen1 + ulen2 - count)

    lastpos: dict[str, int] = {}
    ulen2 = count = 0
    lower = -1
    best = 0.0
    for i, trigram in enumerate(sequence):
        if lower >= 0 or found[i]:
            if trigram not in lastpos:
                ulen2 += 1
                if found[i]:
                    count += 1
            lastpos[trigram] = i
        if not found[i]:
            continue
        upper = i
        if lower == -1:
            lower, ulen2 = i, 1
        current = likeness(count, ulen2)
        # Also try to move the lower bound right for a greater likeness.
        tmp_count, tmp_ulen2, prev_lower = count, ulen2, lower
        for tmp_lower in range(lower, upper + 1):
            tried = likeness(tmp_count, tmp_ulen2)
            if tried > current:
                current, ulen2, lower, count = tried, tmp_ulen2, tmp_lower, tmp_count
            dropped = sequence[tmp_lower]
            if lastpos.get(dropped) == tmp_lower:
                tmp_ulen2 -= 1
                if dropped in wanted:
                    tmp_count -= 1
        best = max(best, current)
        for tmp_lower in range(prev_lower, lower):
            dropped = sequence[tmp_lower]
            if lastpos.get(dropped) == tmp_lower:
                del lastpos[dropped]
    return best


def register_on_sqlite(sender, connection, **kwargs) -> None:
    """``connection_created`` receiver: SQLite connections learn ``chipsite_word_similarity``."""
    if connection.vendor == "sqlite":
        connection.connection.create_function(SQLITE_FUNCTION, 2, word_similarity, deterministic=True)
