"""Relation phrases read through the knowledge base's own lexicon: ids, labels and word forms, both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.nlu.lexicon import KbLexicon
from kgbrain.reasoning.nlu.vocabulary import key, same_root

RIVERS = Path(__file__).resolve().parents[2] / "fixtures" / "nlu" / "rivers.jsonl"


@pytest.fixture(scope="module")
def brain() -> Iterator[Brain]:
    b = Brain.open(None)
    b.load([RIVERS])
    yield b
    b.close()


def test_word_keys_meet_across_forms_and_derivations() -> None:
    assert key("растёт") == key("растет") == key("расти")
    assert key("grows") == key("grow") == key("grown")
    assert same_root(key("основан"), key("основания"))
    assert same_root(key("boil"), key("boiling"))
    assert not same_root(key("river"), key("sea"))


def test_the_lexicon_names_a_predicate_by_its_id_and_labels() -> None:
    lex = KbLexicon({"lives_in": ["обитает в"], "located_on": [], "flows_into": ["впадает в"]})
    assert lex.match(["live", "in"])[0].predicate == "lives_in"
    assert lex.match(["обитают", "в"])[0].predicate == "lives_in"
    assert lex.match(["впадает", "в"])[0].predicate == "flows_into"
    assert lex.match(["located", "on"])[0].predicate == "located_on"
    assert lex.match(["swim"]) == []


@pytest.mark.parametrize(
    ("question", "intent", "said"),
    [
        ("Which fish live in rivers?", "wh", "pike"),
        ("Where does cod live?", "wh", "sea"),
        ("Where is Kazan located?", "wh", "volga"),
        ("In what year was Kazan founded?", "value", "1005"),
        ("When was Kazan founded?", "value", "1005"),
        ("В каком году основана Казань?", "value", "1005"),
        ("Где обитает щука?", "wh", "рек"),
        ("Какие рыбы обитают в море?", "wh", "треск"),
    ],
)
def test_wh_questions_read_the_relation_phrase(brain: Brain, question: str, intent: str, said: str) -> None:
    a = brain.ask(question)
    assert a.intent == intent
    assert said in a.text.lower()
    assert a.confidence > 0.5


def test_the_class_of_a_wh_question_filters_the_answers(brain: Brain) -> None:
    a = brain.ask("Which fish live in rivers?")
    assert "cod" not in a.text.lower()


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Впадает ли Волга в Каспийское море?", "supported"),
        ("Волга впадает в Каспийское море?", "supported"),
        ("Does the Volga flow into the Caspian Sea?", "supported"),
    ],
)
def test_yes_no_questions_read_the_relation_phrase(brain: Brain, question: str, outcome: str) -> None:
    a = brain.ask(question)
    assert a.intent == "does"
    assert a.outcome is not None
    assert a.outcome.value == outcome


def test_words_no_predicate_explains_are_not_guessed(brain: Brain) -> None:
    a = brain.ask("Where does cod spawn?")
    assert a.confidence == 0.0
    assert "spawn" in a.text.lower()
    a = brain.ask("Who is the mayor of Kazan?")
    assert a.confidence == 0.0
    assert "mayor" in a.text.lower()  # not a definition of Kazan


@pytest.mark.parametrize(
    ("question", "intent", "outcome"),
    [
        ("Must an angler buy a fishing licence?", "obligation", "supported"),
        ("Does an angler need to buy a licence?", "obligation", "supported"),
        ("Нужно ли рыболову покупать лицензию?", "obligation", "supported"),
        ("Обязан ли рыболов купить лицензию?", "obligation", "supported"),
        ("Is an angler allowed to go fishing at night?", "permission", "refuted"),
        ("May anglers fish at night?", "permission", "refuted"),
        ("Можно ли рыболову ночная рыбалка?", "permission", "refuted"),
        ("Is night fishing forbidden for an angler?", "permission", "supported"),
    ],
)
def test_norms_are_read_from_any_modal(brain: Brain, question: str, intent: str, outcome: str) -> None:
    a = brain.ask(question)
    assert a.intent == intent
    assert a.outcome is not None
    assert a.outcome.value == outcome


def test_a_norm_about_another_action_is_not_an_answer(brain: Brain) -> None:
    a = brain.ask("Must an angler wear a hat?")
    assert a.outcome is None or a.outcome.value == "unknown"
    assert a.confidence < 0.5


@pytest.mark.parametrize(
    ("question", "outcome"),
    [
        ("Волга является рекой?", "supported"),
        ("Относится ли щука к рыбам?", "supported"),
        ("Щука относится к рыбам?", "supported"),
        ("Does sea water contain salt?", "supported"),
        ("Содержит ли морская вода соль?", "supported"),
    ],
)
def test_yes_no_in_other_words(brain: Brain, question: str, outcome: str) -> None:
    a = brain.ask(question)
    assert a.outcome is not None
    assert a.outcome.value == outcome


@pytest.mark.parametrize(
    "question", ["How does pollution lead to a fish kill?", "Как загрязнение приводит к гибели рыбы?"]
)
def test_how_does_x_lead_to_y_is_the_causal_chain(brain: Brain, question: str) -> None:
    a = brain.ask(question)
    assert a.intent == "why"
    assert a.data["kind"] == "causal_path"
    assert "oxygen_loss" in a.data["path"]


@pytest.mark.parametrize(
    ("question", "count"),
    [("How many fish are there?", 3), ("Сколько рыб ты знаешь?", 3)],
)
def test_how_many_counts_the_members(brain: Brain, question: str, count: int) -> None:
    a = brain.ask(question)
    assert a.intent == "count"
    assert a.data["count"] == count
