"""Analogical reasoning: concepts with a similar relation structure (seed 001 §2.3).

Theory: structure mapping (Gentner, 1983): an analogy rests on shared relations, not shared attributes.
A concept's *relation signature* is the bag of (direction, predicate, object) it takes part in, plus the
same with each object replaced by its `is_a` parents, so that `neuron part_of neural_network` and
`transistor part_of electronic_circuit` match through `network`. The signature is hashed into a fixed-size
vector (no ML model) and indexed with hnswlib; the neighbours' shared structure is then computed exactly.
An analogy is a hypothesis: its confidence stays below MEDIUM_CONFIDENCE unless a stored `similar_to`
fact supports it.

Rule ids: `ana.relational-match` (same predicate, same object), `ana.parallel-match` (same predicate,
objects with a common parent), `ana.supported` (a stored similar_to fact), `ana.hypothesis`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from kgbrain.reasoning.modes.analogy_index import VectorIndex
from kgbrain.reasoning.modes.signatures import DIM, HIERARCHY, SKIP, Embedder
from kgbrain.reasoning.results import Step
from kgbrain.reasoning.uncertainty import MEDIUM_CONFIDENCE
from kgbrain.reasoning.views.cache_files import read_cache
from kgbrain.reasoning.views.graph import FactGraph, fingerprint
from kgbrain.reasoning.views.hierarchy import Hierarchy
from kgbrain.store.protocol import GraphStore

SHARED_HALF = 3  # shared relations at which an unsupported analogy reaches half of MEDIUM_CONFIDENCE
CANDIDATES = 12


@dataclass(frozen=True, slots=True)
class Analogy:
    """A concept similar to the query concept, and why."""

    concept: str
    other: str
    similarity: float  # cosine of the relation signatures
    confidence: float  # capped below MEDIUM_CONFIDENCE unless supported
    supported: bool  # a stored similar_to fact backs it
    shared: tuple[tuple[str, str, str], ...]  # (predicate, object of concept, object of other)
    differences: tuple[str, ...]
    steps: tuple[Step, ...]

    @property
    def score(self) -> float:
        """What analogies are ranked by: similarity weighted by how much structure is shared."""
        return self.similarity * len(self.shared)


class Analogies:
    """The analogy index of one store: built lazily, persisted in `folder`, updated by load hooks."""

    def __init__(
        self,
        store: GraphStore,
        graph: Callable[[], FactGraph],
        hierarchy: Callable[[], Hierarchy],
        folder: Path | None,
    ) -> None:
        """Index the concepts of `store` (read through the `graph` mirror); persist in `folder` (None: memory)."""
        self.store = store
        self._graph = graph
        self._hierarchy = hierarchy
        self.folder = folder
        self._index: VectorIndex | None = None
        self._embedder: Embedder | None = None
        # Save the index after each update (a CLI load); a server saves it once, when it stops (`persist`).
        self.save_updates = True

    def invalidate(self) -> None:
        """Forget the embedder (its graph is stale after a load); the index itself is updated by `update`."""
        self._embedder = None

    def embedder(self) -> Embedder:
        """The signature embedder over the current graph (cached)."""
        if self._embedder is None or self._embedder.graph is not self._graph():
            self._embedder = Embedder(self._graph(), self._hierarchy())
        return self._embedder

    def _parents(self) -> Callable[[str], list[str]]:
        h = self._hierarchy()
        return lambda c: [p for p, _ in h.parents(c)]

    def _fingerprint(self) -> dict[str, float]:
        return fingerprint(self.store)

    def index(self) -> VectorIndex:
        """The current index: the persisted one when its fingerprint matches the data, else rebuilt.

        Raises:
            StoreError: the store failed.
        """
        if self._index is not None:
            return self._index
        stamp = self._fingerprint()
        found = read_cache(partial(VectorIndex.open, self.folder, DIM)) if self.folder is not None else None
        if found is None or found.fingerprint != stamp:
            found = self._build(stamp)
        self._index = found
        return found

    def _build(self, stamp: dict[str, float]) -> VectorIndex:
        embedder = self.embedder()
        vectors = embedder.matrix()
        norms = np.linalg.norm(vectors, axis=1)
        keep = np.nonzero(norms > 0)[0]
        vectors = vectors[keep] / norms[keep, None]
        names = [embedder.graph.names[int(i)] for i in keep]
        index = VectorIndex(DIM)
        for start in range(0, len(names), 50_000):
            index.upsert(names[start : start + 50_000], vectors[start : start + 50_000])
        index.fingerprint = stamp
        self._save(index)
        return index

    def _save(self, index: VectorIndex) -> None:
        if self.folder is not None:
            try:
                index.save(self.folder)
            except OSError:
                # A read-only location: the index still works from memory; it is rebuilt next time.
                return

    def update(self, concepts: set[str]) -> None:
        """Re-embed these concepts (and keep the persisted index current); a no-op before first use.

        Raises:
            StoreError: the store failed.
        """
        if self._index is None:
            # Not in use in this process: a persisted index now has a stale fingerprint and is rebuilt on
            # first use, rather than inside this load's transaction.
            return
        embedder = self.embedder()
        found = {c: v for c in sorted(concepts) if (v := embedder.vector(c)) is not None}
        if found:
            self._index.upsert(list(found), np.stack(list(found.values())))
        self._index.fingerprint = self._fingerprint()
        if self.save_updates:
            self._save(self._index)

    def persist(self) -> None:
        """Save the index as it is now (nothing before first use)."""
        if self._index is not None:
            self._save(self._index)

    def _outgoing(self, concept: str) -> list[dict[str, Any]]:
        return [
            {
                "subject": e.subject,
                "predicate": e.predicate,
                "object": e.object,
                "polarity": e.polarity,
                "fact_id": e.fact_id,
                "confidence": e.confidence,
                "source": e.source,
            }
            for e in self._graph().out(concept)
        ]

    def similar(self, concept: str, *, limit: int = 5) -> list[Analogy]:
        """Concepts whose relation signature is closest to `concept`'s, with their shared structure.

        Raises:
            StoreError: the store failed.
        """
        index = self.index()
        vec = self.embedder().vector(concept)
        if vec is None:
            return []
        hits = [(c, sim) for c, sim in index.query(vec, CANDIDATES + 1) if c != concept and sim > 0]
        if not hits:
            return []
        parents = self._parents()
        mine = self._outgoing(concept)
        out = []
        for other, sim in hits:
            analogy = _explain(concept, other, sim, mine, self._outgoing(other), parents)
            if analogy.shared:
                out.append(analogy)
        # Rank by similarity weighted by how much structure is actually shared (one shared edge is a weak analogy).
        out.sort(key=lambda a: (-a.score, a.other))
        return out[:limit]


_Rows = dict[tuple[str, str], dict[str, Any]]  # (predicate, object) -> a concept's positive fact row


def _explain(
    concept: str,
    other: str,
    sim: float,
    mine: list[dict[str, Any]],
    theirs: list[dict[str, Any]],
    parents: Callable[[str], list[str]],
) -> Analogy:
    a, b = _outgoing(mine, concept), _outgoing(theirs, other)
    shared, steps = _relational_matches(concept, other, a, b)
    more, parallel = _parallel_matches(concept, other, a, b, {(p, o) for p, o, _ in shared}, parents)
    shared += more
    steps += parallel
    matched_b = {(p, o2) for p, _, o2 in shared}
    differences = tuple(f"{concept} {p} {o}" for (p, o) in sorted(a) if (p, o) not in {(x, y) for x, y, _ in shared})[
        :5
    ]
    differences += tuple(f"{other} {p} {o}" for (p, o) in sorted(b) if (p, o) not in matched_b)[:5]
    support = [
        r
        for r in (*mine, *theirs)
        if r["predicate"] == "similar_to" and r["polarity"] and {r["subject"], r["object"]} == {concept, other}
    ]
    if support:
        conf = max(float(r["confidence"]) for r in support)
        # RULE ana.supported: a stored similar_to fact backs the analogy
        steps.append(
            Step(
                "ana.supported",
                f"{concept} similar_to {other}",
                tuple(str(r["fact_id"]) for r in support),
                tuple(str(r["source"]) for r in support if r["source"]),
                round(conf, 4),
            )
        )
        confidence = min(conf, sim)
    else:
        # More shared relations make a better hypothesis, but never more than MEDIUM_CONFIDENCE without evidence.
        confidence = MEDIUM_CONFIDENCE * len(shared) / (len(shared) + SHARED_HALF)
        # RULE ana.hypothesis: an unsupported analogy is a hypothesis, capped below medium confidence
    steps.append(
        Step(
            "ana.hypothesis",
            f"{concept} ~ {other}",
            (),
            (),
            round(confidence, 4),
            f"structural similarity {sim:.3f}; {len(shared)} shared relations"
            + ("" if support else "; uncertain without supporting evidence"),
        )
    )
    return Analogy(concept, other, sim, round(confidence, 4), bool(support), tuple(shared), differences, tuple(steps))


def _outgoing(rows: list[dict[str, Any]], c: str) -> _Rows:
    return {
        (str(r["predicate"]), str(r["object"])): r
        for r in rows
        if r["subject"] == c and r["polarity"] and r["predicate"] not in SKIP
    }


def _match_step(rule: str, text: str, r: dict[str, Any], rb: dict[str, Any], note: str = "") -> Step:
    """A step matching one fact of each concept (confidence: the weaker fact's)."""
    return Step(
        rule,
        text,
        (str(r["fact_id"]), str(rb["fact_id"])),
        tuple(dict.fromkeys(str(x["source"]) for x in (r, rb) if x["source"])),
        round(min(float(r["confidence"]), float(rb["confidence"])), 4),
        note,
    )


def _relational_matches(concept: str, other: str, a: _Rows, b: _Rows) -> tuple[list[tuple[str, str, str]], list[Step]]:
    shared: list[tuple[str, str, str]] = []
    steps: list[Step] = []
    for (p, o), r in sorted(a.items()):
        if (p, o) in b:
            shared.append((p, o, o))
            # RULE ana.relational-match: both stand in the same relation to the same concept
            steps.append(_match_step("ana.relational-match", f"{concept} {p} {o} ~ {other} {p} {o}", r, b[(p, o)]))
    return shared, steps


def _parallel_matches(
    concept: str, other: str, a: _Rows, b: _Rows, used: set[tuple[str, str]], parents: Callable[[str], list[str]]
) -> tuple[list[tuple[str, str, str]], list[Step]]:
    shared: list[tuple[str, str, str]] = []
    steps: list[Step] = []
    for (p, o), r in sorted(a.items()):
        if (p, o) in used:
            continue
        ps = set(parents(o))
        for (q, o2), rb in sorted(b.items()):
            if (
                q == p
                and p not in HIERARCHY
                and o2 != o
                and (q, o2) not in b.keys() & a.keys()
                and ps & set(parents(o2))
            ):
                common = sorted(ps & set(parents(o2)))[0]
                shared.append((p, o, o2))
                # RULE ana.parallel-match: the same relation to different concepts of a common kind
                text = f"{concept} {p} {o} ~ {other} {p} {o2}"
                steps.append(_match_step("ana.parallel-match", text, r, rb, f"both are {common}"))
                break
    return shared, steps
