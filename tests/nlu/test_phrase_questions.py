"""Questions in anyone's words (#26), on a small airline's knowledge base (tests/nlu/airline_kb.py): why-questions
over causal chains whose prevents-links are not causes, a why-question that names whom the effect befalls, a
relation said by its noun with the verb that carries it, and a polite wrapper around a definition. Each mechanism
in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.nlu.polite import unwrap
from tests.nlu.airline_kb import write


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = write(tmp_path_factory.mktemp("airline") / "facts.jsonl")
    with Brain.open(None) as b:
        b.load([path])
        yield b


# -- why: what prevents X is no cause of X -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "cause", "preventer"),
    [
        ("Why does engine damage happen?", "bird strike", "engine inspection"),
        ("What causes engine damage?", "bird strike", "engine inspection"),
        ("Почему возникает повреждение двигателя?", "столкновение с птицей", "осмотр двигателя"),
    ],
)
def test_what_prevents_an_effect_is_not_listed_among_its_causes(
    brain: Brain, question: str, cause: str, preventer: str
) -> None:
    text = brain.ask(question).text
    causes = text.partition(preventer)[0]
    assert cause in causes
    assert preventer in text
    assert any(w in causes for w in ("Working against it", "Препятствуют этому"))  # said apart, after the causes


@pytest.mark.parametrize("question", ["What does the bird radar lead to?", "К чему приводит птичий радар?"])
def test_what_a_concept_prevents_is_said_as_prevented(brain: Brain, question: str) -> None:
    text = brain.ask(question).text
    assert "works against" in text or "препятствует" in text
    assert "leads to:" not in text
    assert "ведёт к:" not in text


# -- why: a concept the effect befalls ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Why are flights of an aircraft cancelled?", "thunderstorm"),
        ("Why is a thunderstorm dangerous for aircraft?", "turbulence"),
        ("Почему гроза опасна для самолёта?", "турбулентность"),
        ("Почему столкновение с птицей опасно для воздушного судна?", "вынужденная посадка"),
    ],
)
def test_a_why_question_naming_whom_it_befalls_asks_the_causal_concept(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert said in answer.text
    assert answer.confidence > 0.5


# -- a relation said by its own noun, carried by a verb ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "verdict"),
    [
        ("Does the Sky Arrow carry the registration of Ireland?", "Yes"),
        ("Does the White Crane bear the registration of Ireland?", "No"),
        ("Летает ли «Небесная стрела» под регистрацией Ирландии?", "Да"),
        ("Летает ли «Белый журавль» под регистрацией Ирландии?", "Нет"),
    ],
)
def test_a_relation_said_by_its_noun_with_a_carrying_verb(brain: Brain, question: str, verdict: str) -> None:
    answer = brain.ask(question)
    assert answer.text.startswith(verdict), answer.text
    assert answer.confidence >= 0.7


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Под какой регистрацией летает «Белый журавль»?", "Мальта"),
        ("Под какой регистрацией летает «Небесная стрела»?", "Ирландия"),
    ],
)
def test_a_wh_question_for_a_relation_said_by_its_noun(brain: Brain, question: str, said: str) -> None:
    assert said in brain.ask(question).text


def test_a_carrying_verb_never_stands_for_a_noun(brain: Brain) -> None:
    """Two words left (a noun besides the verb): the question asks something the relation does not say."""
    answer = brain.ask("Does the Sky Arrow carry the registration papers of Ireland?")
    assert answer.confidence < 0.7


# -- a polite wrapper around a definition ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wrapped", "question"),
    [
        ("Could you please tell me what turbulence is?", "What is turbulence?"),
        ("Can you tell me who the pilot is?", "Who is the pilot?"),
        ("Could you tell me what year the Sky Arrow was built?", "What year was the Sky Arrow built?"),
    ],
)
def test_a_wrapped_question_whose_verb_comes_last(wrapped: str, question: str) -> None:
    assert unwrap(wrapped) == question


def test_a_wrapped_definition_is_answered(brain: Brain) -> None:
    assert brain.ask("Could you please tell me what turbulence is?").data.get("kind") == "define"


# -- a class noun before its member's name says nothing -------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("В каком году выпущен авиалайнер «Небесная стрела»?", "2014"),
        ("Does the airliner Sky Arrow carry the registration of Ireland?", "Yes"),
        ("Летает ли авиалайнер «Небесная стрела» под регистрацией Ирландии?", "Да"),
        ("Is the cargo plane White Crane an aircraft?", "Yes"),
    ],
)
def test_a_class_noun_in_apposition_to_a_member_is_dropped(brain: Brain, question: str, said: str) -> None:
    answer = brain.ask(question)
    assert said in answer.text
    assert answer.question == question


# -- a wh-question's verb and its passive predicate -----------------------------------------------------------


def test_a_wh_verb_reads_its_passive_predicate_the_other_way_round(brain: Brain) -> None:
    answer = brain.ask("Who operates the Sky Arrow?")
    assert "Aer Green" in answer.text
    assert answer.confidence >= 0.7
    assert brain.ask("Who operates the White Crane?").confidence < 0.7  # nothing stated: not the class's airline


# -- an English stem that runs on into other letters is another word ---------------------------------------------


@pytest.mark.parametrize(("a", "b", "same"), [("count", "country", False), ("produce", "product", True)])
def test_english_roots_meet_only_through_a_derivation(a: str, b: str, same: bool) -> None:
    from kgbrain.reasoning.nlu.vocabulary import key, same_root

    assert same_root(key(a), key(b)) is same
