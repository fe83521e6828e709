"""Readable differences between two revisions of a profile or a comparison.

A revision (django-reversion) holds the item and every row that follows it: facts,
events, scores, FAQs and their citations, or a comparison's vendors, criteria and
assessments. Rows are matched by primary key, so an edited row reads as a change,
not as one removal and one addition.
"""

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.apps import apps
from django.db import models
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from reversion.models import Version

from .document_diff import is_long, word_diff

SHORT = 80  # longer texts read as a word diff (document_diff.word_diff) rather than old -> new
SKIP = {
    "id", "created_at", "updated_at", "position", "verified_by",
    "has_unpublished_changes", "review_requested_at", "review_requested_by",
}  # fmt: skip
# The public change log says what changed in the content; verified dates have their own line.
PUBLIC_SKIP = SKIP | {"verified_on"}

# {model label: {object id: field dict}}: every row of one revision, as django-reversion stored it.
Snapshot = dict[str, dict[str, dict[str, Any]]]


@dataclass(frozen=True)
class Kind:
    """How one kind of row reads in a diff: “Score Software: 3 -> 4, reason changed”."""

    noun: str
    label: str  # a field name, or "ref:<field>" to name the row after what it points at
    main: str | None = None  # the field whose old -> new value leads the line
    name: Callable[[dict], str] | None = None  # names a row from its fields, instead of ``label``
    # writes the row's figure from its fields as pages write it (“$2.50 per chip-hour”), instead of ``main``
    figure: Callable[[dict], str] | None = None


# How each kind of child row reads, by model label; each app adds its own through its
# Publication's ``diff_kinds`` (see registry.register).
KINDS: dict[str, Kind] = {}
CITATION_SUFFIX = "citation"


def describe_rows_as(kinds):
    """Add {model label: Kind} for an app's child rows."""
    KINDS.update(kinds)


def version_chain(obj, *, after=0):
    """The item's versions saved after the version with primary key ``after``, oldest first."""
    return list(
        Version.objects.get_for_object(obj)
        .filter(pk__gt=after or 0)
        .select_related("revision__user")
        .order_by("pk")
    )


def snapshot(version_id: int | None) -> Snapshot:
    """{model label: {object id: field dict}} for every row in the version's revision."""
    return snapshots([version_id]).get(version_id, {}) if version_id else {}


def snapshots(version_ids: Iterable[int]) -> dict[int, Snapshot]:
    """{version id: its snapshot} for several versions of one item, in one query."""
    revision_of = dict(Version.objects.filter(pk__in=version_ids).values_list("pk", "revision_id"))
    by_revision: dict[int, Snapshot] = {}
    rows = Version.objects.filter(revision_id__in=set(revision_of.values())).select_related("content_type")
    for row in rows:
        label = f"{row.content_type.app_label}.{row.content_type.model}"
        by_revision.setdefault(row.revision_id, {}).setdefault(label, {})[row.object_id] = row.field_dict
    return {pk: by_revision.get(revision, {}) for pk, revision in revision_of.items()}


def content_of(rows, *, skip=SKIP):
    """A snapshot without the fields a diff skips: two revisions whose content is equal read as
    no change (describe_changes finds nothing between them)."""
    return {
        label: {
            pk: {name: value for name, value in fields.items() if name not in skip}
            for pk, fields in by_pk.items()
        }
        for label, by_pk in rows.items()
    }


class Names:
    """Names of what rows point at (attributes, axes, sources, vendors), fetched once per model."""

    def __init__(self):
        self._cache = {}

    def know(self, model, pk, row, field_name):
        """Name ``pk`` after ``row``'s already loaded ``field_name`` (select_related), sparing a query."""
        if pk is not None and field_name in row._state.fields_cache:
            self._cache.setdefault(model, {})[pk] = str(row._state.fields_cache[field_name])

    def of(self, model, pk):
        if pk is None:
            return "none"
        if model not in self._cache:
            self._cache[model] = {}
        if pk not in self._cache[model]:
            obj = model._default_manager.filter(pk=pk).first()
            self._cache[model][pk] = str(obj) if obj else f"#{pk} (deleted)"
        return self._cache[model][pk]


def _show(value):
    """A value as people read it; dates and times in the site's one format (“3 Dec 2026 09:00”)."""
    if value is None or value == "":
        return "empty"
    if isinstance(value, dt.datetime):
        return date_format(
            timezone.localtime(value) if timezone.is_aware(value) else value, "DATETIME_FORMAT"
        )
    if isinstance(value, dt.date):
        return date_format(value, "DATE_FORMAT")
    return str(value)


def _field_change(name, old, new, *, lead=False):
    """“old -> new”, or the words changed when either is long text (“[-96 GB-] {+144 GB+}”)."""
    if isinstance(old, str) and isinstance(new, str) and is_long(old, new):
        return word_diff(old, new) if lead else f"{name}: {word_diff(old, new)}"
    return f"{_show(old)} -> {_show(new)}" if lead else f"{name}: {_show(old)} -> {_show(new)}"


def _row_label(model, kind, fields, names):
    if kind.name is not None:
        return kind.name(fields)
    if kind.label.startswith("ref:"):
        field = model._meta.get_field(kind.label[4:])
        return names.of(field.related_model, fields.get(field.attname))
    return _show(fields.get(kind.label))  # never cut: a cut name runs into what follows it


def _describe_row_change(model, kind, old, new, names, skip=SKIP):
    parts: list[str] = []
    if kind.figure is not None and kind.figure(old) != kind.figure(new):
        parts.append(f"{kind.figure(old)} -> {kind.figure(new)}")
    fields = [f for f in model._meta.concrete_fields if f.name not in skip and not f.is_relation]
    fields += [f for f in model._meta.concrete_fields if f.is_relation and f.name not in skip]
    for field in fields:
        before, after = old.get(field.attname), new.get(field.attname)
        if isinstance(field, models.DecimalField):  # "96.000000" as read back, "96" as typed
            before, after = _plain_decimal(before), _plain_decimal(after)
        if before == after or _in_figure(kind, field.attname, old, new):
            continue
        if field.is_relation:
            before, after = names.of(field.related_model, before), names.of(field.related_model, after)
        label = field.verbose_name
        if field.name == kind.main:
            parts.insert(0, _field_change(label, before, after, lead=True))
        elif field.is_relation:
            parts.append(f"{label}: {before} -> {after}")
        else:
            parts.append(_field_change(label, before, after))
    return parts


def _in_figure(kind, attname, old, new):
    """Whether the row's figure writes the field (a price's amount, currency, per what): its
    change is in the figure's line, not a line of its own."""
    return kind.figure is not None and kind.figure({**old, attname: new.get(attname)}) != kind.figure(old)


def _plain_decimal(value):
    """A revision's decimal (a string) without its trailing zeros: 96.000000 and 96 read 96."""
    if value in (None, ""):
        return value
    try:
        return format(Decimal(str(value)).normalize(), "f")
    except InvalidOperation:
        return value


def _describe_citation(model, old_rows, new_rows, names, cited_rows):
    """Sources added to and removed from rows, and evidence changed. ``cited_rows`` holds the
    cited rows' fields (both revisions), so a row is named as its own lines name it, in full."""
    cited_model = model._meta.get_field("cited").related_model
    source_model = model._meta.get_field("source").related_model
    cited_label = cited_model._meta.label_lower
    kind = KINDS.get(cited_label)

    def name_of(pk):
        fields = cited_rows.get(str(pk))
        if kind is None or fields is None:
            return names.of(cited_model, pk)
        return _row_label(cited_model, kind, fields, names)

    lines = []
    for rows, verb in (
        (new_rows.keys() - old_rows.keys(), "added to"),
        (old_rows.keys() - new_rows.keys(), "removed from"),
    ):
        for pk in sorted(rows):
            row = (new_rows if verb == "added to" else old_rows)[pk]
            what = name_of(row.get("cited_id"))
            lines.append(f"Source {verb} {what}: {names.of(source_model, row.get('source_id'))}")
    for pk in sorted(old_rows.keys() & new_rows.keys(), key=int):
        old, new = old_rows[pk], new_rows[pk]
        parts = []
        if old.get("support", "full") != new.get("support", "full"):
            parts.append(f"support {old.get('support', 'full')} -> {new.get('support', 'full')}")
        if (old.get("quote") or "") != (new.get("quote") or ""):
            parts.append(_quote_change(old.get("quote") or "", new.get("quote") or ""))
        if parts:
            what = name_of(new.get("cited_id"))
            source = names.of(source_model, new.get("source_id"))
            lines.append(f"Evidence of {what} from {source}: {', '.join(parts)}")
    return lines


def _quote_change(old: str, new: str) -> str:
    if not old:
        return "quote added"
    return _field_change("quote", old, new) if new else "quote removed"


def describe_changes(obj, old_version_id, new_version_id, *, skip=SKIP):
    """Lines such as “Memory: 96 GB HBM3 -> 144 GB HBM3e” from one revision of ``obj`` to another."""
    before, after = snapshot(old_version_id), snapshot(new_version_id)
    names = Names()
    lines = []
    root = f"{obj._meta.app_label}.{obj._meta.model_name}"
    old_root = before.get(root, {}).get(str(obj.pk), {})
    new_root = after.get(root, {}).get(str(obj.pk), {})
    if old_root:  # the item's own fields, each a line of its own: “Summary changed”
        lines += [
            capfirst(part)
            for part in _describe_row_change(type(obj), Kind("", ""), old_root, new_root, names, skip)
        ]
    for label in sorted(set(before) | set(after)):
        if label == root:
            continue
        model = apps.get_model(label)
        old_rows, new_rows = before.get(label, {}), after.get(label, {})
        if label.endswith(CITATION_SUFFIX):
            cited = model._meta.get_field("cited").related_model._meta.label_lower
            cited_rows = {**before.get(cited, {}), **after.get(cited, {})}
            lines += _describe_citation(model, old_rows, new_rows, names, cited_rows)
            continue
        kind = KINDS.get(label, Kind(model._meta.verbose_name.capitalize(), "id"))
        noun = f"{kind.noun} " if kind.noun else ""
        title = kind.noun or model._meta.verbose_name.capitalize()
        for pk in sorted(new_rows.keys() - old_rows.keys(), key=int):
            row = new_rows[pk]
            lead = row.get(kind.main) if kind.main else None
            if kind.main and isinstance(model._meta.get_field(kind.main), models.DecimalField):
                lead = _plain_decimal(lead)  # "144", never "144.000000"
            lead = kind.figure(row) if kind.figure else lead
            main = f": {_show(lead)}" if lead not in (None, "") else ""
            lines.append(f"{title} added: {_row_label(model, kind, row, names)}{main}")
        for pk in sorted(old_rows.keys() - new_rows.keys(), key=int):
            lines.append(f"{title} removed: {_row_label(model, kind, old_rows[pk], names)}")
        for pk in sorted(old_rows.keys() & new_rows.keys(), key=int):
            parts = _describe_row_change(model, kind, old_rows[pk], new_rows[pk], names, skip)
            if parts:
                lines.append(f"{noun}{_row_label(model, kind, new_rows[pk], names)}: {', '.join(parts)}")
    return lines
