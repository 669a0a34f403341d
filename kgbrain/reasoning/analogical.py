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

import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kgbrain.reasoning.analogy_index import VectorIndex
from kgbrain.reasoning.closure import Hierarchy
from kgbrain.reasoning.graph import FactGraph
from kgbrain.reasoning.trace import Step
from kgbrain.reasoning.uncertainty import MEDIUM_CONFIDENCE
from kgbrain.store.protocol import GraphStore

DIM = 128
EXACT_WEIGHT = 1.0
PARALLEL_WEIGHT = 0.6
PREDICATE_WEIGHT = 0.25
INCOMING_FACTOR = 0.5
HIERARCHY_FACTOR = 0.3  # sharing a parent class is attribute-like similarity; relations weigh more (Gentner)
SKIP = frozenset({"similar_to"})  # the claim under test must not make itself true
HIERARCHY = ("is_a", "instance_of")
SHARED_HALF = 3  # shared relations at which an unsupported analogy reaches half of MEDIUM_CONFIDENCE
CANDIDATES = 20


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


Signature = dict[str, float]


def _fact_features(
    s: str, p: str, o: str, polarity: bool, parents: Callable[[str], list[str]]
) -> Iterable[tuple[str, str, float]]:
    """(concept, feature, weight) contributions of one fact to its subject's and object's signatures."""
    if p in SKIP:
        return
    sign = "" if polarity else "!"
    factor = HIERARCHY_FACTOR if p in HIERARCHY else 1.0
    yield s, f">{sign}{p}:{o}", EXACT_WEIGHT * factor
    for parent in parents(o):
        yield s, f">{sign}{p}:^{parent}", PARALLEL_WEIGHT * factor
    yield s, f">{sign}{p}", PREDICATE_WEIGHT * factor
    yield o, f"<{sign}{p}:{s}", EXACT_WEIGHT * INCOMING_FACTOR * factor
    yield o, f"<{sign}{p}", PREDICATE_WEIGHT * INCOMING_FACTOR * factor


def _features(
    facts: Iterable[tuple[str, str, str, bool]], concept: str, parents: Callable[[str], list[str]]
) -> Signature:
    sig: Signature = defaultdict(float)
    for s, p, o, polarity in facts:
        for c, feature, weight in _fact_features(s, p, o, polarity, parents):
            if c == concept:
                sig[feature] += weight
    return sig


def _slot(feature: str) -> tuple[int, float]:
    # crc32 is stable across processes (the index is built in one and queried in another) and fast.
    h = zlib.crc32(feature.encode("utf-8"))
    return h % DIM, 1.0 if (h >> 16) & 1 else -1.0


def _vector(sig: Signature) -> np.ndarray:
    vec = np.zeros(DIM, dtype=np.float32)
    for feature, weight in sig.items():
        slot, sign = _slot(feature)
        vec[slot] += sign * weight
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


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

    def _parents(self) -> Callable[[str], list[str]]:
        h = self._hierarchy()
        return lambda c: [p for p, _ in h.parents(c)]

    def _fingerprint(self) -> dict[str, int]:
        row = self.store.run("ana_fingerprint")[0]
        return {"concepts": int(row["concepts"]), "facts": int(row["facts"])}

    def index(self) -> VectorIndex:
        """The current index: the persisted one when its fingerprint matches the data, else rebuilt.

        Raises:
            StoreError: the store failed.
        """
        if self._index is not None:
            return self._index
        fingerprint = self._fingerprint()
        found = VectorIndex.open(self.folder, DIM) if self.folder is not None else None
        if found is None or found.fingerprint != fingerprint:
            found = self._build(fingerprint)
        self._index = found
        return found

    def _build(self, fingerprint: dict[str, int]) -> VectorIndex:
        # Signatures are additive, so each fact is added straight into its subject's and object's rows:
        # one pass over the facts, one float32 matrix, no per-concept fact lists (200k concepts: ~100 MB).
        parents = self._parents()
        rows: dict[str, int] = {}
        matrix = np.zeros((1024, DIM), dtype=np.float32)
        slots: dict[str, tuple[int, float]] = {}

        def add(concept: str, feature: str, weight: float) -> None:
            nonlocal matrix
            row = rows.get(concept)
            if row is None:
                row = rows[concept] = len(rows)
                if row >= len(matrix):
                    matrix = np.concatenate([matrix, np.zeros_like(matrix)])
            slot = slots.get(feature)
            if slot is None:
                slot = _slot(feature)
                if len(slots) < 200_000:  # features repeat a lot (predicates, popular objects); cache those
                    slots[feature] = slot
            matrix[row, slot[0]] += slot[1] * weight

        g = self._graph()
        names_of, preds_of = g.names, g.pred_names
        for s, p, o, polarity in zip(
            g.subject.tolist(), g.predicate.tolist(), g.object.tolist(), g.polarity.tolist(), strict=True
        ):
            for concept, feature, weight in _fact_features(names_of[s], preds_of[p], names_of[o], polarity, parents):
                add(concept, feature, weight)
        names = sorted(rows, key=rows.__getitem__)
        vectors = matrix[: len(names)]
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        vectors /= np.where(norms == 0, 1.0, norms)
        index = VectorIndex(DIM)
        for start in range(0, len(names), 20_000):
            index.upsert(names[start : start + 20_000], vectors[start : start + 20_000])
        index.fingerprint = fingerprint
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
            if self.folder is not None and (self.folder / "meta.json").exists():
                self.index()  # stale on disk: rebuilt against the new data (fingerprint differs)
            return
        signatures = self._signatures(sorted(concepts))
        names = sorted(signatures)
        if names:
            self._index.upsert(names, np.stack([_vector(signatures[n]) for n in names]))
        self._index.fingerprint = self._fingerprint()
        self._save(self._index)

    def _facts_of(self, concepts: list[str]) -> dict[str, list[dict[str, Any]]]:
        g = self._graph()
        out: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for concept in concepts:
            seen: set[str] = set()
            for e in [*g.out(concept), *g.into(concept)]:
                if e.fact_id not in seen:  # a fact from a concept to itself is both out and in
                    seen.add(e.fact_id)
                    out[concept].append(
                        {
                            "subject": e.subject,
                            "predicate": e.predicate,
                            "object": e.object,
                            "polarity": e.polarity,
                            "fact_id": e.fact_id,
                            "confidence": e.confidence,
                            "source": e.source,
                        }
                    )
        return out

    def _signatures(self, concepts: list[str]) -> dict[str, Signature]:
        parents = self._parents()
        facts = self._facts_of(concepts)
        return {
            c: _features(
                ((str(r["subject"]), str(r["predicate"]), str(r["object"]), bool(r["polarity"])) for r in rows),
                c,
                parents,
            )
            for c, rows in facts.items()
        }

    def similar(self, concept: str, *, limit: int = 5) -> list[Analogy]:
        """Concepts whose relation signature is closest to `concept`'s, with their shared structure.

        Raises:
            StoreError: the store failed.
        """
        index = self.index()
        facts = self._facts_of([concept])
        if not facts.get(concept):
            return []
        parents = self._parents()
        mine = facts[concept]
        vec = _vector(
            _features(
                ((str(r["subject"]), str(r["predicate"]), str(r["object"]), bool(r["polarity"])) for r in mine),
                concept,
                parents,
            )
        )
        hits = [(c, sim) for c, sim in index.query(vec, CANDIDATES + 1) if c != concept and sim > 0]
        if not hits:
            return []
        theirs = self._facts_of([c for c, _ in hits])
        out = []
        for other, sim in hits:
            analogy = _explain(concept, other, sim, mine, theirs.get(other, []), parents)
            if analogy.shared:
                out.append(analogy)
        # Rank by similarity weighted by how much structure is actually shared (one shared edge is a weak analogy).
        out.sort(key=lambda a: (-a.similarity * len(a.shared), a.other))
        return out[:limit]


def _explain(
    concept: str,
    other: str,
    sim: float,
    mine: list[dict[str, Any]],
    theirs: list[dict[str, Any]],
    parents: Callable[[str], list[str]],
) -> Analogy:
    def outgoing(rows: list[dict[str, Any]], c: str) -> dict[tuple[str, str], dict[str, Any]]:
        return {
            (str(r["predicate"]), str(r["object"])): r
            for r in rows
            if r["subject"] == c and r["polarity"] and r["predicate"] not in SKIP
        }

    a, b = outgoing(mine, concept), outgoing(theirs, other)
    shared: list[tuple[str, str, str]] = []
    steps: list[Step] = []
    for (p, o), r in sorted(a.items()):
        if (p, o) in b:
            shared.append((p, o, o))
            rb = b[(p, o)]
            # RULE ana.relational-match: both stand in the same relation to the same concept
            steps.append(
                Step(
                    "ana.relational-match",
                    f"{concept} {p} {o} ~ {other} {p} {o}",
                    (str(r["fact_id"]), str(rb["fact_id"])),
                    tuple(dict.fromkeys(str(x["source"]) for x in (r, rb) if x["source"])),
                    round(min(float(r["confidence"]), float(rb["confidence"])), 4),
                )
            )
    used = {(p, o) for p, o, _ in shared}
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
                steps.append(
                    Step(
                        "ana.parallel-match",
                        f"{concept} {p} {o} ~ {other} {p} {o2}",
                        (str(r["fact_id"]), str(rb["fact_id"])),
                        tuple(dict.fromkeys(str(x["source"]) for x in (r, rb) if x["source"])),
                        round(min(float(r["confidence"]), float(rb["confidence"])), 4),
                        f"both are {common}",
                    )
                )
                break
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
