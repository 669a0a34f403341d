"""A wh-question about a member is answered by what its nearest class states ("Where do drones live?" -> the hive
honey bees live in), as verify inherits the same statement; «Есть ли жало у рабочей пчелы?» asks what «Есть ли у
рабочей пчелы жало?» asks."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.choices import VerdictKind
from kgbrain.reasoning.results import Outcome
from tests.conftest import write_jsonl

ROWS = [
    {"subject": "honey_bee", "predicate": "label", "value": "honey bee", "lang": "en"},
    {"subject": "honey_bee", "predicate": "label", "value": "медоносная пчела", "lang": "ru"},
    {"subject": "honey_bee", "predicate": "alias", "value": "пчела", "lang": "ru"},
    {"subject": "drone", "predicate": "label", "value": "drone", "lang": "en"},
    {"subject": "drone", "predicate": "label", "value": "трутень", "lang": "ru"},
    {"subject": "worker_bee", "predicate": "label", "value": "worker bee", "lang": "en"},
    {"subject": "worker_bee", "predicate": "label", "value": "рабочая пчела", "lang": "ru"},
    {"subject": "hive", "predicate": "label", "value": "hive", "lang": "en"},
    {"subject": "hive", "predicate": "label", "value": "улей", "lang": "ru"},
    {"subject": "sting", "predicate": "label", "value": "sting", "lang": "en"},
    {"subject": "sting", "predicate": "label", "value": "жало", "lang": "ru"},
    {"subject": "lives_in", "predicate": "label", "value": "lives in", "lang": "en"},
    {"subject": "lives_in", "predicate": "label", "value": "живёт в", "lang": "ru"},
    {"subject": "lives_in", "predicate": "alias", "value": "живут в", "lang": "ru"},
    {"subject": "drone", "predicate": "is_a", "object": "honey_bee"},
    {"subject": "worker_bee", "predicate": "is_a", "object": "honey_bee"},
    {"subject": "honey_bee", "predicate": "lives_in", "object": "hive"},
    {"subject": "worker_bee", "predicate": "has_property", "object": "sting"},
    {"subject": "drone", "predicate": "has_property", "object": "sting", "polarity": False},
    {"subject": "stinging", "predicate": "label", "value": "stinging", "lang": "en"},
    {"subject": "drone", "predicate": "can", "object": "stinging", "polarity": False},
    {"subject": "worker_bee", "predicate": "can", "object": "stinging"},
    {"subject": "propolis", "predicate": "label", "value": "propolis", "lang": "en"},
    {"subject": "propolis", "predicate": "label", "value": "прополис", "lang": "ru"},
    {"subject": "plant_resin", "predicate": "label", "value": "plant resin", "lang": "en"},
    {"subject": "plant_resin", "predicate": "label", "value": "смола растений", "lang": "ru"},
    {"subject": "made_from", "predicate": "label", "value": "made from", "lang": "en"},
    {"subject": "made_from", "predicate": "label", "value": "делают из", "lang": "ru"},
    {"subject": "propolis", "predicate": "made_from", "object": "plant_resin"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path: Path = write_jsonl(tmp_path_factory.mktemp("wh") / "bees.jsonl", ROWS)
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(("question", "said"), [("Where do drones live?", "hive"), ("Где живут трутни?", "улье")])
def test_a_wh_question_about_a_member_is_answered_by_its_class(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert said in answer.text, answer.text
    verdict = brain.verify([{"subject": "drone", "predicate": "lives_in", "object": "hive"}])[0]
    assert verdict.verdict is VerdictKind.SUPPORTED


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Есть ли жало у рабочей пчелы?", Outcome.SUPPORTED),
        ("Есть ли у рабочей пчелы жало?", Outcome.SUPPORTED),
        ("Есть ли жало у трутня?", Outcome.REFUTED),
    ],
)
def test_the_thing_had_may_come_before_its_holder(brain: Brain, question: str, outcome: Outcome) -> None:
    answer = brain.ask(question)
    assert answer.intent == "has"
    assert answer.outcome is outcome, answer.text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Which plant is propolis made from?", "plant resin"),  # "plant" names no concept: the kind asked for
        ("Из чего пчёлы делают прополис?", "смол"),  # the bees are the verb's agent, not the answers' class
    ],
)
def test_the_wh_word_and_the_kind_it_asks_for_need_no_concept(brain: Brain, question: str, said: str) -> None:
    assert said in brain.ask(question).text


@pytest.mark.parametrize(
    ("question", "outcome"), [("Can drones sting?", Outcome.REFUTED), ("Can worker bees sting?", Outcome.SUPPORTED)]
)
def test_can_asks_the_ability_of_the_verbs_root(brain: Brain, question: str, outcome: Outcome) -> None:
    answer = brain.ask(question)  # "sting" names the organ; the ability stated is stinging
    assert answer.outcome is outcome, answer.text
