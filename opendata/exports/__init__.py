"""What the downloads hold, built from live published versions only.

Every value (a fact, event, score, answer or assessment) is one row that carries its
sources (title and URL), the date an editor last verified it and whether the vendor
stated it, so that whoever takes the data can still say where each value came from.
The same rows make a file's JSON and its CSV. One module per kind of download (profiles,
comparisons, rankings, chips, and the chips' prices and results in ``market``); ``values``
holds the rows profiles and comparisons share, ``common`` what every download shares.
"""

from .chips import CHIP_COLUMNS, chip_values, chips_csv_rows, chips_export
from .common import LICENCE, LICENCE_NOTE, Paths, evidence_dict, iso, scale, source_dict
from .comparisons import comparison_export, comparison_values
from .market import (
    PRICE_COLUMNS,
    RESULT_COLUMNS,
    price_values,
    prices_csv_rows,
    prices_export,
    result_values,
    results_csv_rows,
    results_export,
)
from .profiles import partial_date, profile_export, profile_values
from .rankings import RANKING_COLUMNS, ranking_entries, rankings_csv_rows, rankings_export
from .values import VALUE_COLUMNS, Cites, Value, values_csv_rows

__all__ = [
    "CHIP_COLUMNS",
    "LICENCE",
    "LICENCE_NOTE",
    "PRICE_COLUMNS",
    "RANKING_COLUMNS",
    "RESULT_COLUMNS",
    "VALUE_COLUMNS",
    "Cites",
    "Paths",
    "Value",
    "chip_values",
    "chips_csv_rows",
    "chips_export",
    "comparison_export",
    "comparison_values",
    "evidence_dict",
    "iso",
    "partial_date",
    "price_values",
    "prices_csv_rows",
    "prices_export",
    "profile_export",
    "profile_values",
    "rankings_csv_rows",
    "rankings_export",
    "ranking_entries",
    "result_values",
    "results_csv_rows",
    "results_export",
    "scale",
    "source_dict",
    "values_csv_rows",
]
