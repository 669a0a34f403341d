"""Evidence rows: the stored facts a conclusion rests on, as the deductive and causal modules read them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kgbrain.knowledge import Status


@dataclass(frozen=True, slots=True)
class Evidence:
    """One stored fact used (or shown) by a reasoning step."""

    subject: str
    predicate: str
    object: str
    fact_id: str
    polarity: bool
    confidence: float
    source: str
    status: str

    @property
    def active(self) -> bool:
        """Only active facts count as evidence; the others are shown for context."""
        return self.status == _ACTIVE

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Evidence:
        """Build from a row with subject/predicate/object/fact_id/polarity/confidence/source/status columns."""
        return cls(
            subject=row["subject"],
            predicate=row["predicate"],
            object=str(row["object"]),
            fact_id=row["fact_id"],
            polarity=bool(row["polarity"]),
            confidence=float(row["confidence"]),
            source=row["source"] or "",
            status=row["status"] or Status.ACTIVE.value,
        )

    def statement(self) -> str:
        """`s p o` or `s NOT p o`."""
        return statement(self.subject, self.predicate, self.object, self.polarity)


_ACTIVE = Status.ACTIVE.value  # read once: an enum member's value is a descriptor lookup, and this runs per fact


def statement(subject: str, predicate: str, obj: str, polarity: bool = True) -> str:
    """The machine-readable conclusion text of a step."""
    return f"{subject} {'' if polarity else 'NOT '}{predicate} {obj}"


def fact_ids(items: Iterable[Evidence]) -> tuple[str, ...]:
    """Fact ids, first-use order, no repeats."""
    return tuple(dict.fromkeys(e.fact_id for e in items))


def sources(items: Iterable[Evidence]) -> tuple[str, ...]:
    """Sources, first-use order, no repeats."""
    return tuple(dict.fromkeys(e.source for e in items if e.source))
