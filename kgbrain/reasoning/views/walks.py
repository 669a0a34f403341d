"""Many pruned breadth-first walks up the hierarchy at once, level by level, in numpy.

A verification batch asks a few hundred "is y above x, and by which shortest chain" questions; walked one
at a time in Python each costs about a microsecond per edge (100 µs a claim on the 917k-edge benchmark
DAG). Here every walk of the batch advances one level per round of array operations, so the Python cost is
per level, not per edge.

The answer is exactly `Hierarchy._search`'s, walk for walk: a node is discovered by the first frontier node
(in frontier order, then edge order) with an edge to it, which is what a FIFO walk does, and a node is
expanded only when the reachability labels say it may lie below one of the walk's goals. Such pruning keeps
every node that can reach an unfound goal, so distances and predecessors of the goals found are the full
walk's (see the property tests in tests/reasoning/views/test_reach.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class NodeLabels:
    """The reachability labels of every node (its component's), as arrays over node ids."""

    comp: np.ndarray
    down: np.ndarray
    rank0: np.ndarray
    low0: np.ndarray
    rank1: np.ndarray
    low1: np.ndarray

    def may_reach(self, nodes: np.ndarray, goals: np.ndarray) -> np.ndarray:
        """Elementwise: False where goal `goals[i]` is certainly not `nodes[i]` nor above it."""
        c, cg = self.comp[nodes], self.comp[goals]
        ok = (self.down[goals] > self.down[nodes]) & (self.rank0[goals] >= self.rank0[nodes])
        ok &= self.low0[goals] <= self.low0[nodes]
        ok &= self.rank1[goals] >= self.rank1[nodes]
        ok &= self.low1[goals] <= self.low1[nodes]
        ok |= c == cg
        out: np.ndarray = ok
        return out


@dataclass(frozen=True, slots=True)
class Walked:
    """The walks of one batch: per walk its start and goals, the goals found in discovery order with their
    distance, and every discovered node's predecessor edge (`node * stride + edge`, keyed `walk * n + node`)."""

    starts: list[int]
    goals: list[frozenset[int]]
    found: list[dict[int, int]]
    pred: dict[int, int]
    n: int
    stride: int

    def edges_to(self, walk: int, goal: int) -> list[int]:
        """The edge positions of the chain from the walk's start up to `goal` (found), in order."""
        edges: list[int] = []
        node, start, base, pred = goal, self.starts[walk], walk * self.n, self.pred
        while node != start:
            node, edge = divmod(pred[base + node], self.stride)
            edges.append(edge)
        edges.reverse()
        return edges


def walk_many(
    offsets: np.ndarray,
    targets: np.ndarray,
    labels: NodeLabels,
    queries: Sequence[tuple[int, Sequence[int]]],
    edges: int,
) -> Walked:
    """Walk up from each query's start towards its goals (node ids); `offsets`/`targets` are the CSR of
    child -> parents and `edges` their number (the predecessor code's stride is `edges + 1`)."""
    n = len(offsets) - 1
    stride = edges + 1
    starts = [s for s, _ in queries]
    goal_sets = [frozenset(g for g in goals if g != s) for s, goals in queries]
    found: list[dict[int, int]] = [{} for _ in queries]
    pred_keys: list[np.ndarray] = []
    pred_codes: list[np.ndarray] = []
    counts = np.asarray([len(g) for g in goal_sets], dtype=np.int64)
    first_goal = np.zeros(len(queries) + 1, dtype=np.int64)
    np.cumsum(counts, out=first_goal[1:])
    goal_nodes = np.fromiter((g for gs in goal_sets for g in sorted(gs)), dtype=np.int64, count=int(first_goal[-1]))
    goal_walks = np.repeat(np.arange(len(queries), dtype=np.int64), counts)
    goal_keys = np.sort(goal_walks * n + goal_nodes)
    start_arr = np.asarray(starts, dtype=np.int64)
    walk_ids = np.arange(len(queries), dtype=np.int64)
    keep = counts > 0
    keep[keep] = _may(labels, walk_ids[keep], start_arr[keep], first_goal, counts, goal_nodes)
    fq, fu = walk_ids[keep], start_arr[keep]
    visited = np.sort(walk_ids * n + start_arr)
    remaining = counts.copy()
    level = 0
    while len(fu):
        level += 1
        lo = offsets[fu]
        cnt = offsets[fu + 1] - lo
        total = int(cnt.sum())
        if not total:
            break
        owner = np.repeat(np.arange(len(fu), dtype=np.int64), cnt)
        k = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(cnt) - cnt, cnt) + lo[owner]
        t = targets[k].astype(np.int64)
        q = fq[owner]
        key = q * n + t
        uniq, first = _first_of_each(key)
        at = np.searchsorted(visited, uniq)
        seen = np.zeros(len(uniq), dtype=bool)
        inside = at < len(visited)
        seen[inside] = visited[at[inside]] == uniq[inside]
        fresh = ~seen
        if not fresh.any():
            break
        visited = np.insert(visited, at[fresh], uniq[fresh])
        first = np.sort(first[fresh])  # discovery order
        key_new, t_new, q_new = key[first], t[first], q[first]
        pred_keys.append(key_new)
        pred_codes.append(fu[owner[first]] * stride + k[first])
        hit = _in_sorted(key_new, goal_keys)
        live = np.ones(len(first), dtype=bool)
        if hit.any():
            hits = np.nonzero(hit)[0]
            for w, node in zip(q_new[hits].tolist(), t_new[hits].tolist(), strict=True):
                if remaining[w] == 0:
                    # Found every goal earlier in this level: the walk had stopped before this node.
                    continue
                found[w][node] = level
                remaining[w] -= 1
            done = remaining[q_new] == 0
            live &= ~done
        live[live] = _may(labels, q_new[live], t_new[live], first_goal, counts, goal_nodes)
        fq, fu = q_new[live], t_new[live]
    if pred_keys:
        pred = dict(zip(np.concatenate(pred_keys).tolist(), np.concatenate(pred_codes).tolist(), strict=True))
    else:
        pred = {}
    return Walked(starts, goal_sets, found, pred, n, stride)


def _may(
    labels: NodeLabels,
    walks: np.ndarray,
    nodes: np.ndarray,
    first_goal: np.ndarray,
    counts: np.ndarray,
    goal_nodes: np.ndarray,
) -> np.ndarray:
    # Per (walk, node): may the node lie below any of the walk's goals? Each pair is tested against every
    # goal of its walk (one goal for an is_a claim, the labelled holders for a property claim).
    per = counts[walks]
    if not len(per):
        return np.zeros(0, dtype=bool)
    if int(per.max()) == 1 and int(per.min()) == 1:
        return labels.may_reach(nodes, goal_nodes[first_goal[walks]])
    owner = np.repeat(np.arange(len(walks), dtype=np.int64), per)
    goal = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(per) - per, per) + first_goal[walks][owner]
    ok = labels.may_reach(nodes[owner], goal_nodes[goal])
    out = np.zeros(len(walks), dtype=bool)
    out[owner[ok]] = True
    return out


def _first_of_each(key: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # The distinct keys (sorted) and the position of each one's first occurrence: np.unique(return_index=True)
    # without its stable argsort, by sorting key * len + position in one plain sort.
    total = len(key)
    if total and int(key.max()) < (1 << 62) // total:
        packed = key * total + np.arange(total, dtype=np.int64)
        packed.sort()
        keys = packed // total
        head = np.ones(total, dtype=bool)
        head[1:] = keys[1:] != keys[:-1]
        return keys[head], packed[head] - keys[head] * total
    uniq, first = np.unique(key, return_index=True)
    return uniq, first


def _in_sorted(values: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    if not len(sorted_keys):
        return np.zeros(len(values), dtype=bool)
    at = np.searchsorted(sorted_keys, values)
    at[at == len(sorted_keys)] = 0
    hit: np.ndarray = sorted_keys[at] == values
    return hit
