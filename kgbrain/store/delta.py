"""What writes did to the facts between two concepts, recorded by the store for a server's hot mirror.

A server's reader keeps an in-memory mirror of the active concept-to-concept facts. Re-reading even a handful of
subjects through Kùzu costs seconds on a 1M-fact knowledge base (an anchored UNWIND plans a scan of every fact
table), so the writing store records what each write did, from the rows it writes: facts appended (with their
columns) and status/confidence updates by fact id. `reread` names subjects whose facts must be read again (a
derived fact revived); `unknown` means a write changed facts in a way not recorded here (then rebuild).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FactDelta:
    """Fact changes since the last `take`; applied in this order: `added`, then `updated`, then `reread`."""

    added: list[dict[str, Any]] = field(default_factory=list)  # subject/object/predicate/... rows (graph_facts')
    updated: dict[str, tuple[str, float]] = field(default_factory=dict)  # fact id -> (status, confidence)
    update_subjects: set[str] = field(default_factory=set)  # subjects of every updated fact (and maybe more)
    reread: set[str] = field(default_factory=set)
    unknown: bool = False

    @property
    def empty(self) -> bool:
        """Nothing changed."""
        return not (self.added or self.updated or self.reread or self.unknown)

    def merge(self, later: FactDelta) -> None:
        """Add what `later` (a transaction committed after these) did."""
        self.added += later.added
        self.updated.update(later.updated)
        self.update_subjects |= later.update_subjects
        self.reread |= later.reread
        self.unknown = self.unknown or later.unknown
