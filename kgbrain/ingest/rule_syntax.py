"""The `.dl` rule language: text to `kgbrain.ruleset.Program`, with every check a rule file must pass.

Syntax (one statement ends with `.`; `%` and `//` start a comment to the end of the line):

    [r1] grandparent(X, Z) :- parent(X, Y), parent(Y, Z).     strict rule
    [r2] flies(X) :~ bird(X), not abnormal(X).                defeasible rule, negation as failure
    [r3] ~flies(X) ~> penguin(X).                              defeater: only blocks `flies(X)`
    [r4] adult(X) :- age(X, A), A >= 18.                       comparison on a literal value
    [r5] bird(tweety).                                         body-less rule: states a derived fact
    r3 > r2.                                                   superiority
    @authority NORM                                            authority of the rules that follow
    [r6] @authority GUIDANCE safe(X) :- checked(X).            authority of one rule

Terms: a variable starts with an upper-case letter or `_` (a lone `_` is a fresh variable each time);
a concept constant is a bare name starting with a lower-case letter (`tweety`, `pizza:Margherita`) or
any id in single quotes (`'Нейрон'`); a literal is a double-quoted string, a number, `true` or `false`.
A predicate is written like a concept constant. A rule id is anything without whitespace or `]`
(and, to be named in a superiority statement, without `>`); a rule without one gets `<file stem>:<line>`.

Checks (each an InputError naming file:line:column): unknown syntax, unsafe variables (a variable of
the head, of a `not` atom or of a comparison that no positive body atom binds), an arity clash (a
predicate used with one and two arguments), more than two arguments, duplicate rule ids, superiority
naming an unknown rule, and a program whose negation as failure cannot be stratified (the error names
the cycle).

`parse_rule(str(rule)) == rule` for every rule (rules are stored as their text).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from kgbrain.errors import InputError
from kgbrain.knowledge import Authority
from kgbrain.ruleset import (
    Atom,
    CompareOp,
    Comparison,
    Const,
    Literal,
    Program,
    Rule,
    RuleKind,
    Superiority,
    Term,
    Var,
)

_TOKEN = re.compile(
    r"""
    (?P<space>\s+|%[^\n]*|//[^\n]*)
  | (?P<arrow>:-|:~|~>)
  | (?P<cmp><=|>=|!=|<>|<|>|=)
  | (?P<punct>[(),.~])
  | (?P<dstring>"(?:[^"\\]|\\.)*")
  | (?P<sstring>'(?:[^'\\]|\\.)*')
  | (?P<number>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<name>[^\W\d](?:\w|:(?=[^\W\d_]))*|_\w*)
    """,
    re.VERBOSE,
)
_ID = re.compile(r"\[([^\s\]]+)\]")
_SUPERIORITY = re.compile(r"([^\s\[\]()>]+)\s*>\s*([^\s\[\]()]+?)\s*\.(?=\s|$|%|//)")
_AUTHORITY = re.compile(r"@authority\s+(\S+)")
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)
_AUTHORITIES = {a.value for a in Authority}


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    pos: int


class _Source:
    """The text being parsed and how to name a position in it (file:line:column)."""

    def __init__(self, text: str, file: str) -> None:
        self.text = text
        self.file = file
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def where(self, pos: int) -> str:
        line = _bisect(self._starts, pos)
        return f"{self.file}:{line + 1}:{pos - self._starts[line] + 1}"

    def line(self, pos: int) -> int:
        return _bisect(self._starts, pos) + 1

    def error(self, pos: int, problem: str) -> InputError:
        return InputError(f"{self.where(pos)}: {problem}")


def _bisect(starts: list[int], pos: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= pos:
            lo = mid
        else:
            hi = mid - 1
    return lo


def parse_program(text: str, file: str = "<rules>") -> Program:
    """Parse and check a whole `.dl` text.

    Raises:
        InputError: the first problem found, as `file:line:column: problem`.
    """
    src = _Source(text, file)
    stem = Path(file).stem or "rule"
    rules: list[Rule] = []
    where: dict[str, str] = {}
    superiority: list[tuple[Superiority, int]] = []
    authority: str | None = None
    pos = _skip(src, 0)
    while pos < len(text):
        if text.startswith("@", pos):
            match = _AUTHORITY.match(text, pos)
            if not match:
                raise src.error(pos, "unknown directive; expected `@authority NORM|OPERATIVE|GUIDANCE|COMMENTARY`")
            authority = _authority(src, match.group(1), match.start(1))
            pos = _skip(src, match.end())
            continue
        sup = _SUPERIORITY.match(text, pos)
        if sup and not text.startswith("[", pos):
            superiority.append((Superiority(sup.group(1), sup.group(2)), pos))
            pos = _skip(src, sup.end())
            continue
        rule, pos = _parse_rule_at(src, pos, default_id=f"{stem}:{src.line(pos)}", authority=authority)
        if rule.id in where:
            raise InputError(f"{rule.origin}: duplicate rule id {rule.id!r} (first at {where[rule.id]})")
        where[rule.id] = rule.origin
        rules.append(rule)
        pos = _skip(src, pos)
    program = Program(tuple(rules), tuple(s for s, _ in superiority))
    for sup_rule, at in superiority:
        for name in (sup_rule.stronger, sup_rule.weaker):
            if name not in where:
                raise src.error(at, f"superiority names unknown rule {name!r}")
    check_program(program)
    return program


def read_rules_file(path: Path) -> Program:
    """Read and parse a `.dl` file (the rules format's reader, ingest/formats.py).

    Raises:
        InputError: the file cannot be read, or its first problem, as `file:line:column: problem`.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{str(path)!r}: cannot read: {exc}") from exc
    return parse_program(text, str(path))


def parse_rule(text: str, origin: str = "") -> Rule:
    """Parse one rule (as printed by `str(rule)`), keeping `origin` as its origin.

    Raises:
        InputError: the text is not exactly one well-formed, safe rule.
    """
    src = _Source(text, "<rule>")
    start = _skip(src, 0)
    rule, pos = _parse_rule_at(src, start, default_id=f"rule:{src.line(start)}", authority=None)
    pos = _skip(src, pos)
    if pos < len(text):
        raise src.error(pos, "unexpected text after the rule")
    rule = replace(rule, origin=origin)
    check_program(Program((rule,)))
    return rule


def parse_body(text: str, origin: str = "<query>") -> tuple[Literal, ...]:
    """Parse a rule body on its own, as a query: `student(X), takes_course(X, c0)` (a final `.` optional).

    Raises:
        InputError: unknown syntax or an unsafe variable, as `origin:line:column: problem`.
    """
    src = _Source(text, origin)
    toks = _Tokens(src, _skip(src, 0))
    body: list[Literal] = []
    starts: list[int] = []
    while True:
        nxt = toks.peek()
        starts.append(nxt.pos if nxt else toks.pos)
        body.append(_literal(toks))
        tok = toks.peek()
        if tok is None:
            break
        toks.next("`,` or the end")
        if tok.text == ".":
            end = _skip(src, toks.pos)
            if end < len(text):
                raise src.error(end, "unexpected text after the query")
            break
        if tok.text != ",":
            raise src.error(tok.pos, f"unexpected {tok.text!r}; expected `,` or the end")
    _check_safe(src, Rule("query", Atom("query", ()), tuple(body)), toks.var_pos, starts)
    return tuple(body)


def _authority(src: _Source, name: str, pos: int) -> str:
    if name not in _AUTHORITIES:
        raise src.error(pos, f"unknown authority {name!r}; expected one of {', '.join(sorted(_AUTHORITIES))}")
    return name


def _skip(src: _Source, pos: int) -> int:
    while True:
        match = _TOKEN.match(src.text, pos)
        if not match or match.lastgroup != "space":
            return pos
        pos = match.end()


class _Tokens:
    def __init__(self, src: _Source, pos: int) -> None:
        self.src = src
        self.pos = pos
        self.fresh = 0
        self.var_pos: dict[str, list[int]] = {}

    def peek(self) -> _Tok | None:
        pos = _skip(self.src, self.pos)
        match = _TOKEN.match(self.src.text, pos)
        if match is None or match.lastgroup is None:
            return None
        return _Tok(match.lastgroup, match.group(), pos)

    def next(self, what: str) -> _Tok:
        tok = self.peek()
        if tok is None:
            pos = _skip(self.src, self.pos)
            found = repr(self.src.text[pos]) if pos < len(self.src.text) else "end of file"
            raise self.src.error(pos, f"unexpected {found}; expected {what}")
        self.pos = tok.pos + len(tok.text)
        return tok

    def expect(self, text: str, what: str) -> _Tok:
        tok = self.next(what)
        if tok.text != text:
            raise self.src.error(tok.pos, f"unexpected {tok.text!r}; expected {what}")
        return tok


def _parse_rule_at(src: _Source, start: int, *, default_id: str, authority: str | None) -> tuple[Rule, int]:
    text = src.text
    pos = start
    rule_id = default_id
    match = _ID.match(text, pos)
    if match:
        rule_id = match.group(1)
        pos = _skip(src, match.end())
    elif text.startswith("[", pos):
        raise src.error(pos, "a rule id is `[id]`: no whitespace, no `]`, not empty")
    tier = _AUTHORITY.match(text, pos)
    if tier:
        authority = _authority(src, tier.group(1), tier.start(1))
        pos = tier.end()
    toks = _Tokens(src, pos)
    head_tok = toks.peek()
    head = _atom(toks, head=True)
    tok = toks.next("`.`, `:-`, `:~` or `~>`")
    kind = RuleKind.STRICT
    body: list[Literal] = []
    starts: list[int] = []
    if tok.kind == "arrow":
        kind = {":-": RuleKind.STRICT, ":~": RuleKind.DEFEASIBLE, "~>": RuleKind.DEFEATER}[tok.text]
        while True:
            nxt = toks.peek()
            starts.append(nxt.pos if nxt else toks.pos)
            body.append(_literal(toks))
            tok = toks.next("`,` or `.`")
            if tok.text == ".":
                break
            if tok.text != ",":
                raise src.error(tok.pos, f"unexpected {tok.text!r}; expected `,` or `.`")
    elif tok.text != ".":
        raise src.error(tok.pos, f"unexpected {tok.text!r}; expected `.`, `:-`, `:~` or `~>`")
    assert head_tok is not None
    rule = Rule(rule_id, head, tuple(body), kind, src.where(start), authority)
    _check_safe(src, rule, toks.var_pos, starts)
    return rule, toks.pos


def _literal(toks: _Tokens) -> Literal:
    tok = toks.peek()
    if tok is None:
        toks.next("a body literal")
        raise AssertionError  # next() raised
    if tok.kind == "name" and tok.text == "not":
        toks.next("not")
        atom = _atom(toks, head=False)
        return replace(atom, naf=True)
    if tok.text == "~" or (tok.kind in ("name", "sstring") and not _is_var(tok.text) and _followed_by_paren(toks)):
        return _atom(toks, head=False)
    left = _term(toks)
    op = toks.next("a comparison (<, <=, >, >=, =, !=)")
    if op.kind != "cmp":
        raise toks.src.error(op.pos, f"unexpected {op.text!r}; expected a comparison (<, <=, >, >=, =, !=)")
    right = _term(toks)
    return Comparison(CompareOp("!=" if op.text == "<>" else op.text), left, right)


def _followed_by_paren(toks: _Tokens) -> bool:
    tok = toks.peek()
    assert tok is not None
    after = _skip(toks.src, tok.pos + len(tok.text))
    return toks.src.text.startswith("(", after)


def _atom(toks: _Tokens, *, head: bool) -> Atom:
    negated = False
    tok = toks.next("an atom such as `p(X, Y)`")
    if tok.text == "~":
        negated = True
        tok = toks.next("an atom after `~`")
    if tok.kind == "name" and not _is_var(tok.text) and tok.text != "not":
        predicate = tok.text
    elif tok.kind == "sstring":
        predicate = _unquote(tok.text)
    else:
        what = "the head" if head else "an atom"
        raise toks.src.error(tok.pos, f"unexpected {tok.text!r}; expected {what} such as `p(X, Y)`")
    toks.expect("(", f"`(` after {predicate!r}")
    args = [_term(toks)]
    while True:
        sep = toks.next("`,` or `)`")
        if sep.text == ")":
            break
        if sep.text != ",":
            raise toks.src.error(sep.pos, f"unexpected {sep.text!r}; expected `,` or `)`")
        args.append(_term(toks))
    if len(args) > 2:
        raise toks.src.error(tok.pos, f"{predicate!r} has {len(args)} arguments; atoms take one or two")
    return Atom(predicate, tuple(args), negated=negated)


def _is_var(name: str) -> bool:
    return name[0] == "_" or name[0].isupper()


def _term(toks: _Tokens) -> Term:
    tok = toks.next('a term (a Variable, a concept, a "string" or a number)')
    if tok.kind == "name":
        if tok.text == "_":
            toks.fresh += 1
            toks.var_pos.setdefault(f"_{toks.fresh}", []).append(tok.pos)
            return Var(f"_{toks.fresh}")
        if _is_var(tok.text):
            toks.var_pos.setdefault(tok.text, []).append(tok.pos)
            return Var(tok.text)
        if tok.text in ("true", "false"):
            return Const(tok.text == "true", literal=True)
        return Const(tok.text)
    if tok.kind == "sstring":
        return Const(_unquote(tok.text))
    if tok.kind == "dstring":
        return Const(_unquote(tok.text), literal=True)
    if tok.kind == "number":
        number = tok.text
        is_float = any(c in number for c in ".eE")
        return Const(float(number) if is_float else int(number), literal=True)
    raise toks.src.error(tok.pos, f"unexpected {tok.text!r}; expected a term")


def _unquote(text: str) -> str:
    return _UNESCAPE.sub(r"\1", text[1:-1])


def _check_safe(src: _Source, rule: Rule, var_pos: dict[str, list[int]], starts: list[int]) -> None:
    """Every variable of the head, of a `not` atom and of a comparison is bound by a positive body atom."""

    def at(name: str, after: int) -> int:
        return next((p for p in var_pos.get(name, []) if p >= after), after)

    bound: set[str] = set()
    for lit in rule.body:
        if isinstance(lit, Atom) and not lit.naf:
            bound |= lit.variables()
    for lit, start in zip(rule.body, starts, strict=True):
        if isinstance(lit, Comparison) or (isinstance(lit, Atom) and lit.naf):
            loose = sorted(lit.variables() - bound - (local_variables(rule, lit) if isinstance(lit, Atom) else set()))
            if loose:
                what = "comparison" if isinstance(lit, Comparison) else "`not` atom"
                raise src.error(
                    at(loose[0], start), f"unsafe variable {loose[0]} in {what} `{lit}` of rule {rule.id!r}"
                )
    loose = sorted(rule.head.variables() - bound)
    if loose:
        raise src.error(
            at(loose[0], 0),
            f"unsafe variable {loose[0]} in the head of rule {rule.id!r}: no positive body atom binds it",
        )


def local_variables(rule: Rule, atom: Atom) -> set[str]:
    """Variables of a `not` atom that are its own (`not parent(Y, _)`): named `_...`, used nowhere else."""
    if not atom.naf:
        return set()
    elsewhere: set[str] = set(rule.head.variables())
    for lit in rule.body:
        if lit is not atom:
            elsewhere |= lit.variables()
    return {v for v in atom.variables() if v.startswith("_") and v not in elsewhere}


def check_program(program: Program) -> None:
    """Arity consistency and stratifiability of a whole program (rules already checked one by one).

    Errors name the offending rule's origin (`file:line:column` for parsed rules).

    Raises:
        InputError: an arity clash or a cycle through `not`.
    """
    arity: dict[str, tuple[int, Rule]] = {}
    for rule in program.rules:
        for atom in _atoms(rule):
            seen = arity.setdefault(atom.predicate, (len(atom.args), rule))
            if seen[0] != len(atom.args):
                raise InputError(
                    f"{rule.origin}: arity clash: {atom.predicate!r} has {len(atom.args)} argument(s) in rule "
                    f"{rule.id!r} but {seen[0]} in rule {seen[1].id!r}"
                )
    cycle = find_naf_cycle(program)
    if cycle is not None:
        rule, path = cycle
        raise InputError(f"{rule.origin}: the program cannot be stratified: negation cycle {path}")


def _atoms(rule: Rule) -> Iterator[Atom]:
    yield rule.head
    yield from (lit for lit in rule.body if isinstance(lit, Atom))


# Class membership is stored as instance_of/is_a, so a binary atom over those tables with a variable
# class reads every unary predicate.
_MEMBERSHIP = ("instance_of", "is_a")


def dependencies(program: Program) -> dict[str, dict[str, bool]]:
    """Predicate dependency graph: head -> {body predicate: through `not`}.

    Classical negation is part of the literal, not of the graph: `~p` depends on what `p` depends on.
    """
    unary = {r.head.predicate for r in program.rules if r.head.unary}
    graph: dict[str, dict[str, bool]] = {}
    for rule in program.rules:
        edges = graph.setdefault(rule.head.predicate, {})
        for lit in rule.body:
            if not isinstance(lit, Atom):
                continue
            targets = {lit.predicate}
            if lit.predicate in _MEMBERSHIP and not lit.unary:
                obj = lit.args[1]
                targets = {obj.value} if isinstance(obj, Const) and isinstance(obj.value, str) else targets | unary
            for target in targets:
                edges[target] = edges.get(target, False) or lit.naf
    return graph


def strata(program: Program) -> list[list[Rule]]:
    """Rules grouped into strata: every rule's `not` atoms are fully computed by earlier strata.

    Raises:
        InputError: the program cannot be stratified.
    """
    if find_naf_cycle(program) is not None:
        check_program(program)
    graph = dependencies(program)
    level: dict[str, int] = dict.fromkeys(graph, 0)
    changed = True
    while changed:  # longest-path relaxation; terminates because no cycle goes through `not`
        changed = False
        for head, edges in graph.items():
            for body, naf in edges.items():
                need = level.get(body, 0) + (1 if naf else 0)
                if need > level[head]:
                    level[head] = need
                    changed = True
    depth = max(level.values(), default=0)
    groups: list[list[Rule]] = [[] for _ in range(depth + 1)]
    for rule in program.rules:
        groups[level[rule.head.predicate]].append(rule)
    return [g for g in groups if g]


def find_naf_cycle(program: Program) -> tuple[Rule, str] | None:
    """A dependency cycle through `not`, as (a rule on it, `p -> not q -> p`), or None when stratifiable."""
    graph = dependencies(program)
    comp = _components(graph)
    for rule in program.rules:
        head = rule.head.predicate
        for body, naf in graph.get(head, {}).items():
            if naf and comp.get(body) == comp[head]:
                path = _path(graph, body, head)
                steps = [head, f"not {body}", *path[1:]]
                return rule, " -> ".join(steps)
    return None


def _components(graph: dict[str, dict[str, bool]]) -> dict[str, int]:
    """Strongly connected components (Tarjan, iterative)."""
    nodes = set(graph) | {b for edges in graph.values() for b in edges}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    comp: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, {}))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp[member] = index[node]
                    if member == node:
                        break
    return comp


def _path(graph: dict[str, dict[str, bool]], start: str, goal: str) -> list[str]:
    """Shortest dependency path start -> ... -> goal (BFS), each step marked `not` when it is."""
    prev: dict[str, tuple[str, bool] | None] = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        if node == goal:
            break
        for nxt, naf in sorted(graph.get(node, {}).items()):
            if nxt not in prev:
                prev[nxt] = (node, naf)
                queue.append(nxt)
    steps: list[str] = []
    node = goal
    while prev.get(node) is not None:
        parent, naf = prev[node]  # type: ignore[misc]
        steps.append(f"not {node}" if naf else node)
        node = parent
    return [start, *reversed(steps)]
