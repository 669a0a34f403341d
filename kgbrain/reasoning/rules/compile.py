"""Compile a rule's body to one parameterised Cypher statement: the definition of what the rule derives.

How atoms map to the schema (DESIGN.md, "Rules and queries"):
- `c(X)` matches `X -[:INSTANCE_OF|IS_A]-> c` (class membership, stored or derived);
- `p(X, Y)` matches p's relationship table (IS_A, PART_OF, ... or REL) with `r.predicate = $p`, plus ATTR
  when Y may be a literal value (a variable never used as a subject, or a literal constant);
- `~p(...)` matches facts with polarity false; `not p(...)` is a `NOT EXISTS { MATCH ... }` subquery;
- only active facts match (`r.status = $active`);
- comparisons read `Value.number` (numbers, and any ordering), `Value.lexical` (string literals) or the
  node id (equality of concepts and values: Value ids are deterministic, so equal values share an id).

The generated text holds only schema names (from `kgbrain.store.schema`), node/relationship variable
names made here (`v0`, `r1`, ...) and `$parameter` names; every constant is a parameter. That is the
sanctioned exception to "one query per file" (the store's `run_generated` refuses any quote).

A semi-naive variant restricts one positive atom to the delta: facts with `loaded_at >= $since`
(derived facts are stamped with their iteration's time, loads with the load's time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from kgbrain.ruleset import Atom, CompareOp, Comparison, Const, Rule, Term, Var
from kgbrain.store.schema import ATTR_TABLE, CORE_TABLES, GENERIC_TABLE, reading

ACTIVE = "active"
# Typed empty lists for ground rules (an untyped `[]` literal has no element type in Kùzu).
_MEMBERSHIP = ("INSTANCE_OF", "IS_A")


class Kind(str, Enum):
    """What a rule variable can be bound to."""

    CONCEPT = "concept"
    VALUE = "value"
    ANY = "any"


@dataclass(frozen=True, slots=True)
class Compiled:
    """One statement for a rule (or for one of its semi-naive variants).

    Rows hold `h0`, `h1` (head argument ids), `k0`, `k1` (`Concept` or `Value`, for variable head
    arguments that may be values), `premises`, `confidences` and `trusts` (lists, one per positive atom).
    `never` says the body can never hold (a comparison between constants, or a type clash), so the
    statement is not run.
    """

    rule: Rule
    text: str
    params: dict[str, Any] = field(default_factory=dict)
    delta: int | None = None
    never: bool = False


def positive_atoms(rule: Rule) -> list[int]:
    """Body positions of the atoms that bind variables (positive or classically negated, not `not`)."""
    return [i for i, lit in enumerate(rule.body) if isinstance(lit, Atom) and not lit.naf]


def variable_kinds(rule: Rule) -> dict[str, Kind] | None:
    """Each variable's kind, or None when some variable must be both a concept and a value."""
    concept: set[str] = set()
    value: set[str] = set()
    atoms = [lit for lit in rule.body if isinstance(lit, Atom)]
    for atom in [*atoms, rule.head]:
        first = atom.args[0]
        if isinstance(first, Var):
            concept.add(first.name)
    for lit in rule.body:
        if not isinstance(lit, Comparison):
            continue
        ordering = lit.op not in (CompareOp.EQ, CompareOp.NE)
        for side, other in ((lit.left, lit.right), (lit.right, lit.left)):
            if not isinstance(side, Var):
                continue
            if ordering or (isinstance(other, Const) and other.literal):
                value.add(side.name)
            elif isinstance(other, Const):
                concept.add(side.name)
    if concept & value:
        return None
    names = {v for atom in [*atoms, rule.head] for v in atom.variables()}
    return {v: Kind.CONCEPT if v in concept else Kind.VALUE if v in value else Kind.ANY for v in names}


class _Builder:
    def __init__(self, rule: Rule, kinds: dict[str, Kind]) -> None:
        self.rule = rule
        self.kinds = kinds
        self.params: dict[str, Any] = {"active": ACTIVE}
        self.declared: set[str] = set()
        self.names: dict[str, str] = {}
        self.never = False

    def param(self, value: Any) -> str:
        for key, have in self.params.items():
            if have == value and type(have) is type(value):
                return "$" + key
        key = f"c{len(self.params)}"
        self.params[key] = value
        return "$" + key

    def node(self, term: Term, kind: Kind, *, declare: bool = True) -> tuple[str, list[str]]:
        """A node pattern for a term, and the conditions it needs."""
        if isinstance(term, Const):
            if not term.literal:
                if kind is Kind.VALUE:
                    self.never = True
                return f"(:Concept {{id: {self.param(term.value)}}})", []
            name = f"k{len(self.names)}_{len(self.params)}"
            if isinstance(term.value, bool):
                return f"({name}:Value)", [f"{name}.lexical = {self.param('true' if term.value else 'false')}"]
            if isinstance(term.value, (int, float)):
                return f"({name}:Value)", [f"{name}.number = {self.param(float(term.value))}"]
            return f"({name}:Value)", [f"{name}.lexical = {self.param(term.value)}"]
        var = self.var(term.name)
        if var in self.declared or not declare:
            return f"({var})", []
        self.declared.add(var)
        have = self.kinds[term.name]
        label = {Kind.CONCEPT: ":Concept", Kind.VALUE: ":Value", Kind.ANY: ""}[have]
        return f"({var}{label})", []

    def var(self, name: str) -> str:
        return self.names.setdefault(name, f"v{len(self.names)}")

    def atom(self, atom: Atom, rel: str, *, delta: bool = False) -> tuple[str, list[str]]:
        """`(s)-[rel:TABLES]->(o)` and its conditions."""
        conds = [f"{rel}.polarity = {self.param(not atom.negated)}", f"{rel}.status = $active"]
        subject, c1 = self.node(atom.args[0], Kind.CONCEPT)
        if atom.unary:
            tables = reading(*_MEMBERSHIP)
            target = f"(:Concept {{id: {self.param(atom.predicate)}}})"
            c2: list[str] = []
        else:
            obj = atom.args[1]
            concept_table = CORE_TABLES.get(atom.predicate, GENERIC_TABLE)
            if isinstance(obj, Const):
                tables = reading(ATTR_TABLE if obj.literal else concept_table)
            else:
                kind = self.kinds[obj.name]
                tables = {Kind.CONCEPT: reading(concept_table), Kind.VALUE: reading(ATTR_TABLE), Kind.ANY: ""}[kind]
                tables = tables or reading(concept_table, ATTR_TABLE)
            target, c2 = self.node(obj, Kind.ANY)
            conds.insert(0, f"{rel}.predicate = {self.param(atom.predicate)}")
        if delta:
            conds.append(f"{rel}.loaded_at >= $since")
        return f"{subject}-[{rel}:{tables}]->{target}", [*c1, *c2, *conds]

    def comparison(self, lit: Comparison) -> str | None:
        """The WHERE condition, or None when it compares two constants (then folded into `never`)."""
        left, right = lit.left, lit.right
        if isinstance(left, Const) and isinstance(right, Const):
            if not _const_holds(lit.op, left, right):
                self.never = True
            return None
        op = "<>" if lit.op is CompareOp.NE else lit.op.value
        ordering = lit.op not in (CompareOp.EQ, CompareOp.NE)
        return f"{self.side(left, right, ordering)} {op} {self.side(right, left, ordering)}"

    def side(self, term: Term, other: Term, ordering: bool) -> str:
        if isinstance(term, Const):
            if isinstance(term.value, bool):
                return self.param("true" if term.value else "false")
            if isinstance(term.value, (int, float)):
                return self.param(float(term.value))
            return self.param(term.value)
        var = self.var(term.name)
        if ordering:
            return f"{var}.number"
        if isinstance(other, Const):
            if other.literal and isinstance(other.value, (int, float)) and not isinstance(other.value, bool):
                return f"{var}.number"
            return f"{var}.lexical" if other.literal else f"{var}.id"
        return f"{var}.id"


def _const_holds(op: CompareOp, left: Const, right: Const) -> bool:
    a, b = left.value, right.value
    if op is CompareOp.EQ:
        return left == right
    if op is CompareOp.NE:
        return left != right
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op.value]
    return False


def compile_rule(rule: Rule, delta: int | None = None) -> Compiled:
    """The statement matching `rule`'s body (with body atom `delta` restricted to `$since`, if given).

    A body-less rule compiles to a statement returning its ground head once.
    """
    kinds = variable_kinds(rule)
    if kinds is None:
        return Compiled(rule, "", {}, delta, never=True)
    b = _Builder(rule, kinds)
    patterns, where, premises = _body(b, rule, delta)
    returns = _head_returns(b, rule, kinds)
    returns.append(f"[{', '.join(f'{r}.fact_id' for r in premises)}] AS premises")
    returns.append(f"[{', '.join(f'{r}.confidence' for r in premises)}] AS confidences")
    returns.append(f"[{', '.join(f'{r}.trust' for r in premises)}] AS trusts")
    if delta is not None:
        b.params["since"] = None  # filled in by the engine for each iteration
    if patterns:
        match = f"MATCH {', '.join(patterns)}\n"
    else:  # a ground rule: one row, kept when its `not` atoms and comparisons hold
        match = "UNWIND $one AS one WITH one\n"
        b.params["one"] = [1]
        if not any("$active" in w for w in where):  # nothing matched: no status to check (params must be exact)
            del b.params["active"]
        returns = [r for r in returns if not r.endswith(("AS confidences", "AS trusts", "AS premises"))]
        # Typed in the text: Kùzu 0.11.3 cannot type an empty list parameter ("vector with ANY type").
        returns += ["CAST([] AS STRING[]) AS premises", "CAST([] AS DOUBLE[]) AS confidences"]
        returns += ["CAST([] AS DOUBLE[]) AS trusts"]
    cond = f"WHERE {' AND '.join(where)}\n" if where else ""
    text = f"{match}{cond}RETURN {', '.join(returns)}"
    return Compiled(rule, text, b.params, delta, never=b.never)


def _body(b: _Builder, rule: Rule, delta: int | None) -> tuple[list[str], list[str], list[str]]:
    """MATCH patterns of the positive atoms, WHERE conditions (theirs, `not` atoms', comparisons), premise names."""
    patterns: list[str] = []
    where: list[str] = []
    premises: list[str] = []
    for i, lit in enumerate(rule.body):
        if isinstance(lit, Atom) and not lit.naf:
            rel = f"r{i}"
            pattern, conds = b.atom(lit, rel, delta=i == delta)
            patterns.append(pattern)
            where.extend(conds)
            premises.append(rel)
    for i, lit in enumerate(rule.body):
        if isinstance(lit, Atom) and lit.naf:
            pattern, conds = b.atom(lit, f"n{i}")
            where.append(f"NOT EXISTS {{ MATCH {pattern} WHERE {' AND '.join(conds)} }}")
        elif isinstance(lit, Comparison):
            cond = b.comparison(lit)
            if cond is not None:
                where.append(cond)
    return patterns, where, premises


def _head_returns(b: _Builder, rule: Rule, kinds: dict[str, Kind]) -> list[str]:
    """RETURN columns naming the head's arguments: id and label, and a value's parts for the loader."""
    returns: list[str] = []
    for j, arg in enumerate(rule.head.args):
        if isinstance(arg, Var):
            var = b.var(arg.name)
            returns.append(f"{var}.id AS h{j}")
            returns.append(f"label({var}) AS k{j}")
            if j == 1 and kinds[arg.name] is not Kind.CONCEPT:  # a value: the loader needs its parts
                returns += [f"{var}.{p} AS {a}1" for p, a in (("lexical", "l"), ("datatype", "d"), ("unit", "u"))]
                returns.append(f"{var}.lang AS g1")
        else:
            returns.append(f"{b.param(arg.value)} AS h{j}")
            returns.append(f"{b.param('Value' if arg.literal else 'Concept')} AS k{j}")
    return returns


def compile_variants(rule: Rule) -> list[Compiled]:
    """The semi-naive variants of a rule: one per positive body atom, that atom restricted to the delta."""
    return [compile_rule(rule, i) for i in positive_atoms(rule)]
