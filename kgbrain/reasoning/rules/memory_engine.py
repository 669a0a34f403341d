"""Materialisation through the in-memory executor, written to the store in one transaction.

The Cypher engine (cypher_engine.py, `materialise_cypher`) is the definition; this computes the same consequences
with `executor.Closure` and writes them at once. A property test (tests/reasoning/rules/test_bulk_vs_cypher.py) shows
that on random programs and graphs (negative and inactive facts, `not`, defeasible rules) both store
the same derived facts and the same derivation records.

How the stored records come out the same:
- the Cypher engine stores one fact per (statement, rule) (source `rule:<id>`), and fires a rule once per
  combination of premise *fact rows*; the closure keeps one tuple per statement, so each of its firings is
  expanded here into every combination of the fact ids naming its premises (stored ones, and one per rule
  deriving the statement);
- the closure is computed over every active fact, and a record is written when it is not stored already.
  On a store closed under the program (what every earlier run leaves) that is exactly what the Cypher
  engine's semi-naive rounds add; on a store left incomplete (a kill between a load and its rules) it
  completes the consequences.
- defeasible rounds follow cypher_engine.py's (proposals over every active fact, blocked by a stored or strict
  opposite or a not-weaker attacker) inside the closure; superiority by specificity reads stored `is_a`.

A derived fact's confidence (trust) is the minimum over its premises, taken from its first firing in
evaluation order, each premise statement counting its best fact; the Cypher engine takes the first row
it meets, which is the same whenever a statement's fact ids agree on confidence.

Nothing is read inside the write transaction (Kùzu 0.11.3 returns wrong endpoints and duplicate rows for
relationships appended earlier in a transaction): facts and derivations are read first, then one
transaction revives, appends and records. An interrupted run writes nothing; the next one does it all.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import numpy as np
import numpy.typing as npt

from kgbrain.knowledge import Authority, Fact, Literal, Status
from kgbrain.reasoning.rules.derivations import (
    RunReport,
    derivation_id,
    fact_order,
    retracted_derived,
    revivable,
    write_facts,
)
from kgbrain.reasoning.rules.executor import MEMBERSHIP, Closure, FactRow, is_number
from kgbrain.reasoning.rules.program_cache import program_strata
from kgbrain.reasoning.rules.superiority import Superiority
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX, Atom, Const, Program, Rule, RuleKind
from kgbrain.store.protocol import GraphStore

_WRITE_CHUNK = 50_000
_Floats = npt.NDArray[np.float64]


@dataclass(slots=True)
class StoredFacts:
    """The store's facts as the run needs them."""

    active: list[FactRow] = field(default_factory=list)
    status: dict[str, str] = field(default_factory=dict)  # fact id -> status (every fact)
    source: dict[str, str] = field(default_factory=dict)  # fact id -> source (active facts)
    confidence: dict[str, float] = field(default_factory=dict)
    trust: dict[str, float | None] = field(default_factory=dict)
    literals: dict[tuple[str, str | float], Literal] = field(default_factory=dict)  # closure literal key -> value


def may_fire(program: Program, predicates: Iterable[str]) -> bool:
    """Whether some rule has a positive body atom that facts of these predicates can match."""
    wanted = set(predicates)
    for rule in program.rules:
        for atom in rule.body:
            matches = set(MEMBERSHIP) if isinstance(atom, Atom) and atom.unary else {getattr(atom, "predicate", "")}
            if isinstance(atom, Atom) and not atom.naf and matches & wanted:
                return True
    return False


def read_stored(store: GraphStore) -> StoredFacts:
    """Every fact's status, and the active ones as closure rows with their provenance.

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.reasoning.rules.executor import literal_key

    out = StoredFacts()
    for row in store.iterate("rules_memory_facts"):
        fid = row["fact_id"]
        status = row["status"] or Status.ACTIVE.value
        out.status[fid] = status
        if status != Status.ACTIVE.value:
            continue
        out.source[fid] = row["source"] or ""
        out.confidence[fid] = row["confidence"] if row["confidence"] is not None else 1.0
        out.trust[fid] = row["trust"]
        polarity = bool(row["polarity"])
        if row["object_table"] == "Concept":
            out.active.append(FactRow(fid, row["subject"], row["predicate"], row["object"], polarity))
            continue
        lit = Literal(row["lexical"], row["datatype"] or "string", row["unit"], row["value_lang"])
        value: str | int | float | bool = lit.lexical
        if row["number"] is not None and is_number(lit.lexical):
            value = row["number"]
        target = f"{lit.lexical}^^{lit.datatype}@{lit.unit or ''}"
        out.active.append(FactRow(fid, row["subject"], row["predicate"], None, polarity, value, target))
        out.literals.setdefault(literal_key(value), lit)
    return out


@dataclass(slots=True)
class Consequences:
    """What the closure adds to the store: new derived facts, facts to revive, derivation rows."""

    facts: dict[str, Fact] = field(default_factory=dict)  # fact id -> derived fact (every one the run derives)
    derivations: dict[str, tuple[str, str, tuple[str, ...]]] = field(default_factory=dict)  # id -> rule, fact, prem
    rounds: int = 0
    blocked: int = 0


# Makes the closure a run evaluates in: the executor's own, or one whose joins run elsewhere (kgbrain/scale).
ClosureMaker = Callable[[list[FactRow]], Closure]


class _Run:
    """One evaluation of a program over the stored facts, in memory."""

    def __init__(
        self, store: GraphStore, program: Program, stored: StoredFacts, closure: ClosureMaker = Closure
    ) -> None:
        self.store = store
        self.program = program
        self.stored = stored
        self.closure = closure(stored.active)
        self.closure.register(program.rules)
        self.rids: dict[str, int] = {}
        for rule in program.rules:
            self.rids[rule.id] = self.closure.register([rule])[0]
        self.blocked = 0
        self._strict_seen = 0
        self._strict_hit: set[int] = set()
        self._derived_pairs: set[tuple[str, int]] = set()  # (rule id, tuple) fact rows derived so far
        self._pairs_seen = 0
        self.superiority = Superiority(store, program)

    def evaluate(self) -> None:
        for stratum in program_strata(self.program):
            strict = [r for r in stratum if r.kind is RuleKind.STRICT]
            defeasible = [r for r in stratum if r.kind is RuleKind.DEFEASIBLE]
            while True:
                if strict:
                    self.closure.strict_fixpoint(strict)
                if not defeasible:
                    break
                if not self._defeasible_round(defeasible):
                    break

    # -- defeasible rounds (cypher_engine's, over the closure) ----------------------------

    def _key(self, s: int, r: int, o: int) -> tuple[int, str, int, bool]:
        predicate, polarity = self.closure.relations[r]
        return (s, predicate, o, polarity)

    def _defeasible_round(self, rules: Sequence[Rule]) -> bool:
        """One round; True when it derived a fact row not derived before."""
        closure = self.closure
        proposals = [closure.fire(self.rids[r.id]) for r in rules]
        keys = {
            self._key(*k) for _, s, r, o, _ in proposals for k in zip(s.tolist(), r.tolist(), o.tolist(), strict=True)
        }
        if not keys:
            return False
        opposite = {(s, p, o, not pol) for s, p, o, pol in keys}
        attackers: dict[tuple[int, str, int, bool], list[Rule]] = defaultdict(list)
        heads = {(p, pol) for _, p, _, pol in keys}
        for rule in self.program.rules:
            if ("instance_of" if rule.head.unary else rule.head.predicate, rule.head.negated) not in heads:
                continue  # its conclusions cannot oppose any proposal
            _, s, r, o, _ = closure.fire(self.rids[rule.id])
            for k in zip(s.tolist(), r.tolist(), o.tolist(), strict=True):
                key = self._key(*k)
                if key in opposite:
                    attackers[key].append(rule)
        hard = self._hard(opposite)
        sup = self.superiority
        accepted = []
        for rid, s, r, o, premises in proposals:
            rule = closure.rule(rid)
            keep = []
            for i, k in enumerate(zip(s.tolist(), r.tolist(), o.tolist(), strict=True)):
                subject, predicate, obj, polarity = self._key(*k)
                neg = (subject, predicate, obj, not polarity)
                if neg in hard or any(not sup.stronger(rule, other) for other in attackers.get(neg, [])):
                    self.blocked += 1
                    continue
                keep.append(i)
            if keep:
                idx = np.asarray(keep, dtype=np.int64)
                accepted.append((rid, s[idx], r[idx], o[idx], [p[idx] for p in premises]))
        before = self._pairs()
        closure.commit(accepted)
        return self._pairs() > before

    def _hard(self, literals: set[tuple[int, str, int, bool]]) -> set[tuple[int, str, int, bool]]:
        """Literals held by a stored fact, or derived by a strict rule (not only by defeasible ones)."""
        closure = self.closure
        fired = closure.fired
        for rule, hs, _ in fired[self._strict_seen :]:
            if rule.kind is RuleKind.STRICT:
                self._strict_hit.update(hs.tolist())
        self._strict_seen = len(fired)
        defeasible = {DERIVED_SOURCE_PREFIX + r.id for r in self.program.rules if r.kind is not RuleKind.STRICT}
        found = set()
        for key in literals:
            s, predicate, o, polarity = key
            r = closure.relation_index.get((predicate, polarity))
            t = -1 if r is None else closure.find(s, r, o)
            if t < 0:
                continue
            sources = {self.stored.source[f] for f in closure.stored_all.get(t, ())}
            if t in self._strict_hit or sources - defeasible:
                found.add(key)
        return found

    def _pairs(self) -> int:
        """Fact rows (rule id, tuple) derived so far that no stored active fact already is."""
        fired = self.closure.fired
        for rule, hs, _ in fired[self._pairs_seen :]:
            self._derived_pairs.update((rule.id, t) for t in set(hs.tolist()))
        self._pairs_seen = len(fired)
        return len(self._derived_pairs)

    # -- results -----------------------------------------------------------------------------------

    def outcome(self) -> Consequences:
        """Every derived fact row and every derivation, premises expanded to fact ids."""
        ids_of, conf, trust = self._stored_weights()
        out = Consequences(rounds=self.closure.rounds, blocked=self.blocked)
        pair_id = self._derived_facts(out, ids_of, conf, trust)
        self._derivation_rows(out, ids_of, pair_id)
        return out

    def _stored_weights(self) -> tuple[list[list[str]], _Floats, _Floats]:
        """Per tuple: the stored fact ids naming it, and their best confidence and trust (-inf / inf: none)."""
        closure, stored = self.closure, self.stored
        size = closure.size
        ids_of: list[list[str]] = [[] for _ in range(size)]
        for t, fids in closure.stored_all.items():
            ids_of[t] = list(fids)
        conf = np.full(size, -math.inf)
        trust = np.full(size, math.inf)
        for t, fids in closure.stored_all.items():
            conf[t] = max(stored.confidence[f] for f in fids)
            trusts = [v for v in (stored.trust[f] for f in fids) if v is not None]
            trust[t] = max(trusts) if trusts else math.inf
        return ids_of, conf, trust

    def _derived_facts(
        self,
        out: Consequences,
        ids_of: list[list[str]],
        conf: _Floats,
        trust: _Floats,
    ) -> dict[tuple[str, int], str]:
        """First pass, in evaluation order: one fact per (rule, tuple), weighed by its first firing's premises.

        Adds each to `out.facts` and to the ids naming its tuple (later firings see its confidence and trust);
        returns (rule id, tuple) -> fact id.
        """
        pair_id: dict[tuple[str, int], str] = {}
        for rule, hs, premises in self.closure.fired:
            if not len(hs):
                continue
            if premises:
                row_conf = np.minimum.reduce([conf[p] for p in premises])
                row_trust = np.minimum.reduce([trust[p] for p in premises])
            else:
                row_conf = np.full(len(hs), math.inf)
                row_trust = np.full(len(hs), math.inf)
            for i, t in enumerate(hs.tolist()):
                pair = (rule.id, t)
                if pair in pair_id:
                    continue
                c = float(row_conf[i])
                tr = float(row_trust[i])
                fact = self._fact(rule, t, 1.0 if c in (math.inf, -math.inf) else c, 1.0 if tr == math.inf else tr)
                pair_id[pair] = fact.fact_id
                out.facts[fact.fact_id] = fact
                if fact.fact_id not in ids_of[t]:
                    ids_of[t].append(fact.fact_id)
                conf[t] = max(conf[t], fact.confidence)
                trust[t] = fact.trust if trust[t] == math.inf else max(trust[t], fact.trust)
        return pair_id

    def _derivation_rows(self, out: Consequences, ids_of: list[list[str]], pair_id: dict[tuple[str, int], str]) -> None:
        """Second pass: each firing's derivations, one per combination of fact ids naming its premises."""
        for rule, hs, premises in self.closure.fired:
            cols = [p.tolist() for p in premises]
            for i, t in enumerate(hs.tolist()):
                fid = pair_id[(rule.id, t)]
                options = [ids_of[c[i]] for c in cols]
                if all(len(o) == 1 for o in options):
                    prem = tuple(o[0] for o in options)
                    out.derivations.setdefault(derivation_id(rule.id, fid, prem), (rule.id, fid, prem))
                    continue
                for combo in itertools.product(*options):
                    out.derivations.setdefault(derivation_id(rule.id, fid, combo), (rule.id, fid, combo))

    def _fact(self, rule: Rule, t: int, confidence: float, trust: float) -> Fact:
        closure = self.closure
        s, r, o = closure.tuple_key(t)
        predicate, polarity = closure.relations[r]
        subject = closure.terms[s]
        assert isinstance(subject, str)
        common: dict[str, Any] = {
            "polarity": polarity,
            "confidence": confidence,
            "source": DERIVED_SOURCE_PREFIX + rule.id,
            "trust": trust,
            "authority": Authority(rule.authority) if rule.authority else None,
        }
        obj = closure.terms[o]
        if isinstance(obj, str):
            return Fact(subject, predicate, object=obj, **common)
        arg = rule.head.args[1]
        literal = Literal.from_python(arg.value) if isinstance(arg, Const) else self.stored.literals.get(obj)
        if literal is None:
            literal = Literal.from_python(closure.term_value(o))
        return Fact(subject, predicate, value=literal, **common)


def evaluate_stored(
    store: GraphStore, program: Program, closure: ClosureMaker = Closure
) -> tuple[StoredFacts, Consequences]:
    """The program's closure over the stored active facts, as fact rows and derivation rows (nothing written);
    `closure` makes the closure the joins run in.

    Raises:
        InputError: the program cannot be stratified.
        StoreError: the store failed.
    """
    stored = read_stored(store)
    run = _Run(store, program, stored, closure)
    run.evaluate()
    return stored, run.outcome()


def closure_stored(store: GraphStore, program: Program) -> Closure:
    """The program's closure over the stored active facts, in memory; nothing is written.

    What `materialise_memory` would store, before it is expanded into fact and derivation rows:
    `Closure.statement` names each tuple and `Closure.fired` says which rule derived which.

    Raises:
        InputError: the program cannot be stratified.
        StoreError: the store failed.
    """
    run = _Run(store, program, read_stored(store))
    run.evaluate()
    return run.closure


def materialise_memory(store: GraphStore, program: Program, closure: ClosureMaker = Closure) -> RunReport:
    """Derive the program's consequences in memory and store what is new in one transaction (`closure`: see
    `evaluate_stored`).

    Raises:
        InputError: the program cannot be stratified.
        StoreError: the store failed.
    """
    report = RunReport()
    if not program.rules:
        return report
    stored, outcome = evaluate_stored(store, program, closure)
    report.iterations = outcome.rounds
    report.blocked = outcome.blocked
    existing = {r["id"]: r["status"] for r in store.iterate("rules_derivations_status")}
    fresh = {
        i: (rule, fid, prem)
        for i, (rule, fid, prem) in outcome.derivations.items()
        if existing.get(i) != Status.ACTIVE.value
    }
    if not fresh:
        return report
    wanted = {fid for _, fid, _ in fresh.values()}
    new_facts = sorted((outcome.facts[f] for f in wanted if f not in stored.status), key=fact_order)
    dead = revivable(
        store,
        (f for f in wanted if retracted_derived(stored.status.get(f, ""), outcome.facts[f].source)),
    )
    refs = {r["id"] for r in store.iterate("rules_factrefs_all")}
    stamp = datetime.now(timezone.utc).replace(tzinfo=None)
    expected = 1024 * (len(new_facts) + len(fresh))
    with store.atomic(expected_bytes=expected):
        if dead:
            subjects = [outcome.facts[f].subject for f in dead]
            store.run("rules_facts_revive", subjects=subjects, ids=dead, stamp=stamp)
        for start in range(0, len(new_facts), _WRITE_CHUNK):
            write_facts(store, new_facts[start : start + _WRITE_CHUNK], stamp)
        write_derivations(store, fresh, existing, refs)
    report.derived = len(new_facts) + len(dead)
    report.derivations = len(fresh)
    report.added.extend(new_facts)
    return report


def write_derivations(
    store: GraphStore,
    fresh: dict[str, tuple[str, str, tuple[str, ...]]],
    existing: dict[str, str],
    refs: set[str],
) -> None:
    """Record derivations through the bulk path (inside the caller's transaction).

    New derivations and fact references are COPYed, their DERIVES/USES links appended; derivations recorded
    already (lost, found again) only become active and keep their links. `existing` and `refs` were read
    before the transaction.
    """
    import pyarrow as pa

    new = sorted(i for i in fresh if i not in existing)
    again = sorted(i for i in fresh if i in existing)
    if again:
        rows = pa.table(
            {
                "id": pa.array(again, pa.string()),
                "rule": pa.array([fresh[i][0] for i in again], pa.string()),
                "fact_id": pa.array([fresh[i][1] for i in again], pa.string()),
                "premises": pa.array([list(fresh[i][2]) for i in again], pa.list_(pa.string())),
            }
        )
        store.run("rules_derivations_add", rows=rows)
    if not new:
        return
    import pyarrow.compute as pc

    # Columns built once (premise tuples go to arrow as they are); USES rows come from the premise lists by
    # arrow's flatten, in the order the per-row loop gave them (derivation order, then premise order).
    rules, fact_ids, premises = (list(c) for c in zip(*(fresh[i] for i in new), strict=True))
    wanted = sorted((set(fact_ids) | set(itertools.chain.from_iterable(premises))) - refs)
    if wanted:
        store.copy("FactRef", pa.table({"id": pa.array(wanted, pa.string())}))
    for start in range(0, len(new), _WRITE_CHUNK):
        end = start + _WRITE_CHUNK
        store.copy(
            "Derivation",
            pa.table(
                {
                    "id": pa.array(new[start:end], pa.string()),
                    "rule": pa.array(rules[start:end], pa.string()),
                    "fact_id": pa.array(fact_ids[start:end], pa.string()),
                    "premises": pa.array(premises[start:end], pa.list_(pa.string())),
                    "status": pa.array(["active"] * len(new[start:end]), pa.string()),
                }
            ),
        )
    ids = pa.array(new, pa.string())
    store.append_rels("DERIVES", pa.table({"from": ids, "to": pa.array(fact_ids, pa.string())}))
    lists = pa.array(premises, pa.list_(pa.string()))
    uses = pa.table({"from": pc.take(ids, pc.list_parent_indices(lists)), "to": lists.flatten()})
    store.append_rels("USES", uses)
