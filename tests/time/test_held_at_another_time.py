"""A yes/no question as of a time ("still", "in 2010", «до сих пор») whose statement holds only at another time says
when it held: "Does permit 7 still permit night fishing?" of a permit that ran out ends "It held from 2015-04-01 to
2022-10-31." (#24). The verdict stays the reasoner's; a statement that holds then is answered as before."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbrain.api import Brain
from kgbrain.output.pipeline import answer_of
from kgbrain.reasoning.results import Outcome
from tests.conftest import write_jsonl

START, END = "2015-04-01", "2022-10-31"
ROWS = [
    {"subject": "permit_7", "predicate": "label", "value": "permit 7", "lang": "en"},
    {"subject": "permit_7", "predicate": "label", "value": "разрешение 7", "lang": "ru"},
    {"subject": "night_fishing", "predicate": "label", "value": "night fishing", "lang": "en"},
    {"subject": "night_fishing", "predicate": "label", "value": "ночная рыбалка", "lang": "ru"},
    {"subject": "permits", "predicate": "label", "value": "permits", "lang": "en"},
    {"subject": "permits", "predicate": "label", "value": "разрешает", "lang": "ru"},
    {"subject": "permit_7", "predicate": "permits", "object": "night_fishing", "valid_from": START, "valid_to": END},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    folder = tmp_path_factory.mktemp("held")
    with Brain.open(folder / "kb.kuzu") as b:
        b.load([write_jsonl(folder / "permits.jsonl", ROWS)], source="registry")
        yield b


@pytest.mark.parametrize(
    ("question", "held"),
    [
        ("Does permit 7 still permit night fishing?", f"It held from {START} to {END}."),
        ("Did permit 7 permit night fishing in 2010?", f"It held from {START} to {END}."),
        ("Разрешает ли разрешение 7 до сих пор ночную рыбалку?", f"Это было верно с {START} по {END}."),
    ],
)
def test_a_statement_out_of_time_says_when_it_held(brain: Brain, question: str, held: str) -> None:
    output = brain.think(question)
    assert output.text.endswith(held), output.text
    assert answer_of(output).outcome is Outcome.UNKNOWN


def test_a_statement_in_time_is_answered_as_before(brain: Brain) -> None:
    output = brain.think("Did permit 7 permit night fishing in 2018?")
    assert answer_of(output).outcome is Outcome.SUPPORTED
    assert "held from" not in output.text
