"""The input formats kgbrain reads, one entry each: a new format is one `Format` in `FORMATS`.

An entry names the format (its `--format` value and other spellings), the file suffixes that select it, what
`kgbrain load` makes of such a file (`Kind`), whether `kgbrain verify` reads claims from it, and the function
that reads it, by dotted path as rdflib names its parser plugins: looking a format up imports nothing, and
the reader's module (pyarrow for facts tables, rdflib for ontologies) is imported only when a file is read.
Loading (kgbrain/api.py), the facts, ontology and claims readers and the CLI's `--format` help and choices
all come from here.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, InvalidRow


class Kind(enum.Enum):
    """What `load` makes of a file."""

    FACTS = "facts"  # a facts table: rows of the facts contract (DESIGN.md), read by ingest/tabular.py
    ONTOLOGY = "ontology"  # RDF, mapped onto kgbrain's model by ingest/rdf_mapping.py
    RULES = "rules"  # Datalog rules, stored and run by reasoning/rules/


@dataclass(frozen=True, slots=True)
class Format:
    """One input format.

    `reader` is "module:function". For facts and ontologies it is called as
    `reader(path, source=..., trust=..., fmt=name, progress=...)` and returns a LoadBatch; for rules,
    `reader(path)` returns the parsed Program.
    """

    name: str  # the --format value, named in help and messages
    kind: Kind
    suffixes: tuple[str, ...]  # lower case; the first is the one messages name for the format
    reader: str
    aliases: tuple[str, ...] = ()  # other --format spellings
    unlisted_suffixes: tuple[str, ...] = ()  # recognised, never named in help or messages
    compressions: tuple[str, ...] = ()  # ".gz": `x.ttl.gz` is read as `x.ttl`, decompressed
    claims: bool = False  # verify reads claims files of this format (ingest/claims.py)
    delimiter: str | None = None  # a delimited table's cell separator; None for JSON lines
    parser: str | None = None  # an RDF format's parser: rdflib's name, "nt" for ingest/ntriples.py
    listed: bool = True  # named in --format help and in the lists of an unknown-format message

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every --format value that selects this format."""
        return (self.name, *self.aliases)

    @property
    def endings(self) -> tuple[str, ...]:
        """Every file ending that selects this format, compressed ones included."""
        plain = (*self.suffixes, *self.unlisted_suffixes)
        return (*plain, *(s + c for s in plain for c in self.compressions))

    def read(self) -> Callable[..., Any]:
        """The reader function (its module is imported now, on first use)."""
        module, _, function = self.reader.partition(":")
        found: Callable[..., Any] = getattr(importlib.import_module(module), function)
        return found


_TABULAR = "kgbrain.ingest.tabular:read_facts_file"
_RDF = "kgbrain.ingest.ontology:read_ontology"
_GZ = (".gz",)

FORMATS: tuple[Format, ...] = (
    Format("jsonl", Kind.FACTS, (".jsonl",), _TABULAR, unlisted_suffixes=(".ndjson",), claims=True),
    Format("csv", Kind.FACTS, (".csv",), _TABULAR, claims=True, delimiter=","),
    Format("tsv", Kind.FACTS, (".tsv",), _TABULAR, claims=True, delimiter="\t"),
    Format("ttl", Kind.ONTOLOGY, (".ttl",), _RDF, aliases=("turtle",), compressions=_GZ, parser="turtle"),
    Format("nt", Kind.ONTOLOGY, (".nt",), _RDF, aliases=("ntriples", "n-triples"), compressions=_GZ, parser="nt"),
    Format(
        "xml",
        Kind.ONTOLOGY,
        (".owl", ".rdf", ".xml"),
        _RDF,
        aliases=("rdf", "owl", "rdfxml", "rdf/xml"),
        compressions=_GZ,
        parser="xml",
    ),
    Format(
        "json-ld", Kind.ONTOLOGY, (".jsonld", ".json"), _RDF, aliases=("jsonld",), compressions=_GZ, parser="json-ld"
    ),
    Format("n3", Kind.ONTOLOGY, (".n3",), _RDF, compressions=_GZ, parser="n3"),
    Format("trig", Kind.ONTOLOGY, (".trig",), _RDF, compressions=_GZ, parser="trig"),
    Format("nq", Kind.ONTOLOGY, (".nq",), _RDF, aliases=("nquads",), compressions=_GZ, parser="nquads"),
    # A Parquet export (ingest/parquet.py) is a folder, known by its manifest, not by a name.
    Format("parquet", Kind.FACTS, (), "kgbrain.ingest.parquet:read_export", listed=False),
    # Rule files are known by their extension; help and the format lists never named them.
    Format("dl", Kind.RULES, (".dl",), "kgbrain.ingest.rule_syntax:read_rules_file", aliases=(".dl",), listed=False),
)

_BY_NAME = {spelling: f for f in FORMATS for spelling in f.spellings}
_BY_ENDING = {ending: f for f in FORMATS for ending in f.endings}


def named(fmt: str) -> Format | None:
    """The format a --format value names, or None. RDF formats are named in any case (as rdflib's parsers
    are); the others only as written."""
    found = _BY_NAME.get(fmt)
    if found is None:
        found = _BY_NAME.get(fmt.lower())
        return found if found is not None and found.kind is Kind.ONTOLOGY else None
    return found


def of_file(path: Path) -> Format | None:
    """The format a file's name selects (`x.nt.gz` is N-Triples), or None."""
    suffixes = [s.lower() for s in path.suffixes]
    if len(suffixes) >= 2 and suffixes[-2] + suffixes[-1] in _BY_ENDING:
        return _BY_ENDING[suffixes[-2] + suffixes[-1]]
    return _BY_ENDING.get(suffixes[-1]) if suffixes else None


def load_format(path: Path, fmt: str | None = None) -> Format:
    """The format `load` reads a file as: the one `fmt` names, else the one its name selects.

    Raises:
        InputError: neither names a format.
    """
    if fmt:
        found = named(fmt)
        if found is None:
            raise _unknown_name(fmt)
        return found
    if path.is_dir():
        return _BY_NAME["parquet"]
    found = of_file(path)
    if found is None:
        raise _unknown_file(path)
    return found


def ontology_format(path: Path, fmt: str | None = None) -> Format:
    """The RDF format of an ontology file, from `fmt` or its name.

    Raises:
        InputError: neither names an RDF format.
    """
    found = named(fmt) if fmt is not None else of_file(path)
    if found is None or found.kind is not Kind.ONTOLOGY:
        raise _unknown_name(fmt) if fmt is not None else _unknown_file(path)
    return found


def facts_format(path: Path, fmt: str | None = None) -> Format:
    """The facts table format of a file, from `fmt` or its last suffix.

    Raises:
        InvalidRow: neither names a facts format (line 0: the file as a whole).
    """
    found = named(fmt) if fmt else of_file(path)
    if found is None or found.kind is not Kind.FACTS:
        known = _either(f.suffixes[0] for f in FORMATS if f.kind is Kind.FACTS and f.listed)
        raise InvalidRow(path.name, 0, None, f"unknown facts format {path.suffix!r}; use {known}")
    return found


def claims_format(path: Path, fmt: str | None = None) -> Format:
    """The format of a claims file, from `fmt` or its last suffix.

    Raises:
        InputError: neither names a claims format.
    """
    found = named(fmt) if fmt else of_file(path)
    if found is None or not found.claims:
        known = _either(f.suffixes[0] for f in FORMATS if f.claims and f.listed)
        raise InputError(f"{str(path)!r}: unknown claims format {path.suffix!r}; use {known}")
    return found


def load_names() -> list[str]:
    """The --format values `load --help` names."""
    return [f.name for f in FORMATS if f.listed]


def claims_names() -> list[str]:
    """The --format choices of `verify`."""
    return [f.name for f in FORMATS if f.claims]


def _unknown_name(fmt: str) -> InputError:
    # facts formats by name, then every spelling of the RDF ones, sorted
    names = [f.name for f in FORMATS if f.kind is Kind.FACTS and f.listed]
    names += sorted(s for f in FORMATS if f.kind is Kind.ONTOLOGY and f.listed for s in f.spellings)
    return InputError(f"unknown format {fmt!r}; use one of {', '.join(names)}")


def _unknown_file(path: Path) -> InputError:
    listed = [f for f in FORMATS if f.listed]
    known = ", ".join(sorted(s for f in listed for s in f.suffixes))
    compressed = " or ".join(sorted({c for f in listed for c in f.compressions}))
    return InputError(
        f"{path.name!r}: unknown file format; use an extension ({known}, optionally {compressed}) or --format"
    )


def _either(items: Iterable[str]) -> str:
    # ".jsonl, .csv or .tsv"
    *rest, last = items
    return f"{', '.join(rest)} or {last}" if rest else last
