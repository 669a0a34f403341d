"""The intent handlers are a registry: every intent has exactly one handler, and `Reasoner.answer` dispatches
through it (a new intent is one registered function, not a branch in the façade)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kgbrain.api import Brain
from kgbrain.errors import KgbrainError
from kgbrain.reasoning.answering.intents import HANDLERS, Reasoning, handles
from kgbrain.reasoning.answers import Answer
from kgbrain.reasoning.nlu.question import Intent, Question


def test_every_intent_has_a_handler() -> None:
    assert set(HANDLERS) == set(Intent)


def test_an_intent_takes_one_handler_only() -> None:
    before = HANDLERS[Intent.DEFINE]
    with pytest.raises(KgbrainError, match="already has a handler"):

        @handles(Intent.DEFINE)
        def _second(r: Reasoning, q: Question) -> Answer:  # pragma: no cover - never registered
            raise AssertionError

    assert HANDLERS[Intent.DEFINE] is before


def test_the_reasoner_answers_through_the_registry(demo: Brain, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Question] = []
    define = HANDLERS[Intent.DEFINE]

    def spy(r: Reasoning, q: Question) -> Answer:
        seen.append(q)
        return define(r, q)

    monkeypatch.setitem(HANDLERS, Intent.DEFINE, spy)
    found = demo.reasoner.ask("What is a neuron?")
    assert [q.intent for q in seen] == [Intent.DEFINE]
    assert found.data["kind"] == "define"


def test_question_understanding_imports_nothing_from_answering() -> None:
    probe = (
        "import sys\n"
        "import kgbrain.reasoning.nlu.understanding, kgbrain.reasoning.nlu.question, kgbrain.reasoning.nlu.sentences\n"
        "print(sorted(m for m in sys.modules if m.startswith('kgbrain.reasoning.answering')))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
