"""An in-memory mirror of the active `is_a`/`instance_of` hierarchy, for fast closure queries.

Kùzu stays the source of truth; this mirror holds only (child, parent, confidence) of active positive edges,
as integer arrays, and is rebuilt lazily after a load. Measured (bench/reasoning.py): Kùzu's BFS form
`-[:IS_A* SHORTEST 1..30]->` answers ancestors in milliseconds and caps depth at 30 hops per query, while a
breadth-first walk over this mirror answers in well under a millisecond and has no depth limit, so a
100,000-level chain is one walk instead of thousands of queries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from kgbrain.store.protocol import GraphStore


@dataclass(frozen=True, slots=True)
class Link:
    """One edge of a chain: `child` is_a/instance_of `parent` with the edge's best confidence."""

    child: str
    parent: str
    confidence: float


class Hierarchy:
    """Parents of every concept as CSR arrays (offsets, targets, confidences) over integer concept ids."""

    def __init__(self, edges: Iterable[tuple[str, str, float]]) -> None:
        """Build from (child, parent, confidence) triples; duplicates keep the highest confidence."""
        index: dict[str, int] = {}
        names: list[str] = []
        best: dict[tuple[int, int], float] = {}
        for child, parent, conf in edges:
            c = index.get(child)
            if c is None:
                c = index[child] = len(names)
                names.append(child)
            p = index.get(parent)
            if p is None:
                p = index[parent] = len(names)
                names.append(parent)
            if c == p:
                continue
            key = (c, p)
            if best.get(key, -1.0) < conf:
                best[key] = conf
        self.index = index
        self.names = names
        n = len(names)
        pairs = sorted(best)
        children = np.fromiter((c for c, _ in pairs), dtype=np.int64, count=len(pairs))
        self.targets = np.fromiter((p for _, p in pairs), dtype=np.int32, count=len(pairs))
        self.confidence = np.fromiter((best[k] for k in pairs), dtype=np.float32, count=len(pairs))
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        if len(pairs):
            np.add.at(self.offsets, children + 1, 1)
        np.cumsum(self.offsets, out=self.offsets)
        self.edges = len(pairs)

    @classmethod
    def load(cls, store: GraphStore) -> Hierarchy:
        """Read every active positive hierarchy edge from the store.

        Raises:
            StoreError: the store failed.
        """
        rows = store.iterate("ded_hierarchy_edges")
        return cls((r["child"], r["parent"], float(r["confidence"])) for r in rows)

    def parents(self, concept: str) -> list[tuple[str, float]]:
        """Direct parents of a concept with their confidence."""
        i = self.index.get(concept)
        if i is None:
            return []
        lo, hi = self.offsets[i], self.offsets[i + 1]
        return [
            (self.names[t], float(c))
            for t, c in zip(self.targets[lo:hi].tolist(), self.confidence[lo:hi].tolist(), strict=True)
        ]

    def _walk(self, start: int) -> dict[int, int]:
        # Breadth-first: each node is reached once, by a shortest chain, so cycles and deep chains terminate.
        pred: dict[int, int] = {start: -1}
        frontier = [start]
        offsets, targets = self.offsets, self.targets
        while frontier:
            nxt: list[int] = []
            for node in frontier:
                for t in targets[offsets[node] : offsets[node + 1]].tolist():
                    if t not in pred:
                        pred[t] = node
                        nxt.append(t)
            frontier = nxt
        return pred

    def ancestors(self, concept: str) -> dict[str, int]:
        """Every ancestor (not the concept itself) with its distance in hops, nearest first."""
        start = self.index.get(concept)
        if start is None:
            return {}
        pred = self._walk(start)
        depth: dict[int, int] = {start: 0}
        out: dict[str, int] = {}
        for node in pred:  # insertion order is BFS order, so a node's predecessor already has its depth
            if node == start:
                continue
            depth[node] = depth[pred[node]] + 1
            out[self.names[node]] = depth[node]
        return out

    def chain(self, concept: str, ancestor: str) -> list[Link] | None:
        """A shortest chain from `concept` up to `ancestor`, or None when it is not an ancestor."""
        start, goal = self.index.get(concept), self.index.get(ancestor)
        if start is None or goal is None or start == goal:
            return None
        pred = self._walk_to(start, goal)
        if goal not in pred:
            return None
        links: list[Link] = []
        node = goal
        while pred[node] != -1:
            child = pred[node]
            links.append(Link(self.names[child], self.names[node], self._conf(child, node)))
            node = child
        links.reverse()
        return links

    def _walk_to(self, start: int, goal: int) -> dict[int, int]:
        pred: dict[int, int] = {start: -1}
        frontier = [start]
        offsets, targets = self.offsets, self.targets
        while frontier:
            nxt: list[int] = []
            for node in frontier:
                for t in targets[offsets[node] : offsets[node + 1]].tolist():
                    if t not in pred:
                        pred[t] = node
                        if t == goal:
                            return pred
                        nxt.append(t)
            frontier = nxt
        return pred

    def _conf(self, child: int, parent: int) -> float:
        lo, hi = int(self.offsets[child]), int(self.offsets[child + 1])
        pos = lo + int(np.searchsorted(self.targets[lo:hi], parent))
        return float(self.confidence[pos])

    def children(self, concept: str) -> list[str]:
        """Direct children (a linear scan; used only for small answers such as "kinds of X")."""
        i = self.index.get(concept)
        if i is None:
            return []
        rows = np.nonzero(self.targets == i)[0]
        owners = np.searchsorted(self.offsets, rows, side="right") - 1
        return sorted(self.names[int(o)] for o in owners)
