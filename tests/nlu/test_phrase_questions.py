"""Questions in anyone's words (#26), on a small airline's knowledge base (tests/nlu/airline_kb.py): why-questions
over causal chains whose prevents-links are not causes, and a why-question that names whom the effect befalls.
Each mechanism in both languages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbrain.api import Brain
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
