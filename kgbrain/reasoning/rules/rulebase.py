"""Stored rules: save a parsed program (all or nothing, idempotent), read it back, load `.dl` files.

Rules are stored as their text (`str(rule)`), parsed back with `kgbrain.ingest.rule_syntax.parse_rule`
(which guarantees `parse_rule(str(rule)) == rule`), plus kind, origin and authority for listing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from kgbrain.errors import InputError
from kgbrain.ingest.rule_syntax import check_program, parse_rule, read_rules_file
from kgbrain.reasoning.rules.derivations import RunReport
from kgbrain.reasoning.rules.materialisation import materialise
from kgbrain.ruleset import Atom, Const, Program, Rule, Superiority
from kgbrain.store.protocol import GraphStore


@dataclass(slots=True)
class RulesReport:
    """What loading a rule file did."""

    file: str
    rules_read: int = 0
    rules_added: int = 0
    superiority_added: int = 0
    run: RunReport = field(default_factory=RunReport)


def stored_program(store: GraphStore) -> Program:
    """The program made of every stored rule and superiority statement.

    Parsing thousands of rules (an ontology's) costs seconds, so the parsed program and its strata are
    kept in `<db>.reasoning/` (and in the process), keyed by a digest of the stored rule rows: a CLI call
    reads the rows, finds the digest and skips the parse (reasoning/rules/program_cache.py).

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.reasoning.rules import program_cache

    rows = [(r["id"], r["text"], r["origin"] or "") for r in store.run("rules_all")]
    order = tuple(Superiority(r["stronger"], r["weaker"]) for r in store.run("rules_order_all"))
    key = program_cache.digest(rows, order)
    found = program_cache.get(store, key)
    if found is not None:
        return found
    program = Program(tuple(parse_rule(text, origin) for _, text, origin in rows), order)
    program_cache.put(store, key, program)
    return program


def has_rules(store: GraphStore) -> bool:
    """Whether any rule is stored (loads of facts then run the rules on the new facts)."""
    return bool(store.run("rules_all"))


def save_program(store: GraphStore, program: Program) -> tuple[Program, list[str], int]:
    """Add a program's rules to the stored ones, after checking the union.

    A rule stored already with the same text is skipped (loading a file twice adds nothing); the same
    id with another text is an error. Returns the combined program, the ids of the new rules and how
    many superiority statements were new.

    Raises:
        InputError: an id clash with a stored rule, or the union is not a valid program.
        StoreError: the store failed.
    """
    import pyarrow as pa

    stored = stored_program(store)
    have = {r.id: r for r in stored.rules}
    new: list[Rule] = []
    for rule in program.rules:
        old = have.get(rule.id)
        if old is None:
            new.append(rule)
        elif str(old) != str(rule):
            raise InputError(
                f"{rule.origin}: rule id {rule.id!r} is stored already with another text (from {old.origin}): {old}"
            )
    order = [s for s in program.superiority if s not in set(stored.superiority)]
    combined = Program((*stored.rules, *new), (*stored.superiority, *order))
    check_program(combined)
    known = {r.id for r in combined.rules}
    for s in order:
        for name in (s.stronger, s.weaker):
            if name not in known:
                raise InputError(f"superiority {s} names unknown rule {name!r}")
    with store.transaction():
        if new:
            start = len(stored.rules)
            rows = pa.table(
                {
                    "id": pa.array([r.id for r in new], pa.string()),
                    "text": pa.array([str(r) for r in new], pa.string()),
                    "kind": pa.array([r.kind.value for r in new], pa.string()),
                    "origin": pa.array([r.origin for r in new], pa.string()),
                    "authority": pa.array([r.authority for r in new], pa.string()),
                    "position": pa.array(range(start, start + len(new)), pa.int64()),
                }
            )
            store.run("rules_add", rows=rows)
            _ensure_concepts(store, new)
        if order:
            rows = pa.table(
                {
                    "id": pa.array([f"{s.stronger}>{s.weaker}" for s in order], pa.string()),
                    "stronger": pa.array([s.stronger for s in order], pa.string()),
                    "weaker": pa.array([s.weaker for s in order], pa.string()),
                }
            )
            store.run("rules_order_add", rows=rows)
    return combined, [r.id for r in new], len(order)


def _ensure_concepts(store: GraphStore, rules: list[Rule]) -> None:
    """Classes of unary heads and concept constants of heads must exist for derived facts to point at."""
    names: set[str] = set()
    for rule in rules:
        atoms = [rule.head, *(a for a in rule.body if isinstance(a, Atom))]
        for atom in atoms:
            if atom.unary:
                names.add(atom.predicate)
            names.update(
                a.value for a in atom.args if isinstance(a, Const) and not a.literal and isinstance(a.value, str)
            )
    import pyarrow as pa

    if names:
        store.run("rules_concepts_add", rows=pa.table({"id": pa.array(sorted(names), pa.string())}))


def load_rules_file(store: GraphStore, path: Path) -> RulesReport:
    """Parse a `.dl` file, store its rules (all or nothing) and derive what they imply.

    A bad file changes nothing. How the consequences are committed depends on the engine (materialisation.py).

    Raises:
        InputError: the file cannot be read or parsed, or clashes with stored rules.
        StoreError: the store failed.
    """
    program = read_rules_file(path)
    report = RulesReport(file=str(path), rules_read=len(program.rules))
    combined, new, report.superiority_added = save_program(store, program)
    report.rules_added = len(new)
    if new or report.superiority_added:
        report.run = materialise(store, combined, full=new)
    return report


def run_on_new_facts(
    store: GraphStore, since: datetime, full: Iterable[str] = (), predicates: Iterable[str] | None = None
) -> RunReport:
    """The load hook: run the stored rules with the facts stamped at or after `since` as the delta.

    `full` names rules the load stored (an ontology's OWL 2 RL rules): they run over every fact.
    `predicates`: those of the new facts, when known (only rules that can match them run).

    Raises:
        StoreError: the store failed.
    """
    if not has_rules(store):
        return RunReport()
    return materialise(store, stored_program(store), since=since, full=full, predicates=predicates)
