"""Read the facts file contract (JSONL, CSV, TSV) into a LoadBatch, rejecting the first bad row.

The contract is in DESIGN.md: `subject`, `predicate` and one of `object`/`value` are required; the rest
default. Rows whose predicate is `label`/`alias`/`description`/`kind` annotate a concept, rows with
`property_type`/`inverse_of`/`opposite_of`/`sub_property_of` declare a predicate, and `source_trust` rows
set a source's trust. A bad row raises InvalidRow naming file, line and field; nothing is loaded.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, InvalidRow
from kgbrain.ingest.batch import LoadBatch
from kgbrain.ingest.cells import infer_scalar, length_too_long, parse_json_row, parse_stamp, spelled_boolean
from kgbrain.ingest.csv_cells import FIELD_LIMIT_ERROR, overlong_cell
from kgbrain.ingest.formats import Format, facts_format
from kgbrain.knowledge import (
    ANNOTATION_PREDICATES,
    CONCEPT_KINDS,
    DECLARATION_PREDICATES,
    DEFAULT_TRUST,
    META_PREDICATES,
    PREDICATE_LINKS,
    PROPERTY_TYPES,
    RECORD_KEYS,
    RECORD_PREDICATES,
    SOURCE_PREDICATES,
    Annotation,
    Authority,
    Declaration,
    Literal,
    Status,
    is_predicate_name,
)
from kgbrain.ruleset import Rule, Superiority
from kgbrain.timeline import InvalidTime, parse_from, parse_to

FIELDS = frozenset(
    {
        "subject",
        "predicate",
        "object",
        "value",
        "unit",
        "datatype",
        "polarity",
        "confidence",
        "source",
        "trust",
        "authority",
        "observed_at",
        "loaded_at",
        "status",
        "lang",
        "fact_id",
        "valid_from",
        "valid_to",
    }
)
Progress = Callable[[int], None]


def read_facts_file(
    path: Path,
    *,
    source: str | None = None,
    trust: float | None = None,
    fmt: str | None = None,
    progress: Progress | None = None,
) -> LoadBatch:
    """Parse and validate a whole facts file.

    Args:
        path: the file.
        source: source name for rows without one (default: the file name).
        trust: trust for rows without one (default 0.5).
        fmt: a facts format's name ('jsonl', 'csv', 'tsv': ingest/formats.py); taken from the extension when None.
        progress: called with the number of bytes read so far, now and then.

    Raises:
        InvalidRow: the first malformed row (file, line, field).
    """
    found = facts_format(path, fmt)
    fast = read_fast(
        path,
        found,
        FIELDS,
        source or path.name,
        trust,
        _RowBuilder(path.name, source or path.name, trust, LoadBatch(file=str(path))),
    )
    if fast is not None:
        if progress is not None:
            progress(path.stat().st_size)
        return fast
    batch = LoadBatch(file=str(path))
    builder = _RowBuilder(path.name, source or path.name, trust, batch)
    rows = _jsonl_rows(path, progress) if found.delimiter is None else _delimited_rows(path, found.delimiter, progress)
    for line, row in rows:
        builder.add(line, row)
    return batch


def read_rows(
    rows: Iterable[tuple[int, dict[str, Any]]], file: str, *, source: str | None = None, trust: float | None = None
) -> LoadBatch:
    """Validate facts-file rows read from somewhere else than a file of lines (a Parquet export: ingest/parquet.py):
    `(position, row)` pairs, each checked as a facts-file line is, errors naming `file` and the position.

    Raises:
        InvalidRow: the first malformed row.
    """
    batch = LoadBatch(file=file)
    builder = _RowBuilder(Path(file).name, source or Path(file).name, trust, batch)
    for line, row in rows:
        builder.add(line, row)
    return batch


def read_fast(
    path: Path, fmt: Format, fields: frozenset[str], source: str, trust: float | None, builder: Any
) -> LoadBatch | None:
    """`columnar.read_fast`, imported on first use: verify reads claims through this module and never needs
    pyarrow (its import is a good part of a small verification's start-up)."""
    from kgbrain.ingest.columnar import read_fast as columnar_read_fast

    return columnar_read_fast(path, fmt, fields, source, trust, builder)


def _jsonl_rows(path: Path, progress: Progress | None) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("rb") as fh:
        for line_no, raw in enumerate(fh, start=1):
            if progress is not None and line_no % 8192 == 0:
                progress(fh.tell())
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InvalidRow(path.name, line_no, None, f"not valid UTF-8 (byte {exc.start})") from None
            yield line_no, parse_json_row(text, path.name, line_no)


def _delimited_rows(path: Path, delimiter: str, progress: Progress | None) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open("rb") as raw_fh:
        fh = io.TextIOWrapper(raw_fh, encoding="utf-8", newline="")
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            header = next(reader)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            raise InvalidRow(path.name, 1, None, f"not valid UTF-8 (byte {exc.start})") from None
        except csv.Error as exc:
            raise InvalidRow(path.name, reader.line_num, None, f"broken {_kind(path)} header: {exc}") from None
        header = [h.strip().lstrip("\ufeff") for h in header]
        unknown = [h for h in header if h not in FIELDS]
        if unknown:
            raise InvalidRow(path.name, 1, unknown[0], f"unknown column; known columns: {', '.join(sorted(FIELDS))}")
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except UnicodeDecodeError as exc:
                raise InvalidRow(path.name, reader.line_num + 1, None, f"not valid UTF-8 (byte {exc.start})") from None
            except csv.Error as exc:
                raise _broken(path, delimiter, header, (start, reader.line_num), exc) from None
            if progress is not None and reader.line_num % 8192 == 0:
                progress(raw_fh.tell())
            if not cells or all(not c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                raise InvalidRow(path.name, reader.line_num, None, f"expected {len(header)} cells, found {len(cells)}")
            row: dict[str, Any] = {k: v for k, v in zip(header, cells, strict=True) if v != ""}
            if "value" in row and "datatype" not in row:
                row["value"] = infer_scalar(row["value"])
            yield reader.line_num, row


def _kind(path: Path) -> str:
    return path.suffix[1:].upper() or "CSV"


def _broken(path: Path, delimiter: str, header: list[str], lines: tuple[int, int], exc: csv.Error) -> InvalidRow:
    """The error for a record the csv module could not read; a cell past its field limit is named by column, with
    the cap that column has (ingest/csv_cells.py)."""
    found = overlong_cell(path, delimiter, *lines) if FIELD_LIMIT_ERROR in str(exc) else None
    if found is None:
        return InvalidRow(path.name, lines[1], None, f"broken {_kind(path)}: {exc}")
    column, length = found
    name = header[column] if column < len(header) else None
    problem = length_too_long(name, length) if name is not None else None
    return InvalidRow(path.name, lines[0], name, problem or f"a cell of {length:,} characters is too long")


class _RowBuilder:
    """Validates rows one by one and appends what they say to the batch."""

    def __init__(self, file: str, default_source: str, default_trust: float | None, batch: LoadBatch) -> None:
        self.file = file
        self.default_source = default_source
        self.default_trust = DEFAULT_TRUST if default_trust is None else default_trust
        self.batch = batch
        self.columns: Any = batch.facts  # FactColumns: attribute access to its lists

    def fail(self, line: int, field: str | None, problem: str) -> InvalidRow:
        return InvalidRow(self.file, line, field, problem)

    def add(self, line: int, row: dict[str, Any]) -> None:
        self.batch.rows_read += 1
        unknown = row.keys() - FIELDS
        if unknown:
            raise self.fail(line, sorted(unknown)[0], f"unknown field; known fields: {', '.join(sorted(FIELDS))}")
        subject = self.text(line, row, "subject")
        predicate = self.text(line, row, "predicate")
        if not is_predicate_name(predicate):
            raise self.fail(line, "predicate", f"{predicate!r} is not a snake_case predicate name")
        has_object, has_value = row.get("object") is not None, row.get("value") is not None
        if has_object == has_value:
            raise self.fail(line, "object", "give exactly one of 'object' or 'value'")
        if predicate in ANNOTATION_PREDICATES:
            self.annotation(line, row, subject, predicate)
        elif predicate in DECLARATION_PREDICATES:
            self.declaration(line, row, subject, predicate)
        elif predicate in RECORD_PREDICATES:
            self.record(line, row, subject, predicate)
        elif predicate in SOURCE_PREDICATES:
            trust = self.unit_interval(line, row, "value", None)
            self.batch.source_trust[subject] = trust
            self.batch.trust_overrides[subject] = trust
        elif predicate in META_PREDICATES:
            self.meta(line, row, subject, predicate)
        else:
            self.fact(line, row, subject, predicate)

    def fact(self, line: int, row: dict[str, Any], subject: str, predicate: str) -> None:
        """Validate a fact row and append it to the batch's columns (no Fact object: big files stay cheap)."""
        get = row.get
        source = self.text(line, row, "source") if "source" in row else self.default_source
        trust = self.unit_interval(line, row, "trust", self.default_trust)
        authority = self.enum(line, row, "authority", Authority) if get("authority") is not None else None
        if authority is not None:
            self.batch.source_authority.setdefault(source, authority.value)
        self.batch.source_trust.setdefault(source, trust)
        lang = self.lang(line, row) if get("lang") is not None else None
        obj = self.text(line, row, "object") if get("object") is not None else None
        value = None if obj is not None else self.literal(line, row, lang)
        polarity = get("polarity")
        status = get("status")
        c = self.columns
        c.subject.append(subject)
        c.predicate.append(predicate)
        c.object.append(obj)
        c.lexical.append(value.lexical if value else None)
        c.datatype.append(value.datatype if value else None)
        c.unit.append(value.unit if value else None)
        c.value_lang.append(value.lang if value else None)
        c.polarity.append(
            polarity if polarity is True or polarity is False else self.boolean(line, row, "polarity", True)
        )
        c.confidence.append(self.unit_interval(line, row, "confidence", 1.0))
        c.source.append(source)
        c.trust.append(trust)
        c.authority.append(authority.value if authority else None)
        c.observed_at.append(self.timestamp(line, row, "observed_at") if get("observed_at") is not None else None)
        c.loaded_at.append(self.timestamp(line, row, "loaded_at") if get("loaded_at") is not None else None)
        c.status.append("active" if status is None else self.enum(line, row, "status", Status).value)
        c.lang.append(lang)
        c.fact_id.append("")
        start, end = self.validity(line, row)
        c.valid_from.append(start)
        c.valid_to.append(end)

    def validity(self, line: int, row: dict[str, Any]) -> tuple[datetime | None, datetime | None]:
        """`valid_from` / `valid_to`: a year, a month, a date (an end date is the last day it held) or a date-time."""
        ends: list[datetime | None] = []
        for name, parse in (("valid_from", parse_from), ("valid_to", parse_to)):
            value = row.get(name)
            if value is None or value == "":
                ends.append(None)
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)  # a JSON year
            if not isinstance(value, str):
                raise self.fail(line, name, f"expected a date or date-time, got {value!r}")
            try:
                ends.append(parse(value))
            except InvalidTime as exc:
                raise self.fail(line, name, str(exc)) from None
        start, end = ends
        if start is not None and end is not None and end <= start:
            raise self.fail(line, "valid_to", f"{row['valid_to']!r} is before valid_from {row['valid_from']!r}")
        return start, end

    def record(self, line: int, row: dict[str, Any], subject: str, predicate: str) -> None:
        text = self.text(line, row, "value")
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise self.fail(line, "value", f"a {predicate} holds a JSON object: {exc.msg}") from None
        key = RECORD_KEYS.get(predicate, "id")
        if not isinstance(record, dict) or record.get(key) != subject:
            raise self.fail(line, "value", f"a {predicate} holds a JSON object whose {key!r} is the subject")
        if predicate == "episode_record" and not _episode_shape(record):
            raise self.fail(
                line, "value", "an episode_record holds its question, asked_at and a list of corrections (objects)"
            )
        if predicate == "rule_record":
            self.batch.rules.append(self.rule(line, record))
        elif predicate == "rule_order_record":
            self.batch.superiority.append(self.order(line, record))
        else:
            self.batch.records.setdefault(predicate, []).append(record)

    def meta(self, line: int, row: dict[str, Any], subject: str, predicate: str) -> None:
        """An identity record (knowledge.META_PREDICATES): which name an IRI has, and a source's unique names."""
        if predicate == "unique_names":
            value = row.get("value")
            if value not in (True, False, "true", "false"):
                raise self.fail(line, "value", f"unique_names is true or false, not {value!r}")
            self.batch.source_unique_names[subject] = value in (True, "true")
            return
        text = self.text(line, row, "value")
        if predicate == "predicate_iri":
            if not is_predicate_name(text):
                raise self.fail(line, "value", f"{text!r} is not a snake_case predicate name")
            self.batch.predicate_iris[subject] = text
        else:
            self.batch.same_iris[subject] = text

    def rule(self, line: int, record: dict[str, Any]) -> Rule:
        from kgbrain.ingest.rule_syntax import parse_rule

        text, origin = record.get("text"), record.get("origin") or ""
        if not isinstance(text, str) or not isinstance(origin, str):
            raise self.fail(line, "value", "a rule_record holds the rule's 'text' and 'origin' as strings")
        try:
            return parse_rule(text, origin)
        except InputError as exc:
            raise self.fail(line, "value", f"the rule_record's text is not a rule: {exc}") from None

    def order(self, line: int, record: dict[str, Any]) -> Superiority:
        stronger, weaker = record.get("stronger"), record.get("weaker")
        if not isinstance(stronger, str) or not isinstance(weaker, str):
            raise self.fail(line, "value", "a rule_order_record holds 'stronger' and 'weaker' rule ids")
        return Superiority(stronger, weaker)

    def annotation(self, line: int, row: dict[str, Any], subject: str, predicate: str) -> None:
        text = self.text(line, row, "value")
        if predicate == "kind" and text not in CONCEPT_KINDS:
            raise self.fail(line, "value", f"concept kind must be one of {sorted(CONCEPT_KINDS)}, not {text!r}")
        self.batch.annotations.append(Annotation(subject, predicate, text, self.lang(line, row)))

    def declaration(self, line: int, row: dict[str, Any], subject: str, predicate: str) -> None:
        if not is_predicate_name(subject):
            raise self.fail(line, "subject", f"{subject!r} is not a snake_case predicate name")
        if predicate == "property_type":
            value = self.text(line, row, "value")
            if value not in PROPERTY_TYPES:
                raise self.fail(line, "value", f"property_type must be one of {sorted(PROPERTY_TYPES)}, not {value!r}")
        else:
            value = self.text(line, row, "object")
            if predicate in PREDICATE_LINKS and not is_predicate_name(value):
                raise self.fail(line, "object", f"{value!r} is not a snake_case predicate name")
        self.batch.declarations.append(Declaration(subject, predicate, value))

    # -- field checks -------------------------------------------------------------------------

    def text(self, line: int, row: dict[str, Any], field: str) -> str:
        value = row.get(field)
        if value.__class__ is str and value and not value[0].isspace() and not value[-1].isspace():
            return value  # the common case: already clean
        if value is None:
            raise self.fail(line, field, "missing")
        if not isinstance(value, str):
            raise self.fail(line, field, f"expected text, got {value!r}")
        value = value.strip()
        if not value:
            raise self.fail(line, field, "empty")
        return value

    def unit_interval(self, line: int, row: dict[str, Any], field: str, default: float | None) -> float:
        value = row.get(field)
        if value.__class__ is float and 0.0 <= value <= 1.0:  # the common case, checked first
            return value
        if value is None:
            if default is None:
                raise self.fail(line, field, "missing")
            return default
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise self.fail(line, field, f"{value!r} is not a number") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(line, field, f"{value!r} is not a number")
        if not 0.0 <= value <= 1.0:
            raise self.fail(line, field, f"{value!r} is outside 0..1")
        return float(value)

    def boolean(self, line: int, row: dict[str, Any], field: str, default: bool) -> bool:
        value = row.get(field)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        spelled = spelled_boolean(value) if isinstance(value, str) else None
        if spelled is not None:
            return spelled
        raise self.fail(line, field, f"{value!r} is not true or false")

    def enum(self, line: int, row: dict[str, Any], field: str, kind: Any) -> Any:
        value = row.get(field)
        if value is None:
            return None
        try:
            return kind(value.upper() if kind is Authority and isinstance(value, str) else value)
        except ValueError:
            allowed = ", ".join(m.value for m in kind)
            raise self.fail(line, field, f"{value!r} is not one of {allowed}") from None

    def timestamp(self, line: int, row: dict[str, Any], field: str) -> datetime | None:
        value = row.get(field)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail(line, field, f"expected an ISO 8601 date or time, got {value!r}")
        try:
            return parse_stamp(value)
        except ValueError:
            raise self.fail(line, field, f"{value!r} is not an ISO 8601 date or time") from None

    def lang(self, line: int, row: dict[str, Any]) -> str | None:
        value = row.get("lang")
        if value is None:
            return None
        if not isinstance(value, str) or not (2 <= len(value) <= 12):
            raise self.fail(line, "lang", f"{value!r} is not a language tag such as 'ru' or 'en'")
        return value.lower()

    def literal(self, line: int, row: dict[str, Any], lang: str | None) -> Literal:
        value = row["value"]
        unit = self.text(line, row, "unit") if row.get("unit") is not None else None
        if isinstance(value, (dict, list)):
            raise self.fail(line, "value", "expected a string, number or boolean")
        if isinstance(value, float) and not math.isfinite(value):
            raise self.fail(line, "value", f"{value!r} is not a finite number")
        datatype = row.get("datatype")
        if datatype is None:
            literal = Literal.from_python(value, unit, lang)
            problem = literal.problem()
            if problem is not None:
                raise self.fail(line, "value", problem)
            return literal
        if not isinstance(datatype, str) or not datatype.strip():
            raise self.fail(line, "datatype", f"{datatype!r} is not a datatype name")
        lexical = ("true" if value else "false") if isinstance(value, bool) else str(value)
        literal = Literal(lexical, datatype.strip(), unit, lang)
        problem = literal.problem()
        if problem is not None:
            raise self.fail(line, "value", f"{problem} (datatype {literal.datatype!r})")
        return literal


_CORRECTION_FIELDS = ("id", "text", "by", "made_at")


def _episode_shape(record: dict[str, Any]) -> bool:
    """An exported episode as `load` restores it: its question and time, and corrections with every field."""
    corrections = record.get("corrections", [])
    return (
        isinstance(record.get("question"), str)
        and isinstance(record.get("asked_at"), str)
        and isinstance(corrections, list)
        and all(isinstance(c, dict) and all(isinstance(c.get(k), str) for k in _CORRECTION_FIELDS) for c in corrections)
    )
