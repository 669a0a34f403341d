"""One decision: ask, verify and check-answer agree on every yes/no question of the QA set."""

from __future__ import annotations

import re

import pytest

from kgbrain.api import Brain
from kgbrain.choices import VerdictKind
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


CLAIMED = [c for c in load_cases() if c.claim]
_VERDICT = {Outcome.SUPPORTED: VerdictKind.SUPPORTED, Outcome.REFUTED: VerdictKind.REFUTED}
_DRAFT = {Outcome.SUPPORTED: ["supported"], Outcome.REFUTED: ["contradicted"]}


@pytest.mark.parametrize("case", CLAIMED, ids=[c.id for c in CLAIMED])
def test_a_claim_sentence_is_decided_as_its_question(case: Case, qa_brains: dict[str, Brain]) -> None:
    """verify and check-answer read "Riesling grows in Mosel" / «Пино-нуар растёт в Бургундии» / "Minors are
    permitted to buy alcohol" as ask reads the question, and reach its verdict."""
    brain = qa_brains[case.kb]
    answer = brain.ask(case.q)
    verdict = brain.verify([case.claim])[0]
    decided = _VERDICT.get(answer.outcome) if answer.outcome is not None else None
    if decided is not None:
        assert verdict.verdict is decided, (answer.text, verdict.explanation or verdict.error)
    else:
        assert verdict.verdict not in (VerdictKind.SUPPORTED, VerdictKind.REFUTED), verdict.explanation
    drafted = [c.verdict for c in brain.check_answer(case.claim).claims if c.verdict in ("supported", "contradicted")]
    assert drafted == (_DRAFT.get(answer.outcome, []) if answer.outcome is not None else []), case.claim
