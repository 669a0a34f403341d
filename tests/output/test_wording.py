"""Answer wording: grammatical Russian, English articles and negation, multi-word concepts, ranked analogies."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.output.dialogue import phrase
from kgbrain.output.wording import clarifying_question
from kgbrain.reasoning.cognition.clarify import Clarification, ClarificationKind
from kgbrain.reasoning.cognition.monitor import ResourceMonitor
from tests.conftest import write_jsonl


@pytest.mark.parametrize(
    ("predicate", "obj", "negated", "subject", "text"),
    [
        ("consumes", "энергия", False, "нейрон", "потребляет энергию"),
        ("is_a", "элемент обработки информации", False, "нейрон", "является элементом обработки информации"),
        ("can", "усиление сигнала", False, "нейрон", "может усиливать сигнал"),
        ("can", "деление клетки", True, "клетка", "не может делиться"),
        ("leads_to", "одышка", False, "курение", "приводит к одышке"),
        ("part_of", "нервная система", False, "аксон", "является частью нервной системы"),
        ("important_for", "мышление", False, "передача сигналов", "важна для мышления"),
        ("depends_on", "нейрон", True, "мышление", "не зависит от нейрона"),
    ],
)
def test_russian_object_takes_the_case_its_verb_governs(
    predicate: str, obj: str, negated: bool, subject: str, text: str
) -> None:
    assert phrase(predicate, obj, "ru", negated=negated, subject=subject) == text


@pytest.mark.parametrize(
    ("predicate", "obj", "negated", "text"),
    [
        ("instance_of", "impus", False, "is an impus"),
        ("is_a", "cell", True, "is not a cell"),
        ("consumes", "energy", True, "does not consume energy"),
        ("causes", "damage", True, "does not cause damage"),
        ("has_property", "DNA", True, "does not have DNA"),
        ("can", "cell division", True, "is not capable of cell division"),
        ("can", "fly", True, "cannot fly"),
        ("disjoint_with", "Margherita", False, "is disjoint with Margherita"),
    ],
)
def test_english_articles_and_negation(predicate: str, obj: str, negated: bool, text: str) -> None:
    assert phrase(predicate, obj, "en", negated=negated) == text


def calm(brain: Brain) -> Brain:
    brain.cognition.loop.monitor = ResourceMonitor(sampler=lambda: (10.0, 20.0))
    return brain


def test_demo_answers_read_as_russian(demo: Brain) -> None:
    assert "Нет, нейрон не может делиться." in calm(demo).think("Может ли нейрон делиться?").text
    text = demo.think("На что похож нейрон?").text
    for part in ("может усиливать сигнал", "потребляет энергию", "является элементом обработки информации"):
        assert part in text


@pytest.fixture
def smoking(tmp_path: Path) -> Brain:
    rows = [
        {"subject": "smoking", "predicate": "causes", "object": "lung damage"},
        {"subject": "lung damage", "predicate": "leads_to", "object": "shortness of breath"},
        {"subject": "stella", "predicate": "instance_of", "object": "impus"},
    ]
    b = Brain.open(None)
    b.load([write_jsonl(tmp_path / "f.jsonl", rows)])
    return calm(b)


def test_multi_word_concepts_stay_whole_in_chains_and_hypotheses(smoking: Brain) -> None:
    with smoking:
        out = smoking.think("Why does smoking cause shortness of breath?")
        assert out.trace.reasoning_chain == ("smoking", "lung damage", "shortness of breath")
        assert "smoking → lung damage → shortness of breath" in out.digest
        causal = [h for h in out.result.hypotheses if h.hypothesis_type.value == "causal"]
        assert causal
        assert causal[0].statement == "smoking causes lung damage leads_to shortness of breath"
        assert "damage damage" not in out.digest
        assert smoking.cognition.pipeline.responder.statement(causal[0], "en") == (
            "smoking causes lung damage, which leads to shortness of breath"
        )


def test_english_article_follows_the_noun(smoking: Brain) -> None:
    with smoking:
        assert "stella is an impus" in smoking.think("Is stella an impus?").text


def test_like_is_ranked_by_the_score_it_shows(demo: Brain) -> None:
    found = demo.like("neuron")
    assert len(found) >= 3
    scores = [a.score for a in found]
    assert scores == sorted(scores, reverse=True)
    assert found[0].other == "transistor"


def test_plurals_and_inflections_link_to_their_concept(tmp_path: Path) -> None:
    rows = [
        {"subject": "tumpus", "predicate": "has_property", "object": "sour"},
        {"subject": "нейрон", "predicate": "is_a", "object": "клетка"},
    ]
    with Brain.open(None) as b:
        b.load([write_jsonl(tmp_path / "f.jsonl", rows)])
        assert b.resolve("tumpuses") == "tumpus"
        assert b.resolve("Tumpuses") == "tumpus"
        assert b.resolve("нейронами") == "нейрон"
        assert b.resolve("клетки") == "клетка"


@pytest.mark.parametrize(
    ("asked", "ru", "en"),
    [
        (
            Clarification(ClarificationKind.WHICH_SOURCE, ("a", "b"), ("c",)),
            "Источники расходятся — какому доверять: a, b или c?",
            "The sources disagree — which should I trust: a, b or c?",
        ),
        (
            Clarification(ClarificationKind.DID_YOU_MEAN, ("нейрон", "нейрит")),
            "Вы имели в виду «нейрон», «нейрит»?",
            "Did you mean 'нейрон', 'нейрит'?",
        ),
        (Clarification(ClarificationKind.WHICH_CONCEPT), "О каком понятии идёт речь?", "Which concept do you mean?"),
        (Clarification(ClarificationKind.WHAT_IS, ("zorblax",)), "Что такое «zorblax»?", "What is 'zorblax'?"),
    ],
)
def test_each_clarifying_question_is_worded_in_both_languages(asked: Clarification, ru: str, en: str) -> None:
    assert clarifying_question(asked, "ru") == ru
    assert clarifying_question(asked, "en") == en


@pytest.mark.parametrize(
    ("question", "kind", "names"),
    [
        ("Что такое нийон?", ClarificationKind.DID_YOU_MEAN, ("нейрон", "нейроны")),  # two letters off: not a typo read
        ("Что такое флогистон?", ClarificationKind.WHICH_CONCEPT, ()),
        ("Is a zorblax a cell?", ClarificationKind.WHAT_IS, ("zorblax",)),
    ],
)
def test_the_loop_says_what_to_ask_as_data(
    demo: Brain, question: str, kind: ClarificationKind, names: tuple[str, ...]
) -> None:
    assert demo.think(question).result.clarification == Clarification(kind, names)
