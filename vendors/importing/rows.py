"""One row of a file checked, in words an editor can act on, and turned into the values written.

Each check says what to type instead. They run in a fixed order (the row's shape, its verified
date, vendor_stated, the columns it must leave empty, its sources, then what its kind needs),
so that a row with several mistakes always shows the same one first.
"""

import datetime as dt
import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import DecimalValidator

from chips import units
from chips.models import Precision, Qualifier, Scope, Spec, Stage, chip_slug
from claims.models import Source

from ..event_dates import EventDateError, parse_event_date
from ..models import SCORE_MAX, SCORE_MIN, Attribute, Axis
from .columns import COLUMNS, KINDS, NO, OWN_COLUMNS, STATED_KINDS, URL_SEPARATORS, YES
from .reading import Cells

_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")

type Values = dict[str, Any]  # a row's fields as written
type Key = Hashable  # what a row matches a profile's row on


class RowError(ValueError):
    """What is wrong with one row; the preview shows it beside the row."""


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


@dataclass(frozen=True)
class Reference:
    """What every row is checked against, read once for the whole file (plan_import)."""

    attributes: dict[str, Attribute]  # by name, casefolded
    axes: dict[str, Axis]  # by name, casefolded
    sources: dict[str, Source]  # by URL: those of the URLs the file names that exist
    taken: dict[str, str]  # {chip address: vendor name} for the other vendors' chips
    today: dt.date


type Reader = Callable[[PlannedRow, Cells, "Reference", bool], tuple[Values, Key]]


def read_row(row: PlannedRow, cells: Cells, reference: Reference, *, readers: Mapping[str, Reader]) -> Key:
    """Check one row and fill ``row.values`` and ``row.sources``; returns its matching key.
    ``readers`` are each kind's own checks (READERS here, a price's and a result's in
    market_rows)."""
    _check_shape(row, cells)
    values: Values = {"verified_on": _verified_on(cells["verified_on"], today=reference.today)}
    stated = _vendor_stated(row, cells)
    _check_unused_columns(row, cells)
    _add_sources(row, cells, sources=reference.sources)
    own, key = readers[row.kind](row, cells, reference, stated)
    row.values = values | own
    return key


def _check_shape(row: PlannedRow, cells: Cells) -> None:
    if cells[None] and any(cell.strip() for cell in cells[None]):
        raise RowError(f"it has more cells than the {len(COLUMNS)} columns")
    if row.kind not in KINDS:
        raise RowError(f"kind must be {', '.join(KINDS[:-1])} or {KINDS[-1]}, not “{cells['kind'][:40]}”")


def _vendor_stated(row: PlannedRow, cells: Cells) -> bool:
    stated = cells["vendor_stated"].lower()
    if stated not in YES + NO:
        raise RowError(f"vendor_stated is yes or no, not “{cells['vendor_stated'][:40]}”")
    if row.kind not in STATED_KINDS and stated in YES:
        raise RowError(
            "only facts, specs, availability, prices and results can be vendor-stated: "
            "leave vendor_stated empty"
        )
    return stated in YES


def _check_unused_columns(row: PlannedRow, cells: Cells) -> None:
    """The columns after the first seven are the kinds' of columns.OWN_COLUMNS (an availability
    row's stage goes in ``measure``), the reason a score's; each one filled on a row of another
    kind is named with the kinds it is for."""
    own = OWN_COLUMNS.get(row.kind, ())
    others = [name for name in COLUMNS[7:] if cells.get(name) and name not in own]
    if others:
        said = [f"{name} is for {_owners(name)} rows only" for name in others]
        raise RowError(f"{'; '.join(said)}: leave {'it' if len(others) == 1 else 'them'} empty")
    if row.kind != "score" and cells["reason"]:
        raise RowError(f"{row.kind}s have no reason: leave the reason column empty")


def _add_sources(row: PlannedRow, cells: Cells, *, sources: dict[str, Source]) -> None:
    for url in URL_SEPARATORS.split(cells["source_urls"]):
        if url and url not in sources:
            raise RowError(f"no source has the URL “{url[:200]}”: add it under Sources first")
        if url and sources[url] not in row.sources:
            row.sources.append(sources[url])


def _fact(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    attribute = reference.attributes.get(row.label.casefold())
    if attribute is None:
        raise RowError(f"no attribute called “{row.label[:100]}”")
    if not cells["value"]:
        raise RowError("a fact needs a value")
    row.label = attribute.name
    return {"attribute": attribute, "value": cells["value"], "vendor_stated": stated}, attribute.pk


def _spec(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    values = _spec_values(row, cells, taken=reference.taken) | {"vendor_stated": stated}
    return values, spec_key(Spec(**values))


def _availability(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    values = _availability_values(row, cells, taken=reference.taken) | {"vendor_stated": stated}
    return values, (chip_slug(values["chip"]), values["stage"])


def _event(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    try:
        date, precision = parse_event_date(row.label)
    except EventDateError as error:
        raise RowError(str(error).rstrip(".")) from error
    if not cells["value"]:
        raise RowError("an event needs its text in the value column")
    return {"date": date, "precision": precision, "text": cells["value"]}, (date, precision)


def _score(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    value = cells["value"]
    axis = reference.axes.get(row.label.casefold())
    if axis is None:
        raise RowError(f"no axis called “{row.label[:100]}”")
    if not re.fullmatch(r"\d{1,2}", value) or not SCORE_MIN <= int(value) <= SCORE_MAX:
        raise RowError(f"a score is a whole number from {SCORE_MIN} to {SCORE_MAX}, not “{value[:40]}”")
    row.label = axis.name
    return {"axis": axis, "value": int(value), "reason": cells["reason"]}, axis.pk


def _owners(column: str) -> str:
    """“spec and result”: the kinds whose rows fill ``column``."""
    kinds = [kind for kind, columns in OWN_COLUMNS.items() if column in columns]
    return " and ".join([", ".join(kinds[:-1]), kinds[-1]] if len(kinds) > 1 else kinds)


# Each kind's own checks but a price's and a result's (market_rows): its values (beyond
# verified_on) and its matching key.
READERS: dict[str, Reader] = {
    "fact": _fact,
    "spec": _spec,
    "availability": _availability,
    "event": _event,
    "score": _score,
}


def spec_key(spec: Spec) -> Key:
    """What a spec row matches a profile's spec on: its chip's address and what it measures. A
    sparse figure is another measure than a dense one or one whose sparsity is not stated, and
    those two are the same spec: an export made before "not stated" wrote "no" for every spec,
    and importing it says "dense" of the figure it matches rather than adding a second one."""
    return (chip_slug(spec.chip), spec.kind, spec.scope, spec.precision, spec.sparse is True)


_MEASURES = {key: key for key in units.KINDS} | {
    kind.label.casefold(): key for key, kind in units.KINDS.items()
}
_QUANTITY = DecimalValidator(
    Spec._meta.get_field("quantity").max_digits, Spec._meta.get_field("quantity").decimal_places
)


def _spec_values(row: PlannedRow, cells: Cells, *, taken: dict[str, str]) -> Values:
    """A spec row's values, checked by the rules the change page applies (Spec.clean and
    the chip's address); each refusal says what to type instead."""
    name = row.label
    if not name:
        raise RowError("a spec names its chip in the label column, e.g. Trainium3")
    if (other := taken.get(chip_slug(name))) is not None:
        raise RowError(f"{name[:80]} is already a chip of {other}")
    kind = _MEASURES.get(cells["measure"].casefold())
    if kind is None:
        raise RowError(f"measure is one of {', '.join(units.KINDS)}, not “{cells['measure'][:40]}”")
    quantity = _quantity(cells, kind=kind)
    scope, precision, sparse = _counted_as(cells, kind=kind)
    values: Values = {
        "chip": name,
        "kind": kind,
        "quantity": quantity,
        "unit": cells["unit"],
        "qualifier": _qualifier(cells),
        "scope": scope,
        "precision": precision,
        "sparse": sparse,
    }
    try:
        Spec(**values).clean()
    except ValidationError as error:
        raise RowError(" ".join(error.messages).rstrip(".")) from error
    return values


def _quantity(cells: Cells, *, kind: str) -> Decimal:
    """A spec's number, in a unit of what it measures, more than zero and as long as the
    column holds."""
    try:
        quantity = units.number(cells["value"])
        units.check(kind, cells["unit"])
    except units.UnitError as error:
        raise RowError(str(error).rstrip(".")) from error
    if quantity <= 0:
        raise RowError(f"a spec's number is more than zero, not {cells['value'][:40]}")
    try:
        _QUANTITY(quantity)
    except ValidationError as error:
        raise RowError(" ".join(error.messages).rstrip(".")) from error
    return quantity


def _counted_as(cells: Cells, *, kind: str) -> tuple[str, str, bool | None]:
    """What a spec's number is counted for: its scope, its precision and whether it is sparse
    (only a compute figure is dense or sparse: "no" on another, as exports before "not stated"
    wrote on every spec, says nothing)."""
    scope = cells["scope"].lower() or Scope.CHIP
    if scope not in Scope.values:
        raise RowError(f"scope is {', '.join(Scope.values)}, not “{cells['scope'][:40]}”")
    typed = cells["precision"].casefold()
    precision = next((p for p in Precision.values if p.casefold() == typed), None) if typed else ""
    if precision is None:
        raise RowError(f"precision is one of {', '.join(Precision.values)}, not “{cells['precision'][:40]}”")
    sparse = cells["sparse"].strip().lower()
    if sparse not in YES + NO:
        raise RowError(f"sparse is yes, no or empty (not stated), not “{cells['sparse'][:40]}”")
    if kind != "compute" and sparse in NO:
        sparse = ""
    return scope, precision, (sparse in YES) if sparse else None


_QUALIFIERS = {value: value for value in Qualifier.values} | {
    str(label).casefold(): value for value, label in Qualifier.choices
}


def _qualifier(cells: Cells) -> str:
    """How the source bounds the figure: empty (exact), about, at least, over or up to."""
    typed = " ".join(cells.get("qualifier", "").split()).casefold()
    qualifier = _QUALIFIERS.get(typed, _QUALIFIERS.get(typed.replace(" ", "_")))
    if qualifier is None:
        words = ", ".join(str(label).lower() for value, label in Qualifier.choices if value)
        raise RowError(f"qualifier is empty (exact), {words}; not “{cells['qualifier'][:40]}”")
    return qualifier


_STAGES = {stage.casefold(): stage for stage in Stage.values} | {
    str(label).casefold(): stage for stage, label in Stage.choices
}


def chip_named(row: PlannedRow, *, taken: dict[str, str], what: str) -> str:
    """The chip a row of a chip (an availability date, a price, a result) names in its label:
    a name with letters or digits, of no other vendor's chip."""
    name = row.label
    if not name or not chip_slug(name):
        raise RowError(f"{what} names its chip in the label column, e.g. Trainium3")
    if (other := taken.get(chip_slug(name))) is not None:
        raise RowError(f"{name[:80]} is already a chip of {other}")
    return name


def _availability_values(row: PlannedRow, cells: Cells, *, taken: dict[str, str]) -> Values:
    """An availability row's values: its chip (as a spec's), its stage and its month."""
    name = chip_named(row, taken=taken, what="an availability row")
    stage = _STAGES.get(cells["measure"].casefold())
    if stage is None:
        raise RowError(
            f"an availability row's measure is {', '.join(Stage.values)}, not “{cells['measure'][:40]}”"
        )
    try:
        month, precision = parse_event_date(cells["value"])
    except EventDateError as error:
        raise RowError(str(error).rstrip(".")) from error
    if precision != "month":
        raise RowError(f"availability is dated to the month: type it as 2025-10, not “{cells['value'][:40]}”")
    return {"chip": name, "stage": stage, "month": month}


def _verified_on(text: str, *, today: dt.date) -> dt.date | None:
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text) if _ISO_DAY.fullmatch(text) else None
    except ValueError:
        day = None
    if day is None:
        raise RowError(f"verified_on “{text[:40]}” is not a day: type it as 2026-11-30")
    if day > today:
        raise RowError(f"verified_on {text} is a day still to come")
    return day
