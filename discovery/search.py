"""Site search: indexing a published version, and finding what is live.

Each app says what a version holds for search (``Publication.search_entries``); this module
stores those entries when the version is written and ranks them for a query. Both databases
search alike, so the laptop demo finds what production finds:

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

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
from django.db import connection
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
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from comparisons.models import ComparisonVersion
from editorial.registry import publications
from vendors.models import VendorVersion

from .models import SearchEntry
from .trigrams import SQLITE_FUNCTION

if TYPE_CHECKING:
    from editorial.models import PublishedVersion
    from editorial.registry import Publication

MAX_QUERY_LENGTH = 200  # characters searched; the rest of a longer query is dropped, saying so
# The longest query string the results page reads: any longer (only a hand-made address can
# be) is cut first. Far above what the search box can send (200 characters, 12 bytes each
# at most once percent-encoded, is 2,400) and below what gunicorn refuses (its request line
# limit, 8,190 bytes in deploy.md's command; nginx's 8 KB).
MAX_QUERY_STRING = 4000
MAX_TERMS = 12
PER_GROUP = 10  # hits shown per kind of result
PER_PAGE = 50  # hits on a page of one kind of result ("And 14 more facts" opens it)
SNIPPET_WORDS = 28
CONFIG = "english"
MIN_FUZZY_LENGTH = 4  # shorter words have too few trigrams to be matched by likeness
MIN_PREFIX_LENGTH = 2  # a single letter or digit ("v" of "RISC-V") is matched as a whole word

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
KEYWORDS_QUOTED = {"vendor", "comparison"}  # kinds whose keywords read as words, not labels
FTS_TABLE = "discovery_searchentry_fts"  # SQLite's full-text index (migration 0002)
NOUNS = {  # what one and several results of each kind are called
    "vendor": ("vendor", "vendors"),
    "comparison": ("comparison", "comparisons"),
    "fact": ("fact", "facts"),
    "event": ("change", "changes"),
    "faq": ("question", "questions"),
}
TITLE, KEYWORDS, BODY = 8, 3, 1  # SQLite: what a word weighs in each column, as PostgreSQL's A, B, C


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
    rows = _matches(terms, kind=kind, first=first, count=per_group)
    if kind and not rows and number > 1:  # past the last page: show the last one
        total = _kind_total(terms, kind)
        last = max(1, -(-total // per_group))
        results.notices.append(f"There is no page {number} of these results: here is page {last}.")
        results.page, first = last, (last - 1) * per_group + 1
        rows = _matches(terms, kind=kind, first=first, count=per_group)
    results.groups = _grouped(rows, terms, text, first=first)
    results.widened = bool(rows) and len(terms) > 1 and not any(row["matched"] == len(terms) for row in rows)
    if kind and results.groups:
        results.pages = max(1, -(-results.groups[0].total // per_group))
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


def _matches(terms: Sequence[str], *, kind: str | None, first: int, count: int) -> list[Match]:
    entries, has = _matched(terms, kind)
    # The best hits of each kind and how many there are in all, in one query.
    rows = (
        entries.annotate(
            **{f"has_{i}": Case(When(c, then=Value(True)), default=Value(False)) for i, c in enumerate(has)},
            rank_in_kind=Window(
                RowNumber(),
                partition_by=[F("kind")],
                order_by=[F("matched").desc(), F("score").desc(), F("position"), F("id")],
            ),
            kind_total=Window(Count("id"), partition_by=[F("kind")]),
        )
        .filter(rank_in_kind__gte=first, rank_in_kind__lt=first + count)
        .order_by("kind", "rank_in_kind")
        .values(
            "kind",
            "title",
            "page",
            "url",
            "keywords",
            "body",
            "kind_total",
            "matched",
            *(f"has_{i}" for i in range(len(has))),
        )
    )
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


def _kind_total(terms: Sequence[str], kind: str) -> int:
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


def _grouped(rows: Iterable[Match], terms: Sequence[str], query: str, *, first: int) -> list[Group]:
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
