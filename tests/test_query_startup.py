"""A `kgbrain query` process builds only what its query needs (issue #25, item 6): the IRI mapping of ontology
loading (rdflib, ontology/rdf_mapping.ttl) waits for a query that names an IRI."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from kgbrain.api import Brain

QUERY = textwrap.dedent(
    """
    import sys
    from kgbrain.api import Brain
    with Brain.open(sys.argv[1], read_only=True) as brain:
        rows = sorted(map(repr, brain.query(sys.argv[2]).rows))
    print(len(rows), "rdflib" in sys.modules)
    """
)


def _run(db: Path, query: str) -> tuple[int, bool]:
    done = subprocess.run([sys.executable, "-c", QUERY, str(db), query], capture_output=True, text=True, check=True)
    rows, imported = done.stdout.split()
    return int(rows), imported == "True"


def test_the_rdf_mapping_is_built_only_for_a_query_that_names_an_iri(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    facts = tmp_path / "f.jsonl"
    facts.write_text(json.dumps({"subject": "rex", "predicate": "is_a", "object": "dog"}) + "\n", encoding="utf-8")
    data = tmp_path / "d.nt"
    data.write_text('<http://t.example/x> <http://b.example/name> "Bob" .\n', encoding="utf-8")
    with Brain.open(db) as brain:
        brain.load([facts, data])
    assert _run(db, "is_a(X, dog)") == (1, False)
    assert _run(db, "SELECT ?s ?o WHERE { ?s <http://b.example/name> ?o }") == (1, True)
    assert _run(db, "SELECT ?s ?o WHERE { ?s <http://c.example/name> ?o }") == (0, True)
