"""Long key lists run in parts: a read that starts `UNWIND $keys AS k` and keeps its rows apart gives for a list
the rows its parts give, so the store runs a long list a part at a time and joins the rows.

The engine holds a query's whole result (and the join state behind it) in its buffer pool, so a lookup of 100,000
subjects with twenty inherited types each (the GO probe, two million rows) failed with "buffer pool is full" on
any pool size a laptop has. Each part starts at `KEY_BATCH` keys and shrinks when a part returned more than
`ROW_BATCH` rows, so a part's rows stay near the cap whatever the fan-out per key. Every caller gets this: no
caller needs to know how many rows its keys may bring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

KEY_BATCH = 5_000  # keys of a part (and the most a part gets)
ROW_BATCH = 100_000  # rows a part aims at: a part that returned more makes the next one smaller

_UNWIND = re.compile(r"\A\s*UNWIND\s+\$([A-Za-z_][A-Za-z0-9_]*)\s+AS\b", re.IGNORECASE)
# what makes a row depend on rows of other keys: then the parts' rows are not the whole list's rows
_ACROSS_ROWS = re.compile(
    r"\b(DISTINCT|ORDER\s+BY|LIMIT|SKIP|UNION|CALL|count|collect|sum|min|max|avg|stdev)\b", re.IGNORECASE
)
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|COPY|DETACH)\b")
_COMMENT = re.compile(r"^\s*//.*$", re.MULTILINE)


def batched_key(text: str, params: dict[str, Any]) -> str | None:
    """The list parameter a read runs in parts on (its leading `UNWIND $keys`), or None: run it whole."""
    body = _COMMENT.sub("", text)
    match = _UNWIND.match(body)
    if match is None or _WRITES.search(body):
        return None
    name = match.group(1)
    keys = params.get(name)
    if not isinstance(keys, list) or len(keys) <= KEY_BATCH:
        return None
    rest = body[match.end() :]
    # another use of the same list (`list_contains($keys, ...)`) would see only the part
    if re.search(rf"\${name}\b", rest) or _ACROSS_ROWS.search(rest):
        return None
    return name


def in_parts(keys: list[Any], run: Callable[[list[Any]], int]) -> None:
    """Call `run` on consecutive parts of `keys` (it returns how many rows the part gave), sized by `ROW_BATCH`."""
    start, size = 0, KEY_BATCH
    while start < len(keys):
        rows = run(keys[start : start + size])
        start += size
        size = KEY_BATCH if rows <= ROW_BATCH else max(1, size * ROW_BATCH // rows)


def rows_in_parts(keys: list[Any], run: Callable[[list[Any]], list[Any]]) -> list[Any]:
    """The rows of `run` over the parts of `keys`, part after part (see `in_parts`)."""
    rows: list[Any] = []

    def one(part: list[Any]) -> int:
        got = run(part)
        rows.extend(got)
        return len(got)

    in_parts(keys, one)
    return rows
