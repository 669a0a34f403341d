"""Derived facts and derivation records as the store keeps them: what both engines write the same way.

The Cypher definition (cypher_engine.py) and the in-memory engine (memory_engine.py) must store the same
records (tests/reasoning/rules/test_bulk_vs_cypher.py), so what makes a record is written once, here:

- `derivation_id`: the id of one way of deriving a fact (rule, derived fact, premise facts);
- `write_facts`, `fact_order`: how derived facts are appended, in which order;
- `retracted_derived`, `revivable`: which retracted derived facts a new derivation brings back. Truth
  maintenance (reasoning/tms/withdraw.py) signs its withdrawals `WITHDRAWN_BY`; a person's retraction sticks.
- `RunReport`: what one materialisation did.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from kgbrain.ingest.batch import FactColumns
from kgbrain.knowledge import CORE_INHERITABLE, Fact, Status
from kgbrain.ruleset import DERIVED_SOURCE_PREFIX
from kgbrain.store.protocol import GraphStore
from kgbrain.store.schema import FACT_COLUMNS, table_for

WITHDRAWN_BY = "kgbrain:rules"  # who truth maintenance's withdrawals are retracted by
_CHUNK = 5_000


@dataclass(slots=True)
class RunReport:
    """What one materialisation did."""

    derived: int = 0
    derivations: int = 0
    iterations: int = 0
    blocked: int = 0
    added: FactColumns = field(default_factory=FactColumns, repr=False)


def derivation_id(rule: str, fact_id: str, premises: Iterable[str]) -> str:
    """Deterministic id of one way of deriving a fact: this rule, from these premise facts."""
    text = "\x1f".join((rule, fact_id, *premises))
    return "d_" + hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def retracted_derived(status: str, source: str) -> bool:
    """A retracted derived fact (derived again, `revivable` then keeps those a person retracted)."""
    return status == Status.RETRACTED.value and source.startswith(DERIVED_SOURCE_PREFIX)


def revivable(store: GraphStore, ids: Iterable[str]) -> list[str]:
    """Of these retracted derived facts, those truth maintenance withdrew (sorted): a person's retraction sticks.

    A fact with no Retraction record (none was kept) is revivable, as before records named who retracted.
    """
    wanted = sorted(set(ids))
    kept: set[str] = set()
    for start in range(0, len(wanted), _CHUNK):
        part = wanted[start : start + _CHUNK]
        kept.update(r["fact_id"] for r in store.run("tms_retracted_by_person", ids=part, withdrawn_by=WITHDRAWN_BY))
    return [i for i in wanted if i not in kept]


def write_facts(store: GraphStore, facts: list[Fact], stamp: datetime) -> None:
    """Append derived facts to their relationship tables (endpoints exist; head literals are merged)."""
    import pyarrow as pa

    if not facts:
        return
    values = {f.value.id: f.value for f in facts if f.value is not None}
    if values:
        ids = sorted(values)
        store.run(
            "rules_values_add",
            rows=pa.table(
                {
                    "id": pa.array(ids, pa.string()),
                    "lexical": pa.array([values[i].lexical for i in ids], pa.string()),
                    "datatype": pa.array([values[i].datatype for i in ids], pa.string()),
                    "unit": pa.array([values[i].unit for i in ids], pa.string()),
                    "lang": pa.array([values[i].lang for i in ids], pa.string()),
                    "number": pa.array([values[i].number for i in ids], pa.float64()),
                }
            ),
        )
    predicates = sorted({f.predicate for f in facts})
    store.run(
        "predicate_add",
        rows=[{"name": p, "inheritable": CORE_INHERITABLE.get(p, True), "source": "kgbrain:rules"} for p in predicates],
    )
    by_table: dict[str, list[Fact]] = defaultdict(list)
    for f in facts:
        by_table[table_for(f.predicate, f.value is not None)].append(f)
    for table, rows in sorted(by_table.items()):
        store.append_rels(table, pa.table(_fact_columns(rows, stamp)).select(["from", "to", *FACT_COLUMNS]))


def _fact_columns(rows: list[Fact], stamp: datetime) -> dict[str, Any]:
    """Derived facts as the Arrow columns of a fact table."""
    import pyarrow as pa

    return {
        "from": pa.array([f.subject for f in rows], pa.string()),
        "to": pa.array([f.object if f.value is None else f.value.id for f in rows], pa.string()),
        "fact_id": pa.array([f.fact_id for f in rows], pa.string()),
        "predicate": pa.array([f.predicate for f in rows], pa.string()),
        "polarity": pa.array([f.polarity for f in rows], pa.bool_()),
        "confidence": pa.array([f.confidence for f in rows], pa.float64()),
        "source": pa.array([f.source for f in rows], pa.string()),
        "trust": pa.array([f.trust for f in rows], pa.float64()),
        "authority": pa.array([f.authority.value if f.authority else None for f in rows], pa.string()),
        "observed_at": pa.array([None] * len(rows), pa.timestamp("us")),
        "loaded_at": pa.array([stamp] * len(rows), pa.timestamp("us")),
        "status": pa.array([Status.ACTIVE.value] * len(rows), pa.string()),
        "lang": pa.array([None] * len(rows), pa.string()),
        "valid_from": _stamps([f.valid_from for f in rows]),
        "valid_to": _stamps([f.valid_to for f in rows]),
    }


def _stamps(values: list[datetime | None]) -> Any:
    """UTC instants as Kùzu's zone-less TIMESTAMP (an Arrow array)."""
    import pyarrow as pa

    return pa.array(values, pa.timestamp("us", tz="UTC")).cast(pa.timestamp("us"))


def fact_order(fact: Fact) -> tuple[str, str, str, str]:
    """The order derived facts are written in (both engines write them alike)."""
    return (fact.subject, fact.predicate, fact.target, fact.fact_id)
