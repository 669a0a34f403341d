"""The fast path for big facts files: Arrow's JSON/CSV readers plus column-wise checks.

It handles the common shape of a facts file (plain values, canonical spellings). Anything it is not
sure about makes it return None, and the row-by-row reader in tabular.py takes over: that one is the
reference, and the one that names the file, line and field of a bad row. So a bad file is always
reported exactly, and a good file loads the same whichever path read it (tests compare the two).
"""

from __future__ import annotations

import csv
import math
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.json as pajson

from kgbrain.errors import InvalidRow
from kgbrain.ingest.batch import FactColumns, LoadBatch
from kgbrain.knowledge import (
    ANNOTATION_PREDICATES,
    DECLARATION_PREDICATES,
    DEFAULT_TRUST,
    RECORD_PREDICATES,
    SOURCE_PREDICATES,
    Authority,
    Status,
)

_RESERVED = sorted(ANNOTATION_PREDICATES | DECLARATION_PREDICATES | SOURCE_PREDICATES | RECORD_PREDICATES)
_TEXT_COLUMNS = ("subject", "predicate", "object", "unit", "source", "authority", "status", "lang")
_BOOLEANS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}
_ARROW_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, UnicodeDecodeError, ValueError)


class _NotSure(Exception):
    """The fast path declines; the row-by-row reader decides."""


def read_fast(
    path: Path, fmt: str, fields: frozenset[str], source: str, trust: float | None, builder: Any
) -> LoadBatch | None:
    """Read a whole facts file column-wise, or return None to let the row-by-row reader do it.

    `builder` is the row-by-row validator (tabular._RowBuilder); the few annotation and declaration rows
    go through it so their rules live in one place.
    """
    try:
        table = _read_table(path, fmt, fields)
        return _to_batch(table, path, source, DEFAULT_TRUST if trust is None else trust, builder)
    except (_NotSure, InvalidRow, *_ARROW_ERRORS):
        return None


def _read_table(path: Path, fmt: str, fields: frozenset[str]) -> pa.Table:
    if fmt == "jsonl":
        table = pajson.read_json(path, parse_options=pajson.ParseOptions(unexpected_field_behavior="infer"))
    else:
        delimiter = "\t" if fmt == "tsv" else ","
        with path.open(encoding="utf-8", newline="") as fh:
            header = [h.strip().lstrip("\ufeff") for h in next(csv.reader(fh, delimiter=delimiter), [])]
        if not header or not set(header) <= fields or len(set(header)) != len(header):
            raise _NotSure
        table = pacsv.read_csv(
            path,
            parse_options=pacsv.ParseOptions(delimiter=delimiter, newlines_in_values=False),
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(header, pa.string()),
                strings_can_be_null=True,
                quoted_strings_can_be_null=True,
            ),
        )
    if not set(table.column_names) <= fields or "datatype" in table.column_names:
        raise _NotSure
    return table


def _to_batch(table: pa.Table, path: Path, source: str, trust: float, builder: Any) -> LoadBatch:
    batch: LoadBatch = builder.batch
    n = table.num_rows
    for name in ("subject", "predicate"):
        if name not in table.column_names:
            raise _NotSure
    reserved = pc.is_in(_text(table, "predicate"), value_set=pa.array(_RESERVED))
    if pc.any(reserved).as_py():
        for row in table.filter(reserved).to_pylist():
            builder.add(0, {k: v for k, v in row.items() if v is not None})
        table = table.filter(pc.invert(reserved))
    batch.rows_read = n
    m = table.num_rows
    subject, predicate = _text(table, "subject", required=True), _text(table, "predicate", required=True)
    if m and not pc.all(pc.match_substring_regex(predicate, r"^[a-z][a-z0-9_]*$")).as_py():
        raise _NotSure
    obj = _text(table, "object")
    value = table.column("value") if "value" in table.column_names else pa.nulls(m)
    if m and not pc.all(pc.xor(pc.is_valid(obj), pc.is_valid(value))).as_py():
        raise _NotSure
    sources = _shared(pc.fill_null(_text(table, "source"), source))
    trusts = _unit_interval(table, "trust", trust)
    authorities = _enum(table, "authority", {a.value for a in Authority})
    langs = _lang(table)
    lexical, datatype = _literals(value, csv_cells=pa.types.is_string(value.type) and _is_delimited(path))
    has_value = [x is not None for x in lexical]
    columns = {
        "subject": _shared(subject),
        "predicate": _shared(predicate),
        "object": _shared(obj),
        "lexical": lexical,
        "datatype": datatype,
        "unit": _shared(_text(table, "unit")),
        "value_lang": [lang if v else None for lang, v in zip(langs, has_value, strict=True)],
        "polarity": _polarity(table),
        "confidence": _unit_interval(table, "confidence", 1.0),
        "source": sources,
        "trust": trusts,
        "authority": authorities,
        "observed_at": _timestamps(table, "observed_at"),
        "loaded_at": _timestamps(table, "loaded_at"),
        "status": _shared(pc.fill_null(_text(table, "status"), Status.ACTIVE.value)),
        "lang": langs,
        "fact_id": [""] * m,
    }
    if set(columns["status"]) - {s.value for s in Status}:
        raise _NotSure
    for s, t in zip(sources, trusts, strict=True):
        batch.source_trust.setdefault(s, t)
    for s, a in zip(sources, authorities, strict=True):
        if a is not None:
            batch.source_authority.setdefault(s, a)
    batch.facts = FactColumns.of(columns)
    return batch


def _shared(col: pa.ChunkedArray | pa.Array) -> list[Any]:
    """A column as a list sharing one Python object per distinct value: concept ids, predicates, sources and
    confidences repeat a lot, and a million separate copies of "is_a" alone would cost ~50 MB."""
    encoded = pc.dictionary_encode(col)
    chunks = encoded.chunks if isinstance(encoded, pa.ChunkedArray) else [encoded]
    out: list[Any] = []
    for chunk in chunks:
        values = chunk.dictionary.to_pylist()
        out.extend(None if i is None else values[i] for i in chunk.indices.to_pylist())
    return out


def _is_delimited(path: Path) -> bool:
    return path.suffix.lower() in (".csv", ".tsv")


def _text(table: pa.Table, name: str, *, required: bool = False) -> pa.ChunkedArray:
    """A text column, trimmed and non-empty wherever present (anything else is for the slow path)."""
    if name not in table.column_names:
        if required:
            raise _NotSure
        return pa.chunked_array([pa.nulls(table.num_rows, pa.string())])
    col = table.column(name)
    if pa.types.is_null(col.type):
        if required:
            raise _NotSure
        return col.cast(pa.string())
    if not pa.types.is_string(col.type):
        raise _NotSure
    if required and col.null_count:
        raise _NotSure
    if col.null_count < len(col):
        present = col.drop_null()
        if not pc.all(pc.equal(pc.utf8_trim_whitespace(present), present)).as_py():
            raise _NotSure
        if pc.min(pc.utf8_length(present)).as_py() == 0:
            raise _NotSure
    return col


def _unit_interval(table: pa.Table, name: str, default: float) -> list[float]:
    if name not in table.column_names:
        return [default] * table.num_rows
    col = table.column(name)
    if pa.types.is_string(col.type):
        col = pc.cast(col, pa.float64())  # raises ArrowInvalid on non-numbers: the slow path names the row
    elif not (pa.types.is_floating(col.type) or pa.types.is_integer(col.type) or pa.types.is_null(col.type)):
        raise _NotSure
    col = col.cast(pa.float64())
    if col.null_count < len(col):
        low, high = pc.min_max(col).as_py().values()
        if not (low >= 0.0 and high <= 1.0) or not math.isfinite(high):
            raise _NotSure
    out: list[float] = _shared(pc.fill_null(col, default))
    return out


def _polarity(table: pa.Table) -> list[bool]:
    if "polarity" not in table.column_names:
        return [True] * table.num_rows
    col = table.column("polarity")
    if pa.types.is_string(col.type):
        values = pc.utf8_lower(pc.utf8_trim_whitespace(col)).to_pylist()
        try:
            return [True if v is None else _BOOLEANS[v] for v in values]
        except KeyError:
            raise _NotSure from None
    if not (pa.types.is_boolean(col.type) or pa.types.is_null(col.type)):
        raise _NotSure
    out: list[bool] = pc.fill_null(col.cast(pa.bool_()), True).to_pylist()
    return out


def _enum(table: pa.Table, name: str, allowed: set[str]) -> list[str | None]:
    values: list[str | None] = _shared(_text(table, name))
    if set(values) - allowed - {None}:
        raise _NotSure
    return values


def _lang(table: pa.Table) -> list[str | None]:
    values: list[str | None] = _shared(_text(table, "lang"))
    for v in {v for v in values if v is not None}:
        if not (2 <= len(v) <= 12) or v != v.lower():
            raise _NotSure
    return values


def _timestamps(table: pa.Table, name: str) -> list[datetime | None]:
    if name not in table.column_names:
        return [None] * table.num_rows
    col = table.column(name)
    if pa.types.is_timestamp(col.type):
        if col.type.tz is not None:
            col = col.cast(pa.timestamp(col.type.unit))
        return [None if t is None else t.replace(tzinfo=timezone.utc) for t in col.to_pylist()]
    if not (pa.types.is_string(col.type) or pa.types.is_null(col.type)):
        raise _NotSure
    parsed: dict[str, datetime] = {}
    out: list[datetime | None] = []
    for text in col.to_pylist():
        if text is None:
            out.append(None)
            continue
        stamp = parsed.get(text)
        if stamp is None:
            stamp = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))  # ValueError: slow path
            stamp = stamp.replace(tzinfo=timezone.utc) if stamp.tzinfo is None else stamp.astimezone(timezone.utc)
            parsed[text] = stamp
        out.append(stamp)
    return out


def _literals(value: pa.ChunkedArray | pa.Array, *, csv_cells: bool) -> tuple[list[str | None], list[str | None]]:
    """Lexical forms and datatypes, as Literal.from_python gives them (CSV cells that read as numbers are numbers)."""
    t = value.type
    values = value.to_pylist()
    if pa.types.is_null(t):
        return [None] * len(values), [None] * len(values)
    if pa.types.is_boolean(t):
        return [None if v is None else ("true" if v else "false") for v in values], [
            None if v is None else "boolean" for v in values
        ]
    if pa.types.is_integer(t):
        return [None if v is None else str(v) for v in values], [None if v is None else "integer" for v in values]
    if pa.types.is_floating(t):
        if any(v is not None and not math.isfinite(v) for v in values):
            raise _NotSure
        return [None if v is None else repr(v) for v in values], [None if v is None else "decimal" for v in values]
    if not pa.types.is_string(t):
        raise _NotSure
    if not csv_cells:
        return values, [None if v is None else "string" for v in values]
    from kgbrain.ingest.tabular import _infer_scalar  # one rule for both paths

    lexical: list[str | None] = []
    datatype: list[str | None] = []
    for v in values:
        if v is None:
            lexical.append(None)
            datatype.append(None)
            continue
        scalar = _infer_scalar(v)
        if isinstance(scalar, int):
            lexical.append(str(scalar))
            datatype.append("integer")
        elif isinstance(scalar, float):
            lexical.append(repr(scalar))
            datatype.append("decimal")
        else:
            lexical.append(scalar)
            datatype.append("string")
    return lexical, datatype
