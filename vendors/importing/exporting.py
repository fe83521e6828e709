"""A profile as a file that reads back unchanged: the Export as CSV button."""

from chips import units
from infra.tabular import csv_text

from ..event_dates import event_date_text
from .columns import COLUMNS


def export_rows(*, vendor):
    """The profile's facts, specs, availability, events and scores as CSV rows, in page order."""
    rows = []

    def add(kind, label, value, item, *, reason="", stated="", spec=("", "", "", "", "", "")):
        urls = " ".join(source.url for source in item.sources.all())
        verified = item.verified_on.isoformat() if item.verified_on else ""
        rows.append([kind, label, value, reason, stated, verified, urls, *spec])

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
    for event in vendor.events.order_by("position", "date", "pk").prefetch_related("sources"):
        add("event", event_date_text(event.date, event.precision), event.text, event)
    for score in vendor.scores.select_related("axis").prefetch_related("sources"):
        add("score", score.axis.name, score.value, score, reason=score.reason)
    return rows


def export_csv(*, vendor):
    """The CSV text (byte-order mark first, formulas neutralised) that ``read_csv`` reads back unchanged."""
    return csv_text(COLUMNS, export_rows(vendor=vendor))
