"""Names from ontologies: labels instead of ids, identifiers as written, "did you mean", ambiguous names."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import AmbiguousConcept, UnknownConcept
from kgbrain.reasoning.cognition.monitor import ResourceMonitor
from tests.conftest import FIXTURES

ONTOLOGY = FIXTURES / "ontology"
FILES = ["go_extract.nt", "pizza_extract.nt", "lubm_extract.nt", "schemaorg_restaurant.nt", "dbpedia_restaurant.nt"]


@pytest.fixture(scope="module")
def onto_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("onto") / "kb.kuzu"
    with Brain.open(path) as b:
        b.load([ONTOLOGY / f for f in FILES])
    return path


@pytest.fixture
def onto(onto_db: Path) -> Iterator[Brain]:
    with Brain.open(onto_db, read_only=True) as b:
        b.cognition.loop.monitor = ResourceMonitor(sampler=lambda: (10.0, 20.0))
        yield b


def test_answers_and_proofs_show_labels_not_ids(onto: Brain) -> None:
    text = onto.think("Is apoptotic process a cell death?").text
    assert "apoptotic process is a cell death" in text
    assert "apoptotic process → programmed cell death → cell death" in text
    assert "obo:" not in text
    assert "GO_" not in text


def test_camel_case_local_names_are_found_as_written_and_shown_as_words(onto: Brain) -> None:
    assert onto.resolve("NamedPizza") == "pizza:NamedPizza"
    assert onto.resolve("named pizza") == "pizza:NamedPizza"
    assert onto.resolve("GraduateStudent0").endswith(":GraduateStudent0")
    assert "Cajun is a named pizza" in onto.think("Is Cajun a NamedPizza?").text
    assert "graduate student 0 is a person" in onto.think("Is GraduateStudent0 a person?").text
    assert "Cajun is disjoint with Margherita" in onto.think("How are Cajun and Margherita related?").text


def test_did_you_mean_offers_names_as_written(onto: Brain) -> None:
    with pytest.raises(UnknownConcept) as caught:
        onto.facts("GraduateStudnt")
    assert "ub:GraduateStudent" in caught.value.close
    assert "ub:graduatestudent" not in caught.value.close


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is a restaurant?", "'restaurant' may mean different concepts:"),
        ("Is a restaurant a building?", "'restaurant' may mean different concepts:"),
        ("Что такое restaurant?", "«restaurant» может означать разные понятия:"),
    ],
)
def test_a_name_of_two_ontologies_gets_a_clarification_listing_both(onto: Brain, question: str, expected: str) -> None:
    out = onto.think(question)
    assert out.action == "ask_clarification"
    assert expected in out.text
    assert "dbo:Restaurant (dbpedia_restaurant)" in out.text
    assert "schema:Restaurant (schemaorg_restaurant)" in out.text


def test_facts_and_verify_refuse_an_ambiguous_name_listing_the_candidates(onto: Brain) -> None:
    with pytest.raises(AmbiguousConcept, match=r"dbo:Restaurant \(dbpedia_restaurant\), schema:Restaurant"):
        onto.facts("restaurant")
    assert onto.facts("dbo:Restaurant").facts  # an id is never ambiguous
    [verdict] = onto.verify([{"subject": "restaurant", "predicate": "is_a", "object": "dbo:Building"}])
    assert verdict.verdict == "ERROR"
    assert "schema:Restaurant (schemaorg_restaurant)" in (verdict.error or "")
