"""The one front door for rule materialisation: `materialise(store, program, engine=...)`.

Two engines compute the same consequences (tests/reasoning/rules/test_bulk_vs_cypher.py holds them equal):

- `"memory"` (memory_engine.py): the closure over every active fact computed in memory by the executor
  (executor.py), what is not stored yet written in one transaction. The default: fast, and all or nothing.
- `"cypher"` (cypher_engine.py): the definition, semi-naive rounds of generated Cypher inside Kùzu, each
  round committed on its own.

Every caller (a load's rules, a rules file, facts regained after a resolution, settling) comes through here.
A caller that cannot pass `engine` itself (a `Brain.load` deep in a test, a benchmark) sets the engine for
the current context with `use_engine`; that is a setting, not a patch of some module's globals.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from typing import Literal, get_args

from kgbrain.errors import InputError
from kgbrain.reasoning.rules.cypher_engine import materialise_cypher
from kgbrain.reasoning.rules.derivations import RunReport
from kgbrain.ruleset import Program
from kgbrain.store.protocol import GraphStore

Engine = Literal["memory", "cypher"]
ENGINES: tuple[Engine, ...] = get_args(Engine)
_ENGINE: ContextVar[Engine] = ContextVar("kgbrain_rules_engine", default="memory")


def current_engine() -> Engine:
    """The engine `materialise` runs when not told which (`use_engine` sets it)."""
    return _ENGINE.get()


@contextmanager
def use_engine(engine: Engine) -> Iterator[None]:
    """Run every `materialise` in this context (this thread, this task) with `engine` unless told otherwise.

    Raises:
        InputError: `engine` names no engine.
    """
    if engine not in ENGINES:
        raise InputError(f"unknown rule engine {engine!r}; one of {', '.join(ENGINES)}")
    token = _ENGINE.set(engine)
    try:
        yield
    finally:
        _ENGINE.reset(token)


def materialise(
    store: GraphStore,
    program: Program,
    *,
    since: datetime | None = None,
    full: Iterable[str] = (),
    predicates: Iterable[str] | None = None,
    engine: Engine | None = None,
) -> RunReport:
    """Run the program to its fixpoint, writing derived facts and derivation records.

    `since`, `full` and `predicates` describe a load: `full` names rules new to the store (run over every
    fact), the others need facts stamped at or after `since`, and `predicates` are those facts' predicates.
    With the memory engine, when no rule is new and none can match the load's predicates, nothing runs; it
    stores all of a run or none of it. `engine` picks the engine (default: `current_engine()`).

    Raises:
        InputError: the program cannot be stratified, or `engine` names no engine.
        StoreError: the store failed.
    """
    chosen = current_engine() if engine is None else engine
    full = list(full)
    if chosen == "cypher":
        return materialise_cypher(store, program, since=since, full=full, predicates=predicates)
    if chosen != "memory":
        raise InputError(f"unknown rule engine {chosen!r}; one of {', '.join(ENGINES)}")
    # numpy and the executor load when rules first run, not when a command that never runs them starts
    from kgbrain.reasoning.rules.memory_engine import materialise_memory, may_fire

    if since is not None and predicates is not None and not full and not may_fire(program, predicates):
        return RunReport()
    return materialise_memory(store, program)
