"""Yes/no questions and claim sentences about stated values: "Is the resting potential of a neuron -70 mV?",
«Потенциал покоя нейрона равен -70 мВ?», and the same as a claim to verify or a sentence of a draft answer.

Before, the question was told "I know 'resting potential' but not '-70 mv'", and the sentence was read as
"resting potential of a neuron is_a -70 mV", an unknown concept. The decision is the structured value claim's
(tests/reasoning/answering/test_ask_verify_agreement.py checks ask and verify agree); here: how the text is read,
what the answer says, and that sentences that are not about values are read as before.
"""

from __future__ import annotations

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.modes.quantities import Match, compare
from kgbrain.reasoning.nlu.question import Intent, parse_question
from kgbrain.reasoning.nlu.sentences import ATTRIBUTE_PHRASE, parse_claim_sentence
from kgbrain.reasoning.results import Outcome


@pytest.mark.parametrize(
    ("sentence", "phrase", "value", "polarity"),
    [
        ("The resting potential of a neuron is -70 mV.", "resting potential of a neuron", "-70 mV", True),
        ("A neuron's resting potential is not −70 mV", "neuron's resting potential", "-70 mV", False),
        ("The number of neurons in the brain is 86 000 000", "number of neurons in the brain", "86 000 000", True),
        ("Потенциал покоя нейрона равен -70 мВ", "Потенциал покоя нейрона", "-70 мВ", True),
        ("Потенциал покоя нейрона не равен -70 мВ", "Потенциал покоя нейрона", "-70 мВ", False),
        ("Скорость проведения аксона составляет 120 м/с", "Скорость проведения аксона", "120 м/с", True),
        ("Потенциал покоя нейрона — -70 мВ", "Потенциал покоя нейрона", "-70 мВ", True),
    ],
)
def test_a_value_sentence_keeps_the_attribute_phrase_and_the_signed_value(
    sentence: str, phrase: str, value: str, polarity: bool
) -> None:
    triple = parse_claim_sentence(sentence)
    assert triple is not None
    assert (triple.subject, triple.predicate, triple.object, triple.polarity) == (
        phrase,
        ATTRIBUTE_PHRASE,
        value,
        polarity,
    )


@pytest.mark.parametrize(
    ("sentence", "predicate"),
    [
        ("A neuron is a cell", "is_a"),
        ("Water is H2O", "is_a"),  # a name with a digit is no value
        ("The cortex of the brain is a layer", "is_a"),
        ("Нейрон — это клетка", "is_a"),
        ("Нейрон входит в состав мозга", "part_of"),
    ],
)
def test_sentences_that_state_no_value_are_read_as_before(sentence: str, predicate: str) -> None:
    triple = parse_claim_sentence(sentence)
    assert triple is not None
    assert triple.predicate == predicate


@pytest.mark.parametrize(
    ("question", "phrase", "value", "polarity"),
    [
        ("Is the resting potential of a neuron -70 mV?", "resting potential of a neuron", "-70 mV", True),
        ("Is the resting potential of a neuron equal to -70 mV?", "resting potential of a neuron", "-70 mV", True),
        ("Isn't the resting potential of a neuron -70 mV?", "resting potential of a neuron", "-70 mV", False),
        ("Is it true that the speed of a myelinated axon is 120 m/s?", "speed of a myelinated axon", "120 m/s", True),
        ("Равен ли потенциал покоя нейрона -70 мВ?", "потенциал покоя нейрона", "-70 мВ", True),
        ("Потенциал покоя нейрона равен -70 мВ?", "Потенциал покоя нейрона", "-70 мВ", True),
        ("Верно ли, что потенциал покоя нейрона равен -70 мВ?", "потенциал покоя нейрона", "-70 мВ", True),
    ],
)
def test_value_questions_parse_as_value_checks(question: str, phrase: str, value: str, polarity: bool) -> None:
    q = parse_question(question)
    assert (q.intent, q.subject, q.object, q.polarity) == (Intent.VALUE_CHECK, phrase, value, polarity)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Is the resting potential of a neuron -70 mV?", "Yes, the resting potential of neuron is -70 mV."),
        ("Is the resting potential of a neuron -60 mV?", "No, the resting potential of neuron is -70 mV, not -60 mV."),
        ("Is the resting potential of a neuron -0.07 V?", "Yes, the resting potential of neuron is -0.07 V (-70 mV)."),
        ("Потенциал покоя нейрона равен -60 мВ?", "Нет, потенциал покоя (нейрон): -70 mV, а не -60 мВ."),
    ],
)
def test_the_answer_states_the_stored_value(demo: Brain, question: str, expected: str) -> None:
    assert demo.ask(question).text.startswith(expected)


def test_an_unstated_value_is_an_honest_i_dont_know(demo: Brain) -> None:
    answer = demo.ask("Is the resting potential of a glial cell -70 mV?")
    assert answer.outcome is Outcome.UNKNOWN
    assert answer.text.startswith("I don't know")
    assert "glial cell" in answer.text


def test_an_unknown_holder_is_named_not_guessed(demo: Brain) -> None:
    answer = demo.ask("Is the resting potential of a zorblax -70 mV?")
    assert answer.outcome is None
    assert "zorblax" in answer.text
    [verdict] = demo.verify([{"id": "z", "text": "The resting potential of a zorblax is -70 mV"}])
    assert verdict.verdict.value == "NOT_ENOUGH_INFO"
    assert "zorblax" in verdict.explanation


def test_check_answer_catches_a_wrong_value_in_a_draft(demo: Brain) -> None:
    report = demo.check_answer("The resting potential of a neuron is -40 mV.")
    assert [(c.verdict, c.fact_id != "") for c in report.claims] == [("contradicted", True)]
    fine = demo.check_answer("Потенциал покоя нейрона равен -70 мВ.")
    assert [c.verdict for c in fine.claims] == ["supported"]


@pytest.mark.parametrize(
    ("stored", "claimed", "match"),
    [
        ("-70 mV", "-70 мВ", Match.SAME),
        ("120 m/s", "0.12 км/с", Match.SAME),
        ("3 ng", "3 мг", Match.DIFFERENT),
        ("5 kg", "5 В", Match.INCOMPARABLE),  # a mass is no voltage
    ],
)
def test_russian_unit_symbols_compare_with_latin_ones(stored: str, claimed: str, match: Match) -> None:
    assert compare(stored, claimed).match is match
