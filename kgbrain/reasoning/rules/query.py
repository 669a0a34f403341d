"""Queries with variables over the knowledge base with reasoning: SPARQL SELECT plans and rule bodies.

Both run over a `memory.Closure`: every active fact, stored or derived, plus what the rules derive from
them. A SPARQL basic graph pattern becomes a rule body (`?x rdf:type ub:Student` is
`instance_of(X, 'ub:Student')`, `?x ub:takesCourse ?c` is `takes_course(X, C)`), so one join engine answers
both forms; OPTIONAL, FILTER and the solution modifiers work on the (small) solution lists.

IRIs name concepts and predicates as ontology loading names them (ingest/rdf_mapping.py): a concept IRI is
its `prefix:LocalName` id, a predicate IRI the name it was loaded under (ingest/loader.stored_predicate_iris;
one never loaded: the name a load would give it); `rdf:type` is `instance_of` and
`rdfs:subClassOf` is `is_a`. A kgbrain id written as an IRI (`<neuron>`, `<is_a>`) names itself.
Read-only: nothing here writes.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from kgbrain.errors import InputError
from kgbrain.ingest import owl_rules
from kgbrain.ingest.rdf_mapping import RdfMapper
from kgbrain.ingest.sparql import Bgp, Iri, Join, LeftJoin, Lit, Operand, Pattern, SelectPlan
from kgbrain.patterns import pattern_budget, search
from kgbrain.reasoning.rules.executor import Closure, TooManyRows
from kgbrain.ruleset import Atom, Comparison, Const, Program, Rule, Var

RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
RDFS_SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
# The IRIs whose facts have a reserved name (the eq-* rules read same_as / different_from): no other vocabulary's
# `sameAs` may hold those names, so the IRI record cannot name them.
_FIXED_PREDICATES = {
    RDF_TYPE: "instance_of",
    RDFS_SUBCLASS: "is_a",
    owl_rules.OWL + "sameAs": owl_rules.SAME_AS,
    owl_rules.OWL + "differentFrom": owl_rules.DIFFERENT_FROM,
}
# The most solutions (and intermediate join rows) one query may build: each becomes a Python row, so a cross
# product of four relations grew a process past 3 GB; half a million rows stay within a few hundred MB.
MAX_QUERY_ROWS = 500_000


# The entailment regime queries answer under: OWL 2 RL scm-sco (subClassOf is transitive; rdfs:subClassOf is
# `is_a`). Types are inherited already by each ontology's cax-sco rules; loading keeps `is_a` asserted only,
# and the hierarchy view closes it for proofs, so a query closes it here.
ENTAILMENT_RULES = (
    Rule(
        "scm-sco:entailment",
        Atom("is_a", (Var("X"), Var("Z"))),
        (Atom("is_a", (Var("X"), Var("Y"))), Atom("is_a", (Var("Y"), Var("Z")))),
    ),
)


def entailment_program(program: Program) -> Program:
    """`program` with the rules of the entailment regime queries answer under (ENTAILMENT_RULES)."""
    return Program((*program.rules, *ENTAILMENT_RULES), program.superiority)


class ConceptId(str):
    """A concept id in a solution (a `str`, told apart from string literals for isIRI, ordering and output)."""

    __slots__ = ()


Value = str | int | float | bool
Row = dict[str, Value | None]


@dataclass(frozen=True, slots=True)
class QueryResult:
    """Solutions: one tuple per row, in `columns` order; None where an OPTIONAL variable is unbound."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Value | None, ...], ...]

    def records(self) -> list[dict[str, Value | None]]:
        """The rows as dictionaries keyed by column."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class _EvalError(Exception):
    """A SPARQL expression error: the FILTER rejects the row (never escapes this module)."""


class QueryEngine:
    """Answers SELECT plans and rule bodies over a closure (facts + derived facts)."""

    def __init__(self, closure: Closure, mapper: RdfMapper) -> None:
        """`mapper` supplies the IRI -> concept id / predicate name rules of ontology loading."""
        self.closure = closure
        self.mapper = mapper

    # -- names ------------------------------------------------------------------------------------

    def concept(self, iri: str) -> str:
        """The concept id an IRI names (the IRI itself when it is already a concept id)."""
        if iri in self.closure.term_index:
            return iri
        return self.mapper.concept_id(iri)

    def predicate(self, iri: str) -> str:
        """The predicate name an IRI names."""
        fixed = _FIXED_PREDICATES.get(iri)
        if fixed is not None:
            return fixed
        rels = self.closure.relation_index
        if (iri, True) in rels or (iri, False) in rels:
            return iri
        # by the knowledge base's record of predicate IRIs: an IRI never loaded gets a name no other IRI holds,
        # so `foaf:name` does not answer with the facts of `ub:name`
        return self.mapper.predicate_names([iri])[iri]

    # -- rule bodies ------------------------------------------------------------------------------

    def body(self, literals: Sequence[Atom | Comparison]) -> QueryResult:
        """Distinct bindings of a rule body's variables (in order of first appearance; `_`-names hidden)."""
        columns: list[str] = []
        for lit in literals:
            args = lit.args if isinstance(lit, Atom) else (lit.left, lit.right)
            for a in args:
                if isinstance(a, Var) and a.name not in columns and not a.name.startswith("_"):
                    columns.append(a.name)
        solutions = self._match(list(literals))
        rows = list(dict.fromkeys(tuple(r.get(c) for c in columns) for r in solutions))
        rows.sort(key=cmp_to_key(_compare_rows))
        return QueryResult(tuple(columns), tuple(rows))

    def _match(self, literals: list[Atom | Comparison]) -> list[Row]:
        ids = self.closure.match_ids(literals, max_rows=MAX_QUERY_ROWS)
        if not ids:
            return [{} for _ in range(self.closure.last_match_rows)]
        terms = self.closure.terms
        cols = {v: [_value(terms[t]) for t in col.tolist()] for v, col in ids.items()}
        names = list(cols)
        return [dict(zip(names, vals, strict=True)) for vals in zip(*(cols[n] for n in names), strict=True)]

    # -- SPARQL -----------------------------------------------------------------------------------

    def select(self, plan: SelectPlan) -> QueryResult:
        """Evaluate a SELECT plan (every REGEX in it within one budget: kgbrain/patterns.py).

        Raises:
            InputError: a REGEX is not a pattern, or it used up the budget.
            ReadTimeout: a REGEX ran into the deadline of the request served.
        """
        with pattern_budget():
            return self._select(plan)

    def _select(self, plan: SelectPlan) -> QueryResult:
        solutions = self._pattern(plan.pattern)
        for expr, descending in reversed(plan.order):
            keyed = [(self._order_key(expr, row), i) for i, row in enumerate(solutions)]
            keyed.sort(key=cmp_to_key(_compare_keyed), reverse=descending)
            solutions = [solutions[i] for _, i in keyed]
        rows = [tuple(row.get(v) for v in plan.variables) for row in solutions]
        if plan.distinct:
            rows = list(dict.fromkeys(rows))
        end = None if plan.limit is None else plan.offset + plan.limit
        return QueryResult(plan.variables, tuple(rows[plan.offset : end]))

    def _order_key(self, expr: Operand, row: Row) -> Value | None:
        try:
            return self._eval(expr, row)
        except _EvalError:
            return None

    def _pattern(self, node: Pattern) -> list[Row]:
        if isinstance(node, Bgp):
            return self._bgp(node)
        if isinstance(node, Join):
            if isinstance(node.left, Bgp) and isinstance(node.right, Bgp):
                return self._bgp(Bgp(node.left.triples + node.right.triples))
            return _join(self._pattern(node.left), self._pattern(node.right), None, self, optional=False)
        if isinstance(node, LeftJoin):
            return _join(self._pattern(node.left), self._pattern(node.right), node.condition, self, optional=True)
        rows = self._pattern(node.pattern)
        return [row for row in rows if self._true(node.condition, row)]

    def _bgp(self, bgp: Bgp) -> list[Row]:
        atoms: list[Atom | Comparison] = []
        for s, p, o in bgp.triples:
            if not isinstance(p, Iri):
                raise InputError("SPARQL variable predicates are not supported; name the predicate")
            if isinstance(s, Lit):
                return []  # a literal is never a subject
            atoms.append(Atom(self.predicate(p.value), (self._arg(s), self._arg(o))))
        return self._match(atoms)

    def _arg(self, term: Var | Iri | Lit) -> Var | Const:
        if isinstance(term, Var):
            return Var("_b" + term.name[2:]) if term.name.startswith("_:") else term
        if isinstance(term, Iri):
            return Const(self.concept(term.value))
        return Const(term.value, literal=True)

    # -- expressions ------------------------------------------------------------------------------

    def _true(self, expr: Operand, row: Row) -> bool:
        try:
            return _ebv(self._eval(expr, row))
        except _EvalError:
            return False

    def _eval(self, expr: Operand, row: Row) -> Value:
        if isinstance(expr, Var):
            name = "_b" + expr.name[2:] if expr.name.startswith("_:") else expr.name
            value = row.get(name)
            if value is None:
                raise _EvalError(f"unbound {name}")
            return value
        if isinstance(expr, Iri):
            return ConceptId(self.concept(expr.value))
        if isinstance(expr, Lit):
            return expr.value
        op, args = expr.op, expr.args
        if op == "bound":
            arg = args[0]
            return isinstance(arg, Var) and row.get(arg.name) is not None
        if op == "&&":
            return all(self._true(a, row) for a in args)
        if op == "||":
            return any(self._true(a, row) for a in args)
        if op == "!":
            return not _ebv(self._eval(args[0], row))
        values = [self._eval(a, row) for a in args]
        return _apply(op, values)


def _value(key: str | tuple[str, str | float]) -> Value:
    if isinstance(key, str):
        return ConceptId(key)
    value = key[1]
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def _ebv(value: Value) -> bool:
    """SPARQL's effective boolean value."""
    if isinstance(value, bool):
        return value
    if isinstance(value, ConceptId):
        raise _EvalError("an IRI has no boolean value")
    if isinstance(value, int | float):
        return value != 0 and not math.isnan(value)
    return value != ""


def _number(v: Value) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _apply(op: str, values: list[Value]) -> Value:
    """A SPARQL operator or function on evaluated arguments (an `_EvalError` makes the expression an error)."""
    if op in ("=", "!="):
        return _equal(values[0], values[1]) == (op == "=")
    if op in _ORDERINGS:
        return _ordered(op, values[0], values[1])
    if op in _ARITHMETIC:
        return _arithmetic(op, values)
    unary = _UNARY.get(op)
    if unary is not None:
        return unary(values[0])
    if op == "regex":
        return _regex(values)
    binary = _STRING_TESTS.get(op)
    if binary is not None:
        return binary(_string(values[0]), _string(values[1]))
    raise InputError(f"SPARQL function {op} is not supported")


def _equal(a: Value, b: Value) -> bool:
    """SPARQL `=`: numbers by value, other terms when of one type and equal."""
    na, nb = _number(a), _number(b)
    return na == nb if na is not None and nb is not None else type(a) is type(b) and a == b


_ORDERINGS = ("<", "<=", ">", ">=")


def _ordered(op: str, a: Value, b: Value) -> bool:
    """`<`, `<=`, `>`, `>=` on two numbers or two string literals."""
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        pair: tuple[Any, Any] = (na, nb)
    elif type(a) is str and type(b) is str:
        pair = (a, b)
    else:
        raise _EvalError("incomparable values")
    x, y = pair
    return bool({"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op])


_ARITHMETIC = ("+", "-", "*", "/", "neg")


def _arithmetic(op: str, values: list[Value]) -> Value:
    """`+ - * /` and unary minus on numbers; integers stay integers except through `/`."""
    nums = [_number(v) for v in values]
    if any(n is None for n in nums):
        raise _EvalError("arithmetic on a non-number")
    xs = [n for n in nums if n is not None]
    if op == "neg":
        return -xs[0]
    if op == "/" and xs[1] == 0:
        raise _EvalError("division by zero")
    out = {"+": xs[0] + xs[1], "-": xs[0] - xs[1], "*": xs[0] * xs[1], "/": xs[0] / xs[1] if xs[1] else 0.0}[op]
    return int(out) if op != "/" and all(isinstance(v, int) for v in values) else out


def _str(v: Value) -> Value:
    return str(v) if not isinstance(v, bool) else ("true" if v else "false")


_UNARY: dict[str, Callable[[Value], Value]] = {
    "str": _str,
    "isiri": lambda v: isinstance(v, ConceptId),
    "isliteral": lambda v: not isinstance(v, ConceptId),
    "isnumeric": lambda v: _number(v) is not None,
    "lcase": lambda v: _string(v).lower(),
    "ucase": lambda v: _string(v).upper(),
    "strlen": lambda v: len(_string(v)),
}
_STRING_TESTS: dict[str, Callable[[str, str], Value]] = {
    "contains": lambda text, other: other in text,
    "strstarts": str.startswith,
    "strends": str.endswith,
}


def _regex(values: list[Value]) -> bool:
    """REGEX(text, pattern[, flags]); only the `i` flag changes anything. Run on the `regex` engine within the
    query's budget: stdlib `re` on `^(a+)+$` held the GIL, and so a whole server, without end."""
    text = _string(values[0])
    flags = _string(values[2]) if len(values) > 2 else ""
    return search(_string(values[1]), text, ignore_case="i" in flags, what="SPARQL regex")


def _string(v: Value) -> str:
    if isinstance(v, ConceptId) or not isinstance(v, str):
        raise _EvalError("not a string literal")
    return v


def _rank(v: Value | None) -> tuple[int, Any]:
    """SPARQL ORDER BY: unbound, then IRIs, then literals (numbers before strings)."""
    if v is None:
        return (0, 0)
    if isinstance(v, ConceptId):
        return (1, str(v))
    n = _number(v)
    if n is not None:
        return (2, n)
    if isinstance(v, bool):
        return (3, v)
    return (4, v)


def _compare_values(a: Value | None, b: Value | None) -> int:
    ra, rb = _rank(a), _rank(b)
    return (ra > rb) - (ra < rb)


def _compare_keyed(a: tuple[Value | None, int], b: tuple[Value | None, int]) -> int:
    return _compare_values(a[0], b[0])


def _compare_rows(a: tuple[Value | None, ...], b: tuple[Value | None, ...]) -> int:
    for x, y in zip(a, b, strict=True):
        c = _compare_values(x, y)
        if c:
            return c
    return 0


def _join(
    left: list[Row], right: list[Row], condition: Operand | None, engine: QueryEngine, *, optional: bool
) -> list[Row]:
    """Join (or left-join) solution lists on their shared variables; unbound values are compatible with any."""
    shared = sorted({k for r in right for k in r} & {k for r in left for k in r})
    always = [v for v in shared if all(r.get(v) is not None for r in right)]
    index: dict[tuple[Value | None, ...], list[Row]] = defaultdict(list)
    for r in right:
        index[tuple(r.get(v) for v in always)].append(r)
    out: list[Row] = []
    for lrow in left:
        key = tuple(lrow.get(v) for v in always)
        candidates: Iterable[Row] = right if any(k is None for k in key) else index.get(key, ())
        found = _matches(lrow, candidates, shared, condition, engine)
        out += found
        if optional and not found:
            out.append(dict(lrow))
        if len(out) > MAX_QUERY_ROWS:
            raise TooManyRows(len(out), MAX_QUERY_ROWS)
    return out


def _matches(
    lrow: Row, candidates: Iterable[Row], shared: list[str], condition: Operand | None, engine: QueryEngine
) -> list[Row]:
    """The merges of one left row with the compatible right rows that pass the join condition."""
    out: list[Row] = []
    for rrow in candidates:
        if any(lrow.get(v) is not None and rrow.get(v) is not None and lrow[v] != rrow[v] for v in shared):
            continue
        merged = {**rrow, **{k: v for k, v in lrow.items() if v is not None}}
        if condition is None or engine._true(condition, merged):
            out.append(merged)
    return out


def is_sparql(text: str) -> bool:
    """Whether a query text is SPARQL (starts with a SPARQL keyword) rather than a rule body."""
    words = re.sub(r"#[^\n]*", " ", text).split(None, 1)
    return bool(words) and words[0].upper() in ("SELECT", "PREFIX", "BASE", "ASK", "CONSTRUCT", "DESCRIBE")


def parse_body(text: str) -> tuple[Atom | Comparison, ...]:
    """A rule body (`student(X), takes_course(X, c0)`) in the rule language, parsed by its parser.

    Raises:
        InputError: the text is not a well-formed body.
    """
    from kgbrain.ingest.rule_syntax import parse_body as parse

    return parse(text)


def run(engine: QueryEngine, text: str) -> QueryResult:
    """Answer a SPARQL SELECT or a rule body.

    Raises:
        InputError: bad syntax or an unsupported feature (named).
    """
    from kgbrain.ingest.sparql import parse_select

    if is_sparql(text):
        return engine.select(parse_select(text))
    return engine.body(parse_body(text))
