"""Properties of the Cypher rule engine on random programs and graphs (negative and retracted facts too).

- semi-naive evaluation reaches the naive fixpoint, whether rules come before or after the facts;
- retracting a premise withdraws only what lost support, keeps only what is still grounded in active
  sourced facts (non-recursive programs), and loading the premise again restores every consequence;
- the stratification check refuses exactly the programs with a dependency cycle through `not`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest.rule_syntax import dependencies, find_naf_cycle, parse_program, strata
from kgbrain.reasoning.rules.cypher_engine import materialise_cypher
from kgbrain.reasoning.rules.materialisation import materialise
from kgbrain.reasoning.rules.rulebase import save_program
from kgbrain.ruleset import Atom, Program, Rule, Var

EDB_BINARY = ("e0", "e1")
EDB_UNARY = ("c0",)
IDB_BINARY = ("i0", "i1")
IDB_UNARY = ("u0",)
CONSTS = ("a", "b", "c", "d")
X, Y, Z = Var("X"), Var("Y"), Var("Z")

_fact = st.tuples(
    st.sampled_from(EDB_BINARY + EDB_UNARY),
    st.sampled_from(CONSTS),
    st.sampled_from(CONSTS),
    st.booleans().map(lambda b: b or False),  # polarity
    st.sampled_from(["active", "active", "active", "retracted"]),
)


def _atom(draw: st.DrawFn, preds: tuple[str, ...], args: list[Var], *, negated: bool = False) -> Atom:
    name = draw(st.sampled_from(preds))
    unary = name in EDB_UNARY + IDB_UNARY
    return Atom(name, (args[0],) if unary else (args[0], args[1]), negated=negated)


@st.composite
def programs(draw: st.DrawFn, *, recursive: bool = True) -> Program:
    """Stratifiable programs: `not` only over stored predicates; IDB atoms in bodies only when recursive."""
    rules = []
    body_preds = EDB_BINARY + EDB_UNARY + ((IDB_BINARY + IDB_UNARY) if recursive else ())
    for n in range(draw(st.integers(1, 4))):
        first = _atom(draw, body_preds, [X, Y], negated=draw(st.booleans()) and draw(st.booleans()))
        body: list[Atom] = [first]
        if draw(st.booleans()):
            second = _atom(draw, body_preds, [Y, Z] if not first.unary else [X, Z])
            body.append(second)
        bound = sorted({v for a in body for v in a.variables()})
        if draw(st.booleans()):
            name = draw(st.sampled_from(EDB_BINARY + EDB_UNARY))
            args = (Var(bound[0]),) if name in EDB_UNARY else (Var(bound[0]), Var(bound[-1]))
            body.append(Atom(name, args, naf=True))
        head_name = draw(st.sampled_from(IDB_BINARY + IDB_UNARY))
        head_args = (Var(bound[0]),) if head_name in IDB_UNARY else (Var(bound[0]), Var(bound[-1]))
        head = Atom(head_name, head_args, negated=draw(st.booleans()) and draw(st.booleans()))
        rules.append(Rule(f"r{n}", head, tuple(body), origin="p.dl"))
    return Program(tuple(rules))


def _facts_file(tmp: Path, facts: list[tuple[str, str, str, bool, str]], name: str = "facts.jsonl") -> Path:
    rows = []
    for pred, s, o, pol, status in facts:
        row = {"subject": s, "predicate": "instance_of", "object": pred} if pred in EDB_UNARY else None
        row = row or {"subject": s, "predicate": pred, "object": o}
        rows.append({**row, "polarity": pol, "status": status})
    path = tmp / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _derived(brain: Brain) -> set[tuple[str, str, str, bool]]:
    rows = brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o:Concept) WHERE r.source STARTS WITH $p AND r.status = $a "
        "RETURN s.id AS s, r.predicate AS p, o.id AS o, r.polarity AS pol, r.source AS src",
        p="rule:",
        a="active",
    )
    return {(r["s"], r["p"], r["o"], r["pol"]) for r in rows}


def _run(program: Program, facts_path: Path, *, rules_first: bool = False) -> Brain:
    brain = Brain.open(None)
    if not rules_first:
        brain.load([facts_path])
    _, new, _ = save_program(brain.store, program)
    materialise(brain.store, program, full=new)
    if rules_first:
        brain.load([facts_path])
    return brain


@settings(max_examples=6)
@given(programs(), st.lists(_fact, min_size=1, max_size=12), st.booleans())
def test_semi_naive_reaches_the_naive_fixpoint(
    tmp_path_factory: pytest.TempPathFactory,
    program: Program,
    facts: list,  # type: ignore[type-arg]
    rules_first: bool,
) -> None:
    """Naive evaluation (every rule over every fact) run on the semi-naive result derives nothing more.

    Every derived fact comes from a rule firing over active facts (by construction), so semi-naive and
    naive evaluation reach the same least fixpoint. Rules loaded before the facts (the new facts as the
    delta) or after them (a full first round) both get there.
    """
    path = _facts_file(tmp_path_factory.mktemp("f"), facts)
    with _run(program, path, rules_first=rules_first) as brain:
        semi = _derived(brain)
        again = materialise_cypher(brain.store, program, naive=True)
        assert again.derived == 0
        assert _derived(brain) == semi


@settings(max_examples=5)
@given(programs(recursive=False), st.lists(_fact, min_size=2, max_size=10), st.data())
def test_retract_withdraws_exactly_and_reload_restores(
    tmp_path_factory: pytest.TempPathFactory,
    program: Program,
    facts: list,  # type: ignore[type-arg]
    data: st.DataObject,
) -> None:
    """On non-recursive programs, retracting a premise leaves what naive evaluation without it gives."""
    tmp = tmp_path_factory.mktemp("f")
    facts = [(p, s, o, pol, "active") for p, s, o, pol, _ in facts]
    gone = data.draw(st.sampled_from(facts))
    with _run(program, _facts_file(tmp, facts)) as brain:
        before = _derived(brain)
        pred, s, o, pol, _ = gone
        target = pred if pred in EDB_UNARY else o
        predicate = "instance_of" if pred in EDB_UNARY else pred
        fid = next(
            f.fact_id
            for f in brain.facts(s).facts
            if (f.predicate, f.target, f.polarity, f.source) == (predicate, target, pol, "facts.jsonl")
        )
        brain.retract(fid, by="test")
        after = _derived(brain)
        assert after <= before
        assert materialise_cypher(brain.store, program, naive=True).derived == 0  # nothing withdrawn wrongly
        still = brain.store.run_generated(
            "MATCH (s:Concept)-[r]->(o:Concept) WHERE r.source STARTS WITH $p AND r.status = $a RETURN r.fact_id AS id",
            p="rule:",
            a="active",
        )
        from kgbrain.reasoning.tms.proofs import explain

        for row in still:  # everything left still has a derivation down to active sourced facts
            proof = explain(brain.store, row["id"])
            assert proof is not None
            assert _grounded(proof)
        brain.load([_facts_file(tmp, [gone], "again.jsonl")])
        assert _derived(brain) == before


def _grounded(proof: object) -> bool:
    from kgbrain.reasoning.tms.proofs import Proof

    assert isinstance(proof, Proof)
    if proof.rule is None:
        return proof.fact.status.value == "active"
    return proof.status == "active" and all(_grounded(p) for p in proof.premises)


_names = st.sampled_from(["a", "b", "c", "d"])


@given(st.lists(st.tuples(_names, _names, st.booleans()), max_size=8))
def test_stratification_is_refused_exactly_when_a_cycle_goes_through_not(edges: list[tuple[str, str, bool]]) -> None:
    text = "".join(f"{h}(X) :- base(X), {'not ' if naf else ''}{b}(X).\n" for h, b, naf in edges)
    graph: dict[str, set[tuple[str, bool]]] = {}
    for h, b, naf in edges:
        graph.setdefault(h, set()).add((b, naf))

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo += [b for b, _ in graph.get(node, ())]
        return False

    cyclic = any(naf and reaches(b, h) for h, b, naf in edges)
    if cyclic:
        with pytest.raises(InputError, match="cannot be stratified: negation cycle"):
            parse_program(text, "s.dl")
        return
    program = parse_program(text, "s.dl")
    assert find_naf_cycle(program) is None
    level = {r.head.predicate: i for i, group in enumerate(strata(program)) for r in group}
    for head, edges_out in dependencies(program).items():
        for body, naf in edges_out.items():
            if body in level:
                assert level[body] < level[head] if naf else level[body] <= level[head]
