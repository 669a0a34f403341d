"""Turn rows of the fact queries back into Fact objects."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from kgbrain.knowledge import Authority, Fact, Literal, Status


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
    )
