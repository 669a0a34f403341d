"""The knowledge base as of a time (`--as-of`): facts whose validity interval misses the window are out of time.

A `TimedStore` wraps a store for reading. It knows the interval of every fact that has one (read once through
queries/timed_facts.cypher; facts without an interval hold at all times) and rewrites the rows of every named
read: a fact outside the window that was `active` reads as `out_of_time` (shown for context, never used as
evidence, exactly like an outdated fact), and a row of a query that keeps active facts only (it has a fact id
and no status) is dropped. Every reader above (the fact mirror, the deducer's lookups, retrieval, concept
facts, the proof's premises) sees the same knowledge base, so an answer, a verdict and a proof as of a time
agree by construction. The mirror is not re-read: `FactGraph.without` masks the out-of-time positions of the
full one.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from kgbrain.knowledge import Status
from kgbrain.store.protocol import GraphStore, Row
from kgbrain.timeline import Window, describe, holds, utc

OUT_OF_TIME = Status.OUT_OF_TIME.value
_ACTIVE = Status.ACTIVE.value

Interval = tuple[datetime | None, datetime | None]


@dataclass(frozen=True, slots=True)
class Timeline:
    """The intervals of the facts that have one (fact id -> [valid_from, valid_to))."""

    intervals: dict[str, Interval]  # as stated
    holding: dict[str, Interval] | None = None  # when each holds, hand-overs settled (None: as stated)

    @classmethod
    def read(cls, store: GraphStore) -> Timeline:
        """Every stated interval.

        Raises:
            StoreError: the store failed.
        """
        rows = [r for r in store.iterate("timed_facts") if r["fact_id"] is not None]
        intervals = {r["fact_id"]: (_aware(r["valid_from"]), _aware(r["valid_to"])) for r in rows}
        if intervals:
            intervals = _derived(intervals, store)
        functional = {r["name"] for r in store.run("predicates_all") if r["functional"]}
        return cls(intervals, _handed_over(intervals, [r for r in rows if r["predicate"] in functional]))

    def outside(self, window: Window) -> frozenset[str]:
        """The facts that do not hold at any time in the window."""
        held = self.holding if self.holding is not None else self.intervals
        return frozenset(f for f, (start, end) in held.items() if not holds(start, end, window))

    def next_change(self, instant: datetime) -> datetime:
        """The first interval end after `instant` (datetime.max when none): until then, the facts that hold at
        `instant` are the ones that hold now (so "as of now" is worked out once per change, not per question)."""
        held = self.holding if self.holding is not None else self.intervals
        ends = (e for pair in held.values() for e in pair if e is not None and e > instant)
        return min(ends, default=datetime.max.replace(tzinfo=instant.tzinfo))

    def described(self, fact_ids: Iterable[str]) -> dict[str, str]:
        """`fact id -> "2019-10-07..2023-05-01"` for those of `fact_ids` with an interval, in the given order."""
        found = self.intervals
        return {f: describe(*found[f]) for f in dict.fromkeys(fact_ids) if f in found}


def _derived(intervals: dict[str, Interval], store: GraphStore) -> dict[str, Interval]:
    """`intervals` with those of derived facts: a derivation holds while all its premises hold (the intersection
    of their intervals, empty when they never hold together), a fact derived several ways over the hull of its
    derivations' intervals; one derived from premises that always hold always holds."""
    ways: dict[str, list[list[str]]] = {}
    for r in store.iterate("export_derivations"):
        if r["status"] in (None, "active"):
            ways.setdefault(r["fact_id"], []).append(list(r["premises"] or []))
    out = dict(intervals)
    for _ in range(8):  # premises derived in turn: a few passes reach a chain's end
        changed = False
        for fact, derivations in ways.items():
            spans = [_meet([out.get(p, (None, None)) for p in premises]) for premises in derivations]
            found = _hull(spans)
            if found != out.get(fact, (None, None)) and fact not in intervals:
                out[fact] = found
                changed = True
        if not changed:
            break
    return {f: span for f, span in out.items() if span != (None, None)}


def _meet(spans: list[Interval]) -> Interval:
    starts = [s for s, _ in spans if s is not None]
    ends = [e for _, e in spans if e is not None]
    start, end = (max(starts) if starts else None), (min(ends) if ends else None)
    if start is not None and end is not None and end < start:
        return start, start  # never together
    return start, end


def _hull(spans: list[Interval]) -> Interval:
    if not spans:
        return None, None
    starts = [s for s, _ in spans if s is not None]
    ends = [e for _, e in spans if e is not None]
    return (min(starts) if len(starts) == len(spans) else None), (max(ends) if len(ends) == len(spans) else None)


def _handed_over(intervals: dict[str, Interval], rows: list[Row]) -> dict[str, Interval]:
    """`intervals` with each hand-over between two values of a functional predicate settled for the successor: a
    value stated "until 2021-02-01" and its successor "from 2021-02-01" overlap by that day (timeline.HANDOVER),
    and on that day the successor holds, so the predecessor's end moves to the successor's start."""
    from itertools import combinations

    from kgbrain.timeline import handover

    groups: dict[tuple[Any, ...], list[Row]] = {}
    for r in rows:
        groups.setdefault((r["subject"], r["predicate"], r["polarity"]), []).append(r)
    out = dict(intervals)
    for group in groups.values():
        group.sort(key=lambda r: out[r["fact_id"]][0] or _DAWN)
        for first, then in combinations(group, 2):
            a, b = first["fact_id"], then["fact_id"]
            if first["object"] != then["object"] and handover(out[a], out[b]):
                out[a] = (out[a][0], out[b][0])
    return out


_DAWN = datetime.min.replace(tzinfo=timezone.utc)


def _aware(stamp: datetime | None) -> datetime | None:
    return utc(stamp) if stamp is not None else None


class TimedStore:
    """`store` read as of `window` (see the module docstring); every other member is the wrapped store's."""

    def __init__(self, store: GraphStore, window: Window, timeline: Timeline) -> None:
        """Read `store` as of `window`, with the intervals of `timeline`."""
        self.inner = store
        self.window = window
        self.timeline = timeline
        self.outside = timeline.outside(window)

    @property
    def path(self) -> Path | None:
        """The wrapped store's file (no cache beside it is used as of a time)."""
        return self.inner.path

    def __getattr__(self, name: str) -> Any:
        # Only called for what this object lacks: the writes and engine members of the wrapped store.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """The rows of a named query, as of the window."""
        return list(self._timed(self.inner.run(name, **params)))

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Like `run`, streaming."""
        return self._timed(self.inner.iterate(name, **params))

    def _timed(self, rows: Iterable[Row]) -> Iterator[Row]:
        outside = self.outside
        for row in rows:
            fid = row.get("fact_id")
            if fid is None or fid not in outside:
                yield row
            elif "status" in row:
                yield {**row, "status": OUT_OF_TIME} if row["status"] == _ACTIVE else row
            # else: a query of active facts only; out of time, the fact is not among them

    def close(self) -> None:
        """Nothing: the wrapped store belongs to the Brain this view was made from."""
