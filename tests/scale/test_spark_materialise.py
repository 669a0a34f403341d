"""Rule materialisation with the joins on Spark stores what the embedded executor stores: the same derived facts
(ids, statements, confidence, trust) and derivation records; defeasible rules are refused with a clear error."""

from __future__ import annotations

import functools
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from kgbrain.api import Brain
from kgbrain.errors import InputError, NotOnEngine
from kgbrain.ingest.export import stored_fact_rows
from kgbrain.ingest.rule_syntax import parse_rule
from kgbrain.reasoning.rules.memory_engine import evaluate_stored
from kgbrain.reasoning.rules.rulebase import save_program
from kgbrain.ruleset import Program, RuleKind
from kgbrain.scale.materialise import SparkClosure, refuse_defeasible
from kgbrain.scale.session import SparkSpec, spark_session
from tests.conftest import write_jsonl
from tests.reasoning.rules.test_bulk_vs_cypher import dense_programs, dense_rows

pytestmark = pytest.mark.spark

RULES = """\
[anc1] ancestor(X, Y) :- parent(X, Y).
[anc2] ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
[root] root(X) :- person(X), agent(X), not ancestor(X, X).
[adult] adult(X) :- age(X, A), A >= 18.
[sib] related(X, Y) :- parent(Z, X), parent(Z, Y), not ancestor(X, Y).
[ag] agent(X) :- person(X).
"""
FACTS = [
    {"subject": "alice", "predicate": "parent", "object": "bob", "confidence": 0.9},
    {"subject": "bob", "predicate": "parent", "object": "carol", "confidence": 0.7},
    {"subject": "carol", "predicate": "parent", "object": "dan"},
    {"subject": "alice", "predicate": "parent", "object": "eve", "confidence": 0.6},
    {"subject": "eve", "predicate": "parent", "object": "carol", "confidence": 0.95},
    {"subject": "alice", "predicate": "instance_of", "object": "person"},
    {"subject": "bob", "predicate": "instance_of", "object": "person"},
    {"subject": "person", "predicate": "is_a", "object": "agent"},
    {"subject": "dan", "predicate": "age", "value": "7"},
    {"subject": "carol", "predicate": "age", "value": "40"},
]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    with spark_session(SparkSpec("local[2]")) as session:
        yield session


def _program(text: str) -> Program:
    return Program(tuple(parse_rule(line) for line in text.strip().splitlines()))


def _stored(brain: Brain) -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    facts = {
        (r["fact_id"], r["subject"], r["predicate"], r["object"], r["lexical"], r["polarity"], r["source"],
         r["status"], round(r["confidence"], 9), r["trust"])
        for r in stored_fact_rows(brain.store)
    }  # fmt: skip
    rows = brain.store.run_generated(
        "MATCH (d:Derivation) RETURN d.id AS id, d.rule AS rule, d.fact_id AS fact, d.premises AS premises"
    )
    return facts, {(r["id"], r["rule"], r["fact"], tuple(r["premises"])) for r in rows}


def test_spark_materialise_stores_the_embedded_facts_and_derivations(tmp_path: Path) -> None:
    facts = write_jsonl(tmp_path / "family.jsonl", FACTS)
    stored = []
    for engine in ("embedded", "spark"):
        with Brain.open(None) as brain:
            brain.load([facts])
            save_program(brain.store, _program(RULES))  # stored, not run: `materialise` runs them
            report = brain.materialise(engine=engine, master="local[2]")
            assert report.derived > 10
            assert brain.check("alice", "ancestor", "dan").outcome.value == "supported"
            stored.append(_stored(brain))
            again = brain.materialise(engine=engine, master="local[1]")
            assert (again.derived, again.derivations) == (0, 0)  # closed already
    assert stored[0] == stored[1]


def test_defeasible_rules_are_refused_on_spark() -> None:
    program = _program("[d1] flies(X) :- bird(X).")
    program = Program(tuple(r.__class__(r.id, r.head, r.body, RuleKind.DEFEASIBLE) for r in program.rules))
    with pytest.raises(NotOnEngine, match=r"rule 'd1' is defeasible: Spark runs strict, stratified rules only"):
        refuse_defeasible(program)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(dense_programs(), dense_rows())
def test_random_strict_programs_derive_the_same_on_spark(
    spark: Any, program: Program, rows: list[dict[str, Any]]
) -> None:
    with tempfile.TemporaryDirectory(prefix="kgbrain-spark-") as tmp, Brain.open(None) as brain:
        if rows:
            brain.load([write_jsonl(Path(tmp) / "facts.jsonl", rows)])
        try:
            embedded = evaluate_stored(brain.store, program)[1]
        except InputError:  # not stratifiable: Spark must refuse it the same way
            with pytest.raises(InputError):
                evaluate_stored(brain.store, program, functools.partial(SparkClosure, spark))
            return
        found = evaluate_stored(brain.store, program, functools.partial(SparkClosure, spark))[1]
    assert found.facts == embedded.facts
    assert found.derivations == embedded.derivations
    assert found.rounds == embedded.rounds
