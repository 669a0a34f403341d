"""Values with units (pint), functional values refuting other values, and NOT_ENOUGH_INFO that says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.modes.quantities import Match, compare, split_quantity
from tests.conftest import write_jsonl


@pytest.mark.parametrize(
    ("stored", "claimed", "match"),
    [
        ("-70 mV", "-70 mV", Match.SAME),
        ("-70 mV", "-0.07 V", Match.SAME),
        ("120 m/s", "432 km/h", Match.SAME),
        ("-70 mV", "-60 mV", Match.DIFFERENT),
        ("-70 mV", "-70", Match.SAME),  # a bare number is read in the stored unit
        ("86000000000 neurons", "86000000000 neurons", Match.SAME),  # a unit pint does not know, written alike
        ("-70 mV", "-70 kg", Match.INCOMPARABLE),
        ("-70 mV", "-70 flurbs", Match.INCOMPARABLE),
        ("2025-06-30", "2025-06-30", Match.SAME),
        ("Paris", "paris", Match.SAME),
        ("paris", "rome", Match.DIFFERENT),
    ],
)
def test_compare_values_with_units(stored: str, claimed: str, match: Match) -> None:
    assert compare(stored, claimed).match is match


def test_incomparable_values_say_why() -> None:
    assert "different quantities" in compare("-70 mV", "5 kg").reason
    assert "flurbs" in compare("-70 mV", "5 flurbs").reason
    assert split_quantity("−0,07 V") == (-0.07, "V")
    assert split_quantity("n/a") is None


@pytest.mark.parametrize(
    ("row", "verdict", "said"),
    [
        ({"subject": "neuron", "predicate": "resting_potential", "value": -70, "unit": "mV"}, "SUPPORTED", "-70 mV"),
        ({"subject": "neuron", "predicate": "resting_potential", "value": -0.07, "unit": "V"}, "SUPPORTED", "-0.07 V"),
        ({"subject": "нейрон", "predicate": "resting_potential", "value": -0.07, "unit": "V"}, "SUPPORTED", "-0.07"),
        (
            {"subject": "neuron", "predicate": "resting_potential", "value": -60, "unit": "mV"},
            "REFUTED",
            "neuron resting_potential -70 mV",  # the stored value is cited
        ),
        (
            {"subject": "neuron", "predicate": "resting_potential", "value": -70, "unit": "kg"},
            "NOT_ENOUGH_INFO",
            "measure different quantities",
        ),
        (
            {"subject": "neuron", "predicate": "resting_potential", "value": -70, "unit": "flurbs"},
            "NOT_ENOUGH_INFO",
            "unknown unit",
        ),
    ],
)
def test_value_claims_on_the_demo(demo: Brain, row: dict[str, Any], verdict: str, said: str) -> None:
    [v] = demo.verify([row])
    assert v.verdict.value == verdict
    assert said in v.explanation or said in " ".join(f"{s.conclusion} {s.note}" for s in v.proof)


def test_a_second_value_of_a_functional_predicate_is_refuted_citing_the_first(tmp_path: Path) -> None:
    rows = [
        {"subject": "gina", "predicate": "born_in", "object": "paris"},
        {"subject": "rome", "predicate": "is_a", "object": "city"},
        {"subject": "born_in", "predicate": "property_type", "value": "functional"},
    ]
    with Brain.open(None) as b:
        b.load([write_jsonl(tmp_path / "f.jsonl", rows)])
        rome, athens, paris = b.verify(
            [
                {"subject": "gina", "predicate": "born_in", "object": "rome"},  # a concept
                {"subject": "gina", "predicate": "born_in", "object": "athens"},  # not a concept: a literal
                {"subject": "gina", "predicate": "born_in", "object": "paris"},
            ]
        )
    assert rome.verdict.value == "REFUTED"
    assert "gina born_in paris" in rome.explanation
    assert athens.verdict.value == "REFUTED"
    assert paris.verdict.value == "SUPPORTED"


@pytest.mark.parametrize(
    ("row", "said"),
    [
        ({"subject": "neuron", "predicate": "causes", "object": "memory"}, "causal chain from neuron to memory"),
        ({"subject": "neuron", "predicate": "is_a", "object": "memory"}, "is_a/instance_of chain from neuron"),
        ({"subject": "neuron", "predicate": "weight", "value": 3, "unit": "g"}, "weight value of neuron"),
        ({"text": "Нейрон вызывает память."}, "looked for a causes fact"),
    ],
)
def test_every_not_enough_info_says_what_was_looked_for(demo: Brain, row: dict[str, Any], said: str) -> None:
    [v] = demo.verify([row])
    assert v.verdict.value == "NOT_ENOUGH_INFO"
    assert said in v.explanation
