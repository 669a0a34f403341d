"""Golden traces of the design documents' examples on the demo KB, in Russian and English.

`pytest --update-golden` rewrites tests/golden/*.json; review the diff.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.models import AskOut
from kgbrain.output.dialogue import render
from kgbrain.reasoning.results import Check, Outcome

CASES = {
    "asc_definition_ru": "Что такое нейрон?",
    "asc_definition_en": "What is a neuron?",
    "cau_chain_ru": "Почему нейроны важны для мышления?",
    "cau_chain_en": "Why are neurons important for thinking?",
    "ana_relational_match_ru": "Нейрон похож на что?",
    "ana_relational_match_en": "What is a neuron like?",
    "ded_property_inheritance_ru": "Содержат ли нейроны ДНК?",
    "ded_property_inheritance_en": "Do neurons have DNA?",
    "ded_specificity_override_ru": "Может ли нейрон делиться?",
    "ded_specificity_override_en": "Can a neuron divide?",
    "ded_disjoint_ru": "Является ли нейрон глиальной клеткой?",
    "ded_disjoint_en": "Is a neuron a glial cell?",
    "link_unknown_concept_ru": "Что такое нейрончик?",
}


def answer_json(brain: Brain, question: str) -> dict[str, Any]:
    import dataclasses

    a = brain.reasoner.ask(question)
    a = dataclasses.replace(a, text=render(a))
    return AskOut.from_answer(a).model_dump()


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_answers(demo: Brain, golden: Callable[[str, Any], None], case: str) -> None:
    golden(case, answer_json(demo, CASES[case]))


def test_demo_answers_say_the_right_thing(demo: Brain) -> None:
    assert demo.reasoner.ask("Что такое нейрон?").data["chain"][:2] == ["neuron", "excitable_cell"]
    why = demo.reasoner.ask("Почему нейроны важны для мышления?")
    assert why.data["path"] == ["neuron", "signal_transmission", "thinking"]
    assert why.confidence == 0.783
    like = demo.reasoner.ask("Нейрон похож на что?")
    assert like.data["analogies"][0]["other"] == "transistor"
    assert like.hypothesis
    dna = demo.reasoner.ask("Содержат ли нейроны ДНК?")
    assert dna.outcome is Outcome.SUPPORTED
    assert dna.confidence == 0.9


def check_json(c: Check) -> dict[str, Any]:
    steps = [
        {"rule": s.rule, "conclusion": s.conclusion, "facts": list(s.facts), "confidence": s.confidence}
        for s in c.trace.steps
    ]
    return {"outcome": c.outcome.value, "confidence": c.confidence, "mode": c.mode.value, "steps": steps}


def test_golden_ded_isa_transitive_neuron_has_dna(demo: Brain, golden: Callable[[str, Any], None]) -> None:
    """ded.isa-transitive + ded.property-inheritance: neuron is_a … cell, cell has_property dna."""
    golden("ded_isa_transitive_neuron_dna", check_json(demo.check("neuron", "has_property", "dna")))


def test_golden_ded_transitive_part_of(demo: Brain, golden: Callable[[str, Any], None]) -> None:
    """ded.transitive: axon part_of neuron part_of nervous_system part_of organism."""
    golden("ded_transitive_axon_organism", check_json(demo.check("axon", "part_of", "organism")))
