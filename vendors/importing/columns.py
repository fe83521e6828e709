"""The file's columns, its kinds of row and its limits (the format: vendors/importing/__init__.py)."""

import re

SPEC_COLUMNS = ("measure", "unit", "scope", "precision", "sparse", "qualifier")
COLUMNS = ("kind", "label", "value", "reason", "vendor_stated", "verified_on", "source_urls", *SPEC_COLUMNS)
KINDS = ("fact", "spec", "availability", "event", "score")
STATED_KINDS = ("fact", "spec", "availability")  # the kinds that can be vendor-stated
REQUIRED_COLUMNS = ("kind", "label", "value")
MAX_BYTES = 1_000_000
MAX_ROWS = 2_000
YES, NO = ("yes", "true", "1", "y"), ("no", "false", "0", "n", "")
URL_SEPARATORS = re.compile(r"[\s|]+")
