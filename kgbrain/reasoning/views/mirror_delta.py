"""Bring the fact mirror up to date after a write from what the write did, instead of reading every fact again.

A server keeps one mirror for its whole life; rebuilding it after a write reads every fact (about 17 s on a 1M-fact
knowledge base). The writing store records what each committed write did to the facts between two concepts
(`KuzuStore.take_delta`: appended rows, status and confidence updates by fact id), and `applied` makes a new mirror
from the old one and that record. Where the record cannot place a fact (a derived fact revived, an update that may
bring back a fact the mirror never held) the subjects concerned are read again (`refreshed`: subject-anchored, a
table at a time, queries/templates/graph_facts_of.cypher). tests/reasoning/views/test_mirror_delta.py holds the result
equal to a rebuilt mirror over random loads, retractions and resolutions:

- every fact added or whose status or confidence changed is in the record (or its subject is read again), so
  every active fact is in the mirror with its current values and no other fact is;
- `inactive` (concepts at either end of an inactive fact) gains the ends of facts that went inactive and loses
  members only where a fact turned active, which happens only on the re-read path (it asks about those again).

Concept ids of concepts the mirror knew stay the same (new ones are appended), so the integer order of concepts
differs from a rebuild's; nothing reads meaning into that order (a rebuild's own order is Kùzu's scan order).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np

from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.store.delta import FactDelta
from kgbrain.store.protocol import GraphStore
from kgbrain.store.schema import CORE_TABLES, GENERIC_TABLE

CHUNK = 2_000  # subjects per query
CONCEPT_TABLES = sorted({*CORE_TABLES.values(), GENERIC_TABLE})  # the fact tables between two concepts


def applied(graph: FactGraph, store: GraphStore, delta: FactDelta) -> FactGraph:
    """A new mirror: `graph` with what `delta` recorded (`graph` is left unchanged).

    Facts the delta cannot place (an update that may make a fact active that the mirror never held) have their
    subjects read again (`refreshed`).

    Raises:
        StoreError: the store failed.
    """
    updated = delta.updated
    keep = np.ones(graph.facts, dtype=bool)
    confidence = graph.confidence
    inactive = set(graph.inactive)
    names = graph.names
    seen: set[str] = set()
    if updated:
        confidence = confidence.copy()
        for subject in sorted(delta.update_subjects):
            i = graph.index.get(subject)
            if i is None:
                continue
            for pos in range(int(graph.out_offsets[i]), int(graph.out_offsets[i + 1])):
                fid = graph.fact_id[pos].decode("utf-8")
                change = updated.get(fid)
                if change is None:
                    continue
                seen.add(fid)
                status, conf = change
                if status == "active":
                    confidence[pos] = conf
                else:
                    keep[pos] = False
                    inactive |= {names[int(graph.subject[pos])], names[int(graph.object[pos])]}
    rows = []
    for row in delta.added:
        fid = row["fact_id"]
        status, conf = updated.get(fid, (row["status"], row["confidence"]))
        seen.add(fid)
        if status == "active":
            rows.append({**row, "status": status, "confidence": conf})
        else:
            inactive |= {row["subject"], row["object"]}
    # An update the mirror could not place that leaves a fact active: a fact coming back (or a literal fact, not
    # mirrored); its subject is among the batch's.
    reread = set(delta.reread)
    if any(status == "active" for fid, (status, _) in updated.items() if fid not in seen):
        reread |= delta.update_subjects
    dropped = {names[i] for i in np.unique(graph.object[~keep]).tolist()}
    dropped |= {names[i] for i in np.unique(graph.subject[~keep]).tolist()}
    g = _rebuild(graph, keep, confidence, rows, inactive, dropped)
    return refreshed(g, store, reread) if reread else g


def refreshed(graph: FactGraph, store: GraphStore, subjects: Collection[str]) -> FactGraph:
    """A new mirror: `graph` with the facts of `subjects` read again from `store` (`graph` is left unchanged).

    Raises:
        StoreError: the store failed.
    """
    wanted = sorted(subjects)
    rows: list[dict[str, Any]] = []
    for table in CONCEPT_TABLES:
        for start in range(0, len(wanted), CHUNK):
            rows += store.iterate_table("graph_facts_of", table, subjects=wanted[start : start + CHUNK])
    active = [r for r in rows if r["status"] == "active"]
    touched = np.asarray(sorted(graph.index[s] for s in wanted if s in graph.index), dtype=np.int32)
    keep = ~np.isin(graph.subject, touched) if len(touched) else np.ones(graph.facts, dtype=bool)
    # Only touched subjects and the objects of their dropped rows can have lost all their facts.
    dropped = {graph.names[i] for i in np.unique(graph.object[~keep]).tolist()} | set(wanted)
    inactive = _inactive(graph, store, wanted, rows, active)
    return _rebuild(graph, keep, graph.confidence, active, inactive, dropped)


def _rebuild(
    graph: FactGraph,
    keep: np.ndarray,
    confidence: np.ndarray,
    active: list[dict[str, Any]],
    inactive: set[str],
    dropped: set[str],
) -> FactGraph:
    """`graph`'s rows where `keep` (with `confidence`), plus the `active` rows, each where its subject sorts."""
    g = FactGraph(())
    g.names, g.index = list(graph.names), dict(graph.index)
    g.pred_names, g.pred_index = list(graph.pred_names), dict(graph.pred_index)
    g.source_names, g.source_index = list(graph.source_names), dict(graph.source_index)
    subj = np.asarray([_id(g.index, g.names, r["subject"]) for r in active], dtype=np.int32)
    obj = np.asarray([_id(g.index, g.names, r["object"]) for r in active], dtype=np.int32)
    pred = np.asarray([_id(g.pred_index, g.pred_names, r["predicate"]) for r in active], dtype=np.int16)
    src = np.asarray([_id(g.source_index, g.source_names, r["source"] or "") for r in active], dtype=np.int32)
    width = max([graph.fact_id.dtype.itemsize, 1] + [len(r["fact_id"].encode("utf-8")) for r in active])
    fid = np.asarray([r["fact_id"].encode("utf-8") for r in active], dtype=f"S{width}")
    order = np.lexsort((fid, subj))
    # Each new row goes where (subject, fact id) sorts among the kept rows, as in a rebuilt mirror.
    kept_subject = graph.subject[keep]
    at = np.searchsorted(kept_subject, subj[order], side="left")
    upto = np.searchsorted(kept_subject, subj[order], side="right")
    shared = np.nonzero(upto > at)[0]
    if len(shared):
        kept_fid = graph.fact_id[keep]
        for k in shared.tolist():
            lo, hi = int(at[k]), int(upto[k])
            at[k] = lo + int(np.searchsorted(kept_fid[lo:hi], fid[order[k]]))
    new: dict[str, np.ndarray] = {
        "subject": subj,
        "object": obj,
        "predicate": pred,
        "polarity": np.asarray([bool(r["polarity"]) for r in active], dtype=bool),
        "confidence": np.asarray([float(r["confidence"]) for r in active], dtype=np.float32),
        "fact_id": fid,
        "source": src,
    }
    everything = keep.all()
    for name, column in new.items():
        old: np.ndarray = confidence if name == "confidence" else getattr(graph, name)
        old = old if everything else old[keep]
        if name == "fact_id":
            old = old.astype(fid.dtype)
        setattr(g, name, np.insert(old, at, column[order]) if len(order) else old)
    g.inactive = inactive
    # A concept all of whose active facts went is not in a rebuilt mirror (whose index says which concepts have
    # facts).
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
    for table in CONCEPT_TABLES:
        for start in range(0, len(doubtful), CHUNK):
            part = doubtful[start : start + CHUNK]
            still |= {r["id"] for r in store.iterate_table("graph_inactive_of", table, ids=part)}
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
