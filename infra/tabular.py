"""CSV as a spreadsheet opens it: UTF-8 with a byte-order mark, and no cell it would run.

- The byte-order mark: Excel opens a CSV without one in the machine's legacy code page,
  so “–”, “×” or “é” arrive garbled; with it, Excel, LibreOffice, Numbers and Google
  Sheets all read UTF-8, and Python reads it with ``encoding="utf-8-sig"``.
- Formula injection: a spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or
  ``@`` (or a tab, carriage return or line feed ahead of one) as a formula. Such a cell is
  written with a leading apostrophe, which spreadsheets take as “this is text” (OWASP's
  advice). Spreadsheets skip leading spaces (and read full-width signs as signs) before
  deciding, so the check looks past them too. Numbers are written as numbers.
"""

import csv
import io

BOM = "\ufeff"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
SKIPPED_BEFORE_A_FORMULA = " \u00a0\u3000"
CONTENT_TYPE = "text/csv; charset=utf-8"


def neutralise(value):
    """A cell value a spreadsheet shows as written and never evaluates."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.lstrip(SKIPPED_BEFORE_A_FORMULA).startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(header, rows):
    """The header and ``rows`` (sequences of cells) as CSV text, byte-order mark first."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out)  # quotes what needs it; lines end in CRLF, as RFC 4180 says
    writer.writerow([neutralise(cell) for cell in header])
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return out.getvalue()
