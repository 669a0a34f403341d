"""Bring the fact mirror up to date after a write by re-reading only the concepts the write touched.

A server keeps one mirror for its whole life; rebuilding it after every write reads every fact again (about 17 s
on a 1M-fact knowledge base). A write names the subjects whose facts it added or changed
(`KuzuStore.take_touched`), so the mirror drops its rows for those subjects and reads theirs again, subject-
anchored (queries/graph_facts_of.cypher), which keeps it equal to a rebuilt one (tests/reasoning/
test_mirror_delta.py holds it to that over random loads, retractions and resolutions):

- a fact whose status or confidence changed, or that a write added, has a touched subject, so every active fact
  is in the mirror with its current values and no other fact is;
- `inactive` (concepts at either end of an inactive fact) can gain members only from the re-read rows and lose
  them only where a re-read fact turned active, so just those concepts are asked about again.

Concept ids of concepts the mirror knew stay the same (new ones are appended), so the integer order of concepts
differs from a rebuild's; nothing reads meaning into that order (a rebuild's own order is Kùzu's scan order).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from kgbrain.reasoning.graph import FactGraph
from kgbrain.store.protocol import GraphStore

CHUNK = 2_000  # subjects per query


def refreshed(graph: FactGraph, store: GraphStore, subjects: Collection[str]) -> FactGraph:
    """A new mirror: `graph` with the facts of `subjects` read again from `store` (`graph` is left unchanged).

    Raises:
        StoreError: the store failed.
    """
    wanted = sorted(subjects)
    rows: list[dict[str, Any]] = []
    for start in range(0, len(wanted), CHUNK):
        rows += store.run("graph_facts_of", subjects=wanted[start : start + CHUNK])
    active = [r for r in rows if r["status"] == "active"]
    g = FactGraph(())
    g.names, g.index = list(graph.names), dict(graph.index)
    g.pred_names, g.pred_index = list(graph.pred_names), dict(graph.pred_index)
    g.source_names, g.source_index = list(graph.source_names), dict(graph.source_index)

    # Drop every row of a touched subject, then put the re-read active rows where their subject sorts.
    touched = np.asarray(sorted(graph.index[s] for s in wanted if s in graph.index), dtype=np.int32)
    keep = ~np.isin(graph.subject, touched) if len(touched) else np.ones(len(graph.subject), dtype=bool)
    subj = np.asarray([_id(g.index, g.names, r["subject"]) for r in active], dtype=np.int32)
    obj = np.asarray([_id(g.index, g.names, r["object"]) for r in active], dtype=np.int32)
    pred = np.asarray([_id(g.pred_index, g.pred_names, r["predicate"]) for r in active], dtype=np.int16)
    src = np.asarray([_id(g.source_index, g.source_names, r["source"] or "") for r in active], dtype=np.int32)
    width = max([graph.fact_id.dtype.itemsize, 1] + [len(r["fact_id"].encode("utf-8")) for r in active])
    fid = np.asarray([r["fact_id"].encode("utf-8") for r in active], dtype=f"S{width}")
    order = np.lexsort((fid, subj))
    kept_subject = graph.subject[keep]
    at = np.searchsorted(kept_subject, subj[order], side="left")
    new: dict[str, np.ndarray] = {
        "subject": subj,
        "object": obj,
        "predicate": pred,
        "polarity": np.asarray([bool(r["polarity"]) for r in active], dtype=bool),
        "confidence": np.asarray([float(r["confidence"]) for r in active], dtype=np.float32),
        "fact_id": fid,
        "source": src,
    }
    for name, column in new.items():
        old: np.ndarray = getattr(graph, name)[keep]
        if name == "fact_id":
            old = old.astype(fid.dtype)
        setattr(g, name, np.insert(old, at, column[order]) if len(order) else old)

    g.inactive = _inactive(graph, store, wanted, rows, active)
    # A concept all of whose active facts went is not in a rebuilt mirror (whose index says which concepts
    # have facts): only touched subjects and the objects of their dropped rows can be such.
    dropped = {graph.names[i] for i in np.unique(graph.object[~keep]).tolist()} | set(wanted)
    _drop_orphans(g, sorted(c for c in dropped if c in g.index))
    n = len(g.names)
    g.out_offsets = _offsets(g.subject, n)
    g.in_order = np.argsort(g.object, kind="stable")
    g.in_offsets = _offsets(g.object[g.in_order], n)
    g.facts = len(g.subject)
    return g


def _inactive(
    graph: FactGraph, store: GraphStore, subjects: list[str], rows: list[dict[str, Any]], active: list[dict[str, Any]]
) -> set[str]:
    ends = {r["subject"] for r in rows if r["status"] != "active"}
    ends |= {r["object"] for r in rows if r["status"] != "active"}
    # A concept stops being an end of an inactive fact only when such a fact turned active: its subject was
    # touched and its object is an object of a re-read active row.
    doubtful = sorted(((set(subjects) | {r["object"] for r in active}) & graph.inactive) - ends)
    still: set[str] = set()
    for start in range(0, len(doubtful), CHUNK):
        still |= {r["id"] for r in store.run("graph_inactive_of", ids=doubtful[start : start + CHUNK])}
    return (graph.inactive - set(doubtful)) | ends | still


def _drop_orphans(g: FactGraph, candidates: list[str]) -> None:
    ids = np.asarray([g.index[c] for c in candidates], dtype=np.int64)
    if not len(ids):
        return
    n = len(g.names)
    degree = np.bincount(g.subject, minlength=n) + np.bincount(g.object, minlength=n)
    orphans = ids[degree[ids] == 0]
    if not len(orphans):
        return
    alive = np.ones(len(g.names), dtype=bool)
    alive[orphans] = False
    remap = (np.cumsum(alive) - 1).astype(np.int32)  # monotonic: the subject order stays sorted
    g.subject, g.object = remap[g.subject], remap[g.object]
    g.names = [name for name, keep in zip(g.names, alive.tolist(), strict=True) if keep]
    g.index = {name: i for i, name in enumerate(g.names)}


def _id(index: dict[str, int], names: list[str], name: str) -> int:
    i = index.get(name)
    if i is None:
        i = index[name] = len(names)
        names.append(name)
    return i


def _offsets(sorted_ids: np.ndarray, n: int) -> np.ndarray:
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(sorted_ids, minlength=n), out=offsets[1:])
    return offsets
