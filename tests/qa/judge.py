"""The QA set (tests/qa/*.jsonl) and how an answer is judged against it; shared by the tests and bench/qa.py.

Each case names its knowledge base (`demo`: data/demo; `prontoqa`, `health`: tests/fixtures/qa), language,
intent, question and expectation. `expect` is `yes`/`no` (the verdict of a yes/no question), `unknown` (an
open-world "I don't know"), `answer` (content, for the other intents) or `abstain` (a concept or the intent
was not understood: say what is missing). `contains` items must all appear in the answer text (each may list
alternatives with `|`), `absent` items must not. Expectations were written from the data files, not from output.
`claim`, on a yes/no case, is the statement the question asks written as a sentence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

QA_DIR = Path(__file__).resolve().parent
FIXTURES = QA_DIR.parent / "fixtures" / "qa"
KB_FILES: dict[str, tuple[Path, ...]] = {
    "prontoqa": (FIXTURES / "prontoqa.jsonl",),
    "health": (FIXTURES / "health.jsonl",),
    "wine": (FIXTURES / "wine.jsonl",),  # blind set A's knowledge base (written without the code, 2026-12-02)
    "rail": (FIXTURES / "rail.jsonl",),  # a new domain of nlu's own, to check fixes are not fitted to set A
}
CONFIDENT = 0.7  # a wrong answer at or above this is the worst kind of error
ABSTAIN_ACTIONS = frozenset({"no_answer", "ask_clarification", "refuse", "report_uncertainty"})
DONT_KNOW = ("i don't know", "не знаю")


@dataclass(frozen=True, slots=True)
class Case:
    """One question of the QA set with what its answer must be."""

    id: str
    kb: str
    lang: str
    intent: str
    q: str
    expect: str
    contains: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    set: str = "seed"  # which set the case belongs to: "seed" (written with the code) or a blind set's file name
    claim: str = ""  # the statement a yes/no question asks, as a sentence: verify and check-answer must agree


def load_cases() -> list[Case]:
    """Every case of tests/qa/*.jsonl, in file order."""
    cases = []
    for path in sorted(QA_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row: dict[str, Any] = json.loads(line)
            row.pop("note", None)
            row["contains"] = tuple(row.get("contains", ()))
            row["absent"] = tuple(row.get("absent", ()))
            row["set"] = path.stem if path.stem.startswith("blind") else "seed"
            cases.append(Case(**row))
    return cases


def problems(case: Case, answer: Any) -> list[str]:
    """What is wrong with `answer` (a kgbrain Answer) for `case`; empty when it is right."""
    text = str(answer.text)
    low = text.lower()
    found: list[str] = []
    outcome = getattr(answer.outcome, "value", None)
    if answer.intent != case.intent:
        found.append(f"intent {answer.intent!r}, expected {case.intent!r}")
    if case.expect in ("yes", "no"):
        wanted = "supported" if case.expect == "yes" else "refuted"
        if outcome != wanted:
            found.append(f"verdict {outcome!r}, expected {wanted!r}")
    elif case.expect == "unknown":
        if outcome in ("supported", "refuted") or answer.confidence >= CONFIDENT:
            found.append(f"claims {outcome or answer.action} at {answer.confidence:.2f}; expected I don't know")
        if not any(d in low for d in DONT_KNOW):
            found.append("does not say it does not know")
    elif case.expect == "answer":
        if answer.action in ABSTAIN_ACTIONS or answer.confidence <= 0.0:
            found.append(f"no answer ({answer.action})")
    elif case.expect == "abstain" and (answer.action not in ABSTAIN_ACTIONS or answer.confidence >= CONFIDENT):
        found.append(f"answers ({answer.action} at {answer.confidence:.2f}); expected to abstain")
    for item in case.contains:
        if not any(alt.lower() in low for alt in item.split("|")):
            found.append(f"missing {item!r}")
    for item in case.absent:
        if item.lower() in low:
            found.append(f"must not say {item!r}")
    return found


def is_confident(answer: Any) -> bool:
    """Whether the answer was given with confidence at or above CONFIDENT."""
    return float(answer.confidence) >= CONFIDENT
