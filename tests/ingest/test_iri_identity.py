"""Identity by IRI (issue #21, 1): a predicate IRI names one predicate whatever else a file holds or what came first.

Two property IRIs with one local name used to be named per file (the smallest IRI of the file took the plain
name), so a data file loaded after its ontology fired the rules of the other IRI, and SPARQL found a predicate
by its local name. The knowledge base now records each predicate IRI with the name it was first loaded under.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain

ONTOLOGY = """@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
<http://a.example/name> a owl:DatatypeProperty ; rdfs:domain <http://t.example/Robot> ; rdfs:label "robot name" .
<http://b.example/name> a owl:DatatypeProperty ; rdfs:domain <http://t.example/Person> ; rdfs:label "person name" .
"""
DATA = '<http://t.example/x> <http://b.example/name> "Bob" .\n<http://t.example/r> <http://a.example/name> "R2" .\n'


def _load(brain: Brain, tmp_path: Path, order: tuple[str, ...]) -> None:
    texts = {"onto.ttl": ONTOLOGY, "data.nt": DATA}
    for name in order:
        (tmp_path / name).write_text(texts[name], encoding="utf-8")
        brain.load([tmp_path / name])


def _rows(brain: Brain, where: str) -> set[tuple[object, ...]]:
    result = brain.query(f"SELECT * WHERE {{ {where} }}")
    return {tuple(r[c] for c in sorted(result.columns, key="sco".index)) for r in result.records()}


@pytest.mark.parametrize("order", [("onto.ttl", "data.nt"), ("data.nt", "onto.ttl")])
def test_a_data_file_fires_the_rules_of_its_own_iri_in_either_order(
    brain: Brain, tmp_path: Path, order: tuple[str, ...]
) -> None:
    _load(brain, tmp_path, order)
    assert _rows(brain, "<http://t.example/x> a ?c") == {("t.example:Person",)}
    assert _rows(brain, "<http://t.example/r> a ?c") == {("t.example:Robot",)}


@pytest.mark.parametrize("order", [("onto.ttl", "data.nt"), ("data.nt", "onto.ttl")])
def test_sparql_by_iri_returns_exactly_the_facts_of_that_iri(
    brain: Brain, tmp_path: Path, order: tuple[str, ...]
) -> None:
    _load(brain, tmp_path, order)
    assert _rows(brain, "?s <http://b.example/name> ?o") == {("t.example:x", "Bob")}
    assert _rows(brain, "?s <http://a.example/name> ?o") == {("t.example:r", "R2")}
    # an IRI never loaded answers nothing, though its local name is a stored predicate's name
    assert _rows(brain, "?s <http://c.example/name> ?o") == set()


def test_one_iri_keeps_its_name_in_every_later_file(brain: Brain, tmp_path: Path) -> None:
    _load(brain, tmp_path, ("onto.ttl",))
    (tmp_path / "more.nt").write_text('<http://t.example/y> <http://b.example/name> "Ann" .\n', encoding="utf-8")
    brain.load([tmp_path / "more.nt"])
    # the name onto.ttl gave it, not the `name` that more.nt alone would give
    assert set(brain.stats().predicates) == {"b_example_name", "instance_of"}
    assert _rows(brain, "?s <http://b.example/name> ?o") == {("t.example:y", "Ann")}
