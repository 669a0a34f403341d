"""val.class-level: `C ⊑ ∃p.D` answers "What p does a C have?" as "every C has some D" (issue #21): a class, not
an individual, the most specific fillers only, and for a member of C the same of its class."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from tests.conftest import FIXTURES

PIZZA = """@prefix : <http://t.example/pizza#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:hasTopping a owl:ObjectProperty ; rdfs:label "has topping"@en .
:Topping a owl:Class .
:CheeseTopping a owl:Class ; rdfs:subClassOf :Topping .
:MozzarellaTopping a owl:Class ; rdfs:subClassOf :CheeseTopping ; rdfs:label "mozzarella topping"@en .
:TomatoTopping a owl:Class ; rdfs:subClassOf :Topping ; rdfs:label "tomato topping"@en .
:Pizza a owl:Class .
:Margherita a owl:Class ; rdfs:subClassOf :Pizza ; rdfs:label "Margherita"@en ;
    rdfs:subClassOf [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :MozzarellaTopping ] ,
                    [ a owl:Restriction ; owl:onProperty :hasTopping ; owl:someValuesFrom :TomatoTopping ] .
:tonight a :Margherita ; rdfs:label "tonight's pizza"@en .
"""


@pytest.fixture(scope="module")
def pizza(tmp_path_factory: pytest.TempPathFactory) -> Brain:
    path: Path = tmp_path_factory.mktemp("pizza") / "pizza.ttl"
    path.write_text(PIZZA, encoding="utf-8")
    brain = Brain.open(None)
    brain.load([path])
    return brain


def test_a_class_answers_with_its_existential_fillers(pizza: Brain) -> None:
    answer = pizza.ask("What toppings does a Margherita have?")
    assert answer.data["kind"] == "class_value"
    assert answer.data["values"] == ["t.example/pizza:MozzarellaTopping", "t.example/pizza:TomatoTopping"]
    assert {s.rule for s in answer.trace.steps} == {"val.class-level"}
    assert answer.text.startswith("Every Margherita has topping some mozzarella topping and some tomato topping.")
    assert answer.confidence > 0


def test_a_member_answers_with_its_class(pizza: Brain) -> None:
    answer = pizza.ask("What toppings does tonight's pizza have?")
    assert answer.data["kind"] == "class_value"
    assert answer.data["holder"] == "t.example/pizza:Margherita"
    assert answer.text.startswith("Every Margherita (and tonight's pizza is one) has topping some mozzarella")


def test_pizza_owl_says_what_toppings_a_margherita_has() -> None:
    """On pizza.owl the question reads as a value question (has_topping): the class-level facts answer it."""
    with Brain.open(None) as brain:
        brain.load([FIXTURES / "ontology" / "pizza.owl"])
        answer = brain.ask("What toppings does a Margherita have?")
    assert answer.data["kind"] == "class_value"
    assert answer.data["values"] == ["pizza:MozzarellaTopping", "pizza:TomatoTopping"]
    assert answer.action != "refuse"
