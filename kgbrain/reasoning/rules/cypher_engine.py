"""Stratified semi-naive evaluation of a rule program inside Kùzu, with defeasible conclusions.

Theory: bottom-up Datalog evaluation (Abiteboul, Hull, Vianu, *Foundations of Databases*, ch. 13):
strata by negation as failure, and within a stratum semi-naive iteration, where each rule runs once per
positive body atom with that atom restricted to the previous iteration's new facts (the delta). The
delta is a time window: every derived fact is written with its iteration's `loaded_at` stamp, and a
load's facts carry the load's, so "facts with `loaded_at >= $since`" is the delta, read with a range
filter (no `IN $list` scan, no per-row parameter join). A wider window only repeats work, never loses it.

Derived facts are ordinary facts (source `rule:<id>`, confidence = min of the premises', trust = min
of the premises', authority = the rule's), written through the loader (`load_batch`), so fact ids,
values, predicates and de-duplication are the loader's. Each firing is a `Derivation` record.

Defeasible logic (Nute; Billington's ambiguity-blocking variant), evaluated per stratum after the
strict fixpoint, in rounds until nothing changes:
- a defeasible rule's instance (body matched over active facts) proposes its head literal L;
- L is blocked when the complement ~L is an active fact that is stored (not rule-derived) or derived by
  a strict rule, or when some rule instance (strict, defeasible or defeater) with head ~L has a
  matching body and is not weaker than the proposing rule;
- "weaker": an explicit `r > s` first; otherwise a higher authority tier (NORM > OPERATIVE > GUIDANCE >
  COMMENTARY) wins; otherwise the more specific rule wins: s's body atoms each appear in r's body (same
  predicate), or are classes that r's body classes are sub-classes of (`penguin(X)` is more specific
  than `bird(X)` when `penguin is_a bird` is stored), and not the other way round;
- two conclusions that block each other are both withheld (ambiguity blocking); defeaters derive nothing.
A defeasible conclusion is not withdrawn when a later round derives a stronger opposite; conflicting
facts are recorded by the contradiction detector instead (reasoning/tms/resolution.py).

This is the definition; `materialise` (materialisation.py) runs the in-memory engine (memory_engine.py,
over the executor in executor.py) unless asked for this one, and a property test holds the two equal.
What both write alike (derivation ids, derived fact rows, revival) is in derivations.py, and which rule
beats which in superiority.py. `Executor` is the signature of an in-memory executor over a fact table.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from kgbrain.knowledge import Authority, Fact, Literal
from kgbrain.reasoning.rules.compile import Compiled, compile_rule, positive_atoms
from kgbrain.reasoning.rules.derivations import (
    RunReport,
    derivation_id,
    fact_order,
    retracted_derived,
    revivable,
    write_facts,
)
from kgbrain.reasoning.rules.program_cache import program_strata
from kgbrain.reasoning.rules.superiority import Superiority
from kgbrain.ruleset import (
    DERIVED_SOURCE_PREFIX,
    Atom,
    Const,
    Derivation,
    Program,
    Rule,
    RuleKind,
    Var,
)
from kgbrain.store.protocol import GraphStore

_CHUNK = 5_000


class Executor(Protocol):
    """An in-memory executor of a program (the `query` helper's kgbrain/reasoning/rules/executor.py).

    Given the program and the active facts (any iterable of `knowledge.Fact`), it returns every
    `Derivation` of the program's least fixpoint (strict rules; stratified `not`), one per way of
    deriving each fact. A property test checks it against `materialise` on random programs and graphs.
    """

    def __call__(self, program: Program, facts: Iterable[Fact]) -> list[Derivation]:
        """Derivations of the fixpoint."""
        ...


@dataclass(frozen=True, slots=True)
class Candidate:
    """One rule instance found: its derivation and the fact it derives."""

    derivation: Derivation
    fact: Fact


class _Clock:
    """Strictly increasing naive-UTC stamps: each iteration's facts form their own delta window."""

    def __init__(self) -> None:
        self.last = datetime(1970, 1, 1)

    def tick(self) -> datetime:
        now = datetime.now(timezone.utc).replace(tzinfo=None)
        self.last = max(now, self.last + timedelta(microseconds=1))
        return self.last


def materialise_cypher(
    store: GraphStore,
    program: Program,
    *,
    since: datetime | None = None,
    full: Iterable[str] = (),
    predicates: Iterable[str] | None = None,
    naive: bool = False,
) -> RunReport:
    """Run the program to its fixpoint in Kùzu (the definition), writing derived facts and derivation records.

    `full` names rules run over every fact in their stratum's first round (newly loaded rules); the
    others see only facts stamped at or after `since` (new facts of a load) in that round. Then every
    round's delta is the previous round's new facts. Each round commits its own transaction: Kùzu
    0.11.3 reads relationships appended earlier in the same transaction with wrong endpoints (measured),
    so a round must not read what an uncommitted round wrote. Do not call it inside a transaction.
    An interrupted run leaves sound but incomplete consequences; the next run completes them.
    `predicates`, when given, are the predicates of the facts stamped at or after `since`: a semi-naive
    variant whose delta atom has another predicate cannot fire and is not run (an ontology brings thousands
    of rules, of which a load of facts touches a few).

    Raises:
        InputError: the program cannot be stratified.
        StoreError: the store failed.
    """
    clock = _Clock()
    start = clock.tick()
    window = since if since is not None else start
    report = RunReport()
    fully = set(full)
    if naive:  # every rule over every fact in every round: the reference the semi-naive rounds must reach
        fully = {r.id for r in program.rules}
    loaded = None if predicates is None else set(predicates)
    for stratum in program_strata(program):
        strict = [r for r in stratum if r.kind is RuleKind.STRICT]
        defeasible = [r for r in stratum if r.kind is RuleKind.DEFEASIBLE]
        first = True
        while True:
            fresh = _fresh_predicates(loaded, report)
            again = fully if first or naive else set()
            _fixpoint(store, strict, window if first else clock.last, again, clock, report, fresh, naive=naive)
            first = False
            if not defeasible:
                break
            before = report.derived
            _defeasible_round(store, program, defeasible, clock, report)
            if report.derived == before:
                break
    return report


def _fresh_predicates(loaded: set[str] | None, report: RunReport) -> set[str] | None:
    """What the delta may hold: the load's predicates and everything derived so far; None when unknown."""
    if loaded is None or report.derived != len(report.added):  # revived facts are not in `added`
        return None
    return loaded | report.added.distinct("predicate")


def _delta_predicates(atom: Atom) -> set[str]:
    return {"instance_of", "is_a"} if atom.unary else {atom.predicate}


def _fixpoint(
    store: GraphStore,
    rules: Sequence[Rule],
    since: datetime,
    full: set[str],
    clock: _Clock,
    report: RunReport,
    fresh: set[str] | None = None,
    *,
    naive: bool = False,
) -> None:
    window = since
    first = True
    while rules:
        candidates: list[Candidate] = []
        for rule in rules:
            if (first or naive) and rule.id in full:
                candidates.extend(_fire(store, compile_rule(rule), None))
                continue
            for i in positive_atoms(rule):
                atom = rule.body[i]
                if fresh is not None and isinstance(atom, Atom) and not _delta_predicates(atom) & fresh:
                    continue  # no new fact can match the delta atom
                candidates.extend(_fire(store, compile_rule(rule, i), window))
        first = False
        report.iterations += 1
        stamp = clock.tick()
        before = (report.derived, len(report.added))
        if not _record(store, candidates, stamp, report):
            return
        added = report.added.column("predicate")[before[1] :]
        revived = report.derived - before[0] != len(added)
        fresh = None if revived else set(added)
        window = stamp


def _fire(store: GraphStore, compiled: Compiled, since: datetime | None) -> list[Candidate]:
    if compiled.never:
        return []
    params = dict(compiled.params)
    if "since" in params:
        params["since"] = since
    return [_candidate(compiled.rule, row) for row in store.run_generated(compiled.text, **params)]


def _candidate(rule: Rule, row: dict[str, Any]) -> Candidate:
    head = rule.head
    subject = row["h0"]
    premises = tuple(row["premises"])
    confidence = min(row["confidences"], default=1.0)
    trust = min((t for t in row["trusts"] if t is not None), default=1.0)
    source = DERIVED_SOURCE_PREFIX + rule.id
    authority = Authority(rule.authority) if rule.authority else None
    polarity = not head.negated
    common: dict[str, Any] = {
        "polarity": polarity,
        "confidence": confidence if confidence is not None else 1.0,
        "source": source,
        "trust": trust,
        "authority": authority,
    }
    if head.unary:
        fact = Fact(subject, "instance_of", object=head.predicate, **common)
        d = Derivation(rule.id, subject, "instance_of", head.predicate, polarity, premises)
        return Candidate(d, fact)
    arg = head.args[1]
    if row["k1"] == "Value":
        literal = _literal_of(arg, row)
        fact = Fact(subject, head.predicate, value=literal, **common)
        d = Derivation(rule.id, subject, head.predicate, None, polarity, premises, literal.python())
        return Candidate(d, fact)
    fact = Fact(subject, head.predicate, object=row["h1"], **common)
    return Candidate(Derivation(rule.id, subject, head.predicate, row["h1"], polarity, premises), fact)


def _literal_of(arg: Var | Const, row: dict[str, Any]) -> Literal:
    if isinstance(arg, Const):
        return Literal.from_python(arg.value)
    return Literal(row["l1"], row["d1"] or "string", row["u1"], row["g1"])


def _record(store: GraphStore, candidates: list[Candidate], stamp: datetime, report: RunReport) -> bool:
    """Store new facts and derivations; True when some fact is new (or active again)."""
    if not candidates:
        return False
    by_id: dict[str, Candidate] = {}
    derivations: dict[str, tuple[Derivation, str]] = {}
    for c in candidates:
        by_id.setdefault(c.fact.fact_id, c)
        derivations.setdefault(
            derivation_id(c.derivation.rule, c.fact.fact_id, c.derivation.premises), (c.derivation, c.fact.fact_id)
        )
    stored = _existing_derivations(store, sorted(derivations))
    fresh = {i: v for i, v in derivations.items() if stored.get(i) != "active"}
    if not fresh:
        return False
    return _write(store, fresh, by_id, stamp, report, linked=set(stored))


def _write(
    store: GraphStore,
    fresh: dict[str, tuple[Derivation, str]],
    by_id: dict[str, Candidate],
    stamp: datetime,
    report: RunReport,
    linked: set[str],
) -> bool:
    """Append new derived facts, revive withdrawn ones derived again, record the derivations.

    Facts are written here, not through the loader: its in-transaction fact scan crashed Kùzu 0.11.3 on a
    LUBM-shaped program; existence is read before the transaction through subject-anchored lookups.
    """
    wanted = {fid for _, fid in fresh.values()}
    stored = _stored(store, [by_id[fid].fact for fid in sorted(wanted)])
    new_facts = sorted((by_id[fid].fact for fid in wanted - stored.keys()), key=fact_order)
    dead = revivable(store, (fid for fid, (status, source) in stored.items() if retracted_derived(status, source)))
    with store.transaction():
        write_facts(store, new_facts, stamp)
        if dead:
            store.run("rules_facts_revive", subjects=[by_id[f].fact.subject for f in dead], ids=dead, stamp=stamp)
        _write_derivations(store, fresh, linked)
    report.derived += len(new_facts) + len(dead)
    report.derivations += len(fresh)
    report.added.extend(new_facts)
    return bool(new_facts or dead)


def _stored(store: GraphStore, facts: list[Fact]) -> dict[str, tuple[str, str]]:
    """Status and source of the facts that exist already (read before the write transaction)."""
    found: dict[str, tuple[str, str]] = {}
    for start in range(0, len(facts), _CHUNK):
        part = facts[start : start + _CHUNK]
        rows = store.run(
            "rules_facts_existing", subjects=sorted({f.subject for f in part}), ids=[f.fact_id for f in part]
        )
        found.update((r["fact_id"], (r["status"], r["source"])) for r in rows)
    return found


def _existing_derivations(store: GraphStore, ids: list[str]) -> dict[str, str]:
    """The stored ones among these derivation ids, with their status (`active` or `lost`)."""
    found: dict[str, str] = {}
    for start in range(0, len(ids), _CHUNK):
        rows = store.run("rules_derivations_existing", ids=ids[start : start + _CHUNK])
        found.update((r["id"], r["status"]) for r in rows)
    return found


def _write_derivations(store: GraphStore, fresh: dict[str, tuple[Derivation, str]], linked: set[str]) -> None:
    """Store derivations; `linked` ones (lost, found again) keep their DERIVES/USES links and only become active."""
    import pyarrow as pa

    ids = sorted(fresh)
    rows = pa.table(
        {
            "id": pa.array(ids, pa.string()),
            "rule": pa.array([fresh[i][0].rule for i in ids], pa.string()),
            "fact_id": pa.array([fresh[i][1] for i in ids], pa.string()),
            "premises": pa.array([list(fresh[i][0].premises) for i in ids], pa.list_(pa.string())),
        }
    )
    store.run("rules_derivations_add", rows=rows)
    refs = sorted({fresh[i][1] for i in ids} | {p for i in ids for p in fresh[i][0].premises})
    store.run("rules_factrefs_add", rows=pa.table({"id": pa.array(refs, pa.string())}))
    new = [i for i in ids if i not in linked]
    if new:
        derives = {"id": pa.array(new, pa.string()), "fact_id": pa.array([fresh[i][1] for i in new], pa.string())}
        store.run("rules_derives_add", rows=pa.table(derives))
    uses_d = [i for i in new for _ in fresh[i][0].premises]
    uses_f = [p for i in new for p in fresh[i][0].premises]
    if uses_d:
        store.run(
            "rules_uses_add",
            rows=pa.table({"id": pa.array(uses_d, pa.string()), "fact_id": pa.array(uses_f, pa.string())}),
        )


# -- defeasible rounds ---------------------------------------------------------------------------


def _defeasible_round(
    store: GraphStore, program: Program, rules: Sequence[Rule], clock: _Clock, report: RunReport
) -> None:
    accepted, blocked = defeasible_accepted(store, program, rules)
    report.blocked += blocked
    _record(store, accepted, clock.tick(), report)


# -- hooks for truth maintenance (reasoning/tms/settle.py re-evaluates `not` and defeasible rules) ----


def fire_all(store: GraphStore, rule: Rule) -> list[Candidate]:
    """Every instance of a rule over the active facts now (its body, `not` atoms included)."""
    return _fire(store, compile_rule(rule), None)


def record(store: GraphStore, candidates: list[Candidate]) -> tuple[datetime, RunReport]:
    """Store these conclusions as one round (new facts, revived ones, derivations); the round's stamp."""
    report = RunReport()
    stamp = _Clock().tick()
    _record(store, candidates, stamp, report)
    return stamp, report


def defeasible_accepted(store: GraphStore, program: Program, rules: Sequence[Rule]) -> tuple[list[Candidate], int]:
    """The instances of these defeasible rules that are not blocked now, and how many are blocked."""
    proposals = [c for rule in rules for c in _fire(store, compile_rule(rule), None)]
    if not proposals:
        return [], 0
    keys = {_literal_key(c.fact) for c in proposals}
    opposite = {(s, p, o, not pol) for s, p, o, pol in keys}
    attackers: dict[tuple[str, str, str, bool], list[Rule]] = defaultdict(list)
    for rule in program.rules:
        if not _may_oppose(rule, keys):
            continue
        for c in _fire(store, compile_rule(rule), None):
            key = _literal_key(c.fact)
            if key in opposite:
                attackers[key].append(rule)
    hard = _hard_opposites(store, program, opposite)
    sup = Superiority(store, program)
    accepted = []
    blocked = 0
    for c in proposals:
        key = _literal_key(c.fact)
        rule = _rule(program, c.derivation.rule)
        neg = (key[0], key[1], key[2], not key[3])
        if neg in hard or any(not sup.stronger(rule, other) for other in attackers.get(neg, [])):
            blocked += 1
            continue
        accepted.append(c)
    return accepted, blocked


def _literal_key(fact: Fact) -> tuple[str, str, str, bool]:
    return (fact.subject, fact.predicate, fact.target, fact.polarity)


def _may_oppose(rule: Rule, keys: set[tuple[str, str, str, bool]]) -> bool:
    predicate = "instance_of" if rule.head.unary else rule.head.predicate
    return any(k[1] == predicate and k[3] == rule.head.negated for k in keys)


def _hard_opposites(
    store: GraphStore, program: Program, literals: set[tuple[str, str, str, bool]]
) -> set[tuple[str, str, str, bool]]:
    """Literals that hold as stored facts or strict conclusions (not defeasible ones)."""
    defeasible = {DERIVED_SOURCE_PREFIX + r.id for r in program.rules if r.kind is not RuleKind.STRICT}
    if not literals:
        return set()
    subjects = sorted({k[0] for k in literals})
    found: set[tuple[str, str, str, bool]] = set()
    for start in range(0, len(subjects), _CHUNK):
        for r in store.run("rules_subject_facts", subjects=subjects[start : start + _CHUNK], active="active"):
            target = r["object"]
            if r["object_table"] != "Concept":
                target = str(Literal(r["lexical"], r["datatype"] or "string", r["unit"]))
            key = (r["subject"], r["predicate"], target, r["polarity"])
            if key in literals and r["source"] not in defeasible:
                found.add(key)
    return found


def _rule(program: Program, rule_id: str) -> Rule:
    for rule in program.rules:
        if rule.id == rule_id:
            return rule
    raise KeyError(rule_id)


def ground_head(rule: Rule) -> bool:
    """Whether a rule's head has no variables (a body-less rule states a fact)."""
    return not rule.head.variables()
