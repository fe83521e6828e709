"""The file's columns, its kinds of row and its limits (the format: vendors/importing/__init__.py)."""

import re

SPEC_COLUMNS = ("measure", "unit", "scope", "precision", "sparse", "qualifier")
# A price's and a result's own columns (``as_of`` and ``chips`` are both's); a price's amount and
# a result's value are in ``value``, a result's metric and unit in ``measure`` and ``unit``.
PRICE_COLUMNS = ("as_of", "provider", "offer", "price_kind", "currency", "per", "chips", "region", "note")
RESULT_COLUMNS = (
    "system", "suite", "suite_version", "workload", "scenario", "counted", "division",
    "system_availability", "submitter",
)  # fmt: skip
MARKET_COLUMNS = (*PRICE_COLUMNS, *RESULT_COLUMNS)
COLUMNS = (
    "kind", "label", "value", "reason", "vendor_stated", "verified_on", "source_urls",
    *SPEC_COLUMNS, *MARKET_COLUMNS,
)  # fmt: skip
KINDS = ("fact", "spec", "availability", "price", "result", "event", "score")
STATED_KINDS = ("fact", "spec", "availability", "price", "result")  # the kinds that can be vendor-stated
# The columns beyond the first seven that each kind fills; any other filled is that row's error.
OWN_COLUMNS: dict[str, tuple[str, ...]] = {
    "spec": SPEC_COLUMNS,
    "availability": ("measure",),
    "price": PRICE_COLUMNS,
    "result": ("measure", "unit", "as_of", "chips", *RESULT_COLUMNS),
}
REQUIRED_COLUMNS = ("kind", "label", "value")
MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
YES, NO = ("yes", "true", "1", "y"), ("no", "false", "0", "n", "")
URL_SEPARATORS = re.compile(r"[\s|]+")
