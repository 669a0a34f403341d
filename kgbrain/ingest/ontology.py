"""Read an ontology file (Turtle, N-Triples, RDF/XML, JSON-LD, N3, TriG, N-Quads; optionally gzipped) into a LoadBatch.

N-Triples goes through the streaming reader of ingest/ntriples.py (rdflib's parser and in-memory graph cost
several times more on large files); every other syntax is parsed by rdflib. Either way the triples reach
ingest/rdf_mapping.py in one plain form, so the same ontology in two syntaxes gives the same knowledge base.
What maps to what is declared in ontology/rdf_mapping.ttl. A file that cannot be parsed raises one
OntologyError naming the file and, where the parser knows it, the line; nothing of it is loaded.

This module and ingest/vocabulary.py are the only users of rdflib.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import urllib.error
import warnings
import xml.sax
import zlib
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import Any

from kgbrain.errors import KgbrainError, OntologyError
from kgbrain.ingest.batch import LoadBatch
from kgbrain.ingest.formats import FORMATS, Kind, ontology_format
from kgbrain.ingest.ntriples import Term, Triple, open_maybe_gzip, read_ntriples
from kgbrain.ingest.rdf_guards import PROLOG_BYTES, check_xml_prolog, prepare_jsonld
from kgbrain.ingest.rdf_mapping import Mapping, RdfMapper
from kgbrain.knowledge import DEFAULT_TRUST
from kgbrain.resources import resource_dir

# what `source_name` strips from a file name: the RDF suffixes and the compressions
_NAME_ENDINGS = frozenset(
    s for f in FORMATS if f.kind is Kind.ONTOLOGY for s in (*f.suffixes, *f.unlisted_suffixes, *f.compressions)
)
_DATASET_FORMATS = frozenset({"trig", "nquads"})
_MAP = "https://kgbrain.dev/rdf-mapping#"


def read_ontology(
    path: Path,
    *,
    source: str | None = None,
    trust: float | None = None,
    fmt: str | None = None,
    progress: Callable[[int], None] | None = None,
    known_predicates: dict[str, str] | None = None,
    known_concepts: dict[str, str] | None = None,
    known_parented_types: Collection[str] = (),
) -> LoadBatch:
    """Parse an ontology file and map it onto kgbrain's model.

    Args:
        path: the file; `.gz` files are decompressed.
        source: the source name of its facts (default: the file name without its RDF extensions, so
            `schema.ttl` and `schema.nt` are one source).
        trust: the trust of that source (default 0.5).
        fmt: a `--format` value of an RDF format (ingest/formats.py); taken from the extension when None.
        progress: called with the number of bytes read so far, now and then.
        known_predicates: the predicate IRIs the knowledge base has loaded, with their names (identity by IRI).
        known_concepts: IRIs an earlier file merged into another term's concept (owl:sameAs), with its id.
        known_parented_types: the declaring classes (`rdfs:Class`, `owl:Class`, ... see `declaring_classes`)
            the knowledge base gives a superclass: a term declared with one is a member of it (cax-sco).

    Raises:
        InputError: the format is unknown.
        OntologyError: the file cannot be parsed (names the file and, where known, the line).
    """
    rdf_format = rdf_format_of(path, fmt)
    if rdf_format == "nt":
        triples = list(read_ntriples(path, progress))
    else:
        triples = list(_rdflib_triples(path, rdf_format))
        if progress is not None:
            progress(path.stat().st_size)
    name = source or source_name(path)
    mapper = RdfMapper(
        load_mapping(),
        file=str(path),
        source=name,
        trust=DEFAULT_TRUST if trust is None else trust,
        known_predicates=known_predicates,
        known_concepts=known_concepts,
        known_parented_types=known_parented_types,
    )
    return mapper.map(triples)


def declaring_classes() -> dict[str, str]:
    """The rdf:type objects that declare a term (rdfs:Class, owl:Class, rdf:Property, ...) -> their concept ids."""
    mapping = load_mapping()
    mapper = RdfMapper(mapping, file="", source="", trust=0.0)
    return {iri: mapper.concept_id(iri) for iri in mapping.declares}


def rdf_format_of(path: Path, fmt: str | None) -> str:
    """The rdflib format name for a file, from `fmt` or its extension (`x.nt.gz` is N-Triples).

    Raises:
        InputError: neither names a known format.
    """
    parser = ontology_format(path, fmt).parser
    assert parser is not None, "every RDF format names its parser"
    return parser


def source_name(path: Path) -> str:
    """The default source of an ontology: its file name without RDF and compression extensions."""
    name = path.name
    while True:
        stem, dot, ext = name.rpartition(".")
        if not dot or not stem or f".{ext.lower()}" not in _NAME_ENDINGS:
            return name
        name = stem


@functools.cache
def load_mapping() -> Mapping:
    """The mapping table of ontology/rdf_mapping.ttl (read once per process)."""
    import rdflib

    graph = rdflib.Graph(bind_namespaces="none")
    graph.parse(resource_dir("ontology") / "rdf_mapping.ttl", format="turtle")
    tables: dict[str, dict[str, str]] = {
        key: {}
        for key in (
            "role",
            "declares",
            "propertyType",
            "expression",
            "skip",
            "skipType",
            "termSkip",
            "skipNamespace",
            "datatype",
        )
    }
    builtin: set[str] = set()
    for s, p, o in graph:
        key = str(p).removeprefix(_MAP)
        value = str(o).removeprefix(_MAP)
        if key == "builtinNamespace":
            builtin.add(str(s))
        elif key in tables:
            tables[key][str(s)] = value
    prefixes = {str(ns): prefix for prefix, ns in graph.namespaces() if prefix != "map"}
    return Mapping(
        prefixes=prefixes,
        roles=tables["role"],
        declares=tables["declares"],
        property_types=tables["propertyType"],
        expressions=tables["expression"],
        skip=tables["skip"],
        skip_types=tables["skipType"],
        term_skip=tables["termSkip"],
        skip_namespaces=tables["skipNamespace"],
        builtin_namespaces=frozenset(builtin),
        datatypes=tables["datatype"],
    )


def _last_line(path: Path) -> int:
    """The number of the file's last line (where a parser that ran off the end stopped)."""
    lines, last = 1, b""
    try:
        with open_maybe_gzip(path) as (stream, _):
            while chunk := stream.read(1 << 20):
                lines += chunk.count(b"\n")
                last = chunk[-1:]
    except (OSError, EOFError, zlib.error):
        return lines
    return lines - 1 if last == b"\n" and lines > 1 else lines


def _rdflib_triples(path: Path, rdf_format: str) -> Iterator[Triple]:
    import rdflib
    from rdflib.exceptions import ParserError
    from rdflib.plugins.parsers.notation3 import BadSyntax

    graph: Any = rdflib.Dataset() if rdf_format in _DATASET_FORMATS else rdflib.Graph(bind_namespaces="none")
    # A fixed base keeps relative IRIs (and so concept ids) independent of where the file lies.
    base = f"file:///{path.name}"
    try:
        with open_maybe_gzip(path) as (stream, _), warnings.catch_warnings():
            # rdflib's JSON-LD and TriG parsers use its own deprecated ConjunctiveGraph API internally
            warnings.simplefilter("ignore", DeprecationWarning)
            # rdflib logs a traceback for every ill-typed literal ("abc"^^xsd:integer); the mapping keeps those as
            # text under their datatype IRI itself, so the log would be a traceback on a load that succeeds
            logging.getLogger("rdflib.term").setLevel(logging.ERROR)
            if rdf_format == "json-ld":  # contexts inlined from local files first: rdflib would download them
                graph.parse(data=prepare_jsonld(stream.read(), path), format=rdf_format, publicID=base)
            elif rdf_format == "xml":  # no entity bombs, no external entities
                data = stream.read()
                check_xml_prolog(data[:PROLOG_BYTES], path.name)
                graph.parse(data=data, format=rdf_format, publicID=base)
            else:
                graph.parse(source=stream, format=rdf_format, publicID=base)
    except BadSyntax as exc:
        why = str(exc).splitlines()[1].removesuffix(" at ^ in:") if "\n" in str(exc) else str(exc)
        raise OntologyError(f"{path.name}:{exc.lines + 1}: {why}") from None
    except xml.sax.SAXParseException as exc:
        raise OntologyError(f"{path.name}:{exc.getLineNumber()}: bad RDF/XML: {exc.getMessage()}") from None
    except json.JSONDecodeError as exc:
        raise OntologyError(f"{path.name}:{exc.lineno}: bad JSON-LD: {exc.msg}") from None
    except ParserError as exc:  # also what the N-Quads parser raises
        raise OntologyError(f"{path.name}: cannot parse as {rdf_format}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise OntologyError(f"{path.name}: not valid UTF-8 (byte {exc.start})") from None
    except urllib.error.URLError as exc:  # a JSON-LD @context given by URL: kgbrain never downloads at run time
        raise OntologyError(
            f"{path.name}: refers to a remote document that cannot be fetched offline ({exc.reason}); "
            "inline the JSON-LD @context"
        ) from None
    except (OSError, EOFError, zlib.error) as exc:  # a corrupt .gz
        raise OntologyError(f"{path.name}: cannot read the file: {exc}") from None
    except RecursionError:  # rdflib's Turtle parser recurses once per nested list or blank node
        raise OntologyError(
            f"{path.name}: nested too deeply to parse (lists or blank nodes inside each other)"
        ) from None
    except ValueError as exc:  # rdflib reports some malformed terms (bad IRIs, literals) this way
        raise OntologyError(f"{path.name}: cannot parse as {rdf_format}: {exc}") from None
    except (IndexError, AssertionError, KeyError, TypeError) as exc:
        # rdflib's Turtle/N3 parser indexes past the end of a file cut in the middle of a statement
        # (`ex:d ex:e ex:f` without its dot, a `"""` never closed, `"x"^^` with no datatype)
        raise OntologyError(
            f"{path.name}:{_last_line(path)}: the file ends in the middle of a statement (truncated?); "
            f"cannot parse as {rdf_format} ({type(exc).__name__})"
        ) from None
    except (KgbrainError, MemoryError):
        raise
    except Exception as exc:
        # rdflib's N3 parser raises a bare Exception or AttributeError on some malformed input (a variable with an
        # empty name, a quantifier outside a formula); the user gets the file's name, not a traceback
        raise OntologyError(f"{path.name}: cannot parse as {rdf_format} ({type(exc).__name__}: {exc})"[:300]) from None
    if rdf_format in _DATASET_FORMATS:
        # the graph a statement sits in is not part of kgbrain's model; a statement in two graphs is one
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            seen = {(s, p, o) for s, p, o, _ in graph.quads((None, None, None, None))}
        rows = iter(seen)
    else:
        rows = iter(graph)
    blank, literal = rdflib.BNode, rdflib.Literal
    for s, p, o in rows:
        triple = str(s) if not isinstance(s, blank) else f"_:{s}", str(p), _term(o, blank, literal)
        _check_unicode(triple, path)
        yield triple


def _check_unicode(triple: Triple, path: Path) -> None:
    # rdflib turns a `\uD800` escape into a lone surrogate, which no store or terminal takes: refuse the file
    s, p, o = triple
    for text in (s, p, *((o[0], o[1] or "") if isinstance(o, tuple) else (o,))):
        if not text.isascii() and _SURROGATE.search(text):
            shown = text.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")[:80]
            raise OntologyError(f"{path.name}: a \\u escape names no Unicode character (a lone surrogate): {shown!r}")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _term(t: Any, blank: type, literal: type) -> Term:
    if isinstance(t, blank):
        return f"_:{t}"
    if isinstance(t, literal):
        lit: Any = t
        datatype = None if lit.datatype is None else str(lit.datatype)
        return (str(lit), datatype, lit.language.lower() if lit.language else None)
    return str(t)
