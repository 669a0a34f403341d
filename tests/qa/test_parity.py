"""One decision: ask, verify and check-answer agree on every yes/no question of the QA set."""

from __future__ import annotations

import re

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.results import Outcome
from tests.qa.judge import Case, load_cases

YES_NO = [
    c
    for c in load_cases()
    if c.expect in ("yes", "no", "unknown") and c.intent in ("is_a", "has", "has_property", "part_of", "can", "causal")
]
_HEDGE = re.compile(r"^(?:Probably|Perhaps|Likely|Вероятно|Возможно|Скорее всего),?\s*", re.IGNORECASE)
_LEAD = re.compile(r"^(?:Yes|No|Да|Нет),\s*", re.IGNORECASE)
_TAIL = re.compile(
    r"\s*(?:\((?:inferred along|вывод по цепочке)|Confidence:|Уверенность:|I recommend|Рекомендую"
    r"|Sources:|Источники:).*$",
    re.DOTALL,
)


@pytest.mark.parametrize("case", YES_NO, ids=[c.id for c in YES_NO])
def test_ask_verify_and_check_answer_agree(case: Case, qa_brains: dict[str, Brain]) -> None:
    brain = qa_brains[case.kb]
    answer = brain.ask(case.q)
    d = answer.data
    assert d["kind"] == "check", answer.text  # a yes/no question is decided, never answered by something else
    check = brain.check(d["subject"], d["predicate"], d["object"])
    assert answer.outcome is check.outcome
    assert answer.confidence == (check.confidence if check.outcome is not Outcome.UNKNOWN else 0.0)
    if check.outcome is Outcome.UNKNOWN:
        return
    # The answer's own statement, as a draft, is a claim check-answer decides the same way: supported.
    sentence = _TAIL.sub("", _LEAD.sub("", _HEDGE.sub("", answer.text))).strip()
    claims = brain.check_answer(sentence).claims
    assert [c.verdict for c in claims] == ["supported"], sentence
