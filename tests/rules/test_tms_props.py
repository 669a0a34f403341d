"""Truth maintenance equals recomputation: after any sequence of loads and retractions, the active derived
facts and their active derivation records are those of a from-scratch materialisation of the facts left.

Random programs mix recursion (cycles through symmetric and transitive rules), `not` over lower strata,
classical negation in heads and bodies, and defeasible rules, defeaters and superiority over a head
predicate of their own (their bodies read the stored and first-stratum predicates, so the engine's
defeasible rounds have one answer). Real Kùzu, through `Brain.load` and `Brain.retract`.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.ruleset import Atom, Program, Rule, RuleKind, Superiority, Var

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
_ops = st.lists(
    st.one_of(
        st.tuples(st.just("load"), st.lists(_fact, min_size=1, max_size=5)),
        st.tuples(st.just("retract"), st.integers(0, 50)),
    ),
    min_size=2,
    max_size=6,
)


def _rows(facts: list[tuple[str, str, str, bool]]) -> str:
    out = []
    for pred, s, o, pol in facts:
        row = {"subject": s, "predicate": "instance_of", "object": pred} if pred in UNARY else None
        out.append(json.dumps({**(row or {"subject": s, "predicate": pred, "object": o}), "polarity": pol}))
    return "".join(line + "\n" for line in out)


def _open() -> Brain:
    brain = Brain.open(None)
    brain.load_hooks.clear()  # no conflict records: they would dispute facts and blur the comparison
    return brain


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
        "MATCH (s:Concept)-[r]->(o:Concept) WHERE r.source = $t AND r.status = $a "
        "RETURN r.fact_id AS id, s.id AS s, r.predicate AS p, o.id AS o, r.polarity AS pol",
        t="t",
        a="active",
    )
    return sorted(rows, key=lambda r: str(r["id"]))


@settings(max_examples=12)
@given(programs(), _ops, st.integers(0, 6))
def test_incremental_state_equals_recomputation(
    tmp_path_factory: pytest.TempPathFactory, program: Program, ops: list[tuple[str, object]], rules_at: int
) -> None:
    tmp = tmp_path_factory.mktemp("tms")
    rules = tmp / "p.dl"
    rules.write_text(str(program) + "\n", encoding="utf-8")
    with _open() as brain:
        for n, (kind, arg) in enumerate(ops):
            if n == min(rules_at, len(ops) - 1):
                brain.load([rules])
            if kind == "load":
                path = tmp / f"f{n}.jsonl"
                path.write_text(_rows(arg), encoding="utf-8")  # type: ignore[arg-type]
                brain.load([path], source="t")
            else:
                live = _base(brain)
                if live:
                    brain.retract(str(live[int(arg) % len(live)]["id"]), by="test")  # type: ignore[call-overload]
        incremental = _state(brain)
        left = _base(brain)
    final = tmp / "final.jsonl"
    final.write_text(
        "".join(
            json.dumps({"subject": r["s"], "predicate": r["p"], "object": r["o"], "polarity": r["pol"]}) + "\n"
            for r in left
        ),
        encoding="utf-8",
    )
    with _open() as scratch:
        if left:
            scratch.load([final], source="t")
        scratch.load([rules])
        assert _base(scratch) == left
        assert incremental == _state(scratch)
