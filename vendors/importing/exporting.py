"""A profile as a file that reads back unchanged: the Export as CSV button."""

from chips import units
from infra.tabular import csv_text

from ..event_dates import event_date_text
from .columns import COLUMNS, MARKET_COLUMNS, SPEC_COLUMNS


def export_rows(*, vendor):
    """The profile's facts, specs, availability, prices, results, events and scores as CSV rows,
    in page order."""
    rows = []

    def add(kind, label, value, item, *, reason="", stated="", spec=("", "", "", "", "", ""), market=None):
        urls = " ".join(source.url for source in item.sources.all())
        verified = item.verified_on.isoformat() if item.verified_on else ""
        spec = dict(zip(SPEC_COLUMNS, spec, strict=True)) | (market or {})
        cells = [spec.get(name, "") for name in (*SPEC_COLUMNS, *MARKET_COLUMNS)]
        rows.append([kind, label, value, reason, stated, verified, urls, *cells])

    def yes_no(value):
        return "yes" if value else "no"

    for fact in vendor.facts.select_related("attribute").prefetch_related("sources"):
        add("fact", fact.attribute.name, fact.value, fact, stated=yes_no(fact.vendor_stated))
    for spec in vendor.specs.prefetch_related("sources"):
        sparse = "" if spec.sparse is None else yes_no(spec.sparse)  # empty: not stated
        measures = (spec.kind, spec.unit, spec.scope, spec.precision, sparse, spec.qualifier)
        add(
            "spec",
            spec.chip,
            units.plain(spec.quantity),
            spec,
            stated=yes_no(spec.vendor_stated),
            spec=measures,
        )
    for row in vendor.availability.prefetch_related("sources"):
        stage = (row.stage, "", "", "", "", "")
        add("availability", row.chip, f"{row.month:%Y-%m}", row, stated=yes_no(row.vendor_stated), spec=stage)
    for price in vendor.prices.prefetch_related("sources"):
        add("price", price.chip, units.plain(price.amount), price, stated=yes_no(price.vendor_stated),
            market=_price_cells(price))  # fmt: skip
    for result in vendor.results.prefetch_related("sources"):
        add("result", result.chip, units.plain(result.value), result, stated=yes_no(result.vendor_stated),
            market=_result_cells(result))  # fmt: skip
    for event in vendor.events.order_by("position", "date", "pk").prefetch_related("sources"):
        add("event", event_date_text(event.date, event.precision), event.text, event)
    for score in vendor.scores.select_related("axis").prefetch_related("sources"):
        add("score", score.axis.name, score.value, score, reason=score.reason)
    return rows


def _as_of(row):
    return event_date_text(row.as_of, row.as_of_precision or "day")


def _price_cells(price):
    """A price's own columns (columns.PRICE_COLUMNS), as its row of the file reads them back."""
    return {
        "as_of": _as_of(price), "provider": price.provider, "offer": price.offer, "price_kind": price.kind,
        "currency": price.currency, "per": price.per, "chips": str(price.chips_per_unit or ""),
        "region": price.region, "note": price.difference_note,
    }  # fmt: skip


def _result_cells(result):
    """A result's own columns: its metric and unit, and columns.RESULT_COLUMNS."""
    return {
        "measure": result.metric, "unit": result.unit, "as_of": _as_of(result),
        "chips": str(result.chips_in_system or ""), "system": result.system, "suite": result.suite,
        "suite_version": result.suite_version, "workload": result.workload, "scenario": result.scenario,
        "counted": result.counted, "division": result.division, "system_availability": result.availability,
        "submitter": result.submitter,
    }  # fmt: skip


def export_csv(*, vendor):
    """The CSV text (byte-order mark first, formulas neutralised) that ``read_csv`` reads back unchanged."""
    return csv_text(COLUMNS, export_rows(vendor=vendor))
