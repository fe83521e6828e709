# mypy: disallow-untyped-defs, disallow-incomplete-defs
# (as pyproject.toml asks of discovery.search, whose override names the package, not its modules)
"""Matching and ranking: which live entries have the words searched for, and how well.

PostgreSQL queries the weighted ``tsvector`` with prefix lexemes and ranks with ``ts_rank``;
SQLite queries its FTS5 index with prefix tokens, a word in the title weighing most. On both,
a longer word also matches a title like it by pg_trgm's word similarity (on SQLite its port,
discovery/trigrams.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db import connection, connections
from django.db.models import (
    Case,
    Count,
    Expression,
    F,
    FloatField,
    Func,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import RowNumber
from django.db.models.lookups import GreaterThanOrEqual

from comparisons.models import ComparisonVersion
from vendors.models import VendorVersion

from ..models import SearchEntry
from ..trigrams import SQLITE_FUNCTION
from .indexing import CONFIG

MIN_FUZZY_LENGTH = 4  # shorter words have too few trigrams to be matched by likeness
MIN_PREFIX_LENGTH = 2  # a single letter or digit ("v" of "RISC-V") is matched as a whole word
FTS_TABLE = "discovery_searchentry_fts"  # SQLite's full-text index (migration 0002)
TITLE, KEYWORDS, BODY = 8, 3, 1  # SQLite: what a word weighs in each column, as PostgreSQL's A, B, C


def live_entries() -> QuerySet[SearchEntry]:
    return SearchEntry.objects.filter(
        Q(vendor_version__in=VendorVersion.objects.live().values("pk"))
        | Q(comparison_version__in=ComparisonVersion.objects.live().values("pk"))
    )


class Match(TypedDict):
    """A search entry found, as ``matches`` reads it."""

    kind: str
    title: str
    page: str
    url: str
    keywords: str
    body: str
    kind_total: int  # entries of its kind found
    matched: int  # how many of the words searched for it has
    has: list[bool]  # which of them


def _matched(terms: Sequence[str], kind: str | None) -> tuple[QuerySet[SearchEntry], list[Q]]:
    """Live entries with any of the words, each annotated with how many (``matched``) and
    how well (``score``); and the condition that an entry has each word."""
    has = [_has_word(term) for term in terms]
    found = Q(pk__in=[])
    for condition in has:
        found |= condition
    entries = live_entries().filter(found)
    if kind:
        entries = entries.filter(kind=kind)
    matched: Expression = Value(0)
    for condition in has:
        matched = matched + Case(
            When(condition, then=Value(1)), default=Value(0), output_field=IntegerField()
        )
    return entries.annotate(matched=matched, score=_score(terms)), has


def matches(terms: Sequence[str], *, kind: str | None, first: int, count: int) -> list[Match]:
    """The ``count`` best entries of each kind (of ``kind`` only, when given) from the
    ``first``: those with more of the words first, then the better scored."""
    entries, has = _matched(terms, kind)
    # Each entry's place in its kind and how many there are in all, computed in one query...
    ranked = (
        entries.annotate(
            **{f"has_{i}": Case(When(c, then=Value(True)), default=Value(False)) for i, c in enumerate(has)},
            rank_in_kind=Window(
                RowNumber(),
                partition_by=[F("kind")],
                # Ties by address, not by row: a publish that leaves an item's entries as they
                # were writes new rows, and must leave the order, and cached results, as they were.
                order_by=[F("matched").desc(), F("score").desc(), F("position"), F("url"), F("id")],
            ),
            kind_total=Window(Count("id"), partition_by=[F("kind")]),
        )
        .order_by()
        .values(*MATCH_COLUMNS, "rank_in_kind", *(f"has_{i}" for i in range(len(has))))
    )
    # ...and the best of each kind read around it. Django's own filter on a window (QUALIFY)
    # compiles the entries' words and scores three times over; compiled here once.
    sql, params = ranked.query.get_compiler(using=ranked.db).as_sql()
    around = (
        f"SELECT * FROM ({sql}) ranked "  # noqa: S608  # Django's SQL, its params apart
        "WHERE rank_in_kind >= %s AND rank_in_kind < %s ORDER BY kind, rank_in_kind"
    )
    with connections[ranked.db].cursor() as cursor:
        cursor.execute(around, (*params, first, first + count))
        names = [column[0] for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return [
        Match(
            kind=row["kind"],
            title=row["title"],
            page=row["page"],
            url=row["url"],
            keywords=row["keywords"],
            body=row["body"],
            kind_total=row["kind_total"],
            matched=row["matched"],
            has=[bool(row[f"has_{i}"]) for i in range(len(has))],
        )
        for row in rows
    ]


MATCH_COLUMNS = ("kind", "title", "page", "url", "keywords", "body", "kind_total", "matched")


def count_matches(terms: Sequence[str], kind: str) -> int:
    """How many live entries of ``kind`` have any of the words."""
    return _matched(terms, kind)[0].count()


def _has_word(term: str) -> Q:
    """An entry has a word when one of its words starts with it (after English stemming:
    "chips" finds "chip"), or, for a word of MIN_FUZZY_LENGTH letters or more, when its title
    is like it by pg_trgm's word similarity ("trainum" finds "AWS Trainium")."""
    if connection.vendor == "postgresql":
        found = Q(vector=_prefix_query(term))
        # pg_trgm.word_similarity_threshold is settings.SEARCH_WORD_SIMILARITY (settings.py).
        similar = Q(title__trigram_word_similar=term)
    else:
        found = _fts(f'"{term}"*' if len(term) >= MIN_PREFIX_LENGTH else f'"{term}"')
        likeness = WordSimilarity(Value(term), F("title"))
        similar = Q(GreaterThanOrEqual(likeness, settings.SEARCH_WORD_SIMILARITY))
    return (found | similar) if len(term) >= MIN_FUZZY_LENGTH else found


def _prefix_query(term: str) -> SearchQuery:
    # The term is letters and digits only (query_words), so it is one quoted lexeme.
    prefix = ":*" if len(term) >= MIN_PREFIX_LENGTH else ""
    return SearchQuery(f"'{term}'{prefix}", search_type="raw", config=CONFIG)


def _fts(match: str) -> Q:
    """SQLite: entries whose full-text index matches an FTS5 query (a quoted word: letters and digits)."""
    sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH %s"  # noqa: S608 - a constant table
    return Q(pk__in=RawSQL(sql, [match]))  # noqa: S611 - the match is a parameter


def _score(terms: Sequence[str]) -> Expression:
    """How well an entry matches, among entries with as many of the words: a word in the
    title (a name) weighs most, then the keywords, then the text; plus the title's likeness
    to each longer word."""
    likeness: Expression = Value(0.0, output_field=FloatField())
    for term in terms:
        if len(term) >= MIN_FUZZY_LENGTH:
            likeness = likeness + WordSimilarity(Value(term), F("title"))
    if connection.vendor == "postgresql":
        query = _prefix_query(terms[0])
        for term in terms[1:]:
            query |= _prefix_query(term)
        return SearchRank(F("vector"), query) + likeness
    weight: Expression = Value(0.0, output_field=FloatField())
    for term in terms:
        for column, points in (("title", TITLE), ("keywords", KEYWORDS), ("body", BODY)):
            star = "*" if len(term) >= MIN_PREFIX_LENGTH else ""
            where = _fts(f'{column} : "{term}"{star}')
            weight = weight + Case(
                When(where, then=Value(points / 10)), default=Value(0.0), output_field=FloatField()
            )
    return weight + likeness


class WordSimilarity(Func):
    """pg_trgm's ``word_similarity(query, text)``: PostgreSQL's own, and on SQLite its port
    (discovery/trigrams.py), so both rank a misspelt word alike."""

    function = "WORD_SIMILARITY"
    output_field = FloatField()

    def as_sqlite(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        return super().as_sql(compiler, connection, function=SQLITE_FUNCTION, **extra_context)
