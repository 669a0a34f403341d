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

from kgbrain.store import schema


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


class DeltaRecorder:
    """Records what a connection's writes do to the facts, once `track` is called; a transaction's changes count
    when it commits (`begin`, `commit`) and are dropped when it rolls back."""

    def __init__(self) -> None:
        """Not recording yet."""
        self._committed: FactDelta | None = None
        self._pending = FactDelta()  # what the running transaction did

    @property
    def tracking(self) -> bool:
        """`track` was called."""
        return self._committed is not None

    def track(self) -> None:
        """Start recording (what was recorded before is dropped)."""
        self._committed = FactDelta()

    def take(self) -> FactDelta | None:
        """What committed writes did since the last call (None: not recording)."""
        delta = self._committed
        if delta is not None:
            self._committed = FactDelta()
        return delta

    def begin(self) -> None:
        """A write transaction starts: record what it does apart."""
        if self._committed is not None:
            self._pending = FactDelta()

    def commit(self) -> None:
        """The transaction committed: what it did counts."""
        if self._committed is not None:
            self._committed.merge(self._pending)

    def rows(self, table: str, rows: Any) -> None:
        """Relationships written to `table` (a pyarrow Table: from, to, then the table's properties)."""
        source, target, props = schema.REL_TABLES[table]
        if self._committed is None or (source, target) != ("Concept", "Concept") or "fact_id" not in props:
            return
        columns = rows.rename_columns(["subject", "object", *rows.column_names[2:]]).to_pylist()
        self._pending.added += columns

    def update(self, params: dict[str, Any]) -> None:
        """A named query updated fact edges of `params["subjects"]` (status and confidence by id, or a revival)."""
        if self._committed is None:
            return
        delta = self._pending
        subjects, ids = params.get("subjects"), params.get("ids")
        statuses, confidences = params.get("statuses"), params.get("confidences")
        if not isinstance(subjects, list) or not isinstance(ids, list):
            delta.unknown = True
        elif isinstance(statuses, list) and isinstance(confidences, list):
            for fact_id, status, confidence in zip(ids, statuses, confidences, strict=True):
                delta.updated[fact_id] = (status, float(confidence))
            delta.update_subjects.update(subjects)
        else:  # a revival: the facts come back with all their columns, read again
            delta.reread.update(subjects)

    def unknown(self) -> None:
        """A write changed facts in a way not recorded here (the reader then rebuilds its mirror)."""
        if self._committed is not None:
            self._pending.unknown = True
