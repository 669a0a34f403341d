"""SPARQL SELECT text -> a small query plan, through rdflib's SPARQL parser and algebra (never parsed by hand).

The plan keeps RDF terms as plain values: IRIs as `Iri`, literals as Python values (`Lit`), variables as
`ruleset.Var`; reasoning/rules/query.py maps IRIs to concept ids and predicate names and evaluates it.
Supported: basic graph patterns (a constant predicate), FILTER, OPTIONAL, DISTINCT/REDUCED, ORDER BY,
LIMIT/OFFSET, projection of variables. Anything else is an InputError naming the feature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kgbrain.errors import InputError
from kgbrain.ruleset import Var


@dataclass(frozen=True, slots=True)
class Iri:
    """An IRI as written in the query (after PREFIX expansion)."""

    value: str


@dataclass(frozen=True, slots=True)
class Lit:
    """A literal: its Python value (int, float, bool or str)."""

    value: str | int | float | bool


PlanTerm = Var | Iri | Lit


@dataclass(frozen=True, slots=True)
class Expr:
    """A FILTER / ORDER BY expression: `op` is a SPARQL operator or builtin name, `args` its operands."""

    op: str
    args: tuple[Expr | PlanTerm, ...]


Operand = Expr | PlanTerm


@dataclass(frozen=True, slots=True)
class Bgp:
    triples: tuple[tuple[PlanTerm, PlanTerm, PlanTerm], ...]


@dataclass(frozen=True, slots=True)
class Join:
    left: Pattern
    right: Pattern


@dataclass(frozen=True, slots=True)
class LeftJoin:
    left: Pattern
    right: Pattern
    condition: Operand | None


@dataclass(frozen=True, slots=True)
class Filter:
    condition: Operand
    pattern: Pattern


Pattern = Bgp | Join | LeftJoin | Filter


@dataclass(frozen=True, slots=True)
class SelectPlan:
    """A SELECT query: projected variables, the pattern, and the solution modifiers."""

    variables: tuple[str, ...]
    pattern: Pattern
    distinct: bool = False
    order: tuple[tuple[Operand, bool], ...] = ()  # (expression, descending)
    offset: int = 0
    limit: int | None = None


_BUILTINS = {
    "Builtin_REGEX": "regex",
    "Builtin_BOUND": "bound",
    "Builtin_STR": "str",
    "Builtin_LCASE": "lcase",
    "Builtin_UCASE": "ucase",
    "Builtin_STRLEN": "strlen",
    "Builtin_CONTAINS": "contains",
    "Builtin_STRSTARTS": "strstarts",
    "Builtin_STRENDS": "strends",
    "Builtin_isIRI": "isiri",
    "Builtin_isURI": "isiri",
    "Builtin_isLITERAL": "isliteral",
    "Builtin_isNUMERIC": "isnumeric",
    "Builtin_sameTerm": "=",
}
_SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"
_FEATURES = {
    "Union": "UNION",
    "Minus": "MINUS",
    "Graph": "GRAPH",
    "Extend": "BIND or expressions in SELECT",
    "Group": "GROUP BY",
    "AggregateJoin": "aggregates",
    "values": "VALUES",
    "ToMultiSet": "sub-queries",
    "ServiceGraphPattern": "SERVICE",
}


# rdflib's pyparsing grammar recurses about 40 frames per parenthesis: past ~22 levels it overflows Python's stack.
MAX_NESTING = 16


def _nesting(text: str) -> int:
    """The deepest nesting of parentheses and braces outside string literals."""
    depth = deepest = 0
    quote = ""
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")}]":
            depth -= 1
    return deepest


def parse_select(text: str) -> SelectPlan:
    """Parse a SPARQL SELECT query.

    Raises:
        InputError: a syntax error, another query form, or a feature outside the supported subset.
    """
    from pyparsing import ParseException
    from rdflib.plugins.sparql.algebra import translateQuery
    from rdflib.plugins.sparql.parser import parseQuery

    depth = _nesting(text)
    if depth > MAX_NESTING:  # the parser recurses several frames per level: 3,000 parentheses overflow it
        raise InputError(f"SPARQL query nested {depth} levels deep (parentheses, braces); at most {MAX_NESTING}")
    try:
        tree = parseQuery(text)
    except ParseException as exc:
        raise InputError(f"SPARQL syntax error at line {exc.lineno}, column {exc.col}: {exc.msg}") from exc
    except RecursionError:
        raise InputError("SPARQL query nested too deeply to parse (parentheses, braces)") from None
    _check_prefixes(tree)  # rdflib reports an undeclared prefix as a bare Exception, so look first
    algebra = translateQuery(tree).algebra
    if algebra.name != "SelectQuery":
        form = algebra.name.removesuffix("Query").upper()
        raise InputError(f"SPARQL {form} queries are not supported; use SELECT")
    if algebra.get("datasetClause"):
        raise InputError("SPARQL FROM / FROM NAMED is not supported (there is one graph)")
    node = algebra["p"]
    limit: int | None = None
    offset = 0
    distinct = False
    if node.name == "Slice":
        offset = int(node.get("start") or 0)
        length = node.get("length")
        limit = None if length is None else int(length)
        node = node["p"]
    if node.name in ("Distinct", "Reduced"):
        distinct = node.name == "Distinct"
        node = node["p"]
    if node.name != "Project":
        raise InputError(f"SPARQL {_feature(node)} is not supported")
    variables = tuple(str(v) for v in node["PV"])
    node = node["p"]
    order: tuple[tuple[Operand, bool], ...] = ()
    if node.name == "OrderBy":
        conditions = []
        for cond in node["expr"]:
            if getattr(cond, "name", None) == "OrderCondition":
                conditions.append((_expr(cond["expr"]), cond.get("order") == "DESC"))
            else:
                conditions.append((_expr(cond), False))
        order = tuple(conditions)
        node = node["p"]
    return SelectPlan(variables, _pattern(node), distinct, order, offset, limit)


def _check_prefixes(tree: Any) -> None:
    from rdflib.plugins.sparql.sparql import Prologue

    declared = {str(d["prefix"] or "") for d in tree[0] if getattr(d, "name", None) == "PrefixDecl"}
    known = Prologue().namespace_manager.store
    stack = [tree]
    while stack:
        node = stack.pop()
        if getattr(node, "name", None) == "pname":
            prefix = str(node.get("prefix") or "")
            if prefix not in declared and known.namespace(prefix) is None:
                raise InputError(f"SPARQL prefix {prefix + ':'!r} is not declared; add PREFIX {prefix}: <...>")
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list | tuple) or type(node).__name__ == "ParseResults":
            stack.extend(node)


def _feature(node: Any) -> str:
    name = str(getattr(node, "name", node))
    inner = node.get("p") if isinstance(node, dict) else None
    if name == "Extend" and getattr(inner, "name", None) in ("AggregateJoin", "Group"):
        return "aggregates (COUNT, SUM, ...)"
    return _FEATURES.get(name, name)


def _pattern(node: Any) -> Pattern:
    name = getattr(node, "name", None)
    if name == "BGP":
        return Bgp(tuple((_term(s), _term(p), _term(o)) for s, p, o in node["triples"]))
    if name == "Join":
        return Join(_pattern(node["p1"]), _pattern(node["p2"]))
    if name == "LeftJoin":
        cond = node.get("expr")
        condition = None if cond is None or getattr(cond, "name", None) == "TrueFilter" else _expr(cond)
        return LeftJoin(_pattern(node["p1"]), _pattern(node["p2"]), condition)
    if name == "Filter":
        return Filter(_expr(node["expr"]), _pattern(node["p"]))
    raise InputError(f"SPARQL {_feature(node)} is not supported")


def _term(term: Any) -> PlanTerm:
    from rdflib import BNode, Literal, URIRef, Variable

    if isinstance(term, Variable):
        return Var(str(term))
    if isinstance(term, BNode):
        return Var("_:" + str(term))  # a blank node in a pattern is a variable that is never projected
    if isinstance(term, URIRef):
        return Iri(str(term))
    from rdflib.paths import MulPath, Path

    if isinstance(term, MulPath) and term.mod == "+" and isinstance(term.path, URIRef) and str(term.path) == _SUBCLASS:
        return Iri(_SUBCLASS)  # under the entailment regime rdfs:subClassOf is transitive already
    if isinstance(term, Path):
        raise InputError(f"SPARQL property paths are not supported, except rdfs:subClassOf+ ({term.n3()})")
    if isinstance(term, Literal):
        value = term.toPython()
        if isinstance(value, bool | int | float | str):
            return Lit(value)
        return Lit(str(term))
    raise InputError(f"SPARQL term {term!r} is not supported")


def _expr(node: Any) -> Operand:
    name = getattr(node, "name", None)
    if name is None:
        return _term(node)
    if name == "RelationalExpression":
        op = str(node["op"])
        if op in ("IN", "NOT IN"):
            raise InputError(f"SPARQL {op} is not supported")
        return Expr(op, (_expr(node["expr"]), _expr(node["other"])))
    if name in ("ConditionalAndExpression", "ConditionalOrExpression"):
        op = "&&" if name == "ConditionalAndExpression" else "||"
        return Expr(op, (_expr(node["expr"]), *(_expr(x) for x in node["other"])))
    if name in ("AdditiveExpression", "MultiplicativeExpression"):
        out: Operand = _expr(node["expr"])
        for op, other in zip(node["op"], node["other"], strict=True):
            out = Expr(str(op), (out, _expr(other)))
        return out
    if name == "UnaryNot":
        return Expr("!", (_expr(node["expr"]),))
    if name == "UnaryMinus":
        return Expr("neg", (_expr(node["expr"]),))
    if name == "UnaryPlus":
        return _expr(node["expr"])
    if name in _BUILTINS:
        args = [
            node[k] for k in ("arg", "arg1", "arg2", "text", "pattern", "flags") if k in node and node[k] is not None
        ]
        return Expr(_BUILTINS[name], tuple(_expr(a) for a in args))
    raise InputError(f"SPARQL function {name.removeprefix('Builtin_')} is not supported")
