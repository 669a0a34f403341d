"""Two readings of a question's relation phrase that tie are a clarification listing both, never a silent pick
(#26 item 2), in English and Russian; readings that give the same answer are simply that answer.

The knowledge base: `made_by` (label "made by", «создана») and `created_by` (label "created by", alias "made by",
label «создана») name the phrase "made" / «создана» equally well; Acme was created by Alice and made by Bob.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.choices import VerdictKind
from kgbrain.reasoning.results import Outcome

ROWS: list[dict[str, Any]] = [
    {"subject": "acme", "predicate": "label", "value": "Acme", "lang": "en"},
    {"subject": "acme", "predicate": "label", "value": "Акме", "lang": "ru"},
    {"subject": "alice", "predicate": "label", "value": "Alice", "lang": "en"},
    {"subject": "alice", "predicate": "label", "value": "Алиса", "lang": "ru"},
    {"subject": "bob", "predicate": "label", "value": "Bob", "lang": "en"},
    {"subject": "bob", "predicate": "label", "value": "Боб", "lang": "ru"},
    {"subject": "carol", "predicate": "label", "value": "Carol", "lang": "en"},
    {"subject": "acme", "predicate": "created_by", "object": "alice"},
    {"subject": "acme", "predicate": "made_by", "object": "bob"},
    {"subject": "acme", "predicate": "founded_by", "object": "alice"},
    {"subject": "made_by", "predicate": "label", "value": "made by", "lang": "en"},
    {"subject": "made_by", "predicate": "label", "value": "создана", "lang": "ru"},
    {"subject": "created_by", "predicate": "label", "value": "created by", "lang": "en"},
    {"subject": "created_by", "predicate": "alias", "value": "made by", "lang": "en"},
    {"subject": "created_by", "predicate": "label", "value": "создана", "lang": "ru"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("ties") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Who made Acme?", ["'created by': Alice", "'made by': Bob", "Please say which one"]),
        ("Was Acme made by Alice?", ["'created by': yes", "'made by': not known"]),
        ("Кем создана Акме?", ["«создана» (created_by): Алиса", "«создана» (made_by): Боб", "Уточните"]),
        ("Создана ли Акме Алисой?", ["«создана» (created_by): да", "«создана» (made_by): неизвестно"]),
    ],
)
def test_tied_readings_that_answer_differently_are_a_clarification(
    brain: Brain, question: str, said: list[str]
) -> None:
    answer = brain.ask(question)
    assert answer.action == "ask_clarification", answer.text
    assert answer.data["kind"] == "ambiguous_relation"
    assert sorted(answer.data["predicates"]) == ["created_by", "made_by"]
    for part in said:
        assert part in answer.text, answer.text


def test_readings_that_agree_answer_without_asking(brain: Brain) -> None:
    answer = brain.ask("Was Acme made by Carol?")  # neither relation says so: one "I don't know"
    assert answer.data["kind"] == "check", answer.text
    assert answer.outcome is Outcome.UNKNOWN
    founded = brain.ask("Who founded Acme?")  # one predicate names "founded": no tie at all
    assert founded.data["kind"] == "list", founded.text
    assert "Alice" in founded.text


@pytest.mark.parametrize("sentence", ["Acme was made by Alice.", "Акме создана Алисой."])
def test_a_tied_claim_sentence_is_not_decided_by_one_reading(brain: Brain, sentence: str) -> None:
    verdict = brain.verify([{"text": sentence}])[0]
    assert verdict.verdict is VerdictKind.ERROR
    assert "created_by" in (verdict.error or "")
    assert "made_by" in (verdict.error or "")
    assert brain.check_answer(sentence).claims == ()
    # Named unambiguously, the claim is decided.
    assert brain.verify([{"text": "Acme was created by Alice."}])[0].verdict is VerdictKind.SUPPORTED
