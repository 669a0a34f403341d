"""Truth maintenance and proofs for derived facts, over the stored derivation records.

`withdraw` is the entry point for facts that stopped being active: DRed over the records
(reasoning/tms/withdraw.py) withdraws exactly the derived facts left without well-founded support, cycles
included; withdrawn facts are retracted (kept, with a Retraction record), their derivations `lost`.
What the change makes derivable or blocked through `not` and defeasible rules is settled after the
commit by `reasoning/tms/settle.py`.

`explain` walks derivations down to sourced (non-derived) facts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from kgbrain.knowledge import Fact
from kgbrain.reasoning.tms.withdraw import WITHDRAWN_BY, Withdrawal, withdraw_support
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX
from kgbrain.store.protocol import GraphStore, Lookups, Row
from kgbrain.store.rows import facts_by_id
from kgbrain.timeline import render_from, render_to

__all__ = ["WITHDRAWN_BY", "Proof", "Withdrawal", "explain", "explain_many", "proof_json", "proof_lines", "withdraw"]


def withdraw(store: GraphStore, fact_ids: list[str], *, now: datetime | None = None) -> Withdrawal:
    """Withdraw the consequences of facts that stopped being active (one transaction, joining the caller's).

    Raises:
        StoreError: the store failed.
    """
    return withdraw_support(store, fact_ids, now=now)


@dataclass(frozen=True, slots=True)
class Proof:
    """A fact and how it holds: sourced (no derivations) or derived by rules from premises' proofs."""

    fact: Fact
    rule: str | None = None
    premises: tuple[Proof, ...] = ()
    alternatives: int = 0
    status: str = "active"
    cycle: bool = False


def explain(store: Lookups, fact_id: str, *, _seen: frozenset[str] = frozenset()) -> Proof | None:
    """The derivation tree of a fact down to sourced facts (at each step the first active derivation whose tree
    has no cycle, else the first active one: an asserted support is shown before a circular one).

    None when no fact has this id.

    Raises:
        StoreError: the store failed.
    """
    return _explain(store, fact_id, {}, {}, _seen)


def explain_many(store: Lookups, fact_ids: Iterable[str]) -> dict[str, Proof | None]:
    """`explain` for many facts, reading the store a level of the trees at a time: every fact of a level in
    one query (a scan of the fact tables costs the same for one id or hundreds), each derivation once.

    Raises:
        StoreError: the store failed.
    """
    wanted = list(dict.fromkeys(fact_ids))
    facts: dict[str, Fact | None] = {}
    derivations: dict[str, list[Row]] = {}
    todo = wanted
    while todo:
        missing = [i for i in todo if i not in facts]
        found = facts_by_id(store, missing) if missing else {}
        facts.update((i, found.get(i)) for i in missing)
        derived = [i for i in todo if (f := facts[i]) is not None and f.source.startswith(DERIVED_SOURCE_PREFIX)]
        unread = [i for i in derived if i not in derivations]
        if unread:
            derivations.update((i, []) for i in unread)
            for row in store.iterate("rules_derivations_of_many", fact_ids=unread):
                derivations[row["fact_id"]].append(row)
        following: list[str] = []
        for i in derived:
            chosen = _chosen(derivations[i])
            if chosen is not None:
                following += [p for p in chosen["premises"] if p not in facts]
        todo = list(dict.fromkeys(following))
    return {i: _explain(store, i, facts, derivations, frozenset()) for i in wanted}


def _chosen(derivations: list[Row]) -> Row | None:
    # The first active derivation, else the first lost one (queries/rules_derivations_of.cypher's order).
    active = [d for d in derivations if d["status"] == "active"]
    return (active or derivations)[0] if derivations else None


def _explain(
    store: Lookups,
    fact_id: str,
    facts: dict[str, Fact | None],
    derivations: dict[str, list[Row]],
    _seen: frozenset[str],
) -> Proof | None:
    return _Search(store, facts, derivations).proof(fact_id, _seen)


# How many proof nodes one explain builds while it looks for a derivation without a cycle; past it, the first
# derivation is taken as it is (a cyclic proof is still a true statement of how the fact was derived).
_SEARCH_BUDGET = 5000


class _Search:
    """Builds a proof, preferring at each step a derivation whose tree ends in sourced facts (no cycle)."""

    def __init__(self, store: Lookups, facts: dict[str, Fact | None], derivations: dict[str, list[Row]]) -> None:
        # `facts` and `derivations` hold what was read already (explain_many's); the rest is read here.
        self.store, self.facts, self.derivations = store, facts, derivations
        self.acyclic: dict[str, Proof] = {}  # a well-founded proof holds wherever the fact appears
        self.budget = _SEARCH_BUDGET

    def proof(self, fact_id: str, seen: frozenset[str]) -> Proof | None:
        if fact_id in self.acyclic:
            return self.acyclic[fact_id]
        self.budget -= 1
        fact = self.facts[fact_id] if fact_id in self.facts else facts_by_id(self.store, [fact_id]).get(fact_id)
        if fact is None:
            return None
        if not fact.source.startswith(DERIVED_SOURCE_PREFIX) or fact_id in seen:
            return Proof(fact, cycle=fact_id in seen)
        found = self.derivations.get(fact_id)
        if found is None:
            found = self.derivations[fact_id] = self.store.run("rules_derivations_of", fact_id=fact_id)
        active = [d for d in found if d["status"] == "active"]
        first: Proof | None = None
        for chosen in active or found[:1]:
            proof = self._from(fact, chosen, seen | {fact_id}, max(len(active) - 1, 0))
            if not _has_cycle(proof):
                self.acyclic[fact_id] = proof
                return proof
            first = first or proof
            if self.budget <= 0:
                break
        return first or Proof(fact)

    def _from(self, fact: Fact, chosen: Row, seen: frozenset[str], alternatives: int) -> Proof:
        found = (self.proof(i, seen) for i in chosen["premises"])
        return Proof(fact, chosen["rule"], tuple(p for p in found if p is not None), alternatives, chosen["status"])


def _has_cycle(proof: Proof) -> bool:
    return proof.cycle or any(_has_cycle(p) for p in proof.premises)


def proof_lines(proof: Proof, depth: int = 0) -> list[str]:
    """The tree as indented text: each derived step names its rule."""
    f = proof.fact
    sign = "" if f.polarity else "NOT "
    how = f"by rule {proof.rule}" if proof.rule else f"from {f.source}"
    more = f", {proof.alternatives} more derivation(s)" if proof.alternatives else ""
    lost = "" if proof.status == "active" else " (support lost)"
    state = f"{how}{more}, conf {f.confidence:.2f}, {f.status.value}{_interval(f)}"
    line = f"{'  ' * depth}{f.fact_id}  {f.subject} {sign}{f.predicate} {f.target}  [{state}]{lost}"
    out = [line + (" (cycle)" if proof.cycle else "")]
    for p in proof.premises:
        out += proof_lines(p, depth + 1)
    return out


def proof_json(proof: Proof) -> dict[str, object]:
    """The tree as JSON."""
    f = proof.fact
    return {
        "fact_id": f.fact_id,
        "subject": f.subject,
        "predicate": f.predicate,
        "object": f.target,
        "polarity": f.polarity,
        "confidence": f.confidence,
        "source": f.source,
        "status": f.status.value,
        "rule": proof.rule,
        "alternatives": proof.alternatives,
        "premises": [proof_json(p) for p in proof.premises],
        **({"valid_from": render_from(f.valid_from)} if f.valid_from is not None else {}),
        **({"valid_to": render_to(f.valid_to)} if f.valid_to is not None else {}),
    }


def _interval(f: Fact) -> str:
    """What a proof line says of a fact's stated interval (", valid 2010-01-01..2014-12-31"; nothing without one)."""
    if f.valid_from is None and f.valid_to is None:
        return ""
    start = render_from(f.valid_from) if f.valid_from is not None else ""
    end = render_to(f.valid_to) if f.valid_to is not None else ""
    return f", valid {start}..{end}"
