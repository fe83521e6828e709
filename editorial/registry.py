"""What the workflow knows of each kind of item: each app registers its own in AppConfig.ready().

The workflow app names no model: vendors and comparisons each hand it a Publication that
says how to write their published versions.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from django.db.models import Min, Q

if TYPE_CHECKING:
    from django.db.models import Model
    from pydantic import BaseModel

    from .diff import Kind
    from .models import Editable, PublishedVersion

type Document = dict[str, Any]  # a published version's document, as stored (JSON)

_publications: dict[str, Publication] = {}
_version_hooks: list[Callable[[Publication, PublishedVersion], None]] = []


class Publication:
    """How one kind of item is published. Subclass per app and register an instance."""

    model: ClassVar[type[Editable]]  # the working copy, e.g. Vendor
    version_model: ClassVar[type[PublishedVersion]]  # its PublishedVersion, e.g. VendorVersion
    noun: ClassVar[str] = "item"
    diff_kinds: ClassVar[dict[str, Kind]] = {}  # {model label: Kind}: how its child rows read in a diff
    # The published document's schema: what its change lists are read from (editorial.document_diff).
    document_schema: ClassVar[type[BaseModel] | None] = None

    def document(self, obj: Editable) -> Document:
        """The whole page as visitors would read it now, as JSON-ready data."""
        raise NotImplementedError

    def summary(self, document: Document) -> list[str]:
        """What a working copy never published holds, in a few lines for the Publisher who
        reviews it (there is no live page to compare it with)."""
        return []

    def columns(self, document: Document) -> dict[str, Any]:
        """The version's indexed columns (slug, name, ...) taken from its document."""
        return {}

    def history_entry(self, document: Document) -> dict[str, Any]:
        """What the change log keeps of a version besides its date, changes and note."""
        return {}

    def after_write(self, version: PublishedVersion) -> None:
        """Write the version's child rows (indexed scores, member vendors, ...)."""

    def search_entries(self, document: Document) -> list[dict[str, Any]]:
        """What site search finds in a version, as dicts: ``kind``, ``title`` (weighs most),
        ``keywords``, ``body`` (plain text), ``url`` (the exact section) and ``position``."""
        return []

    def content(self, document: Document) -> Document:
        """The document with anything that is not content (verified dates) left out."""
        return document

    def restamp(self, document: Document, obj: Editable) -> Document:
        """The document with the working copy's newer verified dates on unchanged rows, or itself."""
        return document

    def carry_verification(self, obj: Editable, document: Document) -> None:
        """After a revert or discard: keep the newer verified dates ``document`` holds for unchanged rows."""


def register(publication: Publication) -> Publication:
    from .diff import describe_rows_as

    _publications[publication.model._meta.label_lower] = publication
    describe_rows_as(publication.diff_kinds)
    return publication


def publication_for(obj_or_model: Model | type[Model]) -> Publication:
    return _publications[obj_or_model._meta.label_lower]


def publications() -> list[Publication]:
    return list(_publications.values())


def next_scheduled(now: dt.datetime) -> dt.datetime | None:
    """When the next version scheduled to go live goes live, or the next live one goes off the
    site (an unpublishing scheduled ahead), of any kind of item, or None. One query per kind.

    The page cache (infra.cache) asks it, so that a page cached now is not served past it
    (editorial.pages connects them)."""
    moments: list[dt.datetime] = []
    for publication in publications():
        found = publication.version_model.objects.aggregate(
            goes_live=Min("published_at", filter=Q(published_at__gt=now)),
            goes_off=Min("superseded_at", filter=Q(superseded_at__gt=now)),
        )
        moments += [moment for moment in found.values() if moment is not None]
    return min(moments, default=None)


def on_version_written[H: Callable[[Publication, PublishedVersion], None]](hook: H) -> H:
    """Call ``hook(publication, version)`` after every published version is written.

    Other apps (site search) keep their own data about versions this way; the workflow
    knows them no more than it knows a model."""
    _version_hooks.append(hook)
    return hook


def version_written(version: PublishedVersion) -> None:
    """A new published version has been stored: its app's rows, then every hook."""
    publication = publication_for(version.item)
    publication.after_write(version)
    for hook in _version_hooks:
        hook(publication, version)
