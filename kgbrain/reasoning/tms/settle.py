"""Non-monotonic truth maintenance: `not` and defeasible conclusions after facts come or go.

DRed (reasoning/tms/withdraw.py) withdraws what loses its premises, and semi-naive evaluation (rules/cypher_engine.py)
adds what new facts make derivable; both are monotone. Two kinds of conclusions are not:

- a rule with `not q(...)` loses an instance when a q fact appears, and gains one when it goes;
- a defeasible conclusion loses out when an opposite fact or a stronger opposing rule instance appears,
  and wins again when that blocker goes.

So after a change, the rules whose `not` atoms, or whose conclusions' blockers (the head's complement,
the bodies of rules with the same head predicate, the class hierarchy behind specificity), mention a
changed predicate are re-evaluated over the active facts, stratum by stratum, and their active
derivation records compared with the result: records no longer valid are withdrawn through DRed
(with what rested on them), instances not recorded are recorded and their consequences derived
semi-naively. The rules a step changes feed the next stratum's check; it ends when a pass changes
nothing. Only re-evaluated rules cost a full evaluation; strata and rules that no changed predicate
reaches are not touched.

Additions are committed round by round, as in a load (rules/cypher_engine.py says why), so a kill during settling
leaves some of them out until the next change re-checks those rules; withdrawals commit as a unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kgbrain.ingest.batch import FactColumns
from kgbrain.ingest.rule_syntax import strata
from kgbrain.knowledge import Fact
from kgbrain.reasoning.rules.cypher_engine import Candidate, defeasible_accepted, fire_all, record
from kgbrain.reasoning.rules.derivations import derivation_id
from kgbrain.reasoning.rules.materialisation import materialise
from kgbrain.reasoning.tms.withdraw import withdraw_support
from kgbrain.ruleset import Atom, Program, Rule, RuleKind
from kgbrain.store.protocol import GraphStore

MEMBERSHIP = ("instance_of", "is_a")
EVERYTHING = "*"  # a change key that every rule is affected by (revived facts of unknown predicates)
_MAX_PASSES = 50


@dataclass(slots=True)
class Settled:
    """What settling did: rules re-evaluated, derivations withdrawn and added, facts withdrawn and added."""

    evaluated: int = 0
    withdrawn: list[str] = field(default_factory=list)
    derivations_lost: int = 0
    added: int = 0


def fact_keys(fact: Fact) -> set[str]:
    """The change keys of a fact: its predicate, and `@class` for class membership."""
    keys = {fact.predicate}
    if fact.predicate in MEMBERSHIP and fact.object is not None:
        keys.add("@" + fact.object)
    return keys


def atom_key(atom: Atom) -> str:
    """The change key an atom matches: `@class` for a unary atom, else its predicate."""
    return "@" + atom.predicate if atom.unary else atom.predicate


def nonmonotonic(rule: Rule) -> bool:
    """Whether a rule's instances can be invalidated by new facts (`not` atoms, defeasible)."""
    return rule.kind is RuleKind.DEFEASIBLE or any(isinstance(a, Atom) and a.naf for a in rule.body)


def watched(rule: Rule, program: Program) -> set[str]:
    """The change keys that can invalidate or enable instances of a non-monotonic rule beyond its premises."""
    keys = {atom_key(a) for a in rule.body if isinstance(a, Atom) and a.naf}
    if rule.kind is RuleKind.DEFEASIBLE:
        head = atom_key(rule.head)
        keys |= {head, "is_a"} | {atom_key(a) for a in rule.body if isinstance(a, Atom)}
        for other in program.rules:
            if atom_key(other.head) == head:
                keys |= {atom_key(a) for a in other.body if isinstance(a, Atom)}
    if rule.head.unary:
        keys.add("instance_of")
    return keys


def settle(store: GraphStore, program: Program, changed: Iterable[str]) -> Settled:
    """Bring `not` and defeasible conclusions up to date after facts with these change keys came or went.

    Do not call it inside a transaction (additions commit round by round).

    Raises:
        InputError: the program cannot be stratified.
        StoreError: the store failed.
    """
    out = Settled()
    layers = [[r for r in layer if nonmonotonic(r)] for layer in strata(program)]
    if not any(layers):
        return out
    events: list[set[str]] = [set(changed)]
    seen: dict[str, int] = {}  # rule id -> how many change events it has been checked against
    watch = {r.id: watched(r, program) for layer in layers for r in layer}
    for _ in range(_MAX_PASSES):
        progressed = False
        for layer in layers:
            due = [r for r in layer if _due(watch[r.id], events[seen.get(r.id, 0) :])]
            if not due:
                continue
            for r in due:
                seen[r.id] = len(events)
            out.evaluated += len(due)
            keys = _step(store, program, due, out)
            if keys:
                events.append(keys)
                progressed = True
        if not progressed:
            return out
    return out


def _due(keys: set[str], events: Sequence[set[str]]) -> bool:
    return any(EVERYTHING in e or keys & e for e in events)


def _step(store: GraphStore, program: Program, rules: list[Rule], out: Settled) -> set[str]:
    """Re-evaluate rules of one stratum; withdraw invalid records, record missing ones. The keys changed."""
    valid: dict[str, Candidate] = {}
    for rule in rules:
        if rule.kind is RuleKind.DEFEASIBLE:
            continue
        for c in fire_all(store, rule):
            valid[derivation_id(c.derivation.rule, c.fact.fact_id, c.derivation.premises)] = c
    defeasible = [r for r in rules if r.kind is RuleKind.DEFEASIBLE]
    if defeasible:
        for c in defeasible_accepted(store, program, defeasible)[0]:
            valid[derivation_id(c.derivation.rule, c.fact.fact_id, c.derivation.premises)] = c
    recorded: set[str] = set()
    for rule in rules:
        recorded |= {r["id"] for r in store.run("tms_derivations_of_rule", rule=rule.id)}
    keys: set[str] = set()
    invalid = sorted(recorded - valid.keys())
    dropped: set[str] = set()
    if invalid:
        w = withdraw_support(store, [], invalid)
        dropped = set(w.facts_retracted)
        out.withdrawn += w.facts_retracted
        out.derivations_lost += w.derivations_lost
        by_id = {r.id: r for r in program.rules}
        for rule_id in w.rules:
            keys |= _head_keys(by_id[rule_id])
    # an instance found before the withdrawal may rest on a fact it took away (same-stratum rules)
    new = [c for d, c in valid.items() if d not in recorded and not dropped.intersection(c.derivation.premises)]
    if new:
        stamp, report = record(store, new)
        out.added += report.derived
        if report.derived:
            keys |= {k for c in new for k in fact_keys(c.fact)}
            run = materialise(store, program, since=stamp)
            out.added += run.derived
            keys |= {k for f in run.added for k in fact_keys(f)}
            if run.derived != len(run.added):  # facts revived: their predicates are not reported
                keys.add(EVERYTHING)
    return keys


def _head_keys(rule: Rule) -> set[str]:
    return {atom_key(rule.head), "instance_of"} if rule.head.unary else {rule.head.predicate}


def column_keys(facts: FactColumns) -> set[str]:
    """The change keys of a load's facts (from the columns: a load can hold a million facts)."""
    keys = facts.distinct("predicate")
    if keys & set(MEMBERSHIP):
        import pyarrow as pa
        import pyarrow.compute as pc

        members = pc.is_in(facts.arrow("predicate"), value_set=pa.array(sorted(MEMBERSHIP), pa.string()))
        classes = pc.unique(pc.filter(facts.arrow("object"), members)).drop_null()
        keys |= {"@" + o for o in classes.to_pylist()}
    return keys


def settle_stored(store: GraphStore, changed: Iterable[str], withdrawn_rules: Iterable[str] = ()) -> Settled:
    """`settle` with the stored program; nothing is read or run when no stored rule is non-monotonic.

    `withdrawn_rules`: rules whose conclusions a withdrawal took away (their heads changed too).

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.reasoning.rules.rulebase import stored_program

    keys = set(changed)
    if not keys:
        return Settled()
    rows = store.run("rules_all")
    # `not` can only appear in a rule's text as a word; a cheap filter before parsing every stored rule
    if not any(r["kind"] == RuleKind.DEFEASIBLE.value or "not " in r["text"] for r in rows):
        return Settled()
    program = stored_program(store)
    gone = set(withdrawn_rules)
    for rule in program.rules:
        if rule.id in gone:
            keys |= _head_keys(rule)
    return settle(store, program, keys)
