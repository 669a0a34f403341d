"""Rule steps in verdict traces: a derived fact cited as evidence brings its derivation tree along.

`verify`, `ask --trace` and the HTTP/MCP verdicts all reach `Reasoner.decide`; when a step there cites a fact
with a `rule:` source, the steps that derived it are put before it, premises first, down to sourced facts
(the tree `kgbrain explain` prints, support.py `explain`). Each added step's rule is `rule:<rule id>`.
Traces without derived facts are returned as they are, without touching the store.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from kgbrain.reasoning.results import Check, Step, Trace
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX
from kgbrain.store.protocol import Lookups

if TYPE_CHECKING:
    from kgbrain.reasoning.tms.proofs import Proof


def with_derivations(store: Lookups, check: Check, proofs: Mapping[str, Proof | None] | None = None) -> Check:
    """The check with the derivation steps of every derived fact its trace cites (`proofs`: trees read
    already, by fact id; see `with_derivations_many`).

    Raises:
        StoreError: the store failed.
    """
    steps = check.trace.steps
    if not any(s.startswith(DERIVED_SOURCE_PREFIX) for step in steps for s in step.sources):
        return check
    # Imported here: support.py brings the contradiction machinery (and pyarrow), a third of a verify process's
    # start-up, and most verdicts cite no derived fact.
    from kgbrain.reasoning.tms.proofs import explain

    out: list[Step] = []
    seen: set[str] = set()
    for step in steps:
        if any(s.startswith(DERIVED_SOURCE_PREFIX) for s in step.sources):
            for fact_id in step.facts:
                proof = proofs[fact_id] if proofs is not None and fact_id in proofs else explain(store, fact_id)
                if proof is not None and proof.rule is not None:
                    out.extend(_steps(proof, seen))
        out.append(step)
    return replace(check, trace=Trace(tuple(out)))


def with_derivations_many(store: Lookups, checks: Sequence[Check]) -> list[Check]:
    """`with_derivations` for a batch: the derivation trees of every derived fact the batch cites are read
    together, a level at a time (one fact query per level instead of one per fact: each scans the facts).

    Raises:
        StoreError: the store failed.
    """
    cited = [
        fact_id
        for check in checks
        for step in check.trace.steps
        if any(s.startswith(DERIVED_SOURCE_PREFIX) for s in step.sources)
        for fact_id in step.facts
    ]
    if not cited:
        return list(checks)
    from kgbrain.reasoning.tms.proofs import explain_many

    proofs = explain_many(store, cited)
    return [with_derivations(store, check, proofs) for check in checks]


def _steps(proof: Proof, seen: set[str]) -> Iterator[Step]:
    """Post-order: premises' derivations, then this fact's."""
    fact = proof.fact
    if proof.rule is None or fact.fact_id in seen:
        return
    seen.add(fact.fact_id)
    for premise in proof.premises:
        yield from _steps(premise, seen)
    sign = "" if fact.polarity else "NOT "
    premises = tuple(p.fact.fact_id for p in proof.premises)
    note = f"derived by rule {proof.rule} from {len(premises)} premise(s)"
    if proof.alternatives:
        note += f"; {proof.alternatives} more derivation(s)"
    yield Step(
        rule=DERIVED_SOURCE_PREFIX + proof.rule,
        conclusion=f"{fact.subject} {sign}{fact.predicate} {fact.target}",
        facts=premises,
        sources=tuple(dict.fromkeys(p.fact.source for p in proof.premises)),
        confidence=fact.confidence,
        note=note,
    )
