"""A price's and a measured result's row of a file (chips/market.py), checked by the rules the
change page applies (vendors/admin/market_forms.py, Price.clean, Result.clean), each refusal
saying what to type instead.

A price: ``label`` the chip, ``value`` the amount as the source gives it (no currency sign),
``price_kind`` how it is bought (empty: on demand), ``currency`` its ISO code, ``per`` what the
amount pays for, ``chips`` how many chips its instance or unit holds, and ``provider``,
``offer``, ``region``, ``note`` (the note on differing sources). A result: ``label`` the chip,
``value`` the measured value, ``measure`` its metric, ``unit`` a unit of that metric, ``chips``
the chips it ran on, and ``system``, ``suite``, ``suite_version``, ``workload``, ``scenario``,
``counted``, ``division``, ``system_availability`` and ``submitter``. Both: ``as_of`` as a day
(2026-05-18) or a month (2026-06), or empty.
"""

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import models

from chips import units
from chips.market import Currency, DatePrecision, Price, PriceKind, PricePer, Result
from chips.models import chip_slug

from ..event_dates import EventDateError, parse_event_date
from .reading import Cells
from .rows import Key, PlannedRow, Reader, Reference, RowError, Values, chip_named


def _choice(choices: type[models.TextChoices], typed: str) -> str | None:
    """The choice ``typed`` names, by its value or its label, in any case (“On demand”, “on-demand”)."""
    wanted = typed.strip().casefold()
    return next(
        (
            str(value)
            for value, label in choices.choices
            if wanted in (str(value).casefold(), str(label).casefold())
        ),
        None,
    )


def _amount(cells: Cells, *, what: str) -> Decimal:
    """The ``value`` cell as a Decimal more than zero, as the source wrote it."""
    try:
        value = units.number(cells["value"])
    except units.UnitError as error:
        raise RowError(f"{what}: {str(error).rstrip('.')}") from error
    if value <= 0:
        raise RowError(f"{what} is more than zero, not {cells['value'][:40]}")
    return value


def _count(cells: Cells) -> int | None:
    """The ``chips`` cell: a whole number of chips, at least one, or empty (not stated)."""
    typed = cells["chips"]
    if not typed:
        return None
    if not typed.isdigit() or int(typed) < 1:
        raise RowError(f"chips is a whole number of chips, at least 1, or empty; not “{typed[:40]}”")
    return int(typed)


def _as_of(cells: Cells) -> tuple[dt.date | None, str]:
    """The date a price or result applies from, typed as a day or a month (as the admin's form)."""
    typed = cells["as_of"]
    if not typed:
        return None, DatePrecision.DAY
    try:
        date, precision = parse_event_date(typed)
    except EventDateError as error:
        raise RowError(f"as_of: {str(error).rstrip('.')}") from error
    if precision not in (DatePrecision.DAY, DatePrecision.MONTH):
        raise RowError(f"as_of “{typed[:40]}” is a year: type the month (2026-06) or the day (2026-06-14)")
    return date, precision


# A model field's column, where the two differ: how a field's refusal names its cell.
_COLUMN_OF = {
    "chip": "label",
    "amount": "value",
    "kind": "price_kind",
    "chips_per_unit": "chips",
    "difference_note": "note",
    "chips_in_system": "chips",
    "metric": "measure",
    "availability": "system_availability",
}


def _checked(item: Price | Result) -> None:
    """The model's own checks (lengths, choices, a chip-hour price buying one chip), named by column."""
    try:
        item.clean_fields(exclude=["vendor", "verified_by", "verified_at", "position"])
        item.clean()
    except ValidationError as error:
        said = [
            f"{_COLUMN_OF.get(name, name)}: {message.rstrip('.')}"
            for name, messages in error.message_dict.items()
            for message in messages
        ]
        raise RowError("; ".join(said)) from error


def _required(cells: Cells, column: str, *, what: str) -> str:
    if not cells[column]:
        raise RowError(f"{what} needs its {column}")
    return cells[column]


def _price(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    chip = chip_named(row, taken=reference.taken, what="a price")
    kind = _choice(PriceKind, cells["price_kind"] or PriceKind.ON_DEMAND)
    if kind is None:
        raise RowError(f"price_kind is {', '.join(PriceKind.values)}, not “{cells['price_kind'][:40]}”")
    currency = _choice(Currency, cells["currency"]) if cells["currency"] else None
    if currency is None:
        raise RowError(f"currency is one of {', '.join(Currency.values)}, not “{cells['currency'][:40]}”")
    per = _choice(PricePer, cells["per"]) if cells["per"] else None
    if per is None:
        raise RowError(f"per is {', '.join(PricePer.values)}, not “{cells['per'][:40]}”")
    as_of, precision = _as_of(cells)
    values: Values = {
        "chip": chip,
        "provider": _required(cells, "provider", what="a price"),
        "offer": _required(cells, "offer", what="a price"),
        "kind": kind,
        "amount": _amount(cells, what="a price"),
        "currency": currency,
        "per": per,
        "chips_per_unit": _count(cells),
        "region": cells["region"],
        "difference_note": cells["note"],
        "as_of": as_of,
        "as_of_precision": precision,
        "vendor_stated": stated,
    }
    _checked(Price(**values))
    return values, price_key(Price(**values))


_METRICS = {key: key for key in units.METRICS} | {
    metric.label.casefold(): key for key, metric in units.METRICS.items()
}


def _result(row: PlannedRow, cells: Cells, reference: Reference, stated: bool) -> tuple[Values, Key]:
    chip = chip_named(row, taken=reference.taken, what="a result")
    metric = _METRICS.get(cells["measure"].casefold())
    if metric is None:
        raise RowError(f"a result's measure is {', '.join(units.METRICS)}, not “{cells['measure'][:40]}”")
    try:
        units.check_result(metric, cells["unit"])
    except units.UnitError as error:
        raise RowError(str(error).rstrip(".")) from error
    as_of, precision = _as_of(cells)
    values: Values = {
        "chip": chip,
        "system": _required(cells, "system", what="a result"),
        "chips_in_system": _count(cells),
        "suite": cells["suite"],
        "suite_version": cells["suite_version"],
        "workload": _required(cells, "workload", what="a result"),
        "scenario": cells["scenario"],
        "metric": metric,
        "value": _amount(cells, what="a measured value"),
        "unit": cells["unit"],
        "counted": cells["counted"],
        "division": cells["division"].lower(),
        "availability": cells["system_availability"].lower(),
        "submitter": cells["submitter"],
        "as_of": as_of,
        "as_of_precision": precision,
        "vendor_stated": stated,
    }
    _checked(Result(**values))
    return values, result_key(Result(**values))


def price_key(price: Price) -> Key:
    """What a price row matches a profile's price on: its chip, provider, offer, how it is bought
    and where (a new amount, currency or date is a change of the same offer)."""
    return (
        chip_slug(price.chip),
        price.provider.casefold(),
        price.offer.casefold(),
        price.kind,
        price.region.casefold(),
    )


def result_key(result: Result) -> Key:
    """What a result row matches a profile's result on: its chip, benchmark, system and metric."""
    named = (result.suite, result.suite_version, result.workload, result.scenario, result.system)
    return (chip_slug(result.chip), *(part.casefold() for part in named), result.metric)


MARKET_READERS: dict[str, Reader] = {"price": _price, "result": _result}
