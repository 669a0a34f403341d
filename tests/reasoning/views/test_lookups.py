"""The gather/decide split: a decision reads its views and DECISION_QUERIES only, and any Lookups gives the
same checks (the contract a second engine relies on to reuse the decision code)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.errors import QueryError
from kgbrain.reasoning.answering.reasoner import Reasoner
from kgbrain.reasoning.views.lookups import DECISION_QUERIES, DecisionLookups
from kgbrain.store.protocol import Row
from tests.conftest import write_jsonl

FIX = Path(__file__).resolve().parents[2] / "fixtures"


class Recording:
    """Lookups answered by a store, remembering every query name asked."""

    def __init__(self, brain: Brain) -> None:
        self.brain = brain
        self.asked: list[str] = []

    def run(self, name: str, /, **params: Any) -> list[Row]:
        self.asked.append(name)
        return self.brain.store.run(name, **params)

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        self.asked.append(name)
        return self.brain.store.iterate(name, **params)


RULES = """\
[anc1] ancestor(X, Y) :- parent(X, Y).
[anc2] ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
"""
FAMILY = [
    {"subject": "alice", "predicate": "parent", "object": "bob"},
    {"subject": "bob", "predicate": "parent", "object": "carol"},
    {"subject": "carol", "predicate": "parent", "object": "dan"},
    {"subject": "alice", "predicate": "height_cm", "value": "170"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    tmp = tmp_path_factory.mktemp("lookups")
    rules = tmp / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    with Brain.open(None) as b:
        b.load([FIX / "claims" / "penguins_kb.jsonl", FIX / "reasoning" / "smoking.jsonl"])
        b.load([write_jsonl(tmp / "family.jsonl", FAMILY), rules])
        # an inactive fact: its concepts are decided from the store's rows, not the mirror
        b.retract(next(f.fact_id for f in b.facts("carol").facts if f.predicate == "parent"), by="test")
        yield b


def _claims(brain: Brain) -> list[tuple[str, str, str, bool]]:
    names = [*sorted(brain.reasoner.graph().names)[:10], "alice", "carol", "dan"]
    preds = ("is_a", "can", "has_property", "causes", "ancestor", "parent")
    claims = [(s, p, o, (len(s) + len(o)) % 3 != 0) for s in names for p in preds for o in names]
    return [*claims, ("alice", "height_cm", "170", True), ("alice", "height_cm", "180", True)]


def test_decide_reads_only_decision_queries_and_agrees(brain: Brain) -> None:
    recording = Recording(brain)
    other = Reasoner(brain.store, lookups=recording)
    claims = _claims(brain)
    assert other.check_many(claims) == brain.reasoner.check_many(claims)
    assert set(recording.asked) <= DECISION_QUERIES
    # derived evidence, inactive facts and literal values were read through the lookups
    assert {"rules_derivations_of_many", "ded_facts_into", "ded_values_of"} <= set(recording.asked)


def test_decision_lookups_refuse_other_queries(brain: Brain) -> None:
    lookups = DecisionLookups(brain.store)
    with pytest.raises(QueryError, match=r"'graph_facts', which is not in views/lookups\.DECISION_QUERIES"):
        lookups.run("graph_facts")
    with pytest.raises(QueryError, match=r"not in views/lookups\.DECISION_QUERIES"):
        list(lookups.iterate("link_all_terms"))
