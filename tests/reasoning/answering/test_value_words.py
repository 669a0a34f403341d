"""Value questions in anyone's words (#26): units said in the answer's language, contractions, and an attribute
named by its verb ("Does tin melt at 232 °C?" asks the melting point) or by a degree question ("How long does
concrete take to cure?").

The knowledge base (tests/fixtures/nlu/materials.jsonl) is a materials handbook: metals, a solvent, concrete, each
attribute labelled in both languages and stored with a unit as a handbook writes it ("percent", "d", "year").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.choices import VerdictKind
from kgbrain.reasoning.nlu.question import Intent, parse_question
from kgbrain.reasoning.results import Outcome

MATERIALS = Path(__file__).resolve().parents[2] / "fixtures" / "nlu" / "materials.jsonl"


@pytest.fixture(scope="module")
def brain() -> Iterator[Brain]:
    b = Brain.open(None)
    b.load([MATERIALS])
    yield b
    b.close()


@pytest.mark.parametrize(
    ("question", "said", "unsaid"),
    [
        ("Какова чистота этанола?", "96 %", "percent"),
        ("What is the purity of ethanol?", "96 %", "percent"),
        ("Каков срок твердения бетона?", "28 дней", " d."),  # a unit of time agrees with its number
        ("Каков срок хранения бетона?", "2 года", "year"),
    ],
)
def test_a_unit_is_said_in_the_answers_language(brain: Brain, question: str, said: str, unsaid: str) -> None:
    text = brain.ask(question).text
    assert said in text, text
    assert unsaid not in text, text


@pytest.mark.parametrize(
    ("question", "expanded"),
    [
        ("What's a crucible?", "What is a crucible?"),
        ("Who’s the author of it?", "Who is the author of it?"),
        ("Is a crucible's melting point 1600 °C?", "Is a crucible's melting point 1600 °C?"),  # a possessive
    ],
)
def test_a_contracted_copula_is_read_as_two_words(question: str, expanded: str) -> None:
    assert parse_question(question).text == expanded


def test_a_contracted_definition_question_is_answered(brain: Brain) -> None:
    a = brain.ask("What's a crucible?")
    assert a.intent == Intent.DEFINE.value, a.text
    assert "heat-resistant pot" in a.text


@pytest.mark.parametrize(
    ("question", "outcome", "said"),
    [
        # the verb names the attribute by its root: melt ~ melting point, «плавится» ~ «температура плавления»
        ("Does tin melt at 232 °C?", Outcome.SUPPORTED, "232 °C"),
        ("Does lead melt at 232 °C?", Outcome.REFUTED, "327 °C"),
        ("Плавится ли олово при 232 °C?", Outcome.SUPPORTED, "232 °C"),
        ("Кипит ли этанол при 100 °C?", Outcome.REFUTED, "78 °C"),  # кипеть ~ кипение
        ("Does ethanol boil at 351.15 K?", Outcome.SUPPORTED, "78 °C"),  # units converted as for any value check
    ],
)
def test_a_verb_with_a_value_checks_the_attribute_it_names(
    brain: Brain, question: str, outcome: Outcome, said: str
) -> None:
    a = brain.ask(question)
    assert a.intent == Intent.VALUE_CHECK.value, a.text
    assert a.outcome is outcome, a.text
    assert said in a.text, a.text


@pytest.mark.parametrize(
    ("question", "said", "intent"),
    [
        ("How long does concrete take to cure?", "28 d", Intent.VALUE),  # a duration, not "until when"
        ("Сколько дней твердеет бетон?", "28 дней", Intent.VALUE),
        # a count of what an attribute counts by its name is a count question, as in tests/qa (count-005)
        ("How many stable isotopes does tin have?", "10", Intent.COUNT),
        ("Сколько стабильных изотопов у олова?", "10", Intent.COUNT),
        ("How fast is concrete poured?", "2 m/h", Intent.VALUE),
    ],
)
def test_a_degree_question_asks_the_measure_its_words_name(
    brain: Brain, question: str, said: str, intent: Intent
) -> None:
    a = brain.ask(question)
    assert a.intent == intent.value, a.text
    assert said in a.text, a.text


def test_a_verb_naming_no_attribute_is_still_not_understood(brain: Brain) -> None:
    a = brain.ask("Does tin glow at 232 °C?")
    assert a.outcome is None, a.text
    assert "glow" in a.text, a.text
    assert "isotopes" not in brain.ask("Сколько стабильных изотопов у олова?").text  # an English count noun


@pytest.mark.parametrize(
    ("question", "sentence", "verdict", "draft"),
    [
        ("Does tin melt at 232 °C?", "Tin melts at 232 °C", VerdictKind.SUPPORTED, "supported"),
        ("Does lead melt at 232 °C?", "Lead melts at 232 °C", VerdictKind.REFUTED, "contradicted"),
        ("Плавится ли олово при 300 °C?", "Олово плавится при 300 °C", VerdictKind.REFUTED, "contradicted"),
    ],
)
def test_the_claim_of_a_verb_with_a_value_is_decided_as_its_question(
    brain: Brain, question: str, sentence: str, verdict: VerdictKind, draft: str
) -> None:
    answer = brain.ask(question)
    (said,) = brain.verify([{"text": sentence}])
    assert said.verdict is verdict, said.explanation
    assert answer.outcome is (Outcome.SUPPORTED if verdict is VerdictKind.SUPPORTED else Outcome.REFUTED)
    assert [c.verdict for c in brain.check_answer(sentence).claims] == [draft]
