"""Which cell of a CSV/TSV record broke the csv module's field limit.

The csv module stops at a cell longer than `csv.field_size_limit()` (131,072 characters) with only "field larger
than field limit", so `load` said the file and line of a 2 MB `object` cell but not its column, and never the
limit that applies to it (an identifier 4,096 characters, a value 100,000: ingest/cells.py). Every column's cap is
below the csv limit, so such a cell is too long whatever it holds; this finds it again, on the error path only,
by rescanning the record's lines.
"""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

FIELD_LIMIT_ERROR = "field larger than field limit"


def overlong_cell(path: Path, delimiter: str, first_line: int, last_line: int) -> tuple[int, int] | None:
    """(column index, length) of the first cell longer than the csv field limit in the record on lines
    `first_line`..`last_line` of `path` (1-based), or None when none is."""
    with path.open(encoding="utf-8", errors="replace", newline="") as fh:
        text = "".join(itertools.islice(fh, max(first_line - 1, 0), last_line))
    limit = csv.field_size_limit()
    for column, length in enumerate(cell_lengths(text, delimiter)):
        if length > limit:
            return column, length
    return None


def cell_lengths(text: str, delimiter: str) -> list[int]:
    """The length of each cell of the first record in `text`, as the csv module's default dialect reads it (a
    quoted cell without its quotes, `""` as one character). A record cut short ends with its last cell so far."""
    lengths = []
    pos, end = 0, len(text)
    while True:
        length = 0
        if text.startswith('"', pos):
            pos, length = _quoted(text, pos + 1)
        stop = _separator(text, pos, delimiter)
        lengths.append(length + stop - pos)
        pos = stop
        if pos >= end or text[pos] != delimiter:
            return lengths
        pos += 1


def _quoted(text: str, pos: int) -> tuple[int, int]:
    """Past a quoted cell's closing quote (from just after its opening one): (position, characters inside)."""
    length = 0
    while True:
        quote = text.find('"', pos)
        if quote < 0:
            return len(text), length + len(text) - pos
        length += quote - pos
        if text.startswith('"', quote + 1):  # "" inside quotes: one quote character
            length += 1
            pos = quote + 2
            continue
        return quote + 1, length


def _separator(text: str, pos: int, delimiter: str) -> int:
    """Where the cell starting at `pos` ends: the next delimiter or line break (or the end of the text)."""
    found = [i for i in (text.find(delimiter, pos), text.find("\n", pos), text.find("\r", pos)) if i >= 0]
    return min(found) if found else len(text)
