"""Negatively phrased yes/no questions ask about the positive statement and get its answer, stated in full.

"Isn't a neuron a cell?" and "Is a neuron not a cell?" were parsed with "not" inside a slot (or not at all),
so the answer depended on whether linking happened to ignore the word. English answers yes/no by the polarity
of the statement ("Isn't it a cell?" "Yes, it is a cell."), and the answer text states the statement, so the
Russian «Разве нейрон не клетка?» reads unambiguously too.
"""

from __future__ import annotations

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.nlu.question import Intent, parse_question
from tests.reasoning.answering.test_ask_verify_agreement import ask_outcome

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
        "Почему нейрон не делится?",  # the negation is what is asked
        "Кто не может делиться?",
        "Can a neuron not divide?",  # whether it may fail to divide, not whether it can
    ],
)
def test_negation_that_carries_meaning_is_kept(question: str) -> None:
    q = parse_question(question)
    assert q.polarity
    assert "не" in (q.subject + " " + q.verb).split() or "not" in (q.subject + " " + q.object).split()


# "Which cells do not divide?" was answered with the cells that divide (the negation fell into the class slot).
@pytest.mark.parametrize(
    "question",
    ["Which cells do not divide?", "Which cells cannot divide?", "Какие клетки не делятся?",
     "Какие клетки не могут делиться?"],
)  # fmt: skip
def test_which_members_do_not_lists_the_refuted_members_only(demo: Brain, question: str) -> None:
    answer = demo.ask(question)
    items = answer.data["items"]
    assert answer.data["kind"] == "members"
    assert answer.data["polarity"] is False
    assert "neuron" in items
    assert "glial_cell" not in items
    for item in items:
        assert demo.check(item, "can", "cell_division").outcome.value == "refuted"
    positive = demo.ask("Which cells divide?").data["items"]
    assert not set(items) & set(positive)


@pytest.mark.parametrize(
    ("stated", "plain", "polarity"),
    [
        ("Is it true that neurons can divide?", "Can a neuron divide?", True),
        ("Is it true that neurons cannot divide?", "Can a neuron divide?", False),
        ("Is it true that a neuron is a cell?", "Is a neuron a cell?", True),
        ("Is it the case that neurons have DNA?", "Does a neuron have DNA?", True),
        ("Верно ли, что нейроны могут делиться?", "Может ли нейрон делиться?", True),
        ("Правда ли, что нейрон — клетка?", "Является ли нейрон клеткой?", True),
        ("Are all neurons cells?", "Are neurons cells?", True),
        ("Все ли нейроны — клетки?", "Являются ли нейроны клетками?", True),
        ("Являются ли все нейроны клетками?", "Является ли нейрон клеткой?", True),
        ("Do all neurons have DNA?", "Do neurons have DNA?", True),
    ],
)
def test_statements_and_quantifiers_ask_the_plain_question(
    demo: Brain, stated: str, plain: str, polarity: bool
) -> None:
    q, p = parse_question(stated), parse_question(plain)
    assert (q.intent, q.polarity) == (p.intent, polarity)
    asked, direct = demo.ask(stated), demo.ask(plain)
    assert asked.outcome is direct.outcome is not None
    assert asked.text == direct.text


# A slot with words besides a name asks something else: "Is a neuron bigger than a cell?" was answered
# "Yes, neuron is a cell." Words of the concept's own name are not extra ("the SOMZ-55 helmet").
@pytest.mark.parametrize(
    ("question", "extra"),
    [
        ("Is a neuron bigger than a cell?", "bigger"),
        ("Is a neuron older than a cell?", "older"),
        ("Является ли нейрон большей клеткой?", "большей"),
    ],
)
def test_extra_words_in_a_slot_are_not_dropped(demo: Brain, question: str, extra: str) -> None:
    answer = demo.ask(question)
    assert answer.outcome is None
    assert answer.data["kind"] == "unknown_concept"
    assert answer.data["missing"] == [extra]
    assert set(answer.data["known"]) >= {"neuron", "cell"}


@pytest.mark.parametrize("question", ["Is the SOMZ-55 helmet PPE?", "Is a neuron really a cell?", "Are neurons cells?"])
def test_words_of_the_name_and_harmless_adverbs_still_answer(demo: Brain, question: str) -> None:
    assert demo.ask(question).outcome is not None
