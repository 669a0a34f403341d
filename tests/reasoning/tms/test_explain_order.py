"""explain shows a proof that ends in stated facts before a circular one (issue #21, 7).

`q` and `p` are sub-properties of each other and `p` is symmetric: `a q b` stated gives `a p b`, `b p a`,
`b q a` and, by each rule, the other facts again, so most derived facts have a derivation through a cycle
besides the one from `a q b`. The first stored derivation used to be shown, cycle and all.
"""

from __future__ import annotations

from pathlib import Path

from kgbrain.api import Brain
from kgbrain.reasoning.tms.proofs import Proof, explain_many

TTL = """@prefix : <http://t.example/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
:p a owl:SymmetricProperty . :q rdfs:subPropertyOf :p . :p rdfs:subPropertyOf :q .
:a :q :b .
"""


def _leaves(proof: Proof) -> list[Proof]:
    return [proof] if not proof.premises else [leaf for p in proof.premises for leaf in _leaves(p)]


def test_every_derived_fact_is_explained_down_to_the_stated_one(brain: Brain, tmp_path: Path) -> None:
    path = tmp_path / "sym.ttl"
    path.write_text(TTL, encoding="utf-8")
    brain.load([path])
    derived = [f for f in brain.facts("t.example:a").facts + brain.facts("t.example:b").facts if f.source != "sym"]
    assert len({f.fact_id for f in derived}) >= 6
    many = explain_many(brain.store, [f.fact_id for f in derived])
    for fact in derived:
        for proof in (brain.explain(fact.fact_id), many[fact.fact_id]):
            assert proof is not None
            leaves = _leaves(proof)
            assert all(not leaf.cycle for leaf in leaves), fact
            assert {(leaf.fact.subject, leaf.fact.predicate, leaf.fact.source) for leaf in leaves} == {
                ("t.example:a", "q", "sym")
            }
