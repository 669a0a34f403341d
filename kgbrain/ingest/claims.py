"""Read the claims file contract (JSONL, CSV, TSV) row by row, turning a bad row into a row error.

A claim is structured (`subject`, `predicate`, `object` or `value`, optional `polarity`) or a sentence
(`text`), with an optional `id` (DESIGN.md, "Claims file"). Unlike a facts file, which loads all-or-nothing,
a claims file is a batch job: a row that cannot be read becomes a `ClaimError` in its place and reading
goes on, so the verdicts keep the input order. Columns we do not know (a gold label, a note) are ignored:
datasets of claims often carry them.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, InvalidRow
from kgbrain.ingest.cells import parse_json_row, spelled_boolean
from kgbrain.ingest.csv_cells import FIELD_LIMIT_ERROR, overlong_cell
from kgbrain.ingest.formats import Format
from kgbrain.ingest.formats import claims_format as _claims_format
from kgbrain.knowledge import is_predicate_name

_ID_IN_BROKEN_JSON = re.compile(rb'"id"\s*:\s*"([^"\\]{1,200})"')
CLAIM_FIELDS = ("id", "subject", "predicate", "object", "value", "unit", "polarity", "text", "lang")


@dataclass(frozen=True, slots=True)
class Claim:
    """One claim to verify: a structured triple, or a sentence still to be parsed (`text`)."""

    id: str
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None  # a concept, or an attribute value rendered as text
    polarity: bool = True
    text: str | None = None
    lang: str | None = None
    line: int = 0  # where it was read (0 when built in code)

    @property
    def is_sentence(self) -> bool:
        """True when the claim is a sentence that still has to be parsed into a triple."""
        return self.subject is None


@dataclass(frozen=True, slots=True)
class ClaimError:
    """A row that could not be read as a claim; it becomes an ERROR verdict in the same place."""

    id: str
    error: str
    line: int = 0


ClaimRow = Claim | ClaimError


def claims_format(path: Path, fmt: str | None = None) -> str:
    """The claims file format's name: 'jsonl', 'csv' or 'tsv' (from `fmt` or the extension; ingest/formats.py).

    Raises:
        InputError: the format is unknown.
    """
    return _claims_format(path, fmt).name


def read_claims(path: Path, fmt: str | None = None) -> Iterator[ClaimRow]:
    """Stream the claims of a file in order, a `ClaimError` standing in for each bad row.

    Raises:
        InputError: the file is missing, of an unknown format, or its CSV/TSV header is unusable.
    """
    found = _claims_format(path, fmt)
    if not path.is_file():
        raise InputError(f"{str(path)!r}: no such file")
    rows = _jsonl_rows(path) if found.delimiter is None else _delimited_rows(path, found.delimiter)
    for line, row in rows:
        yield row if isinstance(row, ClaimError) else claim_from_row(row, line)


def count_claims(path: Path, fmt: str | None = None) -> int:
    """How many rows `read_claims` will yield, counted cheaply (for progress and ETA; exact for JSONL).

    Raises:
        InputError: the file is missing or of an unknown format.
    """
    found: Format = _claims_format(path, fmt)
    if not path.is_file():
        raise InputError(f"{str(path)!r}: no such file")
    with path.open("rb") as fh:
        lines = sum(1 for raw in fh if raw.strip())
    return lines if found.delimiter is None else max(lines - 1, 0)  # a delimited file's header is no claim


def claim_from_row(row: dict[str, Any], line: int = 0) -> ClaimRow:
    """Validate one row (a dict as JSON or CSV gives it); a problem gives a ClaimError naming the field."""
    plain = _plain_claim(row, line)
    return plain if plain is not None else checked_claim(row, line)


def checked_claim(row: dict[str, Any], line: int = 0) -> ClaimRow:
    """`claim_from_row` checking every field in turn (what its shortcut for the usual row must agree with)."""
    ident = _claim_id(row, line)
    if isinstance(ident, ClaimError):
        return ident

    def error(field: str | None, problem: str) -> ClaimError:
        where = f"line {line}: field {field!r}: " if field else f"line {line}: "
        return ClaimError(ident, where + problem, line)

    texts = _claim_texts(row, error)
    if isinstance(texts, ClaimError):
        return texts
    polarity = _claim_polarity(row.get("polarity"), error)
    if isinstance(polarity, ClaimError):
        return polarity
    structured = [f for f in ("subject", "predicate", "object") if f in texts]
    if "text" in texts:
        if structured:
            return error(structured[0], "give either 'text' or 'subject'/'predicate'/'object', not both")
        return Claim(ident, polarity=polarity, text=texts["text"], lang=texts.get("lang"), line=line)
    if not structured:
        return error(None, "a claim needs 'text' or 'subject', 'predicate' and 'object'")
    for field in ("subject", "predicate", "object"):
        if field not in texts:
            return error(field, "missing")
    if not is_predicate_name(texts["predicate"]):
        return error("predicate", f"{texts['predicate']!r} is not a snake_case predicate name")
    return Claim(
        ident, texts["subject"], texts["predicate"], texts["object"], polarity, lang=texts.get("lang"), line=line
    )


_Error = Callable[[str | None, str], ClaimError]


def _claim_id(row: dict[str, Any], line: int) -> str | ClaimError:
    # The row's id as text; a row without one is named by its line.
    ident = row.get("id")
    if ident is None or (isinstance(ident, str) and not ident.strip()):
        return _line_id(line)
    if not isinstance(ident, (str, int)) or isinstance(ident, bool):
        return ClaimError(_line_id(line), f"line {line}: field 'id': expected text or a number, got {ident!r}", line)
    return str(ident).strip()


def _claim_texts(row: dict[str, Any], error: _Error) -> dict[str, str] | ClaimError:
    # The text fields present, trimmed; a `value` becomes the object, rendered as text with its unit.
    texts: dict[str, str] = {}
    for field in ("subject", "predicate", "object", "text", "lang", "unit"):
        value = row.get(field)
        if value is None or value == "":
            continue
        if not isinstance(value, str):
            return error(field, f"expected text, got {value!r}")
        if not value.strip():
            return error(field, "empty")
        texts[field] = value.strip()
    value = row.get("value")
    if value is not None and value != "":
        if isinstance(value, (dict, list)):
            return error("value", "expected a string, number or boolean")
        if "object" in texts:
            return error("object", "give only one of 'object' or 'value'")
        rendered = ("true" if value else "false") if isinstance(value, bool) else str(value)
        texts["object"] = f"{rendered} {texts['unit']}" if "unit" in texts else rendered
    return texts


def _claim_polarity(polarity: Any, error: _Error) -> bool | ClaimError:
    if polarity is None or polarity == "":
        return True
    spelled = spelled_boolean(polarity) if isinstance(polarity, str) else None
    if spelled is not None:
        return spelled
    if not isinstance(polarity, bool):
        return error("polarity", f"{polarity!r} is not true or false")
    return polarity


def _plain_claim(row: dict[str, Any], line: int) -> Claim | None:
    # The usual row, an id and a triple of texts with nothing else we read: what `claim_from_row` makes of it,
    # without its checks one field at a time. None for anything else (which then takes the long way).
    get = row.get
    polarity = get("polarity", True)
    if get("text") is None and get("value") is None and get("lang") is None and type(polarity) is bool:
        ident, s, p, o = get("id"), get("subject"), get("predicate"), get("object")
        if get("unit") is None and type(ident) is str and type(s) is str and type(p) is str and type(o) is str:
            ident, s, p, o = ident.strip(), s.strip(), p.strip(), o.strip()
            if ident and s and p and o and is_predicate_name(p):
                return Claim(ident, s, p, o, polarity, line=line)
    return None


def _line_id(line: int) -> str:
    # A claim without an id is named by its line, so resumed runs and reruns name it the same way.
    return f"line-{line}"


def _salvaged_id(raw: bytes) -> str | None:
    # A broken line usually still shows its id; keeping it lets the user find the claim in the verdicts.
    m = _ID_IN_BROKEN_JSON.search(raw)
    return m.group(1).decode("utf-8", errors="replace") if m else None


# A JSONL claim not parsed yet: (line number, the raw line). Verification workers parse their own lines, so
# the process reading the file only splits it.
ClaimLine = tuple[int, bytes]


def read_claim_lines(path: Path) -> Iterator[ClaimLine]:
    """The non-blank lines of a JSONL claims file with their line numbers, unparsed (see `claim_from_line`).

    Raises:
        InputError: the file is missing.
    """
    if not path.is_file():
        raise InputError(f"{str(path)!r}: no such file")
    with path.open("rb") as fh:
        for line, raw in enumerate(fh, start=1):
            if raw.strip():
                yield line, raw


def claim_from_line(item: ClaimLine, file: str = "") -> ClaimRow:
    """The claim (or row error) of one line of a JSONL claims file, as `read_claims` reads it."""
    line, raw = item
    parsed = _parse_line(line, raw, file)
    return parsed if isinstance(parsed, ClaimError) else claim_from_row(parsed, line)


def _parse_line(line: int, raw: bytes, file: str) -> dict[str, Any] | ClaimError:
    try:
        # utf-8-sig: editors on Windows start files with a byte-order mark, which JSON rejects.
        # (no deep nesting, huge numbers or lone surrogates: the facts reader's checks)
        return parse_json_row(raw.decode("utf-8-sig" if line == 1 else "utf-8"), file, line)
    except UnicodeDecodeError as exc:
        return ClaimError(_line_id(line), f"line {line}: not valid UTF-8 (byte {exc.start})", line)
    except InvalidRow as exc:
        # Broken JSON, or a row refused once parsed (a field too long, a lone surrogate, a field twice): the id the
        # line shows still names the claim in the verdicts.
        return ClaimError(_salvaged_id(raw) or _line_id(line), f"line {line}: {exc.problem}", line)


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict[str, Any] | ClaimError]]:
    with path.open("rb") as fh:
        for line, raw in enumerate(fh, start=1):
            if raw.strip():
                yield line, _parse_line(line, raw, path.name)


def _broken_row(path: Path, delimiter: str, header: list[str], lines: tuple[int, int], exc: csv.Error) -> str:
    """Why the csv module could not read the record on `lines`; a cell past its field limit named by column."""
    found = overlong_cell(path, delimiter, *lines) if FIELD_LIMIT_ERROR in str(exc) else None
    if found is None:
        return f"line {lines[0]}: broken {delimiter!r}-separated row: {exc}"
    column = f"column {header[found[0]]!r}" if found[0] < len(header) else f"cell {found[0] + 1}"
    limit = f"at most {csv.field_size_limit():,}"
    return f"line {lines[0]}: {column}: a cell of {found[1]:,} characters is too long ({limit})"


def _delimited_rows(path: Path, delimiter: str) -> Iterator[tuple[int, dict[str, Any] | ClaimError]]:
    with path.open("rb") as raw_fh:
        fh = io.TextIOWrapper(raw_fh, encoding="utf-8", errors="strict", newline="")
        reader = csv.reader(fh, delimiter=delimiter)
        try:
            header = [h.strip().lstrip("\ufeff") for h in next(reader)]
        except StopIteration:
            return
        except (UnicodeDecodeError, csv.Error) as exc:
            raise InputError(f"{str(path)!r}: line 1: unreadable header: {exc}") from None
        if not {"text", "subject"} & set(header):
            raise InputError(
                f"{str(path)!r}: line 1: the header needs a 'text' column or 'subject', 'predicate' and 'object' "
                f"columns; found {', '.join(map(repr, header))}"
            )
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except UnicodeDecodeError as exc:
                # The decoder cannot resynchronise inside a text stream; the rest of the file is unreadable.
                raise InputError(f"{str(path)!r}: line {start}: not valid UTF-8 (byte {exc.start})") from None
            except csv.Error as exc:
                problem = _broken_row(path, delimiter, header, (start, reader.line_num), exc)
                yield start, ClaimError(_line_id(start), problem, start)
                continue
            if not cells or all(not c.strip() for c in cells):
                continue
            if len(cells) != len(header):
                problem = f"line {start}: expected {len(header)} cells, found {len(cells)}"
                yield start, ClaimError(_line_id(start), problem, start)
                continue
            yield start, {k: v for k, v in zip(header, cells, strict=True) if v != ""}
