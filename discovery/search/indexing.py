# mypy: disallow-untyped-defs, disallow-incomplete-defs
# (as pyproject.toml asks of discovery.search, whose override names the package, not its modules)
"""Indexing: what search finds in a version, stored when the version is written.

Each app says what a version holds for search (``Publication.search_entries``); these are
stored as ``SearchEntry`` rows. On PostgreSQL each row's weighted ``tsvector`` (title A,
keywords B, body C) is filled in here; SQLite's FTS5 index follows the table by itself
(migration 0002).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from django.contrib.postgres.search import SearchVector
from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from editorial.registry import publications

from ..models import SearchEntry

if TYPE_CHECKING:
    from editorial.models import PublishedVersion
    from editorial.registry import Publication

CONFIG = "english"  # PostgreSQL's text search configuration: vectors and queries stem alike

# Which column of an entry points at each kind of version.
VERSION_FIELD = {
    "vendors.vendorversion": "vendor_version",
    "comparisons.comparisonversion": "comparison_version",
}


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
