"""Cell and row parsing shared by the facts readers (tabular.py row by row, columnar.py column-wise) and the
claims reader: one spelling of true/false, one rule for numbers in CSV cells, one reading of time stamps, one
JSON row parser. Both facts paths must agree to the byte (tests compare them), so they share these, not copies.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from typing import Any

from kgbrain.errors import InvalidRow
from kgbrain.ingest.rdf_guards import json_depth
from kgbrain.knowledge import MAX_INTEGER_DIGITS

# How a boolean cell may be spelled (after trimming and lower-casing).
BOOLEANS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def spelled_boolean(text: str) -> bool | None:
    """The boolean a text cell spells (`" Yes "` is True), or None when it spells none."""
    return BOOLEANS.get(text.strip().lower())


def infer_scalar(text: str) -> str | int | float:
    """CSV cells are text; a cell that reads as a number is taken as one (write `datatype` to keep it text)."""
    try:
        if len(text) > MAX_INTEGER_DIGITS:
            return text
        return int(text) if text.lstrip("+-").isdigit() else float(text) if _looks_float(text) else text
    except ValueError:
        return text


def _looks_float(text: str) -> bool:
    try:
        value = float(text)
    except ValueError:
        return False
    return math.isfinite(value) and any(ch.isdigit() for ch in text)


def parse_stamp(text: str) -> datetime:
    """An ISO 8601 date or time as a UTC instant (a stamp without a zone is UTC; `Z` is accepted).

    Raises:
        ValueError: the text is not ISO 8601.
    """
    stamp = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return stamp.replace(tzinfo=timezone.utc) if stamp.tzinfo is None else stamp.astimezone(timezone.utc)


# A facts row is one flat object; deeper nesting is refused before json.loads recurses into it.
MAX_JSON_DEPTH = 8
# The longest identifier (a subject, predicate, object, source, unit, language, datatype) and the longest value a
# row may hold: the store keeps a string within its pages, and a 40 MB subject filled the buffer pool.
MAX_IDENTIFIER_CHARS = 4096
MAX_VALUE_CHARS = 100_000
VALUE_FIELDS = frozenset({"value", "text", "comment", "reason", "note"})


def field_too_long(name: str, value: object) -> str | None:
    """Why a row's field is too long to store, or None when it fits."""
    if not isinstance(value, str) or len(value) <= MAX_IDENTIFIER_CHARS:
        return None
    return length_too_long(name, len(value))


def length_too_long(name: str, length: int) -> str | None:
    """Why a field `name` of `length` characters is too long to store, or None when it fits."""
    cap = MAX_VALUE_CHARS if name in VALUE_FIELDS else MAX_IDENTIFIER_CHARS
    if length <= cap:
        return None
    kind = "a value" if name in VALUE_FIELDS else "an identifier"
    return f"{kind} of {length:,} characters is too long (at most {cap:,})"


def parse_json_row(text: str, file: str, line: int) -> dict[str, Any]:
    """One JSONL row as a dict, refusing deep nesting, huge numbers and lone surrogates with a clear error.

    Raises:
        InvalidRow: the row is not a JSON object we can take.
    """
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and json_depth(text) > MAX_JSON_DEPTH:
        raise InvalidRow(file, line, None, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        # One decoder for every row (json.loads builds one per call when given parse_int); json.loads's own
        # message for a leading byte-order mark is kept by letting it see that case.
        row = (
            json.loads(text, parse_int=_parse_int, object_pairs_hook=_no_duplicates)
            if text.startswith("\ufeff")
            else _DECODER.decode(text)
        )
    except json.JSONDecodeError as exc:
        raise InvalidRow(file, line, None, f"broken JSON: {exc.msg} at column {exc.colno}") from None
    except _HugeNumber as exc:
        raise InvalidRow(file, line, None, str(exc)) from None
    except _DuplicateField as exc:
        raise InvalidRow(file, line, str(exc)[:60], "the field appears twice in the row") from None
    if not isinstance(row, dict):
        raise InvalidRow(file, line, None, "expected a JSON object")
    if len(text) > MAX_IDENTIFIER_CHARS:
        for key, value in row.items():
            if problem := field_too_long(str(key), value):
                raise InvalidRow(file, line, str(key)[:60], problem)
    if "\\u" in text:  # only a \uD800-style escape can smuggle a lone surrogate past UTF-8 decoding
        for key, value in row.items():
            if not _encodable(key) or (isinstance(value, str) and not _encodable(value)):
                raise InvalidRow(file, line, str(key) if _encodable(str(key)) else None, "text with a lone surrogate")
    return row


class _HugeNumber(ValueError):
    """A JSON number too long to be a value."""


def _parse_int(text: str) -> int:
    digits = len(text.lstrip("+-"))
    if digits > MAX_INTEGER_DIGITS:
        raise _HugeNumber(f"a number of {digits} digits is too long (at most {MAX_INTEGER_DIGITS})")
    return int(text)


class _DuplicateField(ValueError):
    """A JSON object names one key twice (json would keep the last silently)."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    row = dict(pairs)
    if len(row) != len(pairs):
        seen: set[str] = set()
        raise _DuplicateField(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return row


_DECODER = json.JSONDecoder(parse_int=_parse_int, object_pairs_hook=_no_duplicates)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
