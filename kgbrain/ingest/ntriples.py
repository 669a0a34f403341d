"""A streaming N-Triples reader, several times faster than rdflib's for large files (bench/ontology_load.py).

N-Triples is one statement per line, so one anchored regular expression per line parses it; escapes are
decoded only when a line has a backslash. Terms come out in the plain form the RDF mapper works on:
an IRI is a `str`, a blank node a `str` starting with `_:` (no IRI can start so: `_` cannot begin a
scheme), and a literal a `(lexical, datatype IRI | None, language | None)` tuple. Repeated IRIs are
shared, so a 230k-triple file costs little more memory than its distinct terms.
"""

from __future__ import annotations

import contextlib
import io
import re
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from kgbrain.errors import InputError, OntologyError

if TYPE_CHECKING:
    import gzip

LiteralTerm = tuple[str, "str | None", "str | None"]
Term = str | LiteralTerm
Triple = tuple[str, str, Term]

# Unrolled loops (`plain*(?:escape plain*)*`) let the regex engine scan runs of plain characters in one step.
_IRI_CHAR = r"[^<>\"{}|^`\\\x00-\x20]"
_UCHAR = r"\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"
_IRI = rf"<({_IRI_CHAR}*(?:{_UCHAR}{_IRI_CHAR}*)*)>"
_BNODE = r"(_:[A-Za-z0-9_](?:[A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?)"
_STRING_CHAR = r"[^\"\\\n\r]"
_ECHAR = r"\\(?:[tbnrf\"'\\]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})"
_STRING = rf"\"({_STRING_CHAR}*(?:{_ECHAR}{_STRING_CHAR}*)*)\""
_LITERAL = _STRING + r"(?:\^\^" + _IRI + r"|@([a-zA-Z]+(?:-[a-zA-Z0-9]+)*))?"
_TERMS = rf"(?:{_IRI}|{_BNODE})[ \t]*{_IRI}[ \t]*(?:{_IRI}|{_BNODE}|{_LITERAL})"
_LINE = re.compile(rf"^[ \t]*{_TERMS}[ \t]*\.[ \t]*(?:#.*)?\r?$", re.MULTILINE)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))")
_SIMPLE_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}
_BLOCK = 1 << 22  # bytes decompressed and parsed at a time: memory stays bounded whatever the file size


class _BadEscape(ValueError):
    """A \\u escape that names no Unicode scalar value (a lone surrogate, or past U+10FFFF)."""


def _unescape_one(m: re.Match[str]) -> str:
    hex4, hex8, char = m.groups()
    if char is not None:
        return _SIMPLE_ESCAPES[char]
    code = int(hex4 or hex8, 16)
    if 0xD800 <= code <= 0xDFFF:  # the store takes only valid Unicode text
        raise _BadEscape(f"{m.group(0)} is not a Unicode character (a lone surrogate)")
    if code > 0x10FFFF:
        raise _BadEscape(f"{m.group(0)} is not a Unicode character (past U+10FFFF)")
    return chr(code)


def _unescape(text: str) -> str:
    return _ESCAPE.sub(_unescape_one, text) if "\\" in text else text


# A gzip file may decompress to this many times its size, and to any size below GZIP_FREE_BYTES; past both it is
# refused as a bomb (deflate reaches ~1,000:1 on repeated bytes; real RDF dumps compress 5-30:1).
MAX_GZIP_RATIO = 200
GZIP_FREE_BYTES = 256 * 2**20


class GzipBomb(InputError):
    """A .gz file decompresses to far more than any real data would."""


class _Bounded(io.RawIOBase):
    """The decompressed stream of a .gz file, refusing to go past MAX_GZIP_RATIO x its size (and GZIP_FREE_BYTES)."""

    def __init__(self, unpacked: gzip.GzipFile, path: Path) -> None:
        self._unpacked = unpacked
        self._path = path
        self._limit = _limit(path)
        self._out = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._unpacked.read(min(len(buffer), 1 << 20))
        self._out += len(data)
        check_gzip_size(self._path, self._out, self._limit)
        buffer[: len(data)] = data
        return len(data)


def check_gzip_size(path: Path, decompressed: int, limit: int | None = None) -> None:
    """Refuse a .gz file once it has decompressed past its limit.

    Raises:
        GzipBomb: `decompressed` bytes exceed it.
    """
    if limit is None:
        limit = _limit(path)
    if decompressed > limit:
        raise GzipBomb(
            f"{path.name}: decompresses to more than {limit:,} bytes from {path.stat().st_size:,} "
            f"(over {MAX_GZIP_RATIO}:1 past {GZIP_FREE_BYTES // 2**20} MB): refused as a gzip bomb; "
            "decompress it yourself if it is real"
        )


def _limit(path: Path) -> int:
    return max(GZIP_FREE_BYTES, MAX_GZIP_RATIO * path.stat().st_size)


def _decompress_to_limit(raw: BinaryIO, path: Path) -> None:
    """Decompress (without parsing) until the limit: a bomb raises GzipBomb here, at zlib's speed; a file whose
    trailer only claimed so much (a cut or corrupt file) ends or fails first, and its parse reports that."""
    import gzip  # only for a .gz input: a question never loads it (tests/service/test_cli_startup.py)

    try:
        with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:
            bounded = _Bounded(unpacked, path)
            buffer = bytearray(1 << 20)
            while bounded.readinto(buffer):
                pass
    except (OSError, EOFError, zlib.error):
        pass
    raw.seek(0)


def _stated_size(raw: BinaryIO) -> int:
    """The size the gzip trailer states (modulo 4 GiB, of the last member: never more than the real size)."""
    size = raw.seek(0, io.SEEK_END)
    stated = 0
    if size >= 4:
        raw.seek(size - 4)
        stated = int.from_bytes(raw.read(4), "little")
    raw.seek(0)
    return stated


@contextlib.contextmanager
def open_maybe_gzip(path: Path) -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """Open `path` for reading bytes, decompressing `.gz` (within MAX_GZIP_RATIO: a bomb raises GzipBomb as it is
    read); yields (stream, raw file whose tell() is progress)."""
    with path.open("rb") as raw:
        if path.suffix.lower() == ".gz":
            import gzip  # only for a .gz input, as above

            if _stated_size(raw) > _limit(path):  # a bomb refused before anything is parsed
                _decompress_to_limit(raw, path)
            with gzip.GzipFile(fileobj=raw, mode="rb") as unpacked:
                yield io.BufferedReader(_Bounded(unpacked, path), 1 << 20), raw
        else:
            yield raw, raw


def read_ntriples(path: Path, progress: Callable[[int], None] | None = None) -> Iterator[Triple]:
    """Yield the triples of an N-Triples file (optionally gzipped), in file order, a block of lines at a time.

    Raises:
        OntologyError: a line is not a valid N-Triples statement or not UTF-8 (names the file and line).
    """
    lines_before = 0  # lines in the blocks already parsed
    try:
        with open_maybe_gzip(path) as (stream, raw):
            pending = b""
            while True:
                block = stream.read(_BLOCK)
                data = pending + block
                cut = data.rfind(b"\n") + 1 if block else len(data)
                data, pending = data[:cut], data[cut:]
                if data:
                    try:
                        text = data.decode("utf-8")
                    except UnicodeDecodeError as exc:
                        line = lines_before + data.count(b"\n", 0, exc.start) + 1
                        raise OntologyError(f"{path.name}:{line}: not valid UTF-8 (byte {exc.start})") from None
                    yield from _parse_block(text, path.name, lines_before)
                    lines_before += text.count("\n")
                if progress is not None:
                    progress(raw.tell())
                if not block:
                    return
    except (OSError, EOFError, zlib.error) as exc:  # a truncated or corrupt .gz stream
        raise OntologyError(f"{path.name}:{lines_before + 1}: cannot read the file: {exc}") from None


def _parse_block(text: str, name: str, lines_before: int) -> Iterator[Triple]:
    """The triples of whole lines; anything between two matches must be blank or comment lines."""
    shared: dict[str, str] = {}
    intern = shared.setdefault
    pos = 0
    for m in _LINE.finditer(text):
        if m.start() != pos:
            _check_gap(text, pos, m.start(), name, lines_before)
        pos = m.end() + 1  # past the newline
        try:
            triple = _triple(m, intern)
        except _BadEscape as exc:
            line_no = lines_before + text.count("\n", 0, m.start()) + 1
            raise OntologyError(f"{name}:{line_no}: the escape {exc}") from None
        yield triple
    if pos < len(text):
        _check_gap(text, pos, len(text), name, lines_before)


def _triple(m: re.Match[str], intern: Callable[[str, str], str]) -> Triple:
    s_iri, s_blank, p, o_iri, o_blank, lexical, datatype, lang = m.groups()
    if s_iri is not None:
        s_iri = _unescape(s_iri)
    subject = intern(s_iri, s_iri) if s_iri is not None else s_blank
    predicate = intern(p, p) if "\\" not in p else _unescape(p)
    obj: Term
    if o_iri is not None:
        o_iri = _unescape(o_iri)
        obj = intern(o_iri, o_iri)
    elif o_blank is not None:
        obj = o_blank
    else:
        dt = None if datatype is None else intern(datatype, datatype)
        obj = (_unescape(lexical), dt, lang.lower() if lang else None)
    return subject, predicate, obj


def _check_gap(text: str, start: int, end: int, name: str, lines_before: int) -> None:
    offset = start
    for line in text[start:end].split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            line_no = lines_before + text.count("\n", 0, offset) + 1
            raise OntologyError(f"{name}:{line_no}: not a valid N-Triples statement: {stripped[:80]!r}")
        offset += len(line) + 1
