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

    def __init__(self, edges: Iterable[tuple[str, str, float, str, str, bool]]) -> None:
        """Build from (child, parent, confidence, fact_id, source, is instance_of) rows.

        Each (child, parent) pair becomes one edge with the best confidence; every fact behind it is kept
        (fact ids as fixed-width bytes, sources as indexes), so chain traces need no further query.
        """
        index: dict[str, int] = {}
        names: list[str] = []
        source_index: dict[str, int] = {}
        self.source_names: list[str] = []
        cs: list[int] = []
        ps: list[int] = []
        confs: list[float] = []
        fids: list[bytes] = []
        srcs: list[int] = []
        kinds: list[bool] = []
        for child, parent, conf, fid, source, instance in edges:
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
            si = source_index.get(source)
            if si is None:
                si = source_index[source] = len(self.source_names)
                self.source_names.append(source)
            cs.append(c)
            ps.append(p)
            confs.append(conf)
            fids.append(fid.encode("utf-8"))
            srcs.append(si)
            kinds.append(instance)
        self.index = index
        self.names = names
        n = len(names)
        child_arr = np.asarray(cs, dtype=np.int64)
        parent_arr = np.asarray(ps, dtype=np.int64)
        conf_arr = np.asarray(confs, dtype=np.float32)
        fid_arr = np.asarray(fids, dtype=f"S{max((len(f) for f in fids), default=1)}")
        src_arr = np.asarray(srcs, dtype=np.int32)
        kind_arr = np.asarray(kinds, dtype=bool)
        del cs, ps, confs, fids, srcs, kinds
        # Sort by child, parent, best confidence first; the first row of each pair is the edge.
        order = np.lexsort((-conf_arr, parent_arr, child_arr))
        key = child_arr[order] * max(n, 1) + parent_arr[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        edge_rows = order[first]
        children = child_arr[edge_rows]
        self.targets = parent_arr[edge_rows].astype(np.int32)
        self.confidence = conf_arr[edge_rows]
        self.fact_ids = fid_arr[edge_rows]
        self.fact_sources = src_arr[edge_rows]
        self.instance = kind_arr[edge_rows]  # the edge is instance_of (else is_a)
        # The other facts behind an edge (same statement from more sources), by edge position.
        self.more_facts: dict[int, list[tuple[str, str]]] = {}
        if not first.all():
            edge_pos = np.cumsum(first) - 1
            for row_pos in np.nonzero(~first)[0].tolist():
                row = int(order[row_pos])
                self.more_facts.setdefault(int(edge_pos[row_pos]), []).append(
                    (fid_arr[row].decode("utf-8"), self.source_names[int(src_arr[row])])
                )
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        if len(edge_rows):
            np.add.at(self.offsets, children + 1, 1)
        np.cumsum(self.offsets, out=self.offsets)
        self.edges = len(edge_rows)

    @classmethod
    def load(cls, store: GraphStore) -> Hierarchy:
        """Read every active positive hierarchy edge from the store.

        Raises:
            StoreError: the store failed.
        """
        rows = store.iterate("ded_hierarchy_edges")
        return cls(
            (r["child"], r["parent"], float(r["confidence"]), r["fact_id"], r["source"] or "", bool(r["instance"]))
            for r in rows
        )

    def _position(self, child: str, parent: str) -> int | None:
        c, p = self.index.get(child), self.index.get(parent)
        if c is None or p is None:
            return None
        lo, hi = int(self.offsets[c]), int(self.offsets[c + 1])
        pos = lo + int(np.searchsorted(self.targets[lo:hi], p))
        return pos if pos < hi and int(self.targets[pos]) == p else None

    def predicate(self, child: str, parent: str) -> str:
        """`instance_of` or `is_a`: how the edge child -> parent is stated."""
        pos = self._position(child, parent)
        return "instance_of" if pos is not None and bool(self.instance[pos]) else "is_a"

    def facts(self, child: str, parent: str) -> list[tuple[str, str]]:
        """(fact id, source) of every active positive fact behind the edge child -> parent, best first."""
        pos = self._position(child, parent)
        if pos is None:
            return []
        best = (self.fact_ids[pos].decode("utf-8"), self.source_names[int(self.fact_sources[pos])])
        return [best, *self.more_facts.get(pos, [])]

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
