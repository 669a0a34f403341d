"""Comparison questions: "What is the difference between X and Y?", "What do X and Y have in common?", «Чем X
отличается от Y?», «Что общего у X и Y?», and lists: "Name the kinds of X", «Перечисли виды X».

Before, a comparison was answered as "What is X?" (the second concept ignored) or not understood, and "Name three
kinds of neurons" was not understood. A comparison is made of the reasoner's decisions, so every item it reports
must be what `decide` (the code verify uses) says about the same statement.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.language import inflect_phrase
from kgbrain.output.dialogue import hedge
from kgbrain.reasoning.answering.comparison import compare, nearest_common
from kgbrain.reasoning.modes.deductive import Claim
from kgbrain.reasoning.nlu.question import Intent, parse_question
from kgbrain.reasoning.results import Outcome
from tests.conftest import write_jsonl


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        ("What is the difference between a neuron and a glial cell?", "neuron", "glial cell"),
        ("What are the differences between neurons and glia?", "neurons", "glia"),
        ("What's the similarity between a neuron and a cell?", "neuron", "cell"),
        ("How does a neuron differ from a glial cell?", "neuron", "glial cell"),
        ("How is a neuron different from a glial cell?", "neuron", "glial cell"),
        ("How do neurons and glia differ?", "neurons", "glia"),
        ("What do a neuron and a glial cell have in common?", "neuron", "glial cell"),
        ("Compare a neuron with a glial cell.", "neuron", "glial cell"),
        ("Чем нейрон отличается от глиальной клетки?", "нейрон", "глиальной клетки"),
        ("Чем отличаются нейрон и глия?", "нейрон", "глия"),
        ("В чём разница между нейроном и глиальной клеткой?", "нейроном", "глиальной клеткой"),
        ("Что общего у нейрона и глиальной клетки?", "нейрона", "глиальной клетки"),
        ("Сравни нейрон с глией", "нейрон", "глией"),
    ],
)
def test_comparison_questions_parse_with_both_concepts(question: str, first: str, second: str) -> None:
    q = parse_question(question)
    assert (q.intent, q.subject, q.object) == (Intent.COMPARE, first, second)


@pytest.mark.parametrize(
    "question",
    [
        "Name three kinds of neurons.",
        "List the types of neurons",
        "Перечисли виды нейронов.",
        "Назовите три вида нейронов",
    ],
)
def test_a_request_to_list_the_kinds_is_answered_with_them(demo: Brain, question: str) -> None:
    answer = demo.reasoner.ask(question)
    assert answer.data["kind"] == "count"
    assert answer.data["items"] == sorted(demo.reasoner.hierarchy().children("neuron"))


def test_neuron_and_glial_cell_differ_in_division_and_share_their_class(demo: Brain) -> None:
    answer = demo.reasoner.ask("What is the difference between a neuron and a glial cell?")
    d = answer.data
    assert d["kind"] == "comparison"
    assert (d["first"], d["second"]) == ("neuron", "glial_cell")
    assert "eukaryotic_cell" in d["common"]
    assert ["glial_cell", "can", "cell_division", "neuron"] in d["contrasts"]
    text = demo.ask("What is the difference between a neuron and a glial cell?").text
    assert "both neuron and glial cell are kinds of eukaryotic cell" in text
    assert "glial cell is capable of cell division, but neuron is not capable of cell division" in text
    assert "glial cell supports neuron" in text  # the facts that link them
    ru = demo.ask("Чем нейрон отличается от глиальной клетки?").text
    assert "нейрон и глиальная клетка — разновидности эукариотической клетки" in ru
    assert "глиальная клетка может делиться, а нейрон не может делиться" in ru
    assert "имеет клеточную мембрану" in ru


def test_a_concept_compared_with_its_class_is_said_to_be_a_kind_of_it(demo: Brain) -> None:
    text = demo.ask("Compare a neuron and a cell").text
    assert text.startswith("Neuron is a kind of cell.")
    assert "neuron is a cell" not in text.lower()  # the is_a link is not repeated as a link
    assert "cell is capable of cell division, but neuron is not capable of cell division" in text
    assert demo.ask("Сравни нейрон и клетку").text.startswith("Нейрон — разновидность клетки.")


def test_every_item_of_a_comparison_is_the_decision_verify_gives(demo: Brain) -> None:
    r = demo.reasoner
    h, g = r.hierarchy(), r.graph()
    concepts = ["neuron", "glial_cell", "cell", "motor_neuron", "purkinje_cell", "synapse", "sleep", "microglia"]
    for first, second in itertools.permutations(concepts, 2):
        found = compare(first, second, h, g, r.decide)
        for a, b in found.shared:
            assert {a.subject, b.subject} == {first, second}
            assert [c.outcome for c in r.decide([Claim(first, a.predicate, a.object)])] == [Outcome.SUPPORTED]
            assert [c.outcome for c in r.decide([Claim(second, a.predicate, a.object)])] == [Outcome.SUPPORTED]
        for a, b in found.contrasts:
            outcomes = {
                c.subject: c.outcome for c in r.decide([Claim(x.subject, a.predicate, a.object) for x in (a, b)])
            }
            assert set(outcomes.values()) == {Outcome.SUPPORTED, Outcome.REFUTED}, (first, second, a.predicate)
        for c in found.only:
            other = second if c.subject == first else first
            assert r.decide([Claim(c.subject, c.predicate, c.object)])[0].outcome is Outcome.SUPPORTED
            assert r.decide([Claim(other, c.predicate, c.object)])[0].outcome is Outcome.UNKNOWN
        # The common classes are above both (or one of them) and none is above another.
        for k in found.common:
            for c in (first, second):
                assert k == c or k in h.ancestors(c)
            assert not any(k in h.ancestors(other) for other in found.common if other != k)
        assert nearest_common(h, second, first) == nearest_common(h, first, second)


def test_two_unrelated_concepts_get_an_honest_i_dont_know(tmp_path: Path) -> None:
    facts = write_jsonl(
        tmp_path / "kb.jsonl",
        [
            {"subject": "zorb", "predicate": "label", "value": "zorb", "lang": "en"},
            {"subject": "quux", "predicate": "label", "value": "quux", "lang": "en"},
        ],
    )
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load([facts])
        answer = brain.reasoner.ask("Compare a zorb and a quux")
        assert answer.data["kind"] == "no_comparison"
        assert brain.ask("Compare a zorb and a quux").text.startswith("I don't know")


def test_an_unknown_concept_in_a_comparison_is_named(demo: Brain) -> None:
    answer = demo.reasoner.ask("What is the difference between a neuron and a flurbix?")
    assert answer.data["kind"] == "unknown_concept"
    assert "flurbix" in answer.data["name"]


def test_feminine_adjectives_agree_in_the_accusative() -> None:
    assert inflect_phrase("клеточная мембрана", "accs") == "клеточную мембрану"
    assert inflect_phrase("глиальные клетки", "accs") == "глиальные клетки"
    assert inflect_phrase("ионный ток", "accs") == "ионный ток"


def test_a_hedge_lowers_a_one_letter_first_word_but_keeps_an_abbreviation() -> None:
    assert hedge("A neuron is a cell.", 0.5, "en").endswith("a neuron is a cell.")
    assert hedge("ДНК есть у нейрона.", 0.5, "ru").endswith("ДНК есть у нейрона.")


def test_a_symmetric_link_stored_both_ways_is_said_once(tmp_path: Path) -> None:
    facts = write_jsonl(
        tmp_path / "kb.jsonl",
        [
            {"subject": "margherita", "predicate": "is_a", "object": "pizza"},
            {"subject": "napoletana", "predicate": "is_a", "object": "pizza"},
            {"subject": "margherita", "predicate": "disjoint_with", "object": "napoletana"},
            {"subject": "napoletana", "predicate": "disjoint_with", "object": "margherita"},
        ],
    )
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load([facts])
        answer = brain.reasoner.ask("Compare margherita and napoletana")
        assert answer.data["common"] == ["pizza"]
        assert len(answer.data["links"]) == 1


@pytest.mark.parametrize("question", ["What kinds of neurons are there?", "Какие виды нейронов бывают?"])
def test_what_kinds_of_x_are_there_lists_them(demo: Brain, question: str) -> None:
    answer = demo.reasoner.ask(question)
    assert answer.data["kind"] == "count"
    assert answer.data["items"] == sorted(demo.reasoner.hierarchy().children("neuron"))
