"""Relation signatures of concepts as fixed-size vectors, computed with numpy over the FactGraph mirror.

A concept's signature (Gentner's structure mapping: relations, not attributes) is the weighted bag of
- `>p:o`  it states `p` about `o`;          - `>p:^c` it states `p` about something whose parent is `c`;
- `>p`    it states `p` at all;             - `<p:s`  `s` states `p` about it;   - `<p` something does;
with a negative fact marked apart and hierarchy predicates down-weighted. Each feature is hashed (from
crc32 hashes of its parts, so it is stable across processes) into one of DIM signed slots: the hashing
trick (Weinberger et al., 2009). The same function embeds the whole graph for the index and one concept
at query time, so both always agree.
"""

from __future__ import annotations

import zlib

import numpy as np

from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy

DIM = 128
EXACT_WEIGHT = 1.0
PARALLEL_WEIGHT = 0.6
PREDICATE_WEIGHT = 0.25
INCOMING_FACTOR = 0.5
HIERARCHY_FACTOR = 0.3  # sharing a parent class is attribute-like similarity; relations weigh more
SKIP = ("similar_to",)  # the analogy under test must not make itself true
HIERARCHY = ("is_a", "instance_of")
_OUT, _PARALLEL, _PREDICATE, _IN, _IN_PREDICATE = 1, 2, 3, 4, 5
_MASK = np.uint64(0xFFFFFFFF)


def name_hashes(names: list[str]) -> np.ndarray:
    """crc32 of each name (stable across processes, unlike `hash`)."""
    return np.fromiter((zlib.crc32(n.encode("utf-8")) for n in names), dtype=np.uint64, count=len(names))


def _mix(kind: int, negative: np.ndarray, predicate: np.ndarray, target: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # A small integer hash (murmur3-style finaliser) of the feature's parts: its slot and its sign.
    h = (np.uint64(kind) * np.uint64(0x9E3779B1)) & _MASK
    h ^= (negative.astype(np.uint64) * np.uint64(0x85EBCA77)) & _MASK
    h ^= (predicate * np.uint64(0xC2B2AE3D)) & _MASK
    h = (h + target * np.uint64(0x27D4EB2F)) & _MASK
    h ^= h >> np.uint64(16)
    h = (h * np.uint64(0x85EBCA6B)) & _MASK
    h ^= h >> np.uint64(13)
    h = (h * np.uint64(0xC2B2AE35)) & _MASK
    h ^= h >> np.uint64(16)
    slot = (h % np.uint64(DIM)).astype(np.int64)
    sign = np.where((h >> np.uint64(20)) & np.uint64(1), 1.0, -1.0).astype(np.float32)
    return slot, sign


class Embedder:
    """Embeds concepts of one FactGraph (with its Hierarchy) into DIM-dimensional signature vectors."""

    def __init__(self, graph: FactGraph, hierarchy: Hierarchy) -> None:
        """Hash every concept and predicate name once."""
        self.graph = graph
        self.hierarchy = hierarchy
        self.hnames = _NameHashes(graph.names)
        self.hpreds = name_hashes(graph.pred_names)
        self.skip = np.asarray([graph.predicate_id(p) for p in SKIP], dtype=np.int16)
        self.down = np.asarray([graph.predicate_id(p) for p in HIERARCHY], dtype=np.int16)

    def contributions(self, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(concept row, slot, signed weight) of every feature the facts at `positions` contribute."""
        g, h = self.graph, self.hierarchy
        pos = positions[~np.isin(g.predicate[positions], self.skip)]
        s = g.subject[pos].astype(np.int64)
        o = g.object[pos].astype(np.int64)
        p = self.hpreds[g.predicate[pos].astype(np.int64)]
        neg = ~g.polarity[pos]
        factor = np.where(np.isin(g.predicate[pos], self.down), HIERARCHY_FACTOR, 1.0).astype(np.float32)
        zero = np.zeros(len(pos), dtype=np.uint64)
        rows, slots, values = [], [], []

        def add(
            owner: np.ndarray, kind: int, target: np.ndarray, weight: np.ndarray, negative: np.ndarray, pred: np.ndarray
        ) -> None:
            slot, sign = _mix(kind, negative, pred, target)
            rows.append(owner)
            slots.append(slot)
            values.append(sign * weight)

        add(s, _OUT, self.hnames[o], EXACT_WEIGHT * factor, neg, p)
        add(s, _PREDICATE, zero, PREDICATE_WEIGHT * factor, neg, p)
        add(o, _IN, self.hnames[s], EXACT_WEIGHT * INCOMING_FACTOR * factor, neg, p)
        add(o, _IN_PREDICATE, zero, PREDICATE_WEIGHT * INCOMING_FACTOR * factor, neg, p)
        # Parallel features: one per (fact, parent of its object), expanded with the hierarchy's CSR arrays.
        valid = o < len(h.offsets) - 1
        starts = np.where(valid, h.offsets[np.minimum(o, len(h.offsets) - 2)], 0)
        counts = np.where(valid, h.offsets[np.minimum(o, len(h.offsets) - 2) + 1] - starts, 0)
        if counts.sum():
            fact = np.repeat(np.arange(len(pos)), counts)
            within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
            parents = h.targets[np.repeat(starts, counts) + within].astype(np.int64)
            add(s[fact], _PARALLEL, self.hnames[parents], PARALLEL_WEIGHT * factor[fact], neg[fact], p[fact])
        return np.concatenate(rows), np.concatenate(slots), np.concatenate(values)

    def matrix(self, chunk: int = 200_000) -> np.ndarray:
        """Unnormalised signature vectors of every concept of the graph (row = concept id)."""
        out = np.zeros((len(self.graph.names), DIM), dtype=np.float32)
        for start in range(0, self.graph.facts, chunk):
            rows, slots, values = self.contributions(np.arange(start, min(start + chunk, self.graph.facts)))
            np.add.at(out, (rows, slots), values)
        return out

    def vector(self, concept: str) -> np.ndarray | None:
        """The unit signature vector of one concept (None when it takes part in no active fact)."""
        i = self.graph.index.get(concept)
        if i is None:
            return None
        positions = _union(self.graph.out_positions(concept), self.graph.in_positions(concept))
        rows, slots, values = self.contributions(positions)
        vec = np.zeros(DIM, dtype=np.float32)
        mine = rows == i
        np.add.at(vec, slots[mine], values[mine])
        norm = float(np.linalg.norm(vec))
        return vec / norm if norm else None


def _union(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """np.union1d without np.unique, which imports numpy.ma on first use (40-90 ms of a CLI question)."""
    both = np.concatenate((a, b))
    both.sort()
    if len(both) < 2:
        return both
    return both[np.concatenate(([True], both[1:] != both[:-1]))]


class _NameHashes:
    """`name_hashes(names)`, each hashed when first indexed: one concept's vector needs its neighbours' hashes,
    not the 200k names of a 1M-fact base (half a second of every CLI question that asks for an analogy)."""

    __slots__ = ("_done", "_names", "_values", "_whole")

    def __init__(self, names: list[str]) -> None:
        self._names = names
        self._values = np.zeros(len(names), dtype=np.uint64)
        self._done = np.zeros(len(names), dtype=bool)
        self._whole = False

    def __getitem__(self, at: np.ndarray) -> np.ndarray:
        if not self._whole:
            wanted = np.asarray(at).ravel()
            missing = wanted[~self._done[wanted]]
            if len(missing) > len(self._names) // 8:
                self._values = name_hashes(self._names)
                self._whole = True
            elif len(missing):
                names = self._names
                for i in set(missing.tolist()):
                    self._values[i] = zlib.crc32(names[i].encode("utf-8"))
                self._done[missing] = True
        found: np.ndarray = self._values[at]
        return found
