"""Turn rows of the fact queries back into Fact objects, and read facts by id."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any

from kgbrain.knowledge import Authority, Fact, Literal, Status
from kgbrain.store.protocol import Lookups

_CHUNK = 20_000
_FEW = 32  # up to this many ids, one scan testing each fact against the list beats the join


def _utc(stamp: datetime | None) -> datetime | None:
    # Kùzu TIMESTAMP has no zone; we always store UTC.
    return stamp.replace(tzinfo=timezone.utc) if stamp is not None and stamp.tzinfo is None else stamp


def fact_from_row(row: dict[str, Any]) -> Fact:
    """Build a Fact from a row with the columns of queries/concept_facts_out.cypher."""
    literal = row.get("object_table") == "Value"
    return Fact(
        subject=row["subject"],
        predicate=row["predicate"],
        object=None if literal else row["object"],
        value=Literal(row["lexical"], row["datatype"], row["unit"], row["value_lang"]) if literal else None,
        polarity=bool(row["polarity"]),
        confidence=float(row["confidence"]),
        source=row["source"] or "",
        trust=float(row["trust"]) if row["trust"] is not None else 0.5,
        authority=Authority(row["authority"]) if row["authority"] else None,
        observed_at=_utc(row["observed_at"]),
        loaded_at=_utc(row["loaded_at"]),
        status=Status(row["status"]),
        lang=row["lang"],
        fact_id=row["fact_id"],
        valid_from=_utc(row.get("valid_from")),
        valid_to=_utc(row.get("valid_to")),
    )


def facts_by_id(store: Lookups, fact_ids: Iterable[str], *, fresh: Sequence[Fact] = ()) -> dict[str, Fact]:
    """Facts by id, whatever their status (`fresh`: facts this write has made, used as they are; see
    `kgbrain.reasoning.tms.contradictions.facts_of_subjects`).

    Raises:
        StoreError: the store failed.
    """
    out: dict[str, Fact] = {f.fact_id: f for f in fresh}
    ids = sorted(set(fact_ids) - out.keys())
    query = "tms_facts_get_few" if len(ids) <= _FEW else "tms_facts_get"
    for start in range(0, len(ids), _CHUNK):
        for r in store.iterate(query, ids=ids[start : start + _CHUNK]):
            f = fact_from_row(r)
            out.setdefault(f.fact_id, f)
    return out
