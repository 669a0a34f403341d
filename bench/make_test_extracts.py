"""Write the extracts of real ontologies that tests/ingest/test_ontology.py reads (tests/fixtures/ontology/real/).

The tests must pass on a bare clone, so they cannot read ../shared/data/ontologies; this script cuts small,
deterministic extracts from those files once (run from the repository root, beside ../shared):

    python bench/make_test_extracts.py

N-Triples files are cut by lines (each line is a whole triple); Turtle and RDF/XML ones are cut by subject
through rdflib and written back in the syntaxes the tests read.
"""

from __future__ import annotations

import gzip
import itertools
import sys
from pathlib import Path

import rdflib

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT.parent / "shared" / "data" / "ontologies"
OUT = ROOT / "tests" / "fixtures" / "ontology" / "real"


def head_gz(source: Path, target: Path, lines: int) -> None:
    with gzip.open(source, "rt", encoding="utf-8") as fh:
        kept = list(itertools.islice(fh, lines))
    with gzip.GzipFile(target, "wb", mtime=0) as out:  # mtime 0: the same bytes on every run
        out.write("".join(kept).encode("utf-8"))


def subgraph(source: Path, fmt: str, subjects: int) -> rdflib.Graph:
    """Every triple of the first `subjects` named subjects (sorted), plus the blank nodes they reach."""
    graph = rdflib.Graph()
    graph.parse(source, format=fmt)
    named = sorted({s for s in graph.subjects() if isinstance(s, rdflib.URIRef)})[:subjects]
    out = rdflib.Graph()
    for prefix, ns in graph.namespaces():
        out.bind(prefix, ns)
    todo = list(named)
    seen: set[rdflib.term.Node] = set()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        for p, o in graph.predicate_objects(node):
            out.add((node, p, o))
            if isinstance(o, rdflib.BNode):
                todo.append(o)
    return out


def main() -> None:
    if not SOURCE.is_dir():
        sys.exit(f"no {SOURCE}: run this beside the shared data folder")
    OUT.mkdir(parents=True, exist_ok=True)
    head_gz(SOURCE / "lubm" / "lubm1_0.nt.gz", OUT / "lubm1_0_head.nt.gz", 12_000)
    head_gz(SOURCE / "go" / "go_2019-01-29_isa_rel.nt.gz", OUT / "go_isa_rel_head.nt.gz", 12_000)
    subgraph(SOURCE / "dbpedia" / "dbo-snapshots.ttl", "turtle", 250).serialize(OUT / "dbo_extract.ttl", "turtle")
    schema = subgraph(SOURCE / "schemaorg" / "schemaorg-current-https.ttl", "turtle", 400)
    schema.serialize(OUT / "schemaorg_extract.ttl", "turtle")
    schema.serialize(OUT / "schemaorg_extract.nt", "nt")
    schema.serialize(OUT / "schemaorg_extract.rdf", "xml")


if __name__ == "__main__":
    main()
