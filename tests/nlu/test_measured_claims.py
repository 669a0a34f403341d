"""A yes/no question that claims a value with a degree word after it ("Is the bridge 120 m long?", "Is the pool
2 m deep?") checks the measure the word asks (length, depth, height), so it is supported, refuted with the stored
value, or unknown when no such measure is stored (#26 item 2). Bridges and pools, not rivers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.results import Outcome

ROWS: list[dict[str, Any]] = [
    {"subject": "old_bridge", "predicate": "label", "value": "Old Bridge", "lang": "en"},
    {"subject": "city_pool", "predicate": "label", "value": "city pool", "lang": "en"},
    {"subject": "length", "predicate": "label", "value": "length", "lang": "en"},
    {"subject": "depth", "predicate": "label", "value": "depth", "lang": "en"},
    {"subject": "length", "predicate": "property_type", "value": "functional"},
    {"subject": "depth", "predicate": "property_type", "value": "functional"},
    {"subject": "old_bridge", "predicate": "length", "value": 120, "unit": "m"},
    {"subject": "city_pool", "predicate": "depth", "value": 2, "unit": "m"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("measures") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(
    ("question", "outcome", "said"),
    [
        ("Is the Old Bridge 120 m long?", Outcome.SUPPORTED, "120 m"),
        ("Is the Old Bridge 300 m long?", Outcome.REFUTED, "120 m"),
        ("Is the city pool 2 m deep?", Outcome.SUPPORTED, "2 m"),
        ("Is the city pool 5 m deep?", Outcome.REFUTED, "2 m"),
    ],
)
def test_a_claimed_measure_is_checked(brain: Brain, question: str, outcome: Outcome, said: str) -> None:
    answer = brain.ask(question)
    assert answer.outcome is outcome, answer.text
    assert said in answer.text, answer.text


def test_a_measure_not_stored_is_not_decided(brain: Brain) -> None:
    answer = brain.ask("Is the city pool 25 m long?")
    assert answer.outcome not in (Outcome.SUPPORTED, Outcome.REFUTED), answer.text


@pytest.mark.parametrize(
    ("stored", "claimed", "match"),
    [
        ("1.2 km", "1 200 m", "same"),  # thousands grouped with spaces, as Russian writes them
        ("2000 kg", "2 тонны", "same"),  # a Russian unit word in any form
        ("3 kn", "3 узла", "same"),
        ("3 kn", "4 узла", "different"),
        ("12 m", "12 метров", "same"),
    ],
)
def test_claimed_numbers_and_unit_words_compare(stored: str, claimed: str, match: str) -> None:
    from kgbrain.reasoning.modes.quantities import compare

    assert compare(stored, claimed).match.value == match
