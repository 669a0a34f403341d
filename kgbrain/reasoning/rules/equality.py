"""Equality (owl:sameAs) as rules: eq-sym, eq-trans and eq-rep-s / eq-rep-o for every predicate that has facts.

OWL 2 RL derives `x owl:sameAs y` (prp-fp, prp-ifp, prp-key, cls-maxc2, cls-maxqc3/4: ingest/owl_rules.py gives
those rules, head `same_as`) and then replaces equals by equals in every triple (eq-rep-s/p/o). kgbrain has no
rule with a variable predicate, so eq-rep is one rule per predicate and position:

    [eq-rep-s:lives_in] lives_in(Y, Z) :- lives_in(X, Z), same_as(X, Y).
    [eq-rep-o:lives_in] lives_in(X, Z) :- lives_in(X, Y), same_as(Y, Z).

They are ordinary stored rules, so the Cypher engine is their definition, the in-memory engine their fast path
(tests/reasoning/rules/test_bulk_vs_cypher.py holds the two equal), and every derived fact has a derivation
that names the eq-* rule and the `same_as` fact it went through (`kgbrain explain` shows it).

They are added only once some stored rule derives `same_as` (an ontology with a functional or inverse-functional
object property, a key or a `≤ 1` restriction), for the predicates present then and for those of each later load.
A stated `a owl:sameAs b` inside one file does not need them: the file merges a and b into one concept (the
smaller id), every IRI staying an alias of it, and a later file's statements about either IRI go to that concept.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from kgbrain.reasoning.rules.rulebase import stored_program
from kgbrain.ruleset import Atom, CompareOp, Comparison, Program, Rule, Var
from kgbrain.store.protocol import GraphStore

SAME_AS = "same_as"
ORIGIN = "owl2rl:equality"
# Schema predicates equality between individuals does not carry over: classes are not individuals here.
_NOT_REPLACED = frozenset({SAME_AS, "is_a", "disjoint_with", "equivalent_to"})
_X, _Y, _Z = Var("X"), Var("Y"), Var("Z")

EQ_SYM = Rule("eq-sym", Atom(SAME_AS, (_Y, _X)), (Atom(SAME_AS, (_X, _Y)),), origin=ORIGIN)
EQ_TRANS = Rule(
    "eq-trans",
    Atom(SAME_AS, (_X, _Z)),
    (Atom(SAME_AS, (_X, _Y)), Atom(SAME_AS, (_Y, _Z)), Comparison(CompareOp.NE, _X, _Z)),
    origin=ORIGIN,
)


def derives_equality(rules: Iterable[Rule]) -> bool:
    """Whether some rule concludes `same_as` (so that equals must replace equals)."""
    return any(r.head.predicate == SAME_AS and not r.head.negated for r in rules if r.origin != ORIGIN)


def replacement(predicate: str) -> list[Rule]:
    """eq-rep-s and eq-rep-o for one predicate (subject and object replaced by an equal)."""
    return [
        Rule(
            f"eq-rep-s:{predicate}",
            Atom(predicate, (_Y, _Z)),
            (Atom(predicate, (_X, _Z)), Atom(SAME_AS, (_X, _Y))),
            origin=ORIGIN,
        ),
        Rule(
            f"eq-rep-o:{predicate}",
            Atom(predicate, (_X, _Z)),
            (Atom(predicate, (_X, _Y)), Atom(SAME_AS, (_Y, _Z))),
            origin=ORIGIN,
        ),
    ]


def equality_rules(program: Program, predicates: Iterable[str]) -> list[Rule]:
    """The equality rules `program` lacks for `predicates` (and for its rules' heads), if it derives `same_as`."""
    if not derives_equality(program.rules):
        return []
    have = {r.id for r in program.rules}
    wanted = set(predicates) | {r.head.predicate for r in program.rules if not r.head.unary}
    out = [r for r in (EQ_SYM, EQ_TRANS) if r.id not in have]
    for predicate in sorted(wanted - _NOT_REPLACED):
        out += [r for r in replacement(predicate) if r.id not in have]
    return out


def equality_for_load(store: GraphStore, rules: Sequence[Rule], predicates: Iterable[str]) -> list[Rule]:
    """The equality rules a load needs beside its own `rules`: none unless some rule (stored or new) derives
    `same_as`; then those for the load's `predicates` and, the first time, for every predicate with facts.

    Raises:
        StoreError: the store failed.
    """
    new_here = derives_equality(rules)
    if not new_here and not store.run("rules_equality_count", head=f"] {SAME_AS}(", generic=ORIGIN)[0]["n"]:
        return []
    stored = stored_program(store)
    wanted = set(predicates)
    if new_here:
        wanted |= {r["predicate"] for r in store.run("fact_counts") if r["active"]}
    return equality_rules(Program((*stored.rules, *rules)), wanted)
