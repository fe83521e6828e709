"""Reading a file: its bytes as rows of cells, or one error about the whole file."""

import csv
import io
from typing import Any

from infra.tabular import FORMULA_STARTS, SKIPPED_BEFORE_A_FORMULA

from .columns import COLUMNS, MAX_BYTES, MAX_ROWS, REQUIRED_COLUMNS

# {column: text} for every column, and under None the cells beyond the header (a list).
type Cells = dict[str | None, Any]


class ImportFileError(ValueError):
    """The file as a whole cannot be read: in words an editor can act on."""


def read_csv(data: bytes) -> list[tuple[int, Cells]]:
    """The file's rows as ``(row number, {column: text})``; ImportFileError when it is not a
    UTF-8 CSV file with a header row, is larger than MAX_BYTES or has more than MAX_ROWS rows."""
    lines = _lines(_text(data))
    if not lines:
        raise ImportFileError("The file is empty: its first row names the columns, e.g. " + ",".join(COLUMNS))
    header = _header(lines[0][1])
    _check_row_count(len(lines) - 1)
    return [(number, _cells(header, cells)) for number, cells in lines[1:]]


def _text(data: bytes) -> str:
    """The file's text, once it is known to be small enough and UTF-8."""
    if len(data) > MAX_BYTES:
        raise ImportFileError(
            f"The file is {len(data) / 1_000_000:.1f} MB: the limit is {MAX_BYTES // 1_000_000} MB "
            f"({MAX_ROWS:,} rows). Split it into smaller files."
        )
    if b"\x00" in data:
        raise ImportFileError("This is not a CSV file: save the sheet as “CSV UTF-8” and upload that.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            f"The file is not UTF-8 text (byte {error.start + 1} is not): save it as “CSV UTF-8” "
            "and upload it again."
        ) from error


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """The lines that hold something, numbered as a spreadsheet numbers its rows (the header
    is row 1), blank ones included."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    lines = []
    try:
        for number, cells in enumerate(reader, start=1):
            if any(cell.strip() for cell in cells):
                lines.append((number, cells))
    except csv.Error as error:
        raise ImportFileError(f"Line {reader.line_num} is not valid CSV ({error}).") from error
    return lines


def _header(cells: list[str]) -> list[str]:
    """The column names of the first row, each a column of the format and named once."""
    header = [cell.strip().lower() for cell in cells]
    if len(header) == 1 and ";" in header[0]:
        raise ImportFileError(
            "The columns are separated by semicolons: save the sheet as “CSV UTF-8 (comma delimited)”."
        )
    _check_names(header)
    if len(set(header)) != len(header):
        raise ImportFileError("The first row names a column twice: name each column once.")
    return header


def _check_names(header: list[str]) -> None:
    """Every required column named, and nothing that is not a column."""
    missing = [name for name in REQUIRED_COLUMNS if name not in header]
    unknown = [name for name in header if name not in COLUMNS]
    if missing or unknown:
        raise ImportFileError(
            "The first row must name the columns "
            + ", ".join(COLUMNS)
            + (f" (missing: {', '.join(missing)})" if missing else "")
            + (f" (not a column: {', '.join(repr(n) for n in unknown[:5])})" if unknown else "")
            + "."
        )


def _check_row_count(count: int) -> None:
    if count == 0:
        raise ImportFileError("The file has a header row but no rows under it: nothing to import.")
    if count > MAX_ROWS:
        raise ImportFileError(
            f"The file has {count:,} rows: the limit is {MAX_ROWS:,}. Split it into smaller files."
        )


def _cells(header: list[str], cells: list[str]) -> Cells:
    """One row's cells by column, every column present (empty where the file has none)."""
    row: Cells = {name: "" for name in COLUMNS}
    row.update({name: _unescape(cell).strip() for name, cell in zip(header, cells, strict=False)})
    row[None] = cells[len(header) :]  # cells beyond the header: an error for that row
    return row


def _unescape(cell: str) -> str:
    """The inverse of infra.tabular.neutralise: ``'=1+1`` reads back as the text ``=1+1``."""
    if cell.startswith("'") and cell[1:].lstrip(SKIPPED_BEFORE_A_FORMULA).startswith(FORMULA_STARTS):
        return cell[1:]
    return cell
