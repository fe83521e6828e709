"""What a preview marks: a working copy's document against the live one (``Changes``), row by
row wherever the rows sit, read from the schema's declared fields (claims.documents)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from .document_checks import without_quote_checks


@dataclass(frozen=True)
class Changes:
    """A working copy's differences from the live document, as its preview marks them:
    ``rows`` is {list name: {row id: "new" or "changed"}} (``facts``, ``events``, ...),
    ``fields`` the names of the item's own fields that differ, ``removed`` the rows gone."""

    rows: dict[str, dict[int, str]] = field(default_factory=dict)
    fields: frozenset[str] = frozenset()
    removed: int = 0

    def of(self, kind: str, pk: int | None = None) -> str:
        """ "new", "changed" or "" for row ``pk`` of the list ``kind`` ("facts"), or for the
        item's own field ``kind`` ("summary") when no ``pk`` is given."""
        if pk is None:
            return "changed" if kind in self.fields else ""
        return self.rows.get(kind, {}).get(pk, "")

    @property
    def count(self) -> int:
        return sum(len(marks) for marks in self.rows.values()) + len(self.fields) + self.removed


def _key(part: Any) -> Any:
    """How a part is matched with its earlier self: its id, else its slug or name (a chip)."""
    for name in ("id", "slug", "name"):
        if name in type(part).model_fields:
            return getattr(part, name)
    return None


def mark_changes(
    mine: BaseModel, theirs: BaseModel | None, *, rows: dict[str, dict[int, str]], fields: set[str] | None
) -> int:
    """Fill ``rows`` (and, for the document itself, ``fields``) with what ``mine`` changes
    against ``theirs``; the number of rows removed."""
    removed = 0
    for name in type(mine).model_fields:
        now, before = getattr(mine, name), getattr(theirs, name, None)
        if isinstance(now, BaseModel) and isinstance(before, BaseModel) and fields is not None:
            old, new = _dump(before), _dump(now)
            fields |= {key for key in new if new[key] != old.get(key)}
        elif isinstance(now, list) and all(isinstance(row, BaseModel) for row in [*now, *(before or [])]):
            if all(hasattr(row, "id") for row in [*now, *(before or [])]):
                removed += _mark_rows(now, before or [], marks=rows.setdefault(name, {}))
            else:  # parts without an id (a profile's chips) hold rows of their own
                removed += _mark_parts(now, before or [], rows=rows)
    return removed


def _mark_rows(now: list[Any], before: list[Any], *, marks: dict[int, str]) -> int:
    """Mark each row of ``now`` new or changed against ``before``, by id; the number removed."""
    then = {row.id: _dump(row) for row in before}
    for row in now:
        if then.get(row.id) != _dump(row):
            marks[row.id] = "new" if row.id not in then else "changed"
    return len(then.keys() - {row.id for row in now})


def _mark_parts(now: list[Any], before: list[Any], *, rows: dict[str, dict[int, str]]) -> int:
    """Parts matched by slug or name, their rows marked in turn; a part gone has its rows removed."""
    removed = 0
    earlier = {_key(part): part for part in before}
    for part in now:
        removed += mark_changes(part, earlier.pop(_key(part), None), rows=rows, fields=None)
    for gone in earlier.values():
        removed += mark_changes(gone.model_copy(update=_emptied(gone)), gone, rows=rows, fields=None)
    return removed


def _emptied(part: BaseModel) -> dict[str, Any]:
    return {name: [] for name in type(part).model_fields if isinstance(getattr(part, name), list)}


def _dump(part: BaseModel) -> dict[str, Any]:
    """A part as a preview compares it: what a check found (of a quote, or the staleness it
    makes) is no change."""
    return without_quote_checks(part.model_dump(exclude_computed_fields=True))
