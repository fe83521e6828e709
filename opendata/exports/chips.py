"""The chips' download: one entry per value of every live chip, each number and each stage
reached, with its sources."""

from django.urls import reverse

from chips import quantities

from .common import LICENCE, evidence_dict, iso, rows_with_sources, source_dict

CHIP_COLUMNS = [
    "chip",
    "vendor",
    "kind",
    "label",
    "quantity",
    "unit",
    "qualifier",
    "value",
    "value_unit",
    "scope",
    "precision",
    "sparse",
    "sources_differ",
    "difference_note",
    "stage",
    "month",
    "vendor_stated",
    "verified_on",
    "stale",
]


def chip_values(chips):
    """One entry per value of every live chip (chips.selectors.LiveChip): each number as
    given and in its kind's unit, then each stage the chip reached with its month (kind
    “availability”), all with each source's title, address and what it says (common.SAID). Every entry
    has every column: a number's stage and month are empty, a stage's quantity and unit."""

    def entry(chip, row, **fields):
        return {
            "chip": chip.name,
            "chip_slug": chip.slug,
            "vendor": chip.vendor.name,
            "vendor_slug": chip.vendor.slug,
            **fields,
            "vendor_stated": row.vendor_stated,
            "verified_on": iso(row.verified_on),
            "stale": row.is_stale,
            "sources": [
                source_dict(source) | evidence_dict(row.evidence_from(source.pk)) for source in row.cited
            ],
        }

    values = []
    for chip in chips:
        values += [
            entry(
                chip,
                spec,
                kind=spec.kind,
                label=spec.label,
                quantity=spec.quantity,
                unit=spec.unit,
                qualifier=spec.qualifier,
                value=quantities.number(spec.value),  # 155 for 144 GiB (chips/quantities.py)
                value_unit=spec.display_unit,
                scope=spec.scope,
                precision=spec.precision,
                sparse=spec.sparse,
                sources_differ=spec.sources_differ,
                difference_note=spec.difference_note,
                stage="",
                month=None,
            )
            for spec in chip.specs
        ]
        values += [
            entry(
                chip,
                row,
                kind="availability",
                label=row.stage_label,
                quantity="",
                unit="",
                qualifier="",
                value=None,
                value_unit="",
                scope="chip",
                precision="",
                sparse=None,
                sources_differ=False,
                difference_note="",
                stage=row.stage,
                month=f"{row.month:%Y-%m}",
            )
            for row in chip.availability
        ]
    return values


def chips_export(values, *, url):
    return {
        "licence": LICENCE,
        "title": "AI chips and their numbers, on chipsite",
        "url": url(reverse("opendata:chips", args=["json"])),
        "values": values,
    }


def chips_csv_rows(values):
    """The header and rows of the chips CSV: one row per value, then a title, URL and what it
    says (common.SAID) per source, as many as the most-cited value needs (as ``values_csv_rows``)."""
    return rows_with_sources(values, CHIP_COLUMNS)
