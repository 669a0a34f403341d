"""An in-memory mirror of the active `is_a`/`instance_of` hierarchy, for fast closure queries.

Kùzu stays the source of truth; this view of the FactGraph mirror holds the active positive edges as
integer arrays, and is rebuilt lazily after a load. Measured (bench/reasoning.py): Kùzu's BFS form
`-[:IS_A* SHORTEST 1..30]->` answers ancestors in milliseconds and caps depth at 30 hops per query, while a
breadth-first walk over this mirror answers in well under a millisecond and has no depth limit, so a
100,000-level chain is one walk instead of thousands of queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.reach import Candidates, ReachIndex
from kgbrain.reasoning.views.walks import NodeLabels, Walked, walk_many


@dataclass(frozen=True, slots=True)
class Link:
    """One edge of a chain: `child` is_a/instance_of `parent` with the edge's best confidence."""

    child: str
    parent: str
    confidence: float
    edge: int = -1  # position in the Hierarchy arrays, when known (saves a lookup for its facts)


class Hierarchy:
    """Parents of every concept as CSR arrays (offsets, targets, confidences) over integer concept ids."""

    def __init__(self, graph: FactGraph) -> None:
        """The active positive is_a / instance_of edges of `graph` (sharing its integer concept ids).

        Each (child, parent) pair becomes one edge with the best confidence; the other facts behind it (the
        same statement from more sources) are kept aside, so chain traces need no further query.
        """
        self.index = graph.index
        self.names = graph.names
        self.source_names = graph.source_names
        isa, inst = graph.predicate_id("is_a"), graph.predicate_id("instance_of")
        rows = np.nonzero(((graph.predicate == isa) | (graph.predicate == inst)) & graph.polarity)[0]
        child_arr = graph.subject[rows].astype(np.int64)
        parent_arr = graph.object[rows].astype(np.int64)
        keep = child_arr != parent_arr
        rows, child_arr, parent_arr = rows[keep], child_arr[keep], parent_arr[keep]
        conf_arr = graph.confidence[rows]
        n = len(self.names)
        # Sort by child, parent, best confidence first; the first row of each pair is the edge.
        order = np.lexsort((-conf_arr, parent_arr, child_arr))
        key = child_arr[order] * max(n, 1) + parent_arr[order]
        first = np.ones(len(order), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        edge_rows = rows[order[first]]
        children = graph.subject[edge_rows]
        self.targets = graph.object[edge_rows].astype(np.int32)
        self.confidence = graph.confidence[edge_rows]
        self.fact_ids = graph.fact_id[edge_rows]
        self.fact_sources = graph.source[edge_rows]
        self.instance = graph.predicate[edge_rows] == inst  # the edge is instance_of (else is_a)
        self.more_facts: dict[int, list[tuple[str, str]]] = {}
        if not first.all():
            edge_pos = np.cumsum(first) - 1
            for pos in np.nonzero(~first)[0].tolist():
                row = int(rows[order[pos]])
                self.more_facts.setdefault(int(edge_pos[pos]), []).append(
                    (graph.fact_id[row].decode("utf-8"), self.source_names[int(graph.source[row])])
                )
        self.offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(children, minlength=n), out=self.offsets[1:])
        self.edges = len(edge_rows)
        self._offsets_list: list[int] | None = None
        self._targets_list: list[int] | None = None
        self._reach: ReachIndex | None = None
        self._labels: NodeLabels | None = None
        # The walks of the last `prefetch` (a verification batch's), by start node; answers stay valid for as
        # long as this hierarchy lives (it is rebuilt when the data changes).
        self._walked: (
            tuple[Walked, dict[int, list[int]], dict[tuple[int, Candidates], tuple[int, list[int]]]] | None
        ) = None

    @property
    def reach(self) -> ReachIndex:
        """The reachability labels of this hierarchy (built on first use unless `use_reach` gave them)."""
        if self._reach is None:
            self._reach = ReachIndex.build(self.offsets, self.targets)
        return self._reach

    def warm(self) -> None:
        """Build the lazily built parts now (the walk lists and the per-node labels)."""
        self._lists()
        self.reach.node_labels(whole=True)

    def use_reach(self, index: ReachIndex) -> None:
        """Adopt labels built earlier for the same data (loaded from disk)."""
        self._reach = index
        self._labels = None

    def prefetch(
        self, queries: Sequence[tuple[int, Sequence[int]]], holders: Sequence[tuple[int, Candidates]] = ()
    ) -> None:
        """Walk up from many starts at once, so that `chain`, `is_above` and `ancestor_depths` about them answer
        from the batch instead of walking one by one: `queries` are (start node, goal nodes); `holders` are
        (start node, candidates) pairs `ancestor_depths` will be asked about, labelled here for all at once."""
        if not queries and not holders:
            return
        labels = self.node_labels()
        tagged: dict[tuple[int, Candidates], tuple[int, list[int]]] = {}
        queries = list(queries)
        if holders:
            lengths = np.asarray([len(c) for _, c in holders], dtype=np.int64)
            ids = np.concatenate([c.ids for _, c in holders])
            owner = np.repeat(np.arange(len(holders), dtype=np.int64), lengths)
            starts = np.asarray([s for s, _ in holders], dtype=np.int64)[owner]
            # Candidates.may_be_above for every pair at once (x itself excluded).
            ok = labels.may_reach(starts, ids) & (ids != starts)
            above: dict[int, list[int]] = {}
            for w, i in zip(owner[ok].tolist(), ids[ok].tolist(), strict=True):
                above.setdefault(w, []).append(i)
            for w, (start, cands) in enumerate(holders):
                found = above.get(w)
                if found:
                    tagged[(start, cands)] = (len(queries), found)
                    queries.append((start, found))
                else:
                    tagged[(start, cands)] = (-1, [])
        walked = walk_many(self.offsets, self.targets, labels, queries, self.edges)
        at: dict[int, list[int]] = {}
        for i, start in enumerate(walked.starts):
            at.setdefault(start, []).append(i)
        self._walked = (walked, at, tagged)

    def node_labels(self) -> NodeLabels:
        """Every node's reachability labels as arrays over node ids (built once)."""
        if self._labels is None:
            r = self.reach
            c = np.asarray(r.comp)
            self._labels = NodeLabels(c, r.down[c], r.rank[0][c], r.low[0][c], r.rank[1][c], r.low[1][c])
        return self._labels

    def _prefetched(self, start: int, goals: Sequence[int]) -> tuple[Walked, int] | None:
        # A prefetched walk from `start` whose goals include all of `goals` (found or not, it is decided).
        memo = self._walked
        if memo is None:
            return None
        walked, at, _ = memo
        for i in at.get(start, ()):
            if walked.goals[i].issuperset(goals):
                return walked, i
        return None

    def _position(self, child: str, parent: str) -> int | None:
        c, p = self.index.get(child), self.index.get(parent)
        if c is None or p is None:
            return None
        lo, hi = int(self.offsets[c]), int(self.offsets[c + 1])
        pos = lo + int(np.searchsorted(self.targets[lo:hi], p))
        return pos if pos < hi and int(self.targets[pos]) == p else None

    def predicate(self, child: str, parent: str, edge: int = -1) -> str:
        """`instance_of` or `is_a`: how the edge child -> parent is stated."""
        pos = edge if edge >= 0 else self._position(child, parent)
        return "instance_of" if pos is not None and bool(self.instance[pos]) else "is_a"

    def facts_of_edges(self, edges: list[int]) -> list[list[tuple[str, str]]]:
        """`facts` for many edge positions at once (bulk decoding: a 100,000-link chain in milliseconds)."""
        fids = [f.decode("utf-8") for f in self.fact_ids[edges].tolist()]
        srcs = [self.source_names[i] for i in self.fact_sources[edges].tolist()]
        more = self.more_facts
        return [[(f, s), *more.get(e, ())] for f, s, e in zip(fids, srcs, edges, strict=True)]

    def facts(self, child: str, parent: str, edge: int = -1) -> list[tuple[str, str]]:
        """(fact id, source) of every active positive fact behind the edge child -> parent, best first."""
        pos = edge if edge >= 0 else self._position(child, parent)
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

    def _lists(self) -> tuple[list[int], list[int]]:
        # Walks index plain lists: per-node numpy slicing costs microseconds, a list index tens of
        # nanoseconds, which is what keeps a 100,000-level chain well under a second (about 40 MB at 1M edges).
        if self._offsets_list is None or self._targets_list is None:
            self._offsets_list = self.offsets.tolist()
            self._targets_list = self.targets.tolist()
        return self._offsets_list, self._targets_list

    def ancestors(self, concept: str) -> dict[str, int]:
        """Every ancestor (not the concept itself) with its distance in hops, nearest first."""
        start = self.index.get(concept)
        if start is None:
            return {}
        offsets, targets = self._lists()
        depth: dict[int, int] = {start: 0}
        frontier = [start]
        level = 0
        while frontier:
            level += 1
            nxt: list[int] = []
            for node in frontier:
                for k in range(offsets[node], offsets[node + 1]):
                    t = targets[k]
                    if t not in depth:
                        depth[t] = level
                        nxt.append(t)
            frontier = nxt
        names = self.names
        return {names[node]: d for node, d in depth.items() if node != start}

    def _search(self, start: int, goals: list[int]) -> tuple[dict[int, int], dict[int, int]]:
        # The breadth-first walk of `_walk`, expanding only nodes the reachability labels say may lie below a
        # goal still unfound. A node that can reach a goal is reached from nodes that can too, so every such
        # node gets the same predecessor (and distance) as in the full walk, and the chains are the same.
        # Returns the predecessors (as `_walk`) and the distance of each goal found.
        offsets, targets = self._lists()
        labels = self.reach.node_labels()
        stride = self.edges + 1
        pred: dict[int, int] = {start: -1}
        found: dict[int, int] = {}
        remaining = [g for g in dict.fromkeys(goals) if g != start]
        wanted = [labels[g] for g in remaining]

        def may(u: int) -> bool:
            cu, du, ru0, lu0, ru1, lu1 = labels[u]
            for cg, dg, rg0, lg0, rg1, lg1 in wanted:
                if cg == cu or (dg > du and rg0 >= ru0 and lg0 <= lu0 and rg1 >= ru1 and lg1 <= lu1):
                    return True
            return False

        if not remaining or not may(start):
            return pred, found
        goal_set = set(remaining)
        single = len(wanted) == 1
        cg, dg, rg0, lg0, rg1, lg1 = wanted[0]
        frontier = [start]
        level = 0
        while frontier:
            level += 1
            nxt: list[int] = []
            for node in frontier:
                for k in range(offsets[node], offsets[node + 1]):
                    t = targets[k]
                    if t in pred:
                        continue
                    pred[t] = node * stride + k
                    if t in goal_set:
                        found[t] = level
                        goal_set.discard(t)
                        if not goal_set:
                            return pred, found
                    if single:
                        ct, dt, rt0, lt0, rt1, lt1 = labels[t]
                        if ct == cg or (dg > dt and rg0 >= rt0 and lg0 <= lt0 and rg1 >= rt1 and lg1 <= lt1):
                            nxt.append(t)
                    elif may(t):
                        nxt.append(t)
            frontier = nxt
        return pred, found

    def ancestor_depths(self, concept: str, candidates: list[str] | np.ndarray | Candidates) -> dict[str, int]:
        """Which of `candidates` (names, or an array of node ids) are ancestors of `concept` (not itself), with
        their distance in hops: the same answer as filtering `ancestors(concept)`, from the labels and a
        walk pruned to them.
        """
        start = self.index.get(concept)
        if start is None or not len(candidates):
            return {}
        if isinstance(candidates, Candidates):
            memo = self._walked
            tagged = memo[2].get((start, candidates)) if memo is not None else None
            if memo is not None and tagged is not None:
                walk, ids = tagged
                found = memo[0].found[walk] if walk >= 0 else {}
            else:
                ids = candidates.may_be_above(self.reach, start).tolist()
                if not ids:
                    return {}
                _, found = self._search(start, ids)
            return {self.names[i]: d for i, d in found.items()}
        if isinstance(candidates, np.ndarray):
            arr = candidates.astype(np.int64, copy=False)
        else:
            arr = np.asarray([i for i in map(self.index.get, candidates) if i is not None], dtype=np.int64)
        arr = arr[arr != start]
        if not len(arr):
            return {}
        ids = arr[self.reach.may_be_above(start, arr)].tolist()
        if not ids:
            return {}
        _, found = self._search(start, ids)
        names = self.names
        return {names[i]: d for i, d in found.items()}

    def is_above(self, concept: str, ancestor: str) -> bool:
        """Whether `ancestor` is an ancestor of `concept` (`ancestor in ancestors(concept)`)."""
        start, goal = self.index.get(concept), self.index.get(ancestor)
        if start is None or goal is None or start == goal:
            return False
        hit = self._prefetched(start, (goal,))
        if hit is not None:
            return goal in hit[0].found[hit[1]]
        return goal in self._search(start, [goal])[1]

    def chain(self, concept: str, ancestor: str) -> list[Link] | None:
        """A shortest chain from `concept` up to `ancestor`, or None when it is not an ancestor."""
        start, goal = self.index.get(concept), self.index.get(ancestor)
        if start is None or goal is None or start == goal:
            return None
        hit = self._prefetched(start, (goal,))
        if hit is not None:
            if goal not in hit[0].found[hit[1]]:
                return None
            edges = hit[0].edges_to(hit[1], goal)
        else:
            pred, found = self._search(start, [goal])
            if goal not in found:
                return None
            stride = self.edges + 1
            edges = []
            node = goal
            while pred[node] != -1:
                node, edge = divmod(pred[node], stride)
                edges.append(edge)
            edges.reverse()
        confidence = self.confidence[edges].tolist()
        children = [start, *(self.targets[edges[:-1]].tolist())]
        return [
            Link(self.names[c], self.names[int(t)], conf, edge)
            for c, t, conf, edge in zip(children, self.targets[edges].tolist(), confidence, edges, strict=True)
        ]

    def children(self, concept: str) -> list[str]:
        """Direct children (a linear scan; used only for small answers such as "kinds of X")."""
        i = self.index.get(concept)
        if i is None:
            return []
        rows = np.nonzero(self.targets == i)[0]
        owners = np.searchsorted(self.offsets, rows, side="right") - 1
        return sorted(self.names[int(o)] for o in owners)
