"""What a file would change, row by row, without writing anything (plan_import), and how the
preview words it; vendors.services.import_rows writes a plan."""

import datetime as dt
import hashlib
from collections.abc import Hashable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import timezone

from chips import quantities
from chips.models import chips_taken
from claims.models import Source

from ..models import Attribute, Axis, Vendor
from .columns import KINDS, URL_SEPARATORS
from .market_rows import MARKET_READERS, price_key, result_key
from .reading import Cells
from .rows import READERS, Key, PlannedRow, Reference, RowError, read_row, spec_key

_READERS = READERS | MARKET_READERS  # each kind's own checks


class ImportChanged(ValueError):
    """The profile changed between the preview and the confirmation."""


@dataclass
class Plan:
    filename: str
    rows: list

    def count(self, status):
        return sum(1 for row in self.rows if row.status == status)

    @property
    def counts(self):
        return {status: self.count(status) for status in ("new", "changed", "unchanged", "error")}

    @property
    def errors(self):
        return [row for row in self.rows if row.status == "error"]

    @property
    def unchanged(self):
        return [row for row in self.rows if row.status == "unchanged"]

    @property
    def changes_and_errors(self):
        return [row for row in self.rows if row.status != "unchanged"]

    @property
    def to_write(self):
        return [row for row in self.rows if row.status in ("new", "changed")]

    @property
    def can_apply(self):
        return not self.errors and bool(self.to_write)

    @property
    def digest(self):
        """What the preview showed: a confirmation applies only the plan the editor saw."""
        seen = [(row.number, row.status, row.changes, row.summary, row.error) for row in self.rows]
        return hashlib.sha256(repr(seen).encode()).hexdigest()


type Existing = dict[str, dict[Hashable, list[Any]]]  # {kind: {key: the profile's rows, in page order}}


def plan_import(
    *, vendor: Vendor, rows: list[tuple[int, Cells]], filename: str, today: dt.date | None = None
) -> Plan:
    """What importing ``rows`` (from read_csv) into ``vendor`` would do, row by row; writes nothing.

    Its queries do not grow with the file: the reference tables, the sources named and the
    profile's rows are each read once.
    """
    reference = _reference(vendor, rows, today=today or timezone.localdate())
    existing = _existing(vendor)
    seen: dict[str, dict[Key, int]] = {kind: {} for kind in KINDS}
    planned = [
        _plan_row(number, cells, reference=reference, existing=existing, seen=seen) for number, cells in rows
    ]
    return Plan(filename=filename, rows=planned)


def _reference(vendor: Vendor, rows: list[tuple[int, Cells]], *, today: dt.date) -> Reference:
    urls = {url for _, row in rows for url in URL_SEPARATORS.split(row["source_urls"]) if url}
    return Reference(
        attributes={a.name.casefold(): a for a in Attribute.objects.all()},
        axes={a.name.casefold(): a for a in Axis.objects.all()},
        sources={s.url: s for s in Source.objects.filter(url__in=urls)} if urls else {},
        taken=chips_taken(vendor.pk),
        today=today,
    )


def _existing(vendor: Vendor) -> Existing:
    """The profile's rows by kind and by what a file's row matches them on."""
    existing: Existing = {kind: {} for kind in KINDS}
    for fact in vendor.facts.order_by("attribute__position", "position", "pk").prefetch_related("sources"):
        existing["fact"].setdefault(fact.attribute_id, []).append(fact)
    for spec in vendor.specs.order_by("position", "pk").prefetch_related("sources"):
        existing["spec"].setdefault(spec_key(spec), []).append(spec)
    for row in vendor.availability.order_by("position", "pk").prefetch_related("sources"):
        existing["availability"].setdefault((row.chip_slug, row.stage), []).append(row)
    for price in vendor.prices.order_by("position", "pk").prefetch_related("sources"):
        existing["price"].setdefault(price_key(price), []).append(price)
    for result in vendor.results.order_by("position", "pk").prefetch_related("sources"):
        existing["result"].setdefault(result_key(result), []).append(result)
    for event in vendor.events.order_by("position", "date", "pk").prefetch_related("sources"):
        existing["event"].setdefault((event.date, event.precision), []).append(event)
    for score in vendor.scores.prefetch_related("sources"):
        existing["score"][score.axis_id] = [score]
    return existing


def _plan_row(
    number: int, cells: Cells, *, reference: Reference, existing: Existing, seen: dict[str, dict[Key, int]]
) -> PlannedRow:
    """One row checked and matched: the nth row of the file with a key updates the profile's
    nth row with it, if it has one."""
    row = PlannedRow(number=number, kind=cells["kind"].lower(), label=cells["label"])
    try:
        key = read_row(row, cells, reference, readers=_READERS)
        nth = _nth(row, key, seen[row.kind])
        matches = existing[row.kind].get(key, [])
        row.target = matches[nth] if nth < len(matches) else None
        if row.target is None and row.kind == "score" and not row.values["axis"].is_active:
            raise RowError(f"“{row.values['axis']}” is no longer an active axis: pick an active one")
        _compare(row)
    except RowError as error:
        row.status, row.error = "error", str(error)
    return row


def _nth(row: PlannedRow, key: Key, seen: dict[Key, int]) -> int:
    """How many rows of the file came before this one with its key (a score and a chip's
    stage come once)."""
    nth = seen.get(key, 0)
    seen[key] = nth + 1
    if row.kind == "score" and nth:
        raise RowError(f"a second score on “{row.label}”: a vendor has one score per axis")
    if row.kind == "availability" and nth:
        stage = row.values["stage"]
        raise RowError(f"a second “{stage}” row for {row.label[:80]}: a chip reaches each stage once")
    return nth


# What each kind compares and writes, with the words the preview uses.
_FIELDS = {
    "fact": [("value", "value"), ("vendor_stated", "vendor-stated"), ("verified_on", "verified on")],
    "spec": [
        ("chip", "chip"),
        ("quantity", "number"),
        ("unit", "unit"),
        ("qualifier", "qualifier"),
        ("sparse", "sparse"),  # dense (no) or not stated (empty): one spec, told apart here
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "availability": [
        ("chip", "chip"),
        ("month", "month"),
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "price": [
        ("chip", "chip"),
        ("provider", "provider"),
        ("offer", "offer"),
        ("kind", "bought"),
        ("amount", "amount"),
        ("currency", "currency"),
        ("per", "per"),
        ("chips_per_unit", "chips per instance"),
        ("region", "region"),
        ("difference_note", "note on differing sources"),
        ("as_of", "as of"),
        ("as_of_precision", "dated to the"),
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "result": [
        ("chip", "chip"),
        ("system", "system"),
        ("chips_in_system", "chips"),
        ("suite", "suite"),
        ("suite_version", "version"),
        ("workload", "workload"),
        ("scenario", "scenario"),
        ("metric", "metric"),
        ("value", "value"),
        ("unit", "unit"),
        ("counted", "as the source counts it"),
        ("division", "division"),
        ("availability", "system availability"),
        ("submitter", "submitter"),
        ("as_of", "as of"),
        ("as_of_precision", "dated to the"),
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "event": [("text", "text"), ("verified_on", "verified on")],
    "score": [("value", "score"), ("reason", "reason"), ("verified_on", "verified on")],
}


def _words(value: object) -> str:
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return quantities.text(value, grouped=False)
    return str(value)


def _compare(row):
    """Whether the row is new, changed or unchanged, and in words what it holds or changes."""
    if row.target is None:
        row.status, row.summary = "new", _summary(row)
        return
    for name, what in _FIELDS[row.kind]:
        old = getattr(row.target, name)
        if old != row.values[name]:
            row.changes.append((what, _words(old), _words(row.values[name])))
    old_urls = [source.url for source in row.target.sources.all()]
    new_urls = [source.url for source in row.sources]
    if set(old_urls) != set(new_urls):
        row.sources_changed = True
        row.changes.append(
            ("sources", " ".join(sorted(old_urls)) or "(none)", " ".join(new_urls) or "(none)")
        )
    row.status = "changed" if row.changes else "unchanged"


def _summary(row: PlannedRow) -> str:
    """What a new row holds, in words."""
    parts = [
        f"{what}: {_words(row.values[name])}"
        for name, what in _FIELDS[row.kind]
        if row.values[name] not in ("", None)
    ]
    if row.sources:
        parts.append(f"sources: {' '.join(source.url for source in row.sources)}")
    return "; ".join(parts)
