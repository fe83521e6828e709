"""Site search: indexing a published version, and finding what is live.

Each app says what a version holds for search (``Publication.search_entries``); this module
stores those entries when the version is written and ranks them for a query.

- PostgreSQL: a weighted ``tsvector`` (title A, keywords B, body C) kept in a GIN-indexed
  column, ranked with ``ts_rank``, plus trigram word similarity on titles (``pg_trgm``), so
  a misspelt name ("trainum") still finds its vendor.
- SQLite: the same interface and the same results page, matching words with ``LIKE`` and
  ranking a word in the title over one in the text. It has no typo tolerance.

When no entry holds every word, the search widens to entries holding any of them, and says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib.postgres.search import (
    SearchQuery,
    SearchRank,
    SearchVector,
    TrigramWordSimilarity,
)
from django.db import connection
from django.db.models import (
    Case,
    Count,
    Expression,
    F,
    FloatField,
    IntegerField,
    Q,
    QuerySet,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from comparisons.models import ComparisonVersion
from editorial.registry import publications
from vendors.models import VendorVersion

from .models import SearchEntry

if TYPE_CHECKING:
    from editorial.models import PublishedVersion
    from editorial.registry import Publication

MAX_QUERY_LENGTH = 200  # characters searched; the rest of a longer query is dropped, saying so
MAX_TERMS = 12
PER_GROUP = 10  # hits shown per kind of result
SNIPPET_WORDS = 28
CONFIG = "english"
MIN_FUZZY_LENGTH = 4  # shorter words have too few trigrams to be matched by likeness

# Which column of an entry points at each kind of version.
VERSION_FIELD = {
    "vendors.vendorversion": "vendor_version",
    "comparisons.comparisonversion": "comparison_version",
}


# Indexing -------------------------------------------------------------------------------


def index_version(publication: Publication, version: PublishedVersion) -> None:
    """Store what search finds in a newly written version (called for every version)."""
    column = VERSION_FIELD[version._meta.label_lower]
    item = version.item_id
    # Entries of this item's versions that are over for good are never searched again.
    SearchEntry.objects.filter(
        **{f"{column}__item_id": item, f"{column}__superseded_at__lte": version.published_at}
    ).delete()
    _store(SearchEntry, column, version.pk, publication.search_entries(version.document))


VECTOR_BATCH = 2000  # search entries whose vectors one statement fills when all are indexed again


def index_all(
    *,
    entry_model: type[SearchEntry] = SearchEntry,
    get_model: Callable[[str, str], Any] | None = None,
) -> None:
    """Index every version that is live or still to come (a migration's or a rebuild's job).

    A migration passes its historical ``SearchEntry`` and its ``apps.get_model``."""
    now = timezone.now()
    entry_model.objects.all().delete()
    for publication in publications():
        label = publication.version_model._meta.label_lower
        model: type[PublishedVersion] = (
            get_model(*label.split(".")) if get_model else publication.version_model
        )
        current = model.objects.filter(Q(superseded_at__isnull=True) | Q(superseded_at__gt=now))
        for pk, document in current.values_list("pk", "document").iterator(chunk_size=200):
            _store(entry_model, VERSION_FIELD[label], pk, publication.search_entries(document), vectors=False)
    # In slices of the key, so that no one statement outlasts the statement timeout (a single
    # UPDATE of 10,000 vendors' entries did) and each slice's rows are locked only briefly.
    starts = list(entry_model.objects.order_by("pk").values_list("pk", flat=True)[::VECTOR_BATCH])
    for start, end in pairwise([*starts, None]):
        batch = entry_model.objects.filter(pk__gte=start)
        _fill_vectors(batch.filter(pk__lt=end) if end is not None else batch)


def _store(
    entry_model: type[SearchEntry],
    column: str,
    version_pk: int,
    entries: Iterable[dict[str, Any]],
    *,
    vectors: bool = True,
) -> None:
    made = entry_model.objects.bulk_create(
        entry_model(
            **{f"{column}_id": version_pk},
            kind=entry["kind"],
            title=entry["title"][:500],
            keywords=entry["keywords"][:1000],
            body=entry["body"],
            page=entry["page"][:300],
            url=entry["url"][:500],
            position=entry["position"],
        )
        for entry in entries
    )
    if vectors and made:
        _fill_vectors(entry_model.objects.filter(**{f"{column}_id": version_pk}))


def _fill_vectors(queryset: QuerySet[SearchEntry]) -> None:
    if connection.vendor != "postgresql":
        return
    queryset.update(
        vector=SearchVector("title", weight="A", config=CONFIG)
        + SearchVector("keywords", weight="B", config=CONFIG)
        + SearchVector("body", weight="C", config=CONFIG)
    )


# Searching ------------------------------------------------------------------------------


@dataclass
class Hit:
    kind: str
    title: str
    page: str
    url: str
    snippet: str


@dataclass
class Group:
    kind: str
    label: str
    total: int
    hits: list[Hit] = field(default_factory=list)

    @property
    def more(self) -> int:
        return self.total - len(self.hits)


@dataclass
class Results:
    query: str  # what was searched, after cleaning
    notices: list[str] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)
    searched: bool = False  # the query had words to search for
    widened: bool = False  # no entry held every word: these hold some of them

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)


def clean_query(raw: str | None) -> tuple[str, list[str]]:
    """(query, notices): control characters (NUL included) removed, spaces collapsed, cut
    to MAX_QUERY_LENGTH characters. Nothing else about a query is refused."""
    notices = []
    text = " ".join(re.sub(r"[\x00-\x1f\x7f]", " ", raw or "").split())
    if len(text) > MAX_QUERY_LENGTH:
        text = text[:MAX_QUERY_LENGTH].rsplit(" ", 1)[0] or text[:MAX_QUERY_LENGTH]
        notices.append(f"Your search was long: only its first {MAX_QUERY_LENGTH} characters were searched.")
    return text, notices


def search_terms(text: str) -> list[str]:
    """The words of a query: letters and digits, at most MAX_TERMS of them."""
    return re.findall(r"\w+", text)[:MAX_TERMS]


def search(raw: str | None) -> Results:
    """What is live and matches ``raw``, grouped by kind of result, best first."""
    text, notices = clean_query(raw)
    results = Results(query=text, notices=notices)
    terms = search_terms(text)
    if not terms:
        if text:
            results.notices.append(f"“{text}” has no letters or digits to search for.")
        return results
    results.searched = True
    rows = _matches(text, terms, every_word=True)
    if not rows and len(terms) > 1:
        rows = _matches(text, terms, every_word=False)
        results.widened = bool(rows)
    results.groups = _grouped(rows, terms)
    return results


def live_entries() -> QuerySet[SearchEntry]:
    return SearchEntry.objects.filter(
        Q(vendor_version__in=VendorVersion.objects.live().values("pk"))
        | Q(comparison_version__in=ComparisonVersion.objects.live().values("pk"))
    )


class Match(TypedDict):
    """A search entry found, as ``_matches`` reads it."""

    kind: str
    title: str
    page: str
    url: str
    body: str
    kind_total: int  # entries of its kind found


def _matches(text: str, terms: Sequence[str], *, every_word: bool) -> list[Match]:
    if connection.vendor == "postgresql":
        entries = _postgres_matches(text, terms, every_word=every_word)
    else:
        entries = _fallback_matches(terms, every_word=every_word)
    # The best PER_GROUP of each kind and how many there are in all, in one query.
    return list(
        entries.annotate(
            rank_in_kind=Window(
                RowNumber(), partition_by=[F("kind")], order_by=[F("score").desc(), F("position"), F("id")]
            ),
            kind_total=Window(Count("id"), partition_by=[F("kind")]),
        )
        .filter(rank_in_kind__lte=PER_GROUP)
        .order_by("kind", "rank_in_kind")
        .values("kind", "title", "page", "url", "body", "kind_total")
    )


def _postgres_matches(text: str, terms: Sequence[str], *, every_word: bool) -> QuerySet[SearchEntry]:
    if every_word:
        query = SearchQuery(text, search_type="websearch", config=CONFIG)
        # A single word may be misspelt ("trainum"); of several, each must be found as typed.
        similar = Q(title__trigram_word_similar=text) if len(terms) == 1 else Q(pk__in=[])
        likeness: Expression = TrigramWordSimilarity(text, "title")
    else:
        query = SearchQuery(terms[0], config=CONFIG)
        for term in terms[1:]:
            query |= SearchQuery(term, config=CONFIG)
        similar, likeness = Q(pk__in=[]), Value(0.0, output_field=FloatField())
        for term in terms:
            if len(term) >= MIN_FUZZY_LENGTH:
                similar |= Q(title__trigram_word_similar=term)
                likeness = likeness + TrigramWordSimilarity(term, "title")
    return (
        live_entries()
        .filter(Q(vector=query) | similar)
        .annotate(score=SearchRank(F("vector"), query) + likeness)
    )


def _fallback_matches(terms: Sequence[str], *, every_word: bool) -> QuerySet[SearchEntry]:
    matched = Q() if every_word else Q(pk__in=[])
    score: Expression = Value(0.0, output_field=FloatField())
    for term in terms:
        found = Q(title__icontains=term) | Q(keywords__icontains=term) | Q(body__icontains=term)
        matched = (matched & found) if every_word else (matched | found)
        # A word in the title (a name) weighs most, as on PostgreSQL.
        score = (
            score
            + Case(When(title__icontains=term, then=Value(8)), default=Value(0), output_field=IntegerField())
            + Case(
                When(keywords__icontains=term, then=Value(3)), default=Value(0), output_field=IntegerField()
            )
            + Case(When(body__icontains=term, then=Value(1)), default=Value(0), output_field=IntegerField())
        )
    return live_entries().filter(matched).annotate(score=score)


def _grouped(rows: Iterable[Match], terms: Sequence[str]) -> list[Group]:
    labels = dict(SearchEntry.Kind.choices)
    groups: dict[str, Group] = {}
    for row in rows:
        group = groups.get(row["kind"])
        if group is None:
            group = groups[row["kind"]] = Group(row["kind"], labels[row["kind"]], row["kind_total"])
        group.hits.append(
            Hit(
                kind=row["kind"],
                title=row["title"],
                page=row["page"],
                url=row["url"],
                snippet=highlight(row["body"], terms),
            )
        )
    order = list(labels)
    return sorted(groups.values(), key=lambda group: order.index(group.kind))


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
