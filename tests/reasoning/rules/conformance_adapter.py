"""datalog-conformance evaluators backed by kgbrain: facts go in as a facts file, rules as a `.dl` file.

`KgbrainDatalog.evaluate(program)` and `KgbrainDefeasible.evaluate(theory, policy)` implement the
suite's `DatalogEvaluator` / `DefeasibleEvaluator` protocols. What kgbrain cannot express raises
`OutOfScope` with the reason (the test counts those by tag):
- atoms with no or more than two arguments (facts are subject-predicate-object);
- unary facts or subjects that are not concept names (numbers);
- sections other than `definitely` / `defeasibly` (kgbrain stores what holds, not what fails), and
  policies other than ambiguity blocking.
Error cases: kgbrain's one `InputError` carries a `code` naming the suite's error kinds it stands for.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from datalog_conformance.schema import DefeasibleModel, DefeasibleTheory, Model, Policy, Program

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest.rule_syntax import parse_program
from kgbrain.reasoning.rules.memory_engine import closure_stored
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX


class OutOfScope(Exception):
    """The case needs something kgbrain does not express; the message says what."""


class _Code(str):
    """An error code equal to each of the suite's names for the same kind of error."""

    synonyms: frozenset[str] = frozenset()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str) and (str.__eq__(self, other) or other in self.synonyms)

    def __hash__(self) -> int:
        return str.__hash__(self)


def _code(name: str, *synonyms: str) -> _Code:
    code = _Code(name)
    code.synonyms = frozenset(synonyms)
    return code


_CODES = [
    ("unsafe variable", _code("unsafe_variable", "unbound_variable", "safety_violations", "SafetyViolationError")),
    ("arity clash", _code("arity_mismatch")),
    ("cannot be stratified", _code("cyclic_negation")),
]


class KgbrainRuleError(Exception):
    """kgbrain refused the program; `code` names the suite's error kinds."""

    def __init__(self, exc: InputError) -> None:
        super().__init__(str(exc))
        self.code = next((code for key, code in _CODES if key in str(exc)), _Code("input_error"))


_ATOM = re.compile(r"(~?)\s*([A-Za-z_][\w]*)\s*\(")


def _check_rule_text(text: str) -> None:
    if re.search(r"\b[A-Za-z_]\w*\s*\(\s*\)", text) or re.search(r"(?<![\w)])[a-z]\w*\s*(?=[,.]|:-)", text):
        raise OutOfScope("a zero-argument atom")


def _fact_rows(facts: dict[str, list[tuple[Any, ...]]], names: _Names) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for predicate, tuples in facts.items():
        negated = predicate.startswith("~")
        name = names(predicate.lstrip("~"))
        for t in tuples:
            if len(t) not in (1, 2):
                raise OutOfScope(f"a {len(t)}-argument fact of {name!r}")
            if not isinstance(t[0], str):
                raise OutOfScope(f"a subject that is not a concept name ({t[0]!r})")
            row: dict[str, Any] = {"subject": t[0], "polarity": not negated}
            if len(t) == 1:
                row |= {"predicate": "instance_of", "object": name}
            elif isinstance(t[1], str):
                row |= {"predicate": name, "object": t[1]}
            else:
                row |= {"predicate": name, "value": t[1]}
            rows.append(row)
    return rows


def _translate(rules: str) -> str:
    """The suite's rule text in kgbrain's syntax: symbols are concepts.

    `"his"` is a symbol (the facts load strings as concepts), so it becomes the concept `'his'`; a
    rule without its final `.` gets one.
    """
    rules = "\n".join(line if line.rstrip().endswith(".") else line.rstrip() + "." for line in rules.splitlines())
    rules = re.sub(r'"((?:[^"\\]|\\.)*)"', lambda m: "'" + m.group(1).replace("'", "\\'") + "'", rules)
    return rules


_SNAKE = re.compile(r"[a-z][a-z0-9_]*")


class _Names:
    """Predicate names the facts-file contract refuses (not snake_case) get stand-ins, mapped back after."""

    def __init__(self) -> None:
        self.out: dict[str, str] = {}
        self.back: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        if _SNAKE.fullmatch(name):
            return name
        if name not in self.out:
            stand_in = f"p{len(self.out)}_{re.sub(r'[^a-z0-9]+', '_', name.lower())}".rstrip("_")
            self.out[name], self.back[stand_in] = stand_in, name
        return self.out[name]

    def rules(self, text: str) -> str:
        return re.sub(r"(?<![\w'])([A-Za-z]\w*)\s*\(", lambda m: self(m.group(1)) + "(", text)


def _run(rows: list[dict[str, Any]], rules: str, names: _Names) -> list[dict[str, Any]]:
    """Load facts then rules into a fresh in-memory knowledge base; every active fact after the fixpoint.

    A big case (BIG fact rows or more) takes the in-memory path instead: see `_run_big`.
    """
    _check_rule_text(rules)
    rules = names.rules(_translate(rules))
    if len(rows) >= BIG:
        return _run_big(rows, rules)
    with tempfile.TemporaryDirectory() as tmp, Brain.open(None) as brain:
        facts = Path(tmp) / "facts.jsonl"
        facts.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        program = Path(tmp) / "case.dl"
        program.write_text(rules, encoding="utf-8")
        try:
            brain.load([facts, program] if rows else [program])
        except InputError as exc:
            raise KgbrainRuleError(exc) from exc
        return _stored_rows(brain)


def _stored_rows(brain: Brain) -> list[dict[str, Any]]:
    return brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o) WHERE r.status = $active AND r.fact_id IS NOT NULL "
        "RETURN s.id AS s, r.predicate AS p, label(o) AS kind, o.id AS o, o.lexical AS lexical, "
        "o.datatype AS datatype, r.polarity AS polarity, r.source AS source",
        active="active",
    )


# The LUBM-shaped Souffle cases (110k fact rows each; 40 cases over two programs with the same facts).
# Loading one through `Brain.load` with its rules writes 110k derived facts and 470k derivation records,
# a minute of CPU for a check that reads none of them back. So a big case loads its facts through
# `Brain.load` (real Kùzu, the ingest path) and evaluates its rules with the in-memory executor over the
# stored facts (`memory_engine.closure_stored`, what `kgbrain load` computes before writing; the property test
# tests/reasoning/rules/test_bulk_vs_cypher.py holds it equal to the Cypher definition). The knowledge base with
# the facts is kept for the next case with the same facts.
BIG = 10_000
_loaded: list[tuple[str, Brain, list[dict[str, Any]]]] = []  # (facts text, brain, its stored rows)


def _facts_brain(rows: list[dict[str, Any]]) -> tuple[Brain, list[dict[str, Any]]]:
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if _loaded and _loaded[0][0] == text:
        return _loaded[0][1], _loaded[0][2]
    close_loaded()
    brain = Brain.open(None)
    with tempfile.TemporaryDirectory() as tmp:
        facts = Path(tmp) / "facts.jsonl"
        facts.write_text(text, encoding="utf-8")
        brain.load([facts])
    _loaded.append((text, brain, _stored_rows(brain)))
    return brain, _loaded[0][2]


def close_loaded() -> None:
    """Close the knowledge base kept for big cases."""
    while _loaded:
        _loaded.pop()[1].close()


def _run_big(rows: list[dict[str, Any]], rules: str) -> list[dict[str, Any]]:
    try:
        program = parse_program(rules, "case.dl")
    except InputError as exc:
        raise KgbrainRuleError(exc) from exc
    brain, stored = _facts_brain(rows)
    try:
        closure = closure_stored(brain.store, program)
    except InputError as exc:
        raise KgbrainRuleError(exc) from exc
    out = list(stored)
    for rule, heads, _ in closure.fired:
        for t in sorted(set(heads.tolist())):
            s, p, o, polarity, value = closure.statement(t)
            kind = "Concept" if o is not None else "Literal"
            row = {"s": s, "p": p, "kind": kind, "o": o, "lexical": value, "datatype": None}
            out.append(row | {"polarity": polarity, "source": DERIVED_SOURCE_PREFIX + rule.id})
    return out


def _tuples(rows: list[dict[str, Any]], names: _Names, *, polarity: bool) -> dict[str, set[tuple[Any, ...]]]:
    out: dict[str, set[tuple[Any, ...]]] = defaultdict(set)
    for row in rows:
        r = dict(row)
        r["p"], r["o"] = names.back.get(r["p"], r["p"]), names.back.get(r["o"], r["o"])
        if r["polarity"] is not polarity:
            continue
        prefix = "" if polarity else "~"
        if r["p"] == "instance_of" and r["kind"] == "Concept":
            out[prefix + r["o"]].add((r["s"],))
        elif r["kind"] == "Concept":
            out[prefix + r["p"]].add((r["s"], r["o"]))
        else:
            value: Any = r["lexical"]
            if r["datatype"] == "integer":
                value = int(value)
            elif r["datatype"] in ("decimal", "double", "float"):
                value = float(value)
            out[prefix + r["p"]].add((r["s"], value))
    return out


class KgbrainDatalog:
    """The suite's `DatalogEvaluator`."""

    def evaluate(self, program: Program) -> Model:
        """The least model of a stratified program, as kgbrain stores it."""
        names = _Names()
        rows = _run(_fact_rows(program.facts, names), "\n".join(program.rules) + "\n", names)
        return Model(dict(_tuples(rows, names, polarity=True)))


class KgbrainDefeasible:
    """The suite's `DefeasibleEvaluator` (ambiguity blocking only)."""

    def evaluate(self, theory: DefeasibleTheory, policy: Policy) -> DefeasibleModel:
        """`definitely`: facts and strict consequences of facts; `defeasibly`: everything that holds."""
        if policy is not Policy.BLOCKING:
            raise OutOfScope(f"policy {policy.value!r} (kgbrain implements ambiguity blocking)")
        if theory.conflicts:
            raise OutOfScope("declared conflicting predicates")
        lines = []
        for rules, arrow in ((theory.strict_rules, ":-"), (theory.defeasible_rules, ":~"), (theory.defeaters, "~>")):
            for rule in rules:
                body = ", ".join(rule.body)
                lines.append(f"[{rule.id}] {rule.head} {arrow} {body}." if body else f"[{rule.id}] {rule.head}.")
        lines += [f"{a} > {b}." for a, b in theory.superiority]
        if any(not r.body for r in theory.defeasible_rules + theory.defeaters):
            raise OutOfScope("a body-less defeasible rule or defeater (a defeasible fact)")
        names = _Names()
        rows = _run(_fact_rows(theory.facts, names), "\n".join(lines) + "\n", names)
        strict = {DERIVED_SOURCE_PREFIX + r.id for r in theory.strict_rules}
        definite = [r for r in rows if not r["source"].startswith(DERIVED_SOURCE_PREFIX) or r["source"] in strict]
        sections: dict[str, dict[str, set[tuple[Any, ...]]]] = {"definitely": {}, "defeasibly": {}}
        for name, chosen in (("definitely", definite), ("defeasibly", rows)):
            sections[name] = {**_tuples(chosen, names, polarity=True), **_tuples(chosen, names, polarity=False)}
        return DefeasibleModel(sections)
