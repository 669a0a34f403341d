"""SPARQL under an entailment regime (issue #21, 5): queries see the closure, not only what was asserted.

The reference is rdflib's own SPARQL engine over the asserted triples with the property path that spells the
entailment out: `rdfs:subClassOf` entailed is `(rdfs:subClassOf | owl:equivalentClass | ^owl:equivalentClass)+`
asserted, and `rdf:type` entailed is `rdf:type / rdfs:subClassOf*` (OWL 2 RL scm-sco, cax-sco, cax-eqc).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest.ontology import load_mapping
from kgbrain.ingest.rdf_mapping import RdfMapper
from tests.conftest import FIXTURES

TTL = """@prefix : <http://t.example/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
:A rdfs:subClassOf :B . :B rdfs:subClassOf :C . :C rdfs:subClassOf :D .
:E owl:equivalentClass :B . :F rdfs:subClassOf :F2 . :F2 rdfs:subClassOf :F .
:x a :A . :y a :E . :z a :F .
"""
PREFIXES = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX owl: <http://www.w3.org/2002/07/owl#>\n"
SUBCLASS = "(rdfs:subClassOf|owl:equivalentClass|^owl:equivalentClass)+"


def _reference(path: Path, where: str, select: str = "?a ?b") -> set[tuple[str, ...]]:
    graph = rdflib.Graph().parse(path)
    rows = graph.query(f"{PREFIXES}SELECT {select} WHERE {{ {where} }}")
    return {tuple(_id(str(t)) for t in row) for row in rows if all(isinstance(t, rdflib.URIRef) for t in row)}


def _id(iri: str) -> str:  # the concept id ontology loading gives the IRI
    return RdfMapper(load_mapping(), file="", source="", trust=0.5).concept_id(iri)


def _kgbrain(brain: Brain, where: str, select: str = "?a ?b") -> set[tuple[str, ...]]:
    return {tuple(map(str, row)) for row in brain.query(f"{PREFIXES}SELECT {select} WHERE {{ {where} }}").rows}


@pytest.fixture
def small(brain: Brain, tmp_path: Path) -> tuple[Brain, Path]:
    path = tmp_path / "small.ttl"
    path.write_text(TTL, encoding="utf-8")
    brain.load([path])
    return brain, path


def test_subclass_and_types_are_the_entailed_ones(small: tuple[Brain, Path]) -> None:
    brain, path = small
    expected = _reference(path, f"?a {SUBCLASS} ?b")
    assert ("t.example:A", "t.example:D") in expected  # the case: transitive, not asserted
    assert _kgbrain(brain, "?a rdfs:subClassOf ?b") == expected
    assert _kgbrain(brain, "?a rdfs:subClassOf+ ?b") == expected
    types = _reference(path, f"?x a ?c0 . ?c0 {SUBCLASS.removesuffix('+')}* ?c", "?x ?c")
    assert ("t.example:y", "t.example:D") in types
    assert _kgbrain(brain, "?x a ?c", "?x ?c") == types


def test_other_paths_and_aggregates_are_a_clear_error(small: tuple[Brain, Path]) -> None:
    brain, _ = small
    with pytest.raises(InputError, match=r"property paths are not supported, except rdfs:subClassOf\+"):
        brain.query(f"{PREFIXES}SELECT ?b WHERE {{ <http://t.example/A> rdfs:subClassOf* ?b }}")
    with pytest.raises(InputError, match="aggregates"):
        brain.query(f"{PREFIXES}SELECT (COUNT(?b) AS ?n) WHERE {{ ?a rdfs:subClassOf ?b }}")


def test_pizza_subclass_pairs_include_the_transitive_closure(brain: Brain) -> None:
    path = FIXTURES / "ontology" / "pizza.owl"
    brain.load([path])
    asserted = _reference(path, "?a rdfs:subClassOf ?b")
    # a != b: the path runs through blank nodes too (C ≡ [restriction] ≡ back to C), which is no entailment
    closed = _reference(path, f"?a {SUBCLASS} ?b FILTER(?a != ?b)")
    found = _kgbrain(brain, "?a rdfs:subClassOf ?b")
    assert len(closed) > len(asserted)
    assert closed <= found


def test_same_as_and_different_from_are_queried_by_their_owl_iris(brain: Brain, tmp_path: Path) -> None:
    """`?a owl:sameAs ?b` answers with the derived `same_as` facts (here prp-fp), and owl:differentFrom with the
    asserted ones: the two names are reserved, so the IRI record must not give the IRIs names of their own."""
    path = tmp_path / "eq.ttl"
    path.write_text(
        "@prefix : <http://t.example/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n"
        ":p a owl:ObjectProperty , owl:FunctionalProperty .\n"
        ":x :p :a . :x :p :b . :c owl:differentFrom :d .\n",
        encoding="utf-8",
    )
    brain.load([path])
    same = _kgbrain(brain, "?a owl:sameAs ?b")
    assert {("t.example:a", "t.example:b"), ("t.example:b", "t.example:a")} <= same
    assert ("t.example:c", "t.example:d") in _kgbrain(brain, "?a owl:differentFrom ?b")
