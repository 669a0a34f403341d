"""The QA set: every question answered as expected, identically with resources forced free and blocked."""

from __future__ import annotations

import dataclasses

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.cognition.monitor import ResourceMonitor
from tests.qa.judge import Case, load_cases, problems
from tests.reasoning.answering.test_golden_demo import CASES as GOLDEN

CASES = load_cases()


def _ask(brain: Brain, question: str, *, blocked: bool):  # type: ignore[no-untyped-def]
    """Ask with the resource monitor forced to free (hard_on 101 %) or blocked (hard_on 0 %)."""
    resources = dataclasses.replace(brain.config.resources, hard_on=0.0 if blocked else 101.0)
    loop = brain.cognition.loop
    loop.monitor = ResourceMonitor(resources, sampler=lambda: (50.0, 50.0))
    return brain.ask(question)


def test_the_qa_set_is_large_and_covers_every_intent() -> None:
    assert len(CASES) >= 250
    assert len({c.id for c in CASES}) == len(CASES)
    intents = {c.intent for c in CASES}
    wanted = {"is_a", "has_property", "has", "part_of", "can", "value", "count", "wh", "why", "relation", "define"}
    assert wanted | {"analogy", "permission", "obligation", "causes", "effects", "like"} <= intents
    assert {c.lang for c in CASES} == {"en", "ru"}
    assert {"unknown", "abstain"} <= {c.expect for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_qa(case: Case, qa_brains: dict[str, Brain]) -> None:
    brain = qa_brains[case.kb]
    free = _ask(brain, case.q, blocked=False)
    assert problems(case, free) == [], free.text
    blocked = _ask(brain, case.q, blocked=True)
    assert (blocked.text, blocked.outcome, blocked.confidence) == (free.text, free.outcome, free.confidence)


@pytest.mark.parametrize("question", sorted(GOLDEN.values()))
def test_golden_questions_get_the_same_answer_on_a_busy_machine(question: str, qa_brains: dict[str, Brain]) -> None:
    free = _ask(qa_brains["demo"], question, blocked=False)
    blocked = _ask(qa_brains["demo"], question, blocked=True)
    assert (blocked.text, blocked.outcome, blocked.confidence) == (free.text, free.outcome, free.confidence)
    assert free.text == _ask(qa_brains["demo"], question, blocked=False).text  # asking again changes nothing
