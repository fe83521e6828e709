"""The prices' and results' downloads: one entry per price, and one per measured result, of
every live chip, read from the published document's parts (chips/market_documents.py), each
with its sources and what they say.

Amounts and values are the decimal strings the document keeps, as the source gave them
(“4.916”, “50000”), never floats. A price's amount per chip-hour is the source's own when it
prices a chip-hour; else the figure the document derives from it (chips/prices.py, by the one
rule: only from a cited, fresh price whose chips are stated), or empty.
"""

from django.urls import reverse

from chips import quantities

from .common import LICENCE, evidence_dict, iso, rows_with_sources, source_dict

PRICE_COLUMNS = [
    "chip",
    "chip_slug",
    "vendor",
    "provider",
    "offer",
    "kind",
    "amount",
    "currency",
    "per",
    "chips_per_unit",
    "per_chip_hour",
    "per_chip_hour_basis",
    "per_chip_hour_arithmetic",
    "region",
    "as_of",
    "difference_note",
    "vendor_stated",
    "verified_on",
    "stale",
]

RESULT_COLUMNS = [
    "chip",
    "chip_slug",
    "vendor",
    "system",
    "chips_in_system",
    "suite",
    "suite_version",
    "workload",
    "scenario",
    "metric",
    "value",
    "unit",
    "counted",
    "division",
    "availability",
    "submitter",
    "as_of",
    "vendor_stated",
    "verified_on",
    "stale",
]


def as_of(row):
    """A price's or result's date at its precision, as ISO 8601 writes it: 2026-05-18 or 2026-05."""
    if row.as_of is None:
        return None
    return f"{row.as_of:%Y-%m}" if row.as_of_precision == "month" else row.as_of.isoformat()


def _entry(chip, row, fields):
    """What every entry holds: whose chip, the row's own fields, its date, verification and sources."""
    return {
        "chip": chip.name,
        "chip_slug": chip.slug,
        "vendor": chip.vendor.name,
        "vendor_slug": chip.vendor.slug,
        **fields,
        "as_of": as_of(row),
        "vendor_stated": row.vendor_stated,
        "verified_on": iso(row.verified_on),
        "stale": row.is_stale,
        "sources": [
            source_dict(source) | evidence_dict(row.evidence_from(source.pk)) for source in row.cited
        ],
    }


def _per_chip_hour(price, derived):
    """(amount per chip-hour, “stated” or “derived”, its arithmetic): the source's own amount
    for a price per chip-hour; the document's derived figure (``Chip.derived``) for one per
    instance-hour; empty when none may be derived (per unit, chips not stated, stale, uncited)."""
    if price.per == "chip-hour":
        return price.amount, "stated", ""
    figure = derived.get(f"chip-hour-{price.id}")
    if figure is None:
        return "", "", ""
    return quantities.text(figure.value, grouped=False), "derived", figure.arithmetic


def price_values(chips):
    """One entry per price of every live chip (chips.selectors.LiveChip), in the editors' order."""
    values = []
    for chip in chips:
        derived = {figure.key: figure for figure in chip.chip.derived}
        for price in chip.chip.prices:
            amount, basis, arithmetic = _per_chip_hour(price, derived)
            fields = {
                "provider": price.provider,
                "offer": price.offer,
                "kind": price.kind,
                "amount": price.amount,
                "currency": price.currency,
                "per": price.per,
                "chips_per_unit": price.chips_per_unit,
                "per_chip_hour": amount,
                "per_chip_hour_basis": basis,
                "per_chip_hour_arithmetic": arithmetic,
                "region": price.region,
                "difference_note": price.difference_note,
            }
            values.append(_entry(chip, price, fields))
    return values


def result_values(chips):
    """One entry per measured result of every live chip, in the editors' order."""
    names = RESULT_COLUMNS[RESULT_COLUMNS.index("system") : RESULT_COLUMNS.index("as_of")]
    return [
        _entry(chip, result, {name: getattr(result, name) for name in names})
        for chip in chips
        for result in chip.chip.results
    ]


def prices_export(values, *, url):
    return {
        "licence": LICENCE,
        "title": "AI-chip prices, on chipsite",
        "url": url(reverse("opendata:prices", args=["json"])),
        "values": values,
    }


def results_export(values, *, url):
    return {
        "licence": LICENCE,
        "title": "AI-chip measured results, on chipsite",
        "url": url(reverse("opendata:results", args=["json"])),
        "values": values,
    }


def prices_csv_rows(values):
    return rows_with_sources(values, PRICE_COLUMNS)


def results_csv_rows(values):
    return rows_with_sources(values, RESULT_COLUMNS)
