"""One decision, conflicts included (#26 item 4): a value under an open conflict is CONFLICTING in ask, verify and
check-answer alike (and over HTTP), and a functional value stated for a class decides its members' claims.

The knowledge base: two atlases of near-equal trust give Everest two heights (an open `conflicting_value`), two
of clearly different trust give K2 two (settled: the weaker is disputed); "every Clio is built by Renault", one
Clio is a member only, another has its own stated maker (the more specific statement wins, as any inherited one).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.choices import VerdictKind
from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.results import Outcome
from tests.service.conftest import NO_BLOCK, Server, env_with

ROWS: list[dict[str, Any]] = [
    {"subject": "everest", "predicate": "label", "value": "Everest", "lang": "en"},
    {"subject": "everest", "predicate": "label", "value": "Эверест", "lang": "ru"},
    {"subject": "k2", "predicate": "label", "value": "K2", "lang": "en"},
    {"subject": "height", "predicate": "label", "value": "height", "lang": "en"},
    {"subject": "height", "predicate": "label", "value": "высота", "lang": "ru"},
    {"subject": "height", "predicate": "property_type", "value": "functional"},
    {"subject": "everest", "predicate": "height", "value": 8848, "unit": "m", "source": "atlas_a", "trust": 0.8},
    {"subject": "everest", "predicate": "height", "value": 8850, "unit": "m", "source": "atlas_b", "trust": 0.78},
    {"subject": "k2", "predicate": "height", "value": 8611, "unit": "m", "source": "survey", "trust": 0.9},
    {"subject": "k2", "predicate": "height", "value": 8600, "unit": "m", "source": "blog", "trust": 0.4},
    {"subject": "built_by", "predicate": "property_type", "value": "functional"},
    {"subject": "built_by", "predicate": "label", "value": "built by", "lang": "en"},
    {"subject": "clio", "predicate": "kind", "value": "class"},
    {"subject": "clio", "predicate": "label", "value": "Clio", "lang": "en"},
    {"subject": "clio", "predicate": "is_a", "object": "car"},
    {"subject": "clio", "predicate": "built_by", "object": "renault", "source": "catalogue", "trust": 0.9},
    {"subject": "my_clio", "predicate": "instance_of", "object": "clio"},
    {"subject": "my_clio", "predicate": "label", "value": "my Clio", "lang": "en"},
    {"subject": "tuned_clio", "predicate": "instance_of", "object": "clio"},
    {"subject": "tuned_clio", "predicate": "label", "value": "the tuned Clio", "lang": "en"},
    {"subject": "tuned_clio", "predicate": "built_by", "object": "alpine", "source": "garage", "trust": 0.7},
    {"subject": "renault", "predicate": "label", "value": "Renault", "lang": "en"},
    {"subject": "fiat", "predicate": "label", "value": "Fiat", "lang": "en"},
    {"subject": "alpine", "predicate": "label", "value": "Alpine", "lang": "en"},
]

# (question, structured claim, claim sentence, the one verdict, a rule its proof must show)
CASES: list[tuple[str, dict[str, Any], str, VerdictKind, str]] = [
    ("Is the height of Everest 8848 m?", {"subject": "everest", "predicate": "height", "value": 8848, "unit": "m"},
     "The height of Everest is 8848 m", VerdictKind.CONFLICTING, R.DED_FUNCTIONAL_CONFLICT),
    ("Is the height of Everest 8850 m?", {"subject": "everest", "predicate": "height", "value": 8850, "unit": "m"},
     "The height of Everest is 8850 m", VerdictKind.CONFLICTING, R.DED_FUNCTIONAL_CONFLICT),
    ("Высота Эвереста равна 8850 м?", {"subject": "everest", "predicate": "height", "value": 8.85, "unit": "km"},
     "Высота Эвереста составляет 8850 м", VerdictKind.CONFLICTING, R.DED_FUNCTIONAL_CONFLICT),
    # Both sides agree it is not 9000 m, so the conflict does not make that claim undecided.
    ("Is the height of Everest 9000 m?", {"subject": "everest", "predicate": "height", "value": 9000, "unit": "m"},
     "The height of Everest is 9000 m", VerdictKind.REFUTED, R.DED_FUNCTIONAL_VALUE),
    # Settled by trust: the blog's value is disputed, the survey's decides.
    ("Is the height of K2 8611 m?", {"subject": "k2", "predicate": "height", "value": 8611, "unit": "m"},
     "The height of K2 is 8611 m", VerdictKind.SUPPORTED, "dir.fact"),
    ("Is the height of K2 8600 m?", {"subject": "k2", "predicate": "height", "value": 8600, "unit": "m"},
     "The height of K2 is 8600 m", VerdictKind.REFUTED, R.DED_FUNCTIONAL_VALUE),
    # The class's one value, inherited down instance_of: it refutes another and proves itself.
    ("Is my Clio built by Fiat?", {"subject": "my_clio", "predicate": "built_by", "object": "fiat"},
     "My Clio is built by Fiat", VerdictKind.REFUTED, R.DED_PROPERTY_INHERITANCE),
    ("Is my Clio built by Renault?", {"subject": "my_clio", "predicate": "built_by", "object": "renault"},
     "My Clio is built by Renault", VerdictKind.SUPPORTED, R.DED_PROPERTY_INHERITANCE),
    # A member's own value is more specific than its class's (default inheritance, as for any statement).
    ("Is the tuned Clio built by Alpine?", {"subject": "tuned_clio", "predicate": "built_by", "object": "alpine"},
     "The tuned Clio is built by Alpine", VerdictKind.SUPPORTED, "dir.fact"),
    ("Is the tuned Clio built by Renault?", {"subject": "tuned_clio", "predicate": "built_by", "object": "renault"},
     "The tuned Clio is built by Renault", VerdictKind.REFUTED, R.DED_FUNCTIONAL_VALUE),
]  # fmt: skip
_OUTCOME = {
    VerdictKind.CONFLICTING: Outcome.CONFLICTING,
    VerdictKind.SUPPORTED: Outcome.SUPPORTED,
    VerdictKind.REFUTED: Outcome.REFUTED,
}
_DRAFT = {
    VerdictKind.CONFLICTING: "conflicting",
    VerdictKind.SUPPORTED: "supported",
    VerdictKind.REFUTED: "contradicted",
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("functional_conflicts")
    facts = folder / "facts.jsonl"
    facts.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts])
    return db


@pytest.fixture(scope="module")
def brain(kb: Path) -> Iterator[Brain]:
    with Brain.open(kb, read_only=True) as b:
        yield b


def test_the_knowledge_base_holds_one_open_and_one_settled_conflict(brain: Brain) -> None:
    records = brain.conflicts()
    assert sorted((r.type.value, r.status.value) for r in records) == [
        ("conflicting_value", "open"),
        ("source_conflict", "resolved"),
    ]


@pytest.mark.parametrize(("question", "claim", "sentence", "verdict", "rule"), CASES, ids=[c[0] for c in CASES])
def test_ask_verify_and_check_answer_give_one_verdict(
    brain: Brain, question: str, claim: dict[str, Any], sentence: str, verdict: VerdictKind, rule: str
) -> None:
    answer = brain.ask(question)
    assert answer.outcome is _OUTCOME[verdict], answer.text
    structured, said = brain.verify([claim, {"text": sentence}])
    assert structured.verdict is said.verdict is verdict, (structured.explanation, said.explanation)
    assert rule in {st.rule for st in structured.proof}
    assert [c.verdict for c in brain.check_answer(sentence).claims] == [_DRAFT[verdict]]


def test_a_conflicting_answer_names_each_value_with_its_source(brain: Brain) -> None:
    for question in ("What is the height of Everest?", "Is the height of Everest 8848 m?"):
        text = brain.ask(question).text
        assert "8848 m (atlas_a)" in text, text
        assert "8850 m (atlas_b)" in text, text
        assert text.startswith("The sources disagree"), text
    ru = brain.ask("Какова высота Эвереста?").text
    assert ru.startswith("Источники расходятся"), ru
    assert "8848 м (atlas_a)" in ru, ru
    assert "8850 м (atlas_b)" in ru, ru
    assert brain.ask("What is the height of K2?").text.startswith("The height of K2 is 8611 m"), "settled: one value"


def test_check_answer_warns_of_the_disagreement(brain: Brain) -> None:
    report = brain.check_answer("The height of Everest is 8850 m.")
    assert "The sources disagree" in report.text
    assert "atlas_a" in report.text
    assert "atlas_b" in report.text


def test_the_proof_shows_the_inheritance(brain: Brain) -> None:
    verdict = brain.verify([{"subject": "my_clio", "predicate": "built_by", "object": "fiat"}])[0]
    steps = [(st.rule, st.conclusion) for st in verdict.proof]
    assert ("ded.isa-transitive", "my_clio instance_of clio") in steps
    assert (R.DED_PROPERTY_INHERITANCE, "my_clio built_by renault") in steps
    assert steps[-1] == (R.DED_FUNCTIONAL_VALUE, "my_clio NOT built_by fiat")


def test_http_gives_the_same_verdicts(kb: Path, brain: Brain, tmp_path: Path) -> None:
    config = tmp_path / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    server = Server(kb, env_with(config))
    try:
        asked = [server.client.post("/v1/ask", json={"question": q}).json() for q, *_ in CASES]
        verified = server.client.post("/v1/verify", json={"claims": [c for _, c, *_ in CASES]})
        drafted = [server.client.post("/v1/check-answer", json={"draft": s}).json() for _, _, s, *_ in CASES]
    finally:
        server.stop()
    assert [a["answer"] for a in asked] == [brain.ask(q).text for q, *_ in CASES]
    assert [json.loads(line)["verdict"] for line in verified.text.splitlines()] == [v.value for *_, v, _ in CASES]
    assert [[c["verdict"] for c in d["claims"]] for d in drafted] == [[_DRAFT[v]] for *_, v, _ in CASES]
