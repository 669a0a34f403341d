"""Questions whose verb names a stored relation: "Does a neuron consume energy?", «Потребляет ли нейрон энергию?»,
"Do glial cells divide?", "Was the synapse named by Sherrington?", "What does a neuron transmit?", "What is
located in the spinal cord?".

Before, "Does X V Y?" was "I could not tell what the question asks", «V ли X Y?» was read as "Is X a V?", "What
does X V?" said "I know 'neuron' but not 'does'", and "What is located in X?" was answered with X's definition.
The verb is matched against the knowledge base's own predicates, so any relation it stores can be asked about;
the yes/no is the reasoner's decision (`decide`, as verify decides the structured claim). A claim sentence with
such a verb ("Neurons consume energy") is verified the same way
(tests/reasoning/answering/test_ask_verify_agreement.py).
"""

from __future__ import annotations

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.language import inflect_phrase
from kgbrain.reasoning.modes.deductive import Claim
from kgbrain.reasoning.nlu.question import Intent, parse_question
from kgbrain.reasoning.nlu.sentences import VERB_PHRASE, parse_verb_sentence
from kgbrain.reasoning.results import Outcome

# (question, the claim it asks about, the outcome)
CASES = [
    ("Does a neuron consume energy?", ("neuron", "consumes", "energy"), Outcome.SUPPORTED),
    ("Do neurons transmit action potentials?", ("neuron", "transmits", "action_potential"), Outcome.SUPPORTED),
    ("Does a glial cell transmit action potentials?", ("glial_cell", "transmits", "action_potential"), Outcome.REFUTED),
    ("Does a glial cell support neurons?", ("glial_cell", "supports", "neuron"), Outcome.SUPPORTED),
    ("Does a neuron support glial cells?", ("neuron", "supports", "glial_cell"), Outcome.UNKNOWN),
    ("Do glial cells divide?", ("glial_cell", "can", "cell_division"), Outcome.SUPPORTED),
    ("Do neurons divide?", ("neuron", "can", "cell_division"), Outcome.REFUTED),
    ("Was the synapse named by Sherrington?", ("synapse", "named_by", "charles_sherrington"), Outcome.SUPPORTED),
    ("Did Sherrington name the synapse?", ("synapse", "named_by", "charles_sherrington"), Outcome.SUPPORTED),
    ("Потребляет ли нейрон энергию?", ("neuron", "consumes", "energy"), Outcome.SUPPORTED),
    ("Передаёт ли глиальная клетка потенциал действия?", ("glial_cell", "transmits", "action_potential"),
     Outcome.REFUTED),
    ("Поддерживает ли глия нейроны?", ("glial_cell", "supports", "neuron"), Outcome.SUPPORTED),
    ("Делится ли глиальная клетка?", ("glial_cell", "can", "cell_division"), Outcome.SUPPORTED),
    ("Делятся ли нейроны?", ("neuron", "can", "cell_division"), Outcome.REFUTED),
    # A preposition belongs to the verb: protects_against, located_in
    ("Does a filtering half mask protect against dust?", ("filtering_half_mask", "protects_against", "dust"),
     Outcome.SUPPORTED),
    ("Защищает ли фильтрующая полумаска от пыли?", ("filtering_half_mask", "protects_against", "dust"),
     Outcome.SUPPORTED),
    ("Is a motor neuron located in the spinal cord?", ("motor_neuron", "located_in", "spinal_cord"), Outcome.SUPPORTED),
    ("Находится ли мотонейрон в спинном мозге?", ("motor_neuron", "located_in", "spinal_cord"), Outcome.SUPPORTED),
]  # fmt: skip


@pytest.mark.parametrize(("question", "claim", "outcome"), CASES, ids=[c[0] for c in CASES])
def test_the_verb_names_the_relation_and_the_answer_is_the_decision(
    demo: Brain, question: str, claim: tuple[str, str, str], outcome: Outcome
) -> None:
    answer = demo.reasoner.ask(question)
    d = answer.data
    assert (d["subject"], d["predicate"], d["object"]) == claim
    assert answer.outcome is outcome
    assert demo.reasoner.decide([Claim(*claim)])[0].outcome is outcome


def test_a_negated_verb_question_asks_the_positive_statement(demo: Brain) -> None:
    q = parse_question("Doesn't a neuron consume energy?")
    assert (q.intent, q.polarity) == (Intent.DOES, False)
    assert demo.ask("Doesn't a neuron consume energy?").text.startswith("Yes, neuron consumes energy.")


def test_the_answer_says_the_relation_in_each_language(demo: Brain) -> None:
    assert demo.ask("Does a neuron consume energy?").text.startswith("Yes, neuron consumes energy.")
    assert demo.ask("Потребляет ли нейрон энергию?").text.startswith("Да, нейрон потребляет энергию.")
    assert demo.ask("Was the synapse named by Sherrington?").text.startswith(
        "Yes, synapse was named by Charles Sherrington."
    )


def test_a_verb_the_knowledge_base_does_not_store_is_named(demo: Brain) -> None:
    answer = demo.reasoner.ask("Does a neuron eat energy?")
    assert answer.data["kind"] == "unknown_concept"
    assert answer.data["missing"] == ["eat"]
    assert set(answer.data["known"]) == {"neuron", "energy"}


def test_a_russian_adjective_question_is_still_read_as_class_membership() -> None:
    assert parse_question("Кислый ли Макс?").intent is Intent.IS_A


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does a neuron transmit?", "neuron transmits action potential"),
        ("What do neurons consume?", "Neuron consumes energy."),
        ("What is located in the spinal cord?", "motor neuron is located in spinal cord"),
        ("Что потребляет нейрон?", "Нейрон потребляет энергию."),
        ("Что находится в спинном мозге?", "мотонейрон находится в спинном мозге"),
        ("Кто назвал синапс?", "Синапс назван Чарльзом Шеррингтоном."),
        ("What does a safety helmet protect against?", "Safety helmet protects against falling objects."),
        ("От чего защищает каска?", "Защитная каска защищает от падающих предметов."),
        ("В чём находится клетка Пуркинье?", "Клетка Пуркинье находится в мозжечке."),
    ],
)
def test_wh_questions_with_a_verb_list_the_stated_facts(demo: Brain, question: str, expected: str) -> None:
    answer = demo.reasoner.ask(question)
    assert answer.data["kind"] == "list"
    assert expected in demo.ask(question).text


def test_facts_that_read_the_same_are_listed_once(demo: Brain) -> None:
    text = demo.ask("What does a neuron transmit?").text
    assert text.count("neuron transmits signal;") <= 1


def test_a_wh_question_nothing_answers_is_said_with_the_question(demo: Brain) -> None:
    assert demo.ask("Who discovered the neuron?").text.startswith(
        "I don't know: nothing in the knowledge base answers 'Who discovered the neuron'"
    )


def test_a_person_s_name_declines_whole() -> None:
    assert inflect_phrase("Чарльз Шеррингтон", "ablt") == "Чарльзом Шеррингтоном"
    assert inflect_phrase("Иван Павлов", "gent") == "Ивана Павлова"
    assert inflect_phrase("клетка Пуркинье", "ablt") == "клеткой Пуркинье"  # a genitive after a noun stays


@pytest.mark.parametrize(
    ("sentence", "statement", "polarity"),
    [
        ("Neurons consume energy.", "Neurons consume energy", True),
        ("Glial cells do not divide", "Glial cells divide", False),
        ("A neuron doesn't eat energy", "A neuron eat energy", False),
        ("Нейроны не делятся", "Нейроны делятся", False),
        ("Нейрон потребляет энергию", "Нейрон потребляет энергию", True),
    ],
)
def test_a_sentence_no_template_reads_keeps_its_words_and_loses_its_negation(
    sentence: str, statement: str, polarity: bool
) -> None:
    triple = parse_verb_sentence(sentence)
    assert triple is not None
    assert (triple.subject, triple.predicate, triple.polarity) == (statement, VERB_PHRASE, polarity)
    assert parse_verb_sentence("Neurons") is None


@pytest.mark.parametrize(
    "sentence",
    [
        "blah blah",
        "Neuron cell",  # "cell" names a concept, but no ability: not "a neuron can cell"
        "Neurons eat energy",  # both concepts known, the verb names no stored relation
    ],
)
def test_a_sentence_whose_verb_names_no_relation_is_still_an_error(demo: Brain, sentence: str) -> None:
    with pytest.raises(InputError, match="cannot read"):
        demo.reasoner.check_many([(sentence, VERB_PHRASE, "", True)])


def test_check_answer_decides_verb_sentences_as_verify_does(demo: Brain) -> None:
    # Inherited: no stored fact links a motor neuron or a Betz cell to these, so only the reasoner's decision
    # (the one verify makes) catches them.
    report = demo.check_answer("Motor neurons divide. Betz cells consume energy. Blah blah foo.")
    verdicts = {c.sentence: (c.verdict, c.fact) for c in report.claims}
    assert verdicts["Motor neurons divide."][0] == "contradicted"
    assert "neuron NOT can cell_division" in verdicts["Motor neurons divide."][1]
    assert verdicts["Betz cells consume energy."] == (
        "supported",
        "betz_cell is_a pyramidal_neuron; pyramidal_neuron is_a neuron; neuron consumes energy; "
        "betz_cell consumes energy",
    )
    assert "Blah blah foo." not in verdicts  # unreadable: left alone, as before


def test_an_undecided_statement_is_said_in_its_grammar(demo: Brain) -> None:
    assert "«респиратор защищает от пыли»" in demo.ask("Защищает ли респиратор от пыли?").text
    assert "'cell is a neuron'" in demo.ask("Is a cell a neuron?").text


def test_a_relation_answer_says_what_a_cell_does_to_itself(demo: Brain) -> None:
    # «деление клетки» is what a cell does to itself; a neuron is a cell, so it «не может делиться»
    assert "нейрон не может делиться" in demo.ask("Почему нейроны не делятся?").text
