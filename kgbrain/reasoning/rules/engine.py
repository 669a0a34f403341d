"""Old names of the rule engine, kept while other work of issue #20 moves to the new ones; nothing here is new.

`materialise` is now reasoning/rules/materialisation.py (`materialise(..., engine="memory" | "cypher")`), the
Cypher definition reasoning/rules/cypher_engine.py, `RunReport` and `derivation_id` reasoning/rules/derivations.py.
Delete this module once nothing imports it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from kgbrain.reasoning.rules import derivations
from kgbrain.reasoning.rules.cypher_engine import Candidate, defeasible_accepted, fire_all, materialise_cypher, record
from kgbrain.reasoning.rules.derivations import RunReport
from kgbrain.reasoning.rules.materialisation import materialise as _front_door
from kgbrain.ruleset import Derivation, Program
from kgbrain.store.protocol import GraphStore

__all__ = [
    "Candidate",
    "RunReport",
    "defeasible_accepted",
    "derivation_id",
    "fire_all",
    "materialise",
    "materialise_cypher",
    "record",
]


def derivation_id(d: Derivation, fact_id: str) -> str:
    """The old signature of `derivations.derivation_id`."""
    return derivations.derivation_id(d.rule, fact_id, d.premises)


def materialise(
    store: GraphStore,
    program: Program,
    *,
    since: datetime | None = None,
    full: Iterable[str] = (),
    predicates: Iterable[str] | None = None,
    cypher: bool = False,
) -> RunReport:
    """The old signature of `materialisation.materialise` (`cypher=True` is `engine="cypher"`)."""
    return _front_door(
        store, program, since=since, full=full, predicates=predicates, engine="cypher" if cypher else None
    )
