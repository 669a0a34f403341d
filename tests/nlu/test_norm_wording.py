"""Norm questions worded as people word them (#26 item 2): a question that names no holder asks the norm of the
action for the most general holder it is stated for; a prohibition ("Is it forbidden …?", «Запрещено ли …?») is
answered as one ("Yes, … is forbidden"); the Russian modal in any gender («обязано», «разрешён»); a question whose
verb differs from the action's noun but says the rest of its name («заходить в холодную воду в обуви» ~ «вход в
холодную воду в обуви»). A swimming pool's rules; the same reading in verify.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.results import Outcome


def _names(cid: str, en: str, ru: str) -> list[dict[str, Any]]:
    return [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]


def _norm(holder: str, predicate: str, action: str, polarity: bool = True) -> dict[str, Any]:
    return {"subject": holder, "predicate": predicate, "object": action, "polarity": polarity}


ROWS: list[dict[str, Any]] = [
    *_names("visitor", "visitor", "посетитель"),
    *_names("child_visitor", "child visitor", "юный посетитель"),
    *_names("lifeguard", "lifeguard", "спасатель"),
    *_names("management", "pool management", "руководство бассейна"),
    *_names("side_diving", "diving from the side", "ныряние с бортика"),
    *_names("shoe_entry", "entering cold water in shoes", "вход в холодную воду в обуви"),
    *_names("chlorine_check", "chlorine checking", "проверка хлора"),
    *_names("running", "running", "бег"),
    {"subject": "child_visitor", "predicate": "is_a", "object": "visitor"},
    _norm("visitor", "permitted", "side_diving", polarity=False),
    _norm("child_visitor", "permitted", "side_diving", polarity=False),
    _norm("visitor", "permitted", "shoe_entry", polarity=False),
    _norm("management", "obliged_to", "chlorine_check"),
    _norm("lifeguard", "permitted", "running"),  # two holders apart: whose norm is asked must be said
    _norm("visitor", "permitted", "running", polarity=False),
]
ROWS = [{**r, "source": "norm/pool-rules", "authority": "NORM"} if "object" in r else r for r in ROWS]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("pool") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(
    ("question", "outcome", "opening"),
    [
        ("Is diving from the side allowed?", Outcome.REFUTED, "No, diving from the side is not permitted"),
        ("Можно ли нырять с бортика?", Outcome.REFUTED, "Нет, не разрешено"),
        ("Is it forbidden to dive from the side?", Outcome.SUPPORTED, "Yes, diving from the side is forbidden"),
        ("Запрещено ли ныряние с бортика?", Outcome.SUPPORTED, "Да, запрещено"),
        ("Обязано ли руководство бассейна проверять хлор?", Outcome.SUPPORTED, "Да, требуется"),
        ("Разрешается ли посетителю заходить в холодную воду в обуви?", Outcome.REFUTED, "Нет, не разрешено"),
    ],
)
def test_a_norm_in_other_words(brain: Brain, question: str, outcome: Outcome, opening: str) -> None:
    answer = brain.ask(question)
    assert answer.outcome is outcome, answer.text
    assert answer.text.startswith(opening), answer.text


def test_an_action_two_unrelated_holders_rule_on_is_not_guessed(brain: Brain) -> None:
    answer = brain.ask("Is running allowed?")
    assert answer.outcome not in (Outcome.SUPPORTED, Outcome.REFUTED), answer.text


def test_verify_reads_an_impersonal_norm_as_ask_does(brain: Brain) -> None:
    [verdict] = brain.verify(["Diving from the side is forbidden."])
    assert verdict.verdict.value == "SUPPORTED", verdict
    [verdict] = brain.verify(["Ныряние с бортика разрешено."])
    assert verdict.verdict.value == "REFUTED", verdict
