"""Negatively phrased yes/no questions ask about the positive statement and get its answer, stated in full.

"Isn't a neuron a cell?" and "Is a neuron not a cell?" were parsed with "not" inside a slot (or not at all),
so the answer depended on whether linking happened to ignore the word. English answers yes/no by the polarity
of the statement ("Isn't it a cell?" "Yes, it is a cell."), and the answer text states the statement, so the
Russian «Разве нейрон не клетка?» reads unambiguously too.
"""

from __future__ import annotations

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.question import Intent, parse_question
from tests.reasoning.test_ask_verify_agreement import ask_outcome

# (negatively phrased, its positive form)
PAIRS = [
    ("Isn't a neuron a cell?", "Is a neuron a cell?"),
    ("Is a neuron not a cell?", "Is a neuron a cell?"),
    ("Is not a Betz cell a cell?", "Is a Betz cell a cell?"),
    ("Isn't a neuron a glial cell?", "Is a neuron a glial cell?"),
    ("Doesn't a neuron have an axon?", "Does a neuron have an axon?"),
    ("Does a transistor not have DNA?", "Does a transistor have DNA?"),
    ("Can't a neuron divide?", "Can a neuron divide?"),
    ("Cannot a glial cell divide?", "Can a glial cell divide?"),
    ("Doesn't a neuron cause thinking?", "Does a neuron cause thinking?"),
    ("Разве нейрон не клетка?", "Является ли нейрон клеткой?"),
    ("Не является ли транзистор клеткой?", "Является ли транзистор клеткой?"),
    ("Разве пирамидный нейрон не является глиальной клеткой?", "Является ли пирамидный нейрон глиальной клеткой?"),
    ("Разве нейрон не может делиться?", "Может ли нейрон делиться?"),
    ("Не может ли глиальная клетка делиться?", "Может ли глиальная клетка делиться?"),
    ("Неужели нейрон не вызывает мышление?", "Вызывает ли нейрон мышление?"),
    ("Нейрон — не клетка?", "Является ли нейрон клеткой?"),
]


@pytest.mark.parametrize(("negated", "positive"), PAIRS)
def test_a_negated_question_parses_as_its_positive_form(negated: str, positive: str) -> None:
    q, p = parse_question(negated), parse_question(positive)
    assert (q.intent, q.polarity) == (p.intent, False)
    assert p.polarity
    assert p.intent in {Intent.IS_A, Intent.HAS, Intent.CAN, Intent.CAUSAL}
    assert (q.subject.lower(), q.verb.lower()) == (p.subject.lower(), p.verb.lower())


@pytest.mark.parametrize(("negated", "positive"), PAIRS)
def test_a_negated_question_gets_the_positive_questions_answer(demo: Brain, negated: str, positive: str) -> None:
    asked, plain = demo.ask(negated), demo.ask(positive)
    causal = parse_question(positive).intent is Intent.CAUSAL
    subject, obj = (plain.data.get("source", ""), plain.data.get("target", "")) if causal else ("", "")
    assert ask_outcome(asked, subject, obj) == ask_outcome(plain, subject, obj) != "unknown"
    assert asked.text == plain.text


@pytest.mark.parametrize(
    "question",
    [
        "Which cells do not divide?",  # the negation is what is asked
        "Почему нейрон не делится?",
        "Кто не может делиться?",
        "Can a neuron not divide?",  # whether it may fail to divide, not whether it can
    ],
)
def test_negation_that_carries_meaning_is_kept(question: str) -> None:
    q = parse_question(question)
    assert q.polarity
    assert "не" in (q.subject + " " + q.verb).split() or "not" in (q.subject + " " + q.object).split()
