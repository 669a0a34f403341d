"""Sources of different authority tiers that disagree about a norm: one decision for `ask` and `verify`.

Seed 003 ranks sources NORM > OPERATIVE > GUIDANCE > COMMENTARY. Before, only the norm question applied the
ranking (and only when each side had a proof step of its own), so `ask` answered while `verify` said
CONFLICTING on the same statement. Now `Reasoner.decide` ranks them, and both read the same check.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.answering.verify import VerdictKind
from kgbrain.reasoning.results import Outcome
from tests.conftest import write_jsonl

NAMES: list[dict[str, Any]] = [
    {"subject": "cracked_helmet", "predicate": "label", "value": "каска с трещиной", "lang": "ru"},
    {"subject": "cracked_helmet", "predicate": "label", "value": "cracked helmet", "lang": "en"},
    {"subject": "helmet_use", "predicate": "label", "value": "использование каски", "lang": "ru"},
    {"subject": "helmet_use", "predicate": "label", "value": "use of a helmet", "lang": "en"},
]


def _norm(polarity: bool, source: str, authority: str) -> dict[str, Any]:
    # Equal trust and confidence: the contradiction detector cannot pick a side, so the conflict stays open.
    return {
        "subject": "cracked_helmet",
        "predicate": "permitted",
        "object": "helmet_use",
        "polarity": polarity,
        "confidence": 0.9,
        "source": source,
        "trust": 0.9,
        "authority": authority,
    }


def _brain(tmp_path: Path, rows: list[dict[str, Any]]) -> Brain:
    b = Brain.open(tmp_path / "kb.kuzu")
    b.load([write_jsonl(tmp_path / "facts.jsonl", NAMES + rows)])
    return b


@pytest.mark.parametrize(
    ("rows", "expected", "winner"),
    [
        ([_norm(False, "norm/order-1", "NORM"), _norm(True, "guide/handbook", "GUIDANCE")], Outcome.REFUTED, "norm/"),
        ([_norm(True, "company/rules", "OPERATIVE"), _norm(False, "blog/post", "COMMENTARY")], Outcome.SUPPORTED,
         "company/"),
    ],
)  # fmt: skip
def test_the_higher_tier_decides_for_ask_and_verify_alike(
    tmp_path: Path, rows: list[dict[str, Any]], expected: Outcome, winner: str
) -> None:
    with _brain(tmp_path, rows) as b:
        assert b.conflicts(), "the fixture must leave the conflict open for the ranking to matter"
        check = b.check("cracked_helmet", "permitted", "helmet_use")
        assert check.outcome is expected
        step = check.trace.steps[-1]
        assert step.rule == "norm.authority"
        assert step.sources[0].startswith(winner)
        (verdict,) = b.verify([{"subject": "cracked_helmet", "predicate": "permitted", "object": "helmet_use"}])
        assert verdict.verdict.value == expected.value.upper()
        assert "norm.authority" in {s.rule for s in verdict.proof}
        for question in ("Можно ли использовать каску с трещиной?", "Is it allowed to use a cracked helmet?"):
            answer = b.ask(question)
            assert answer.outcome is expected, (question, answer.text)
            assert answer.trace.steps == check.trace.steps


def test_equal_tiers_stay_conflicting_everywhere(tmp_path: Path) -> None:
    rows = [_norm(True, "norm/order-1", "NORM"), _norm(False, "norm/order-2", "NORM")]
    with _brain(tmp_path, rows) as b:
        check = b.check("cracked_helmet", "permitted", "helmet_use")
        assert check.outcome is Outcome.CONFLICTING
        assert "norm.authority" not in {s.rule for s in check.trace.steps}
        (verdict,) = b.verify([{"subject": "cracked_helmet", "predicate": "permitted", "object": "helmet_use"}])
        assert verdict.verdict is VerdictKind.CONFLICTING
        assert b.ask("Можно ли использовать каску с трещиной?").outcome is Outcome.CONFLICTING


def test_authority_does_not_rank_statements_that_are_not_norms(tmp_path: Path) -> None:
    rows = [
        {**_norm(True, "norm/order-1", "NORM"), "predicate": "causes"},
        {**_norm(False, "guide/handbook", "GUIDANCE"), "predicate": "causes"},
    ]
    with _brain(tmp_path, rows) as b:
        assert b.check("cracked_helmet", "causes", "helmet_use").outcome is Outcome.CONFLICTING
