"""Truth maintenance equals recomputation: after any sequence of loads, retractions and conflict resolutions, the
active derived facts and their active derivation records are those of a from-scratch materialisation of the
stored facts left active.

Random programs mix recursion (cycles through symmetric and transitive rules), `not` over lower strata,
classical negation in heads and bodies, and defeasible rules, defeaters and superiority over a head
predicate of their own (their bodies read the stored and first-stratum predicates, so the engine's
defeasible rounds have one answer). Real Kùzu, through `Brain.load`, `Brain.retract` and `Brain.resolve_conflict`.

Facts come from two sources, `t` (trust 0.5) and `hi` (0.9): a load that denies what the other source asserts
records a conflict, which the trust gap settles at once (the weaker fact is disputed) or which waits for a
person (same trust). Resolutions keep a random fact of a random conflict, again and again, so a premise goes out
and comes back. Conflicts are recorded among stored facts only: one involving a derived fact would hold that
conclusion at a status no recomputation from the stored facts can know.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.ingest.loader import LoadReport
from kgbrain.knowledge import Fact, Status
from kgbrain.reasoning.tms import resolution as truth
from kgbrain.reasoning.tms.contradictions import detect_new
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX, Atom, Program, Rule, RuleKind, Superiority, Var

EDB_B, EDB_U = ("e0", "e1"), ("c0", "c1")
L0_B, L0_U = ("i0",), ("u0",)  # first stratum: recursion, `not` over stored predicates
DEF_U = ("d0",)  # defeasible conclusions: bodies over stored and first-stratum predicates
L1_B, L1_U = ("i1",), ("u1",)  # above: `not` over everything below, d0 in bodies
CONSTS = ("a", "b", "c")
X, Y, Z = Var("X"), Var("Y"), Var("Z")
UNARY = set(EDB_U + L0_U + DEF_U + L1_U)


def _atom(draw: st.DrawFn, preds: tuple[str, ...], args: tuple[Var, Var], **kw: bool) -> Atom:
    name = draw(st.sampled_from(preds))
    return Atom(name, (args[0],) if name in UNARY else args, **kw)


def _body(draw: st.DrawFn, preds: tuple[str, ...]) -> list[Atom]:
    first = _atom(draw, preds, (X, Y), negated=draw(st.integers(0, 3)) == 0)
    body = [first]
    if draw(st.booleans()):
        body.append(_atom(draw, preds, (X, Z) if first.unary else (Y, Z), negated=draw(st.integers(0, 5)) == 0))
    return body


def _head(draw: st.DrawFn, preds: tuple[str, ...], body: list[Atom], negated: bool) -> Atom:
    bound = sorted({v for a in body for v in a.variables()})
    name = draw(st.sampled_from(preds))
    args = (Var(bound[0]),) if name in UNARY else (Var(bound[0]), Var(bound[-1]))
    return Atom(name, args, negated=negated)


def _naf(draw: st.DrawFn, preds: tuple[str, ...], body: list[Atom]) -> Atom:
    bound = sorted({v for a in body for v in a.variables()})
    name = draw(st.sampled_from(preds))
    args = (Var(bound[-1]),) if name in UNARY else (Var(bound[0]), Var(bound[-1]))
    return Atom(name, args, negated=draw(st.integers(0, 3)) == 0, naf=True)


@st.composite
def programs(draw: st.DrawFn) -> Program:
    rules: list[Rule] = []

    def add(head: Atom, body: list[Atom], kind: RuleKind = RuleKind.STRICT) -> None:
        rules.append(Rule(f"r{len(rules)}", head, tuple(body), kind, origin="p.dl"))

    if draw(st.booleans()):  # a cycle: i0 symmetric and transitive over e0
        add(Atom("i0", (X, Y)), [Atom("e0", (X, Y))])
        add(Atom("i0", (X, Y)), [Atom("i0", (Y, X))])
        add(Atom("i0", (X, Z)), [Atom("i0", (X, Y)), Atom("i0", (Y, Z))])
    levels = [
        (EDB_B + EDB_U + L0_B + L0_U, L0_B + L0_U, EDB_B + EDB_U),
        (EDB_B + EDB_U + L0_B + L0_U + DEF_U + L1_B + L1_U, L1_B + L1_U, EDB_B + EDB_U + L0_B + L0_U + DEF_U),
    ]
    for positive, heads, negatable in levels:
        for _ in range(draw(st.integers(1, 3))):
            body = _body(draw, positive)
            if draw(st.booleans()):
                body.append(_naf(draw, negatable, body))
            add(_head(draw, heads, body, negated=draw(st.integers(0, 3)) == 0), body)
    defeasible: list[str] = []
    for _ in range(draw(st.integers(0, 3))):
        body = _body(draw, EDB_B + EDB_U + L0_B + L0_U)
        kind = draw(st.sampled_from([RuleKind.DEFEASIBLE, RuleKind.DEFEASIBLE, RuleKind.DEFEATER, RuleKind.STRICT]))
        add(_head(draw, DEF_U, body, negated=draw(st.booleans())), body, kind)
        if kind is not RuleKind.STRICT:
            defeasible.append(rules[-1].id)
    order: list[Superiority] = []
    if len(defeasible) >= 2 and draw(st.booleans()):
        stronger, weaker = draw(st.permutations(defeasible))[:2]
        order.append(Superiority(stronger, weaker))
    return Program(tuple(rules), tuple(order))


_fact = st.tuples(
    st.sampled_from(EDB_B + EDB_U + DEF_U),
    st.sampled_from(CONSTS),
    st.sampled_from(CONSTS),
    st.integers(0, 4).map(lambda n: n != 0),  # polarity, mostly positive
)
SOURCES = {"t": 0.5, "hi": 0.9}
_source = st.sampled_from(sorted(SOURCES))
_load = st.tuples(st.just("load"), st.lists(_fact, min_size=1, max_size=5), _source)
# Deny a stored fact (from either source): a conflict, settled by trust or waiting for a person, who may
# decide it at once (keep the stored fact or its denial).
_deny = st.tuples(st.just("deny"), st.integers(0, 50), _source, st.sampled_from([None, 0, 1]))
# Decide a random conflict, again and again: a premise goes out and comes back.
_resolve = st.tuples(st.just("resolve"), st.integers(0, 50), st.integers(0, 1))
_retract = st.tuples(st.just("retract"), st.integers(0, 50))
_ops = st.tuples(_load, st.lists(st.one_of(_load, _retract, _deny, _resolve), min_size=2, max_size=7)).map(
    lambda first_rest: [first_rest[0], *first_rest[1]]
)


def _rows(facts: list[tuple[str, str, str, bool]]) -> str:
    out = []
    for pred, s, o, pol in facts:
        row = {"subject": s, "predicate": "instance_of", "object": pred} if pred in UNARY else None
        out.append(json.dumps({**(row or {"subject": s, "predicate": pred, "object": o}), "polarity": pol}))
    return "".join(line + "\n" for line in out)


def _open(*, conflicts: bool) -> Brain:
    brain = Brain.open(None)
    brain.load_hooks.clear()
    if conflicts:
        brain.load_hooks.append(_stored_conflicts)
    return brain


def _stored_conflicts(brain: Brain, report: LoadReport) -> tuple[Fact, ...]:
    """The contradiction hook (maintenance.detect_conflicts), for conflicts among stored facts only."""
    found = [
        c
        for c in detect_new(brain.store, report.added)
        if not any(f.source.startswith(DERIVED_SOURCE_PREFIX) for f in c.facts)
    ]
    records = truth.record(brain.store, found, fresh={f.fact_id for f in report.added})
    events = (e for r in records for e in r.events)
    return truth.shift_of(events, (f for r in records for f in r.facts)).lost


def _apply(brain: Brain, path: Path, op: tuple[object, ...]) -> None:
    kind, *args = op
    if kind == "load":
        facts, source = args
        path.write_text(_rows(facts), encoding="utf-8")  # type: ignore[arg-type]
        brain.load([path], source=str(source), trust=SOURCES[str(source)])
    elif kind == "deny":
        stored = _base(brain)
        if not stored:
            return
        pick, source, keep = args
        r = stored[int(pick) % len(stored)]  # type: ignore[call-overload]
        cls = str(r["o"]) if r["p"] == "instance_of" else str(r["p"])
        _apply(brain, path, ("load", [(cls, str(r["s"]), str(r["o"]), not r["pol"])], source))
        if keep is not None:
            _decide(brain, brain.conflicts(facts=[str(r["id"])]), 0, int(keep))  # type: ignore[call-overload]
    elif kind == "retract":
        live = _base(brain)
        if live:
            brain.retract(str(live[int(args[0]) % len(live)]["id"]), by="test")  # type: ignore[call-overload]
    else:
        _decide(brain, brain.conflicts(), int(args[0]), int(args[1]))  # type: ignore[call-overload]


def _decide(brain: Brain, found: list[truth.ConflictRecord], pick: int, keep: int) -> None:
    if not found:
        return
    conflict = sorted(found, key=lambda c: c.id)[pick % len(found)]
    keepable = [f.fact_id for f in conflict.facts if f.status is not Status.RETRACTED]  # a retraction is final
    if keepable:
        brain.resolve_conflict(conflict.id, keep=keepable[keep % len(keepable)], by="test")


def _state(brain: Brain) -> tuple[set[str], set[str]]:
    facts = brain.store.run_generated(
        "MATCH (:Concept)-[r]->() WHERE r.source STARTS WITH $p AND r.status = $a RETURN r.fact_id AS id",
        p="rule:",
        a="active",
    )
    derivations = brain.store.run_generated("MATCH (d:Derivation) WHERE d.status = $a RETURN d.id AS id", a="active")
    return {r["id"] for r in facts}, {r["id"] for r in derivations}


def _base(brain: Brain) -> list[dict[str, object]]:
    rows = brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o:Concept) WHERE list_contains($sources, r.source) AND r.status = $a "
        "RETURN r.fact_id AS id, s.id AS s, r.predicate AS p, o.id AS o, r.polarity AS pol, r.source AS src",
        sources=sorted(SOURCES),
        a="active",
    )
    return sorted(rows, key=lambda r: str(r["id"]))


@settings(max_examples=12)
@given(programs(), _ops, st.integers(0, 4))
def test_incremental_state_equals_recomputation(
    tmp_path_factory: pytest.TempPathFactory, program: Program, ops: list[tuple[object, ...]], rules_at: int
) -> None:
    tmp = tmp_path_factory.mktemp("tms")
    rules = tmp / "p.dl"
    rules.write_text(str(program) + "\n", encoding="utf-8")
    with _open(conflicts=True) as brain:
        for n, op in enumerate(ops):
            if n == min(rules_at, len(ops) - 1):
                brain.load([rules])
            _apply(brain, tmp / f"f{n}.jsonl", op)
        incremental = _state(brain)
        left = _base(brain)
    # From scratch: the stored facts left active, from the same sources (so the same fact ids), no conflicts.
    with _open(conflicts=False) as scratch:
        for source, trust in SOURCES.items():
            rows = [r for r in left if r["src"] == source]
            if rows:
                final = tmp / f"final-{source}.jsonl"
                final.write_text(
                    "".join(
                        json.dumps({"subject": r["s"], "predicate": r["p"], "object": r["o"], "polarity": r["pol"]})
                        + "\n"
                        for r in rows
                    ),
                    encoding="utf-8",
                )
                scratch.load([final], source=source, trust=trust)
        scratch.load([rules])
        assert _base(scratch) == left
        assert incremental == _state(scratch)
