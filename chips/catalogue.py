"""Where the chip pages find live chips: the published versions that hold them, and each
version's document. A chip belongs to a vendor's profile, and the vendors app builds on this one,
so chips cannot import it: the vendors app registers its catalogue here when it is ready
(vendors/apps.py), and every chip page reads through it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, Protocol

from django.db.models import QuerySet

if TYPE_CHECKING:
    from .documents import Chip


class Owner(Protocol):
    """The vendor a chip belongs to, as a published document names it."""

    @property
    def name(self) -> str: ...

    @property
    def slug(self) -> str: ...

    def get_absolute_url(self) -> str: ...


class ChipsDocument(Protocol):
    """A published document that holds chips: its vendor and its chips."""

    @property
    def vendor(self) -> Owner: ...

    @property
    def chips(self) -> list[Chip]: ...


class Catalogue(Protocol):
    def live_versions(self) -> QuerySet[Any]:
        """The versions live now, whose chips are the live chips."""
        ...

    def with_chips(self, version_ids: Iterable[int]) -> QuerySet[Any]:
        """The versions of ``version_ids`` with the chips' parts of their documents only, which
        ``document_of`` reads (a page of many vendors' chips parses no more of them)."""
        ...

    def document_of(self, version: Any, *, chips: Collection[str] | None = None) -> ChipsDocument:
        """A version's published document, parsed once; with ``chips`` (slugs), its vendor and
        those chips alone, parsed each time asked (a comparison shows one chip of a vendor)."""
        ...


_registered: list[Catalogue] = []


def register(catalogue: Catalogue) -> None:
    """Name the one catalogue of live chips (the vendors app's, at its start)."""
    _registered[:] = [catalogue]


def catalogue() -> Catalogue:
    if not _registered:
        raise LookupError("No app has registered a chip catalogue (vendors/apps.py does).")
    return _registered[0]
