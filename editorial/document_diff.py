"""What changed between two published documents, in lines readers and editors read.

Generic over the document's schema (pydantic models: a profile, a comparison): every part is
walked by its declared fields, so a part the schema grows is listed without a line here. Rows
with an ``id`` are matched by it, parts without one (a profile's chips) by their ``slug`` or
``name``; a row's sources and evidence read as “Source added to Memory: <title>”.

A row's figure is written by the row itself (``as_given``, ``shown``, ``display_month``), so the
site's one number formatter writes every value here too: “288 GB -> 256 GB”, “$1.50 per
chip-hour -> $1.35 per chip-hour”. Long text reads as a word diff, marked the way ``git diff
--word-diff=plain`` marks it: “[-removed words-]” and “{+added words+}”, which
``editorial.templatetags.preview.change_line`` renders as <del> and <ins> and ``plain`` writes
for places that show text (feeds, the API, e-mails): “a [fast -> faster] chip”.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Iterator
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from pydantic import BaseModel

SHORT = 80  # longer text, or text over several lines, reads as a word diff
CONTEXT = 4  # unchanged words kept on each side of a change in a word diff
# Never content: ids and order, when a check ran or what it found, what is read off the words.
SKIP = frozenset({
    "id", "position", "verified_at", "quote_found", "quote_checked_at", "quote_missing_at",
    "problem_at", "stated", "sources_differ",
})  # fmt: skip
PUBLIC_SKIP = SKIP | {"verified_on"}  # the change log says what changed; verified dates move silently
LEADS = ("as_given", "shown", "display_month", "value")  # how a row writes its own figure
# How word_diff marks a change: words removed, each followed by the words added in their place.
MARKED = re.compile(r"\[-(?P<removed>.+?)-\](?: \{\+(?P<replaced_by>.+?)\+\})?|\{\+(?P<added>.+?)\+\}")
NOUNS = {"Spec": "Chip spec", "Result": "Measured result", "Text": "Text"}  # else the class's name


def document_changes(old: BaseModel, new: BaseModel, *, skip: frozenset[str] = SKIP) -> list[str]:
    """Lines such as “Memory: 96 GB HBM3 -> 144 GB HBM3e” from ``old`` to ``new``."""
    return list(_walk(old, new, skip, sources=_sources(old) | _sources(new)))


def _sources(document: BaseModel) -> dict[int, str]:
    found = getattr(document, "sources", None)
    return {pk: source.title for pk, source in found.items()} if isinstance(found, dict) else {}


def _walk(
    old: BaseModel | None, new: BaseModel, skip: frozenset[str], *, sources: dict[int, str]
) -> Iterator[str]:
    """The changes of one part without an id (the document, a chip): its own fields as lines,
    then its rows."""
    for name in type(new).model_fields:
        if name in skip:
            continue
        before, after = getattr(old, name, None), getattr(new, name)
        if isinstance(after, list) or isinstance(before, list):
            yield from _rows(before or [], after or [], skip, sources=sources)
        elif isinstance(after, dict):
            if name != "sources":
                continue
            for pk, source in after.items():  # a source added or removed is said where it is cited
                if before and pk in before:
                    parts = _field_parts(before[pk], source, skip | {"title"}, lead=None)
                    if parts:
                        yield f"Source {source.title}: {', '.join(parts)}"
        elif isinstance(after, BaseModel):  # a part of its own (a profile's vendor): its fields
            for part in _field_parts(before, after, skip, lead=None):
                yield capfirst(part)
        elif old is not None and before != after and not _keyed(new):
            yield capfirst(_change(_label(new, name), before, after))


def _keyed(part: BaseModel) -> bool:
    return "id" in type(part).model_fields


def _key(part: Any) -> Any:
    if not isinstance(part, BaseModel):
        return part
    for name in ("id", "slug", "name"):
        if name in type(part).model_fields:
            return getattr(part, name)
    return part


def _rows(
    before: list[Any], after: list[Any], skip: frozenset[str], *, sources: dict[int, str]
) -> Iterator[str]:
    """A list's rows added, removed and changed, matched by their key."""
    if not all(isinstance(row, BaseModel) for row in [*before, *after]):
        return
    old = {_key(row): row for row in before}
    new = {_key(row): row for row in after}
    for key, row in new.items():
        if not _keyed(row):  # a chip: its rows are what is listed
            yield from _walk(old.get(key), row, skip, sources=sources)
        elif key not in old:
            figure = _lead_text(row)
            yield f"{_noun(row)} added: {_name(row)}{f': {figure}' if figure else ''}"
            yield from _citations(None, row, sources)
        else:
            parts = _field_parts(old[key], row, skip, lead=_lead(row))
            if parts:
                yield f"{_name(row)}: {', '.join(parts)}"
            yield from _citations(old[key], row, sources)
    for key, row in old.items():
        if key in new:
            continue
        if not _keyed(row):
            yield from _walk(row, row.model_copy(update=_emptied(row)), skip, sources=sources)
        else:
            yield f"{_noun(row)} removed: {_name(row)}"


def _emptied(part: BaseModel) -> dict[str, Any]:
    """A container part with none of its rows: what a removed chip is compared with."""
    return {name: [] for name in type(part).model_fields if isinstance(getattr(part, name), list)}


def _citations(old: BaseModel | None, new: BaseModel, sources: dict[int, str]) -> Iterator[str]:
    """A row's sources added and removed, and what a source still cited says differently."""
    if "sources" not in type(new).model_fields:
        return
    name = _name(new)
    before = list(getattr(old, "sources", []) or [])
    after = list(getattr(new, "sources", []) or [])
    if old is not None:  # a new row's sources are part of it being added
        for pk in after:
            if pk not in before:
                yield f"Source added to {name}: {sources.get(pk, f'#{pk}')}"
    for pk in before:
        if pk not in after:
            yield f"Source removed from {name}: {sources.get(pk, f'#{pk}')}"
    said_before = {entry.source: entry for entry in getattr(old, "evidence", []) or []}
    for entry in getattr(new, "evidence", []) or []:
        if entry.source in before and entry.source in after:
            earlier = said_before.get(entry.source) or entry.model_copy(
                update={"quote": "", "support": "full"}
            )
            parts = _field_parts(earlier, entry, SKIP | {"source"}, lead=None)
            if parts:
                yield f"Evidence of {name} from {sources.get(entry.source, '?')}: {', '.join(parts)}"


def _noun(row: BaseModel) -> str:
    kind = type(row).__name__
    return NOUNS.get(kind, kind)


def _name(row: BaseModel) -> str:
    """How a row is named in a line: a chip's row by its chip and label (“MI355X — Memory
    capacity”, “MI300X — TensorWave, MI300X rental”), any other as its footnotes name it
    (``cited_as``); never cut, so no name runs into what follows it."""
    if isinstance(getattr(row, "chip", None), str) and hasattr(row, "label"):
        return f"{row.chip} — {row.label}"  # type: ignore[attr-defined]
    named = str(getattr(row, "cited_as", "") or getattr(row, "name", "") or getattr(row, "title", ""))
    noun = _noun(row)
    return named.replace(f"{noun}: ", f"{noun} ", 1) if named.startswith(f"{noun}: ") else named or noun


def _lead(row: BaseModel) -> str | None:
    for name in LEADS:
        if hasattr(row, name):
            return name
    return None


def _lead_text(row: BaseModel) -> str:
    name = _lead(row)
    return _show(getattr(row, name)) if name else ""


def _field_parts(
    old: BaseModel | None, new: BaseModel, skip: frozenset[str], *, lead: str | None
) -> list[str]:
    """“96 GB -> 144 GB, vendor stated: no -> yes”: the row's figure first (when it changed), then
    each other field that differs, except those the figure already says."""
    if old is None:
        return []
    parts: list[str] = []
    if lead is not None and getattr(old, lead) != getattr(new, lead):
        parts.append(_change("", getattr(old, lead), getattr(new, lead)))
    for name in type(new).model_fields:
        if name in skip or name in ("sources", "evidence"):
            continue
        before, after = getattr(old, name), getattr(new, name)
        if before == after or (lead is not None and _in_lead(old, name, after, lead)):
            continue
        if isinstance(after, list) or isinstance(before, list):
            continue  # rows of a row are listed on their own
        parts.append(_change(_label(new, name).lower(), before, after))
    return parts


def _in_lead(row: BaseModel, name: str, value: Any, lead: str) -> bool:
    """Whether the row's figure writes ``name`` (a unit, a currency): changing it alone changes it."""
    try:
        return getattr(row.model_copy(update={name: value}), lead) != getattr(row, lead)
    except (ArithmeticError, KeyError, TypeError, ValueError):
        return False


def _label(part: BaseModel, name: str) -> str:
    field = type(part).model_fields.get(name)
    return (field.title if field is not None and field.title else "") or name.replace("_", " ")


def _change(label: str, old: Any, new: Any) -> str:
    """“label: old -> new”, or a word diff when either is long text; no label: “old -> new”."""
    prefix = f"{label}: " if label else ""
    if isinstance(old, str) and isinstance(new, str) and is_long(old, new):
        return prefix + word_diff(old, new)
    return f"{prefix}{_show(old)} -> {_show(new)}"


def is_long(old: str, new: str) -> bool:
    return max(len(old), len(new)) > SHORT or "\n" in old or "\n" in new


def word_diff(old: str, new: str) -> str:
    """The words of ``new`` with what ``old`` had instead marked: “a [-fast-]{+faster+} chip”;
    long runs of unchanged words shortened to a few on each side (“…”)."""
    before, after = old.split(), new.split()
    out: list[str] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    codes = matcher.get_opcodes()
    for index, (op, i1, i2, j1, j2) in enumerate(codes):
        if op == "equal":
            words = after[j1:j2]
            head = words[:CONTEXT] if index else []
            tail = words[-CONTEXT:] if index < len(codes) - 1 else []
            if len(words) > len(head) + len(tail):
                words = [*head, "…", *tail] if head or tail else ["…"]
            out += words
            continue
        if i2 > i1:
            out.append(f"[-{' '.join(before[i1:i2])}-]")
        if j2 > j1:
            out.append(f"{{+{' '.join(after[j1:j2])}+}}")
    return " ".join(out)


def pieces(line: str) -> Iterator[tuple[str, str, str]]:
    """A change line as (words as they stand, words removed, words added), in order: the one
    reading of word_diff's marks, for ``plain`` and the HTML change list alike."""
    at = 0
    for found in MARKED.finditer(line):
        if found.start() > at:
            yield line[at : found.start()], "", ""
        yield "", found["removed"] or "", found["replaced_by"] or found["added"] or ""
        at = found.end()
    if at < len(line):
        yield line[at:], "", ""


def plain(line: str) -> str:
    """A change line as text, for a place that cannot strike words through (a feed, the API, an
    e-mail): “a [-fast-] {+faster+} chip” reads “a [fast -> faster] chip”, words only added
    “[added: very]”, only removed “[removed: very]”. A line without a word diff is unchanged."""
    out = []
    for text, removed, added in pieces(line):
        if removed and added:
            out.append(f"[{removed} -> {added}]")
        elif removed or added:
            out.append(f"[removed: {removed}]" if removed else f"[added: {added}]")
        else:
            out.append(text)
    return "".join(out)


def _show(value: Any) -> str:
    """A value as people read it; dates in the site's one format, yes or no, a part by its name."""
    if value is None or value == "":
        return "empty"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        return date_format(
            timezone.localtime(value) if timezone.is_aware(value) else value, "DATETIME_FORMAT"
        )
    if isinstance(value, dt.date):
        return date_format(value, "DATE_FORMAT")
    if isinstance(value, BaseModel):
        return str(getattr(value, "name", "") or getattr(value, "title", "") or value)
    return str(value)
