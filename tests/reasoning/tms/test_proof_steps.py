"""Verdicts on derived facts show their derivation tree, each step with its rule id (golden).

The rule steps in a `verify`/`ask` trace are the tree `kgbrain explain` prints: premises first, down to
sourced facts.
"""

from __future__ import annotations

from pathlib import Path

from kgbrain.api import Brain
from kgbrain.reasoning.results import Outcome
from kgbrain.reasoning.tms.proofs import Proof
from tests.conftest import write_jsonl

RULES = """\
[anc1] ancestor(X, Y) :- parent(X, Y).
[anc2] ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
"""

GOLDEN = [
    ("rule:anc1", "bob ancestor carol", ["bob parent carol"]),
    ("rule:anc2", "alice ancestor carol", ["alice parent bob", "bob ancestor carol"]),
]


def _post_order(proof: Proof) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for p in proof.premises:
        out += _post_order(p)
    if proof.rule is not None:
        f = proof.fact
        out.append((f"rule:{proof.rule}", f"{f.subject} {f.predicate} {f.target}"))
    return out


def test_verify_trace_shows_the_derivation_tree_with_rule_ids(tmp_path: Path) -> None:
    facts = [
        {"subject": "alice", "predicate": "parent", "object": "bob"},
        {"subject": "bob", "predicate": "parent", "object": "carol"},
    ]
    rules = tmp_path / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    with Brain.open(None) as brain:
        brain.load([write_jsonl(tmp_path / "family.jsonl", facts), rules])
        check = brain.check("alice", "ancestor", "carol")
        assert check.outcome is Outcome.SUPPORTED
        statement = {}
        for concept in ("alice", "bob"):
            for f in brain.facts(concept).facts:
                statement[f.fact_id] = f"{f.subject} {f.predicate} {f.target}"
        steps = [s for s in check.trace.steps if s.rule.startswith("rule:")]
        got = [(s.rule, s.conclusion, [statement[i] for i in s.facts]) for s in steps]
        assert got == GOLDEN
        # the sourced premises end the tree: their source is the facts file
        leaves = [i for s in steps for i in s.facts if not statement[i].startswith("bob ancestor")]
        assert {f.source for c in ("alice", "bob") for f in brain.facts(c).facts if f.fact_id in leaves} == {
            "family.jsonl"
        }
        # the same tree as `kgbrain explain` on the cited derived fact
        cited = next(i for s in check.trace.steps if not s.rule.startswith("rule:") for i in s.facts)
        assert _post_order(brain.explain(cited)) == [(r, c) for r, c, _ in GOLDEN]
        # a verdict resting on sourced facts only gets no rule steps
        plain = brain.check("alice", "parent", "bob")
        assert not [s for s in plain.trace.steps if s.rule.startswith("rule:")]


def test_batch_proofs_are_the_one_by_one_proofs(tmp_path: Path) -> None:
    # explain_many reads a level of many trees per query (verify's batches); the trees, cycles and lost
    # derivations included, must be explain's, fact for fact.
    from kgbrain.reasoning.tms.proofs import explain, explain_many

    facts = [
        {"subject": a, "predicate": "parent", "object": b}
        for a, b in (("ann", "ben"), ("ben", "cid"), ("cid", "ann"), ("cid", "dan"), ("ben", "dan"))
    ]
    rules = tmp_path / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    with Brain.open(None) as brain:
        brain.load([write_jsonl(tmp_path / "family.jsonl", facts), rules])
        ids = sorted({f.fact_id for c in ("ann", "ben", "cid", "dan") for f in brain.facts(c).facts})
        derived = [i for i in ids if (p := explain(brain.store, i)) is not None and p.rule is not None]
        assert len(derived) >= 9  # every ancestor pair around the cycle, by one rule or the other
        wanted = [*ids, "no-such-fact"]
        assert explain_many(brain.store, wanted) == {i: explain(brain.store, i) for i in wanted}
