"""The fast path for big facts files: Arrow's JSON/CSV readers plus column-wise checks.

It handles the common shape of a facts file (plain values, canonical spellings). Anything it is not
sure about makes it return None, and the row-by-row reader in tabular.py takes over: that one is the
reference, and the one that names the file, line and field of a bad row. So a bad file is always
reported exactly, and a good file loads the same whichever path read it (tests compare the two).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.json as pajson

from kgbrain.errors import InvalidRow
from kgbrain.ingest.batch import FactColumns, LoadBatch, release_arrow_memory
from kgbrain.ingest.cells import BOOLEANS, MAX_IDENTIFIER_CHARS, infer_scalar, parse_stamp
from kgbrain.ingest.formats import Format, Kind, of_file
from kgbrain.ingest.ntriples import check_gzip_size
from kgbrain.knowledge import (
    ANNOTATION_PREDICATES,
    DECLARATION_PREDICATES,
    DEFAULT_TRUST,
    META_PREDICATES,
    RECORD_PREDICATES,
    SOURCE_PREDICATES,
    Authority,
    Status,
)

_RESERVED = sorted(
    ANNOTATION_PREDICATES | DECLARATION_PREDICATES | SOURCE_PREDICATES | RECORD_PREDICATES | META_PREDICATES
)
_TEXT_COLUMNS = ("subject", "predicate", "object", "unit", "source", "authority", "status", "lang")
_ARROW_ERRORS = (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, UnicodeDecodeError, ValueError)


class _NotSure(Exception):
    """The fast path declines; the row-by-row reader decides."""


def read_fast(
    path: Path, fmt: Format, fields: frozenset[str], source: str, trust: float | None, builder: Any
) -> LoadBatch | None:
    """Read a whole facts file column-wise, or return None to let the row-by-row reader do it.

    `builder` is the row-by-row validator (tabular._RowBuilder); the few annotation and declaration rows
    go through it so their rules live in one place.
    """
    try:
        table = _read_table(path, fmt, fields)
        batch = _to_batch(table, path, source, DEFAULT_TRUST if trust is None else trust, builder)
        del table
        release_arrow_memory()
        return batch
    except (_NotSure, InvalidRow, *_ARROW_ERRORS):
        return None


def _read_table(path: Path, fmt: Format, fields: frozenset[str]) -> pa.Table:
    delimiter = fmt.delimiter
    if delimiter is None:
        if _may_nest(path):
            raise _NotSure
        table = pajson.read_json(path, parse_options=pajson.ParseOptions(unexpected_field_behavior="infer"))
    else:
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
    # Validity intervals are read row by row (years, months and inclusive end dates need the row reader's rules).
    if not set(table.column_names) <= fields or {"datatype", "valid_from", "valid_to"} & set(table.column_names):
        raise _NotSure
    for column in table.columns:  # an overlong field: the row reader names its line
        if pa.types.is_string(column.type) and (pc.max(pc.utf8_length(column)).as_py() or 0) > MAX_IDENTIFIER_CHARS:
            raise _NotSure
    return table


def _may_nest(path: Path) -> bool:
    """Whether a row might hold nested JSON. Arrow's JSON parser recurses once per level and a value nested
    100,000 deep overflows the C stack (a segfault, not an exception), so such a file goes to the row reader,
    which refuses deep nesting before parsing. A flat facts file has one `{` a line and no `[`."""
    import gzip

    braces = lines = read = 0
    try:
        with gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb") as fh:
            while chunk := fh.read(16 * 2**20):
                read += len(chunk)
                if path.suffix == ".gz":
                    check_gzip_size(path, read)
                if b"[" in chunk:
                    return True
                braces += chunk.count(b"{")
                lines += chunk.count(b"\n")
                if braces > lines + 1:
                    return True
    except (OSError, EOFError):  # a corrupt .gz: the row reader names the problem
        return True
    return False


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
    value = table.column("value") if "value" in table.column_names else pa.chunked_array([pa.nulls(m)])
    if m and not pc.all(pc.xor(pc.is_valid(obj), pc.is_valid(value))).as_py():
        raise _NotSure
    sources = _array(pc.fill_null(_text(table, "source"), source))
    trusts = _unit_interval(table, "trust", trust)
    authorities = _array(_enum(table, "authority", {a.value for a in Authority}))
    langs = _lang(table)
    lexical, datatype = _literals(value, csv_cells=pa.types.is_string(value.type) and _is_delimited(path))
    statuses = pc.fill_null(_text(table, "status"), Status.ACTIVE.value)
    if set(pc.unique(statuses).to_pylist()) - {s.value for s in Status if s is not Status.OUT_OF_TIME}:
        raise _NotSure
    columns = {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "lexical": lexical,
        "datatype": datatype,
        "unit": _text(table, "unit"),
        "value_lang": pc.if_else(pc.is_valid(lexical), _array(langs), pa.scalar(None, pa.string())),
        "polarity": _polarity(table),
        "confidence": _unit_interval(table, "confidence", 1.0),
        "source": sources,
        "trust": trusts,
        "authority": authorities,
        "observed_at": _timestamps(table, "observed_at"),
        "loaded_at": _timestamps(table, "loaded_at"),
        "status": statuses,
        "lang": langs,
        "fact_id": pa.nulls(m, pa.string()),
    }
    _first_per_source(batch.source_trust, sources, trusts)
    _first_per_source(batch.source_authority, sources, authorities)
    batch.facts = FactColumns.of({name: _array(col) for name, col in columns.items()})
    return batch


def _first_per_source(into: dict[str, Any], sources: pa.Array, values: pa.Array) -> None:
    """The first non-null value given for each source, in file order (as the row reader's setdefault)."""
    rows = pa.table({"s": sources, "v": values, "i": pa.array(np.arange(len(sources), dtype=np.int64))})
    rows = rows.filter(pc.is_valid(rows.column("v")))
    firsts = rows.group_by("s", use_threads=False).aggregate([("i", "min")]).column("i_min")
    for i in sorted(firsts.to_pylist()):
        into.setdefault(sources[i].as_py(), values[i].as_py())


def _array(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    return col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col


def _map_distinct(col: pa.ChunkedArray | pa.Array, fn: Any, out_type: pa.DataType) -> pa.Array:
    """`fn` applied to each distinct non-null value once (names, stamps and values repeat a lot), nulls kept."""
    encoded = pc.dictionary_encode(_array(col))
    mapped = pa.array([fn(v) for v in encoded.dictionary.to_pylist()], out_type)
    return mapped.take(encoded.indices)


def _is_delimited(path: Path) -> bool:
    # by the file's name, not the format it is read as (a CSV file read as JSON lines still has text cells)
    found = of_file(path)
    return found is not None and found.kind is Kind.FACTS and found.delimiter is not None


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


def _unit_interval(table: pa.Table, name: str, default: float) -> pa.Array:
    if name not in table.column_names:
        return pa.array(np.full(table.num_rows, default, dtype=np.float64))
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
    return _array(pc.fill_null(col, default))


def _polarity(table: pa.Table) -> pa.Array:
    if "polarity" not in table.column_names:
        return pa.array(np.ones(table.num_rows, dtype=np.bool_))
    col = table.column("polarity")
    if pa.types.is_string(col.type):
        spelled = pc.utf8_lower(pc.utf8_trim_whitespace(col))
        if set(pc.unique(spelled).drop_null().to_pylist()) - BOOLEANS.keys():
            raise _NotSure
        return _array(pc.fill_null(_map_distinct(spelled, BOOLEANS.get, pa.bool_()), True))
    if not (pa.types.is_boolean(col.type) or pa.types.is_null(col.type)):
        raise _NotSure
    return _array(pc.fill_null(col.cast(pa.bool_()), True))


def _enum(table: pa.Table, name: str, allowed: set[str]) -> pa.ChunkedArray:
    values = _text(table, name)
    if set(pc.unique(values).drop_null().to_pylist()) - allowed:
        raise _NotSure
    return values


def _lang(table: pa.Table) -> pa.ChunkedArray:
    values = _text(table, "lang")
    for v in pc.unique(values).drop_null().to_pylist():
        if not (2 <= len(v) <= 12) or v != v.lower():
            raise _NotSure
    return values


_UTC = pa.timestamp("us", tz="UTC")


def _timestamps(table: pa.Table, name: str) -> pa.Array:
    if name not in table.column_names:
        return pa.nulls(table.num_rows, _UTC)
    col = table.column(name)
    if pa.types.is_timestamp(col.type):
        if col.type.tz is not None:
            col = col.cast(pa.timestamp(col.type.unit))
        return _array(col.cast(pa.timestamp("us")).cast(_UTC))  # Arrow's zone-less stamps are UTC
    if not (pa.types.is_string(col.type) or pa.types.is_null(col.type)):
        raise _NotSure
    return _map_distinct(col.cast(pa.string()), parse_stamp, _UTC)  # ValueError: the slow path


def _literals(value: pa.ChunkedArray, *, csv_cells: bool) -> tuple[pa.Array, pa.Array]:
    """Lexical forms and datatypes, as Literal.from_python gives them (CSV cells that read as numbers are numbers)."""
    t = value.type
    present = pc.is_valid(value)

    def typed(name: str) -> pa.Array:
        return _array(pc.if_else(present, name, pa.scalar(None, pa.string())))

    if pa.types.is_null(t):
        return pa.nulls(len(value), pa.string()), pa.nulls(len(value), pa.string())
    if pa.types.is_boolean(t):
        return _array(pc.if_else(value, "true", "false")), typed("boolean")
    if pa.types.is_integer(t):
        return _array(pc.cast(value, pa.string())), typed("integer")
    if pa.types.is_floating(t):
        floats = value.drop_null()
        if len(floats) and not pc.all(pc.is_finite(floats)).as_py():
            raise _NotSure
        return _map_distinct(value, repr, pa.string()), typed("decimal")
    if not pa.types.is_string(t):
        raise _NotSure
    if not csv_cells:
        return _array(value), typed("string")

    def infer(text: str) -> tuple[str, str]:
        scalar = infer_scalar(text)  # the row reader's rule: one for both paths
        if isinstance(scalar, int):
            return str(scalar), "integer"
        if isinstance(scalar, float):
            return repr(scalar), "decimal"
        return scalar, "string"

    encoded = pc.dictionary_encode(_array(value))
    inferred = [infer(v) for v in encoded.dictionary.to_pylist()]
    lexical = pa.array([x[0] for x in inferred], pa.string()).take(encoded.indices)
    datatype = pa.array([x[1] for x in inferred], pa.string()).take(encoded.indices)
    return lexical, datatype
