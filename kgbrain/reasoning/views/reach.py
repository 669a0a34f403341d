"""Reachability labels over the is_a/instance_of hierarchy: "can y be above x?" in a few comparisons.

Theory: GRAIL (Yildirim, Chaoji and Zaki, "GRAIL: Scalable Reachability Index for Large Graphs", VLDB 2010).
The hierarchy is condensed into its strongly connected components (Tarjan, 1972), and each component gets
labels from depth-first traversals of the condensed DAG in the child direction: its post-order rank `r`,
the lowest rank `lo` among everything below it, and `down`, the longest path below it. If y is above x,
everything below x is below y, so `lo[y] <= lo[x]`, `r[x] <= r[y]` and `down[x] < down[y]` for every
traversal. A failed comparison proves y is not above x; a passed one only says it may be, and a walk
pruned to the components that may reach the target decides (see `Hierarchy`). On trees the first label is
exact; on the taxonomies and multiple-inheritance DAGs of the benchmarks two traversals rule out almost
every candidate, so a walk visits little more than the nodes between x and y.

Why this index (measured in bench/verify.py and the notes of issue 14): a bitset or list closure of the
917k-edge benchmark DAG would hold every ancestor of every concept (and is quadratic on a 100,000-level
chain); pruned 2-hop labels need a pruned search per node to build, in Python minutes at 200k concepts.
GRAIL labels take two linear traversals, five int32 arrays, and load memory-mapped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Protocol

import numpy as np

LABELS = 2  # traversals; the second visits children in reverse order
_FIELDS = ("comp", "down", "rank0", "low0", "rank1", "low1")


Label = tuple[int, int, int, int, int, int]


class Labels(Protocol):
    """Per node id, its label tuple (a list, or `_NodeLabels`)."""

    def __getitem__(self, node: int, /) -> Label: ...


class ReachIndex:
    """GRAIL labels of the condensed hierarchy; arrays over node ids (`comp`) and component ids (the rest)."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        """Wrap built or loaded arrays (see `build` and `open`)."""
        self.comp = arrays["comp"]
        self.down = arrays["down"]
        self.rank = [arrays[f"rank{k}"] for k in range(LABELS)]
        self.low = [arrays[f"low{k}"] for k in range(LABELS)]
        self._nodes: list[tuple[int, int, int, int, int, int]] | None = None
        self._some: _NodeLabels | None = None

    @classmethod
    def build(cls, offsets: np.ndarray, targets: np.ndarray) -> ReachIndex:
        """Labels for the graph child -> parents given as CSR (`offsets` over children, `targets` parents)."""
        n = len(offsets) - 1
        owners = np.repeat(np.arange(n, dtype=np.int64), np.diff(offsets))
        # The child direction (parent -> children) as CSR.
        order = np.argsort(targets, kind="stable")
        koff = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(targets, minlength=n), out=koff[1:])
        coff_l, cch = koff.tolist(), owners[order].tolist()
        first = _post_order(n, coff_l, cch, reverse=False)
        if first is not None:
            comp_arr, ncomp = np.arange(n, dtype=np.int32), n
        else:
            # A cycle: condense its strongly connected components and label the condensed DAG instead.
            comp, ncomp = _tarjan(n, offsets.tolist(), targets.tolist())
            comp_arr = np.asarray(comp, dtype=np.int32)
            up = comp_arr[targets].astype(np.int64)
            below = comp_arr[owners].astype(np.int64)
            keep = up != below
            width = max(ncomp, 1)
            key = np.unique(up[keep] * width + below[keep])
            cp, cc = key // width, key % width
            coff = np.zeros(ncomp + 1, dtype=np.int64)
            np.cumsum(np.bincount(cp, minlength=ncomp), out=coff[1:])
            coff_l, cch = coff.tolist(), cc.tolist()
            first = _post_order(ncomp, coff_l, cch, reverse=False)
            assert first is not None  # the condensation is acyclic
        arrays: dict[str, np.ndarray] = {"comp": comp_arr}
        for k in range(LABELS):
            labels = first if k == 0 else _post_order(ncomp, coff_l, cch, reverse=True)
            assert labels is not None
            rank, low, down = labels
            arrays[f"rank{k}"] = np.asarray(rank, dtype=np.int32)
            arrays[f"low{k}"] = np.asarray(low, dtype=np.int32)
            arrays["down"] = np.asarray(down, dtype=np.int32)
        return cls(arrays)

    def save(self, folder: Path, stamp: dict[str, float]) -> None:
        """Write the labels as .npy files (memory-mappable) with the data's fingerprint."""
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder.with_name(f"{folder.name}.tmp-{os.getpid()}")
        tmp.mkdir(parents=True, exist_ok=True)
        for name in _FIELDS:
            np.save(tmp / f"{name}.npy", self._array(name))
        (tmp / "fingerprint.json").write_text(json.dumps(stamp, sort_keys=True), encoding="utf-8")
        for name in (*(f"{f}.npy" for f in _FIELDS), "fingerprint.json"):
            (tmp / name).replace(folder / name)
        tmp.rmdir()

    @staticmethod
    def saved_for(folder: Path, stamp: dict[str, float]) -> bool:
        """Labels are saved in `folder` for data with this fingerprint (nothing is mapped)."""
        try:
            stored = json.loads((folder / "fingerprint.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        wanted = json.loads(json.dumps(stamp, sort_keys=True))
        return bool(stored == wanted) and all((folder / f"{name}.npy").is_file() for name in _FIELDS)

    @classmethod
    def open(cls, folder: Path, stamp: dict[str, float]) -> ReachIndex | None:
        """The labels saved in `folder` for data with this fingerprint, memory-mapped; None otherwise."""
        try:
            stored = json.loads((folder / "fingerprint.json").read_text(encoding="utf-8"))
            if stored != json.loads(json.dumps(stamp, sort_keys=True)):
                return None
            # Plain ndarray views of the maps: still backed by the mapped file, without np.memmap's per-index
            # Python overhead (a third of the label tests' time on the 1M-fact benchmark).
            return cls({name: np.asarray(np.load(folder / f"{name}.npy", mmap_mode="r")) for name in _FIELDS})
        except (OSError, ValueError):
            return None

    def _array(self, name: str) -> np.ndarray:
        if name == "comp":
            return self.comp
        if name == "down":
            return self.down
        return (self.rank if name.startswith("rank") else self.low)[int(name[-1])]

    def node_labels(self, *, whole: bool = False) -> Labels:
        """Per node id: (component, down, rank0, low0, rank1, low1), for tests inside Python loops.

        Unless `whole` (or built whole before), each node's tuple is made when first asked for: one question
        tests a few hundred nodes, and the whole list of a 1M-fact base costs a CLI process about a second.
        """
        if self._nodes is None and not whole:
            if self._some is None:
                self._some = _NodeLabels(self)
            return self._some
        if self._nodes is None:
            comp, down, r0, l0, r1, l1 = (np.asarray(self._array(name)) for name in _FIELDS)
            self._nodes = list(
                zip(
                    comp.tolist(),
                    down[comp].tolist(),
                    r0[comp].tolist(),
                    l0[comp].tolist(),
                    r1[comp].tolist(),
                    l1[comp].tolist(),
                    strict=True,
                )
            )
        return self._nodes

    def may_be_above(self, x: int, candidates: np.ndarray) -> np.ndarray:
        """A mask over node ids `candidates`: False where the candidate is certainly not x nor above x."""
        if len(candidates) <= 32:
            # A few candidates (one claim's): a loop over the per-node tuples beats eight numpy calls.
            labels = self.node_labels()
            cx, dx, rx0, lx0, rx1, lx1 = labels[x]
            keep = []
            for c in candidates.tolist():
                cc, dc, rc0, lc0, rc1, lc1 = labels[c]
                keep.append(cc == cx or (dc > dx and rc0 >= rx0 and lc0 <= lx0 and rc1 >= rx1 and lc1 <= lx1))
            return np.asarray(keep, dtype=bool)
        c = self.comp[candidates]
        cx = int(self.comp[x])
        ok = (c == cx) | (self.down[c] > self.down[cx])
        for rank, low in zip(self.rank, self.low, strict=True):
            ok &= (low[c] <= low[cx]) & (rank[c] >= rank[cx])
        return np.asarray(ok, dtype=bool)


class Candidates:
    """A fixed set of node ids with their labels gathered once: the holders of facts into one object, tested
    against many claims' subjects (a verification run asks about the same few objects again and again)."""

    def __init__(self, index: ReachIndex, ids: np.ndarray) -> None:
        """Gather the labels of node ids `ids` from `index`."""
        self.ids = np.asarray(ids, dtype=np.int64)
        c = index.comp[self.ids]
        self.comp = c
        self.down = index.down[c]
        self.rank = [r[c] for r in index.rank]
        self.low = [lo[c] for lo in index.low]

    def __len__(self) -> int:
        return len(self.ids)

    def may_be_above(self, index: ReachIndex, x: int) -> np.ndarray:
        """The ids among these that may be x's ancestors (x itself excluded): `index.may_be_above`'s test."""
        cx = int(index.comp[x])
        ok = (self.comp == cx) | (self.down > int(index.down[cx]))
        for rank, low, rk, lw in zip(self.rank, self.low, index.rank, index.low, strict=True):
            ok &= (low <= int(lw[cx])) & (rank >= int(rk[cx]))
        ok &= self.ids != x
        found: np.ndarray = self.ids[ok]
        return found


def _tarjan(n: int, offsets: list[int], targets: list[int]) -> tuple[list[int], int]:
    # Iterative Tarjan; components are numbered in the order they complete (reverse topological order
    # of the condensation: a component gets its number after every component it reaches).
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, offsets[root])]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            node, k = work[-1]
            end = offsets[node + 1]
            pushed = False
            while k < end:
                t = targets[k]
                k += 1
                if index[t] == -1:
                    work[-1] = (node, k)
                    index[t] = low[t] = counter
                    counter += 1
                    stack.append(t)
                    on_stack[t] = True
                    work.append((t, offsets[t]))
                    pushed = True
                    break
                if on_stack[t] and index[t] < low[node]:
                    low[node] = index[t]
            if pushed:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == node:
                        break
                ncomp += 1
    return comp, ncomp


def _post_order(
    n: int, offsets: list[int], targets: list[int], *, reverse: bool
) -> tuple[list[int], list[int], list[int]] | None:
    # Depth-first over a DAG (child direction): post-order rank, lowest rank below, longest path below.
    # None when the graph has a cycle (an edge back to a node still on the path).
    rank = [-1] * n
    low = [0] * n
    down = [0] * n
    counter = 0
    roots = range(n - 1, -1, -1) if reverse else range(n)
    for root in roots:
        if rank[root] != -1:
            continue
        rank[root] = -2  # on the path
        work = [(root, offsets[root + 1] - 1 if reverse else offsets[root])]
        while work:
            node, k = work[-1]
            pushed = False
            if reverse:
                start = offsets[node]
                while k >= start:
                    t = targets[k]
                    k -= 1
                    if rank[t] == -1:
                        work[-1] = (node, k)
                        rank[t] = -2
                        work.append((t, offsets[t + 1] - 1))
                        pushed = True
                        break
                    if rank[t] == -2:
                        return None
            else:
                end = offsets[node + 1]
                while k < end:
                    t = targets[k]
                    k += 1
                    if rank[t] == -1:
                        work[-1] = (node, k)
                        rank[t] = -2
                        work.append((t, offsets[t]))
                        pushed = True
                        break
                    if rank[t] == -2:
                        return None
            if pushed:
                continue
            work.pop()
            lo, dn = counter, 0
            for j in range(offsets[node], offsets[node + 1]):
                t = targets[j]
                if low[t] < lo:
                    lo = low[t]
                if down[t] + 1 > dn:
                    dn = down[t] + 1
            rank[node], low[node], down[node] = counter, lo, dn
            counter += 1
    return rank, low, down


class _NodeLabels:
    """`ReachIndex.node_labels` made node by node, as they are asked for."""

    __slots__ = ("_index", "_made")

    def __init__(self, index: ReachIndex) -> None:
        self._index = index
        self._made: dict[int, tuple[int, int, int, int, int, int]] = {}

    def __getitem__(self, node: int) -> tuple[int, int, int, int, int, int]:
        found = self._made.get(node)
        if found is None:
            r = self._index
            c = int(r.comp[node])
            found = (c, int(r.down[c]), int(r.rank[0][c]), int(r.low[0][c]), int(r.rank[1][c]), int(r.low[1][c]))
            self._made[node] = found
        return found

    def __len__(self) -> int:
        return len(self._index.comp)
