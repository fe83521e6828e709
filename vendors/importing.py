"""One vendor's facts, chips' specs and availability, events and scores as a CSV file, out and back in.

The format, one row per value (README.md, “Bulk import”)::

    kind,label,value,reason,vendor_stated,verified_on,source_urls,measure,unit,scope,precision,sparse
    fact,Memory,96 GB HBM,,yes,2026-11-01,https://aws.amazon.com/trainium/,,,,,
    spec,Trainium3,2.52,,yes,2026-11-01,https://example.com/a,compute,PFLOPS,chip,FP8,no
    availability,Trainium3,2025-12,,no,2026-11-01,https://example.com/a,ga,,,,
    event,2025-12,Trainium3 announced,,,2026-11-01,https://example.com/a https://example.com/b,,,,,
    score,Performance,4,Fast at scale.,,2026-11-01,,,,,,

- ``label`` is the attribute's name (fact), the chip's name (spec), the event's date as
  ``2024``, ``2024-06`` or ``2024-06-14`` (vendors/event_dates.py), or the axis's name (score).
- A spec's ``value`` is its number as the source gives it; ``measure`` what it measures
  (``memory``, ``bandwidth``, ``compute``..., vendors/units.py), ``unit`` its unit, ``scope``
  ``chip`` (the default), ``system`` or ``pod``; ``precision`` and ``sparse`` only for compute.
  These last five columns are for spec rows only, and a file without them still reads.
- An availability row names its chip in ``label``, the month it reached the stage in ``value``
  (``2025-12``) and the stage in ``measure``: ``announced``, ``preview`` or ``ga``.
- ``source_urls``: URLs of existing sources, separated by spaces or ``|``. An unknown URL is
  an error, not a new source: a source readers see needs a title, a publisher and a date
  accessed, which a bare URL does not give, and a typo would otherwise create a junk source.
- A row matches what the profile already has by its kind and label: the first ``Memory``
  row of the file is the profile's first Memory fact, and so on (a score: its axis; an
  event: its date; a spec: its chip, what it measures, counted for what, in which precision;
  an availability row: its chip and stage).
  What matches is updated, the rest is added; nothing is ever deleted.
- A cell a spreadsheet would run as a formula (``=``, ``+``, ``-``, ``@``...) is written with a
  leading ``'`` by the site's one CSV writer (infra/tabular.py) and read back without it:
  text stays text both ways, and nothing in a cell is ever evaluated.

``plan_import`` says what a file would change without writing anything;
``vendors.services.import_rows`` writes it, all or nothing, in one transaction. A file with
any error is refused whole: a partial import would leave the file and the profile out of
step, and the editor fixes the file and uploads it again.
"""

import csv
import datetime as dt
import hashlib
import io
import re
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import DecimalValidator
from django.utils import timezone

from infra.tabular import FORMULA_STARTS, SKIPPED_BEFORE_A_FORMULA, csv_text

from . import units
from .event_dates import EventDateError, event_date_text, parse_event_date
from .models import (
    SCORE_MAX,
    SCORE_MIN,
    Attribute,
    Axis,
    Precision,
    Scope,
    Source,
    Spec,
    Stage,
    chip_slug,
    chips_taken,
)

SPEC_COLUMNS = ("measure", "unit", "scope", "precision", "sparse")
COLUMNS = ("kind", "label", "value", "reason", "vendor_stated", "verified_on", "source_urls", *SPEC_COLUMNS)
KINDS = ("fact", "spec", "availability", "event", "score")
STATED_KINDS = ("fact", "spec", "availability")  # the kinds that can be vendor-stated
REQUIRED_COLUMNS = ("kind", "label", "value")
MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
YES, NO = ("yes", "true", "1", "y"), ("no", "false", "0", "n", "")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_URL_SEPARATORS = re.compile(r"[\s|]+")


class ImportFileError(ValueError):
    """The file as a whole cannot be read: in words an editor can act on."""


class ImportChanged(ValueError):
    """The profile changed between the preview and the confirmation."""


# --- Reading -----------------------------------------------------------------------------


def read_csv(data):
    """The file's rows as ``(row number, {column: text})``; ImportFileError when it is not a
    UTF-8 CSV file with a header row, is larger than MAX_BYTES or has more than MAX_ROWS rows."""
    if len(data) > MAX_BYTES:
        raise ImportFileError(
            f"The file is {len(data) / 1_000_000:.1f} MB: the limit is {MAX_BYTES // 1_000_000} MB "
            f"({MAX_ROWS:,} rows). Split it into smaller files."
        )
    if b"\x00" in data:
        raise ImportFileError("This is not a CSV file: save the sheet as “CSV UTF-8” and upload that.")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            f"The file is not UTF-8 text (byte {error.start + 1} is not): save it as “CSV UTF-8” "
            "and upload it again."
        ) from error
    # Rows are numbered as a spreadsheet numbers them (the header is row 1), blank ones included.
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    lines = []
    try:
        for number, cells in enumerate(reader, start=1):
            if any(cell.strip() for cell in cells):
                lines.append((number, cells))
    except csv.Error as error:
        raise ImportFileError(f"Line {reader.line_num} is not valid CSV ({error}).") from error
    if not lines:
        raise ImportFileError("The file is empty: its first row names the columns, e.g. " + ",".join(COLUMNS))
    header = [cell.strip().lower() for cell in lines[0][1]]
    if len(header) == 1 and ";" in header[0]:
        raise ImportFileError(
            "The columns are separated by semicolons: save the sheet as “CSV UTF-8 (comma delimited)”."
        )
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    unknown = [name for name in header if name not in COLUMNS]
    if missing or unknown:
        raise ImportFileError(
            "The first row must name the columns "
            + ", ".join(COLUMNS)
            + (f" (missing: {', '.join(missing)})" if missing else "")
            + (f" (not a column: {', '.join(repr(n) for n in unknown[:5])})" if unknown else "")
            + "."
        )
    if len(set(header)) != len(header):
        raise ImportFileError("The first row names a column twice: name each column once.")
    if len(lines) == 1:
        raise ImportFileError("The file has a header row but no rows under it: nothing to import.")
    if len(lines) - 1 > MAX_ROWS:
        raise ImportFileError(
            f"The file has {len(lines) - 1:,} rows: the limit is {MAX_ROWS:,}. Split it into smaller files."
        )
    rows = []
    for number, cells in lines[1:]:
        row = {name: "" for name in COLUMNS}
        row.update({name: _unescape(cell).strip() for name, cell in zip(header, cells, strict=False)})
        row[None] = cells[len(header) :]  # cells beyond the header: an error for that row
        rows.append((number, row))
    return rows


def _unescape(cell):
    """The inverse of infra.tabular.neutralise: ``'=1+1`` reads back as the text ``=1+1``."""
    if cell.startswith("'") and cell[1:].lstrip(SKIPPED_BEFORE_A_FORMULA).startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


# --- Planning ----------------------------------------------------------------------------


@dataclass
class PlannedRow:
    number: int  # the row in the file as a spreadsheet shows it (the header is row 1)
    kind: str
    label: str
    status: str = "error"  # new, changed, unchanged or error
    error: str = ""
    changes: list = field(default_factory=list)  # (what, old, new) in words
    summary: str = ""  # what a new row holds, in words
    target: object = None  # the row it updates
    sources_changed: bool = False
    values: dict = field(default_factory=dict)  # what is written
    sources: list = field(default_factory=list)


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


def plan_import(*, vendor, rows, filename, today=None):
    """What importing ``rows`` (from read_csv) into ``vendor`` would do, row by row; writes nothing.

    Its queries do not grow with the file: the reference tables, the sources named and the
    profile's rows are each read once.
    """
    today = today or timezone.localdate()
    attributes = {a.name.casefold(): a for a in Attribute.objects.all()}
    axes = {a.name.casefold(): a for a in Axis.objects.all()}
    urls = {url for _, row in rows for url in _URL_SEPARATORS.split(row["source_urls"]) if url}
    sources = {s.url: s for s in Source.objects.filter(url__in=urls)} if urls else {}
    facts, specs, availability, events, scores = {}, {}, {}, {}, {}
    for fact in vendor.facts.order_by("attribute__position", "position", "pk").prefetch_related("sources"):
        facts.setdefault(fact.attribute_id, []).append(fact)
    for spec in vendor.specs.order_by("position", "pk").prefetch_related("sources"):
        specs.setdefault(_spec_key(spec), []).append(spec)
    for row in vendor.availability.order_by("position", "pk").prefetch_related("sources"):
        availability.setdefault((row.chip_slug, row.stage), []).append(row)
    taken = chips_taken(vendor.pk)
    for event in vendor.events.order_by("position", "date", "pk").prefetch_related("sources"):
        events.setdefault((event.date, event.precision), []).append(event)
    for score in vendor.scores.prefetch_related("sources"):
        scores[score.axis_id] = [score]
    existing = {"fact": facts, "spec": specs, "availability": availability, "event": events, "score": scores}
    seen = {kind: {} for kind in KINDS}

    planned = []
    for number, cells in rows:
        row = PlannedRow(number=number, kind=cells["kind"].lower(), label=cells["label"])
        try:
            key = _read_row(
                row, cells, attributes=attributes, axes=axes, sources=sources, taken=taken, today=today
            )
            nth = seen[row.kind].get(key, 0)
            seen[row.kind][key] = nth + 1
            if row.kind == "score" and nth:
                raise _RowError(f"a second score on “{row.label}”: a vendor has one score per axis")
            if row.kind == "availability" and nth:
                raise _RowError(
                    f"a second “{key[1]}” row for {row.label[:80]}: a chip reaches each stage once"
                )
            matches = existing[row.kind].get(key, [])
            row.target = matches[nth] if nth < len(matches) else None
            if row.target is None and row.kind == "score" and not row.values["axis"].is_active:
                raise _RowError(f"“{row.values['axis']}” is no longer an active axis: pick an active one")
            _compare(row)
        except _RowError as error:
            row.status, row.error = "error", str(error)
        planned.append(row)
    return Plan(filename=filename, rows=planned)


class _RowError(ValueError):
    pass


def _read_row(row, cells, *, attributes, axes, sources, taken, today):
    """Check one row and fill ``row.values`` and ``row.sources``; returns its matching key."""
    if cells[None] and any(cell.strip() for cell in cells[None]):
        raise _RowError(f"it has more cells than the {len(COLUMNS)} columns")
    if row.kind not in KINDS:
        raise _RowError(f"kind must be fact, spec, availability, event or score, not “{cells['kind'][:40]}”")
    values = {"verified_on": _verified_on(cells["verified_on"], today=today)}
    stated = cells["vendor_stated"].lower()
    if stated not in YES + NO:
        raise _RowError(f"vendor_stated is yes or no, not “{cells['vendor_stated'][:40]}”")
    if row.kind not in STATED_KINDS and stated in YES:
        raise _RowError("only facts, specs and availability can be vendor-stated: leave vendor_stated empty")
    own = {"spec": SPEC_COLUMNS, "availability": ("measure",)}.get(row.kind, ())
    if filled := [name for name in SPEC_COLUMNS if cells[name] and name not in own]:
        raise _RowError(
            f"{', '.join(filled)} {'is' if len(filled) == 1 else 'are'} for spec rows only: leave empty"
        )
    if row.kind != "score" and cells["reason"]:
        raise _RowError(f"{row.kind}s have no reason: leave the reason column empty")
    for url in _URL_SEPARATORS.split(cells["source_urls"]):
        if url and url not in sources:
            raise _RowError(f"no source has the URL “{url[:200]}”: add it under Sources first")
        if url and sources[url] not in row.sources:
            row.sources.append(sources[url])
    value = cells["value"]
    if row.kind == "fact":
        attribute = attributes.get(row.label.casefold())
        if attribute is None:
            raise _RowError(f"no attribute called “{row.label[:100]}”")
        if not value:
            raise _RowError("a fact needs a value")
        row.label = attribute.name
        values.update(attribute=attribute, value=value, vendor_stated=stated in YES)
        key = attribute.pk
    elif row.kind == "spec":
        values.update(_spec_values(row, cells, taken=taken), vendor_stated=stated in YES)
        key = _spec_key(Spec(**values))
    elif row.kind == "availability":
        values.update(_availability_values(row, cells, taken=taken), vendor_stated=stated in YES)
        key = (chip_slug(values["chip"]), values["stage"])
    elif row.kind == "event":
        try:
            date, precision = parse_event_date(row.label)
        except EventDateError as error:
            raise _RowError(str(error).rstrip(".")) from error
        if not value:
            raise _RowError("an event needs its text in the value column")
        values.update(date=date, precision=precision, text=value)
        key = (date, precision)
    else:
        axis = axes.get(row.label.casefold())
        if axis is None:
            raise _RowError(f"no axis called “{row.label[:100]}”")
        if not re.fullmatch(r"\d{1,2}", value) or not SCORE_MIN <= int(value) <= SCORE_MAX:
            raise _RowError(f"a score is a whole number from {SCORE_MIN} to {SCORE_MAX}, not “{value[:40]}”")
        row.label = axis.name
        values.update(axis=axis, value=int(value), reason=cells["reason"])
        key = axis.pk
    row.values = values
    return key


def _spec_key(spec):
    """What a spec row matches a profile's spec on: its chip's address and what it measures."""
    return (chip_slug(spec.chip), spec.kind, spec.scope, spec.precision, spec.sparse)


_MEASURES = {key: key for key in units.KINDS} | {
    kind.label.casefold(): key for key, kind in units.KINDS.items()
}
_QUANTITY = DecimalValidator(
    Spec._meta.get_field("quantity").max_digits, Spec._meta.get_field("quantity").decimal_places
)


def _spec_values(row, cells, *, taken):
    """A spec row's values, checked by the rules the change page applies (Spec.clean and
    the chip's address); each refusal says what to type instead."""
    name = row.label
    if not name:
        raise _RowError("a spec names its chip in the label column, e.g. Trainium3")
    if (other := taken.get(chip_slug(name))) is not None:
        raise _RowError(f"{name[:80]} is already a chip of {other}")
    kind = _MEASURES.get(cells["measure"].casefold())
    if kind is None:
        raise _RowError(f"measure is one of {', '.join(units.KINDS)}, not “{cells['measure'][:40]}”")
    try:
        quantity = units.number(cells["value"])
        units.check(kind, cells["unit"])
    except units.UnitError as error:
        raise _RowError(str(error).rstrip(".")) from error
    if quantity <= 0:
        raise _RowError(f"a spec's number is more than zero, not {cells['value'][:40]}")
    try:
        _QUANTITY(quantity)
    except ValidationError as error:
        raise _RowError(" ".join(error.messages).rstrip(".")) from error
    scope = cells["scope"].lower() or Scope.CHIP
    if scope not in Scope.values:
        raise _RowError(f"scope is {', '.join(Scope.values)}, not “{cells['scope'][:40]}”")
    typed = cells["precision"].casefold()
    precision = next((p for p in Precision.values if p.casefold() == typed), None) if typed else ""
    if precision is None:
        raise _RowError(f"precision is one of {', '.join(Precision.values)}, not “{cells['precision'][:40]}”")
    sparse = cells["sparse"].lower()
    if sparse not in YES + NO:
        raise _RowError(f"sparse is yes or no, not “{cells['sparse'][:40]}”")
    values = {
        "chip": name,
        "kind": kind,
        "quantity": quantity,
        "unit": cells["unit"],
        "scope": scope,
        "precision": precision,
        "sparse": sparse in YES,
    }
    try:
        Spec(**values).clean()
    except ValidationError as error:
        raise _RowError(" ".join(error.messages).rstrip(".")) from error
    return values


_STAGES = {stage.casefold(): stage for stage in Stage.values} | {
    str(label).casefold(): stage for stage, label in Stage.choices
}


def _availability_values(row, cells, *, taken):
    """An availability row's values: its chip (as a spec's), its stage and its month."""
    name = row.label
    if not name or not chip_slug(name):
        raise _RowError("an availability row names its chip in the label column, e.g. Trainium3")
    if (other := taken.get(chip_slug(name))) is not None:
        raise _RowError(f"{name[:80]} is already a chip of {other}")
    stage = _STAGES.get(cells["measure"].casefold())
    if stage is None:
        raise _RowError(
            f"an availability row's measure is {', '.join(Stage.values)}, not “{cells['measure'][:40]}”"
        )
    try:
        month, precision = parse_event_date(cells["value"])
    except EventDateError as error:
        raise _RowError(str(error).rstrip(".")) from error
    if precision != "month":
        raise _RowError(
            f"availability is dated to the month: type it as 2025-10, not “{cells['value'][:40]}”"
        )
    return {"chip": name, "stage": stage, "month": month}


def _verified_on(text, *, today):
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text) if _ISO_DAY.fullmatch(text) else None
    except ValueError:
        day = None
    if day is None:
        raise _RowError(f"verified_on “{text[:40]}” is not a day: type it as 2026-11-30")
    if day > today:
        raise _RowError(f"verified_on {text} is a day still to come")
    return day


# What each kind compares and writes, with the words the preview uses.
_FIELDS = {
    "fact": [("value", "value"), ("vendor_stated", "vendor-stated"), ("verified_on", "verified on")],
    "spec": [
        ("chip", "chip"),
        ("quantity", "number"),
        ("unit", "unit"),
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "availability": [
        ("chip", "chip"),
        ("month", "month"),
        ("vendor_stated", "vendor-stated"),
        ("verified_on", "verified on"),
    ],
    "event": [("text", "text"), ("verified_on", "verified on")],
    "score": [("value", "score"), ("reason", "reason"), ("verified_on", "verified on")],
}


def _words(value):
    if value is None or value == "":
        return "(empty)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Decimal):
        return units.plain(value)
    return str(value)


def _compare(row):
    fields = _FIELDS[row.kind]
    new_urls = [source.url for source in row.sources]
    if row.target is None:
        row.status = "new"
        parts = [
            f"{what}: {_words(row.values[name])}"
            for name, what in fields
            if row.values[name] not in ("", None)
        ]
        if new_urls:
            parts.append(f"sources: {' '.join(new_urls)}")
        row.summary = "; ".join(parts)
        return
    for name, what in fields:
        old = getattr(row.target, name)
        if old != row.values[name]:
            row.changes.append((what, _words(old), _words(row.values[name])))
    old_urls = [source.url for source in row.target.sources.all()]
    if set(old_urls) != set(new_urls):
        row.sources_changed = True
        row.changes.append(
            ("sources", " ".join(sorted(old_urls)) or "(none)", " ".join(new_urls) or "(none)")
        )
    row.status = "changed" if row.changes else "unchanged"


# --- Export ------------------------------------------------------------------------------


def export_rows(*, vendor):
    """The profile's facts, specs, availability, events and scores as CSV rows, in page order."""
    rows = []

    def add(kind, label, value, item, *, reason="", stated="", spec=("", "", "", "", "")):
        urls = " ".join(source.url for source in item.sources.all())
        verified = item.verified_on.isoformat() if item.verified_on else ""
        rows.append([kind, label, value, reason, stated, verified, urls, *spec])

    def yes_no(value):
        return "yes" if value else "no"

    for fact in vendor.facts.select_related("attribute").prefetch_related("sources"):
        add("fact", fact.attribute.name, fact.value, fact, stated=yes_no(fact.vendor_stated))
    for spec in vendor.specs.prefetch_related("sources"):
        measures = (spec.kind, spec.unit, spec.scope, spec.precision, yes_no(spec.sparse))
        add(
            "spec",
            spec.chip,
            units.plain(spec.quantity),
            spec,
            stated=yes_no(spec.vendor_stated),
            spec=measures,
        )
    for row in vendor.availability.prefetch_related("sources"):
        stage = (row.stage, "", "", "", "")
        add("availability", row.chip, f"{row.month:%Y-%m}", row, stated=yes_no(row.vendor_stated), spec=stage)
    for event in vendor.events.order_by("position", "date", "pk").prefetch_related("sources"):
        add("event", event_date_text(event.date, event.precision), event.text, event)
    for score in vendor.scores.select_related("axis").prefetch_related("sources"):
        add("score", score.axis.name, score.value, score, reason=score.reason)
    return rows


def export_csv(*, vendor):
    """The CSV text (byte-order mark first, formulas neutralised) that ``read_csv`` reads back unchanged."""
    return csv_text(COLUMNS, export_rows(vendor=vendor))
