"""An in-memory mirror of every active concept-to-concept fact, the shared substrate of the four modes.

Kùzu stays the source of truth (and answers everything about inactive facts, values and names); this
mirror is read once through queries/graph_facts.cypher and rebuilt after each load. Measured on
kuzu 0.11.3 with 200,000 concepts (bench/reasoning.py and the issue notes): a primary-key-bound query costs
about 1 ms, `id IN $list` scans (~25 ms), UNWIND + `{id: x}` joins (~60 ms), and `-[:IS_A* SHORTEST]->`
about 6 ms; a walk over these arrays costs microseconds per hop and has no depth limit. Facts are kept as
column arrays (about 40 bytes a fact) sorted by subject, with a second order by object.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from kgbrain.reasoning.views.evidence_rows import Evidence
from kgbrain.store.protocol import GraphStore

# Facts a mirror keeps as Evidence once asked for (bounded: emptied when full). Claims keep citing the same
# hierarchy links and holders, and reading a fact out of the arrays costs more than deciding with it.
EVIDENCE_CACHE = 1 << 16


class FactGraph:
    """Active facts as CSR arrays over integer concept ids, both directions."""

    def __init__(self, rows: Iterable[dict[str, Any]]) -> None:
        """Build from rows with subject/predicate/object/polarity/confidence/fact_id/source."""
        self._made: dict[int, Evidence] = {}  # by position; the arrays never change once a mirror is in use
        self.index: dict[str, int] = {}
        self.names: list[str] = []
        self.pred_index: dict[str, int] = {}
        self.pred_names: list[str] = []
        self.source_index: dict[str, int] = {}
        self.source_names: list[str] = []
        subj: list[int] = []
        obj: list[int] = []
        pred: list[int] = []
        pol: list[bool] = []
        conf: list[float] = []
        fid: list[bytes] = []
        src: list[int] = []
        # Concepts at either end of an outdated/disputed/retracted fact: those are shown in traces, so
        # questions about them also ask Kùzu (the mirror holds active facts only).
        self.inactive: set[str] = set()
        for r in rows:
            if r.get("status", "active") != "active":
                self.inactive.add(r["subject"])
                self.inactive.add(r["object"])
                continue
            subj.append(self._id(r["subject"]))
            obj.append(self._id(r["object"]))
            p = self.pred_index.get(r["predicate"])
            if p is None:
                p = self.pred_index[r["predicate"]] = len(self.pred_names)
                self.pred_names.append(r["predicate"])
            pred.append(p)
            pol.append(bool(r["polarity"]))
            conf.append(float(r["confidence"]))
            fid.append(r["fact_id"].encode("utf-8"))
            name = r["source"] or ""
            si = self.source_index.get(name)
            if si is None:
                si = self.source_index[name] = len(self.source_names)
                self.source_names.append(name)
            src.append(si)
        s = np.asarray(subj, dtype=np.int32)
        order = np.lexsort((np.asarray(fid, dtype=f"S{max((len(f) for f in fid), default=1)}"), s))
        self.subject = s[order]
        self.object = np.asarray(obj, dtype=np.int32)[order]
        self.predicate = np.asarray(pred, dtype=np.int16)[order]
        self.polarity = np.asarray(pol, dtype=bool)[order]
        self.confidence = np.asarray(conf, dtype=np.float32)[order]
        self.fact_id = np.asarray(fid, dtype=f"S{max((len(f) for f in fid), default=1)}")[order]
        self.source = np.asarray(src, dtype=np.int32)[order]
        del subj, obj, pred, pol, conf, fid, src
        n = len(self.names)
        self.out_offsets = _offsets(self.subject, n)
        self.in_order = np.argsort(self.object, kind="stable")
        self.in_offsets = _offsets(self.object[self.in_order], n)
        self.facts = len(order)

    def _id(self, name: str) -> int:
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.names)
            self.names.append(name)
        return i

    @classmethod
    def load(cls, store: GraphStore) -> FactGraph:
        """Read every active concept-to-concept fact.

        Raises:
            StoreError: the store failed.
        """
        return cls(store.iterate("graph_facts"))

    def save(self, folder: Path, fingerprint: dict[str, float]) -> None:
        """Write the mirror to `folder/graph.npz` (atomically), tagged with the data's fingerprint."""
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"graph.tmp-{os.getpid()}.npz"
        np.savez(
            tmp,
            subject=self.subject,
            object=self.object,
            predicate=self.predicate,
            polarity=self.polarity,
            confidence=self.confidence,
            fact_id=self.fact_id,
            source=self.source,
            in_order=self.in_order,
            names=_blob(self.names),
            pred_names=_blob(self.pred_names),
            source_names=_blob(self.source_names),
            inactive=_blob(sorted(self.inactive)),
            fingerprint=np.frombuffer(json.dumps(fingerprint, sort_keys=True).encode("utf-8"), dtype=np.uint8),
        )
        tmp.replace(folder / "graph.npz")

    @staticmethod
    def saved_for(folder: Path, fingerprint: dict[str, float]) -> bool:
        """A mirror is saved in `folder` for data with this fingerprint (only the fingerprint is read).

        Raises:
            OSError, ValueError, zipfile.BadZipFile, ...: the file cannot be read (see cache_files.CORRUPT).
        """
        path = folder / "graph.npz"
        if not path.is_file():
            return False
        with np.load(path) as data:
            stored = json.loads(data["fingerprint"].tobytes().decode("utf-8"))
        return bool(stored == json.loads(json.dumps(fingerprint, sort_keys=True)))

    @classmethod
    def open(cls, folder: Path, fingerprint: dict[str, float]) -> FactGraph | None:
        """The mirror saved in `folder`, or None when there is none or it was built from other data."""
        path = folder / "graph.npz"
        if not path.is_file():
            return None
        with np.load(path) as data:
            stored = json.loads(data["fingerprint"].tobytes().decode("utf-8"))
            if stored != json.loads(json.dumps(fingerprint, sort_keys=True)):
                return None
            g = cls(())
            g.subject, g.object, g.predicate = data["subject"], data["object"], data["predicate"]
            g.polarity, g.confidence, g.fact_id = data["polarity"], data["confidence"], data["fact_id"]
            g.source, g.in_order = data["source"], data["in_order"]
            g.names = _unblob(data["names"])
            g.pred_names = _unblob(data["pred_names"])
            g.source_names = _unblob(data["source_names"])
            g.inactive = set(_unblob(data["inactive"]))
        g.index = {name: i for i, name in enumerate(g.names)}
        g.pred_index = {name: i for i, name in enumerate(g.pred_names)}
        g.source_index = {name: i for i, name in enumerate(g.source_names)}
        n = len(g.names)
        g.out_offsets = _offsets(g.subject, n)
        g.in_offsets = _offsets(g.object[g.in_order], n)
        g.facts = len(g.subject)
        return g

    def without(self, fact_ids: frozenset[str]) -> FactGraph:
        """This mirror less the facts `fact_ids` (their ends join `inactive`, so questions about them ask the store),
        built by masking the arrays: the knowledge base as of a time without reading it again."""
        if not fact_ids:
            return self
        width = self.fact_id.dtype.itemsize
        wanted = [b for b in (f.encode("utf-8") for f in fact_ids) if len(b) <= width]  # a longer id is not here
        gone = np.isin(self.fact_id, np.asarray(wanted, dtype=self.fact_id.dtype))
        if not gone.any():
            return self
        keep = ~gone
        g = FactGraph(())
        g.subject, g.object, g.predicate = self.subject[keep], self.object[keep], self.predicate[keep]
        g.polarity, g.confidence, g.fact_id = self.polarity[keep], self.confidence[keep], self.fact_id[keep]
        g.source = self.source[keep]
        g.names, g.index = self.names, self.index
        g.pred_names, g.pred_index = self.pred_names, self.pred_index
        g.source_names, g.source_index = self.source_names, self.source_index
        ends = np.concatenate([self.subject[gone], self.object[gone]])
        g.inactive = self.inactive | {self.names[int(i)] for i in ends}
        n = len(g.names)
        g.out_offsets = _offsets(g.subject, n)
        g.in_order = np.argsort(g.object, kind="stable")
        g.in_offsets = _offsets(g.object[g.in_order], n)
        g.facts = len(g.subject)
        return g

    def predicate_id(self, name: str) -> int:
        """The integer id of a predicate (-1 when no active fact uses it)."""
        return self.pred_index.get(name, -1)

    def out_positions(self, concept: str) -> np.ndarray:
        """Positions of the facts whose subject is `concept`."""
        i = self.index.get(concept)
        if i is None:
            return np.empty(0, dtype=np.int64)
        return np.arange(self.out_offsets[i], self.out_offsets[i + 1])

    def in_positions(self, concept: str) -> np.ndarray:
        """Positions of the facts whose object is `concept`."""
        i = self.index.get(concept)
        if i is None:
            return np.empty(0, dtype=np.int64)
        return self.in_order[self.in_offsets[i] : self.in_offsets[i + 1]]

    def evidence(self, positions: Iterable[int]) -> list[Evidence]:
        """The facts at these positions."""
        made = self._made
        out: list[Evidence] = []
        for i in positions:
            e = made.get(i)
            if e is None:
                if len(made) >= EVIDENCE_CACHE:
                    made.clear()
                e = made[i] = Evidence(
                    self.names[int(self.subject[i])],
                    self.pred_names[int(self.predicate[i])],
                    self.names[int(self.object[i])],
                    self.fact_id[i].decode("utf-8"),
                    bool(self.polarity[i]),
                    round(float(self.confidence[i]), 6),
                    self.source_names[int(self.source[i])],
                    "active",
                )
            out.append(e)
        return out

    def facts_into(self, obj: str, subjects: Iterable[str], predicates: Iterable[str]) -> list[Evidence]:
        """Active facts `s p obj` with s among `subjects` and p among `predicates`, in position order."""
        pids = [self.pred_index[p] for p in predicates if p in self.pred_index]
        sids = [self.index[x] for x in subjects if x in self.index]
        o = self.index.get(obj)
        if o is None or not pids or not sids:
            return []
        if len(sids) == 1:
            # One subject: its own facts are usually fewer than the object's, and they are in the same order.
            lo, hi = int(self.out_offsets[sids[0]]), int(self.out_offsets[sids[0] + 1])
            if hi - lo <= 32:  # a plain loop beats numpy calls on a handful of facts
                wanted = set(pids)
                objects, preds = self.object[lo:hi].tolist(), self.predicate[lo:hi].tolist()
                return self.evidence(
                    [lo + i for i, (x, p) in enumerate(zip(objects, preds, strict=True)) if x == o and p in wanted]
                )
            positions = np.arange(lo, hi)
            mask = self.object[lo:hi] == o
        else:
            positions = self.in_order[self.in_offsets[o] : self.in_offsets[o + 1]]
            mask = _among(self.subject[positions], sids)
        mask &= _among(self.predicate[positions], pids)
        return self.evidence(positions[mask].tolist())

    def subjects_into(self, obj: str, predicates: Iterable[str]) -> np.ndarray:
        """Subjects (node ids) of the active facts `s p obj` with p among `predicates`."""
        pids = [self.pred_index[p] for p in predicates if p in self.pred_index]
        positions = self.in_positions(obj)
        if not pids or not len(positions):
            return np.empty(0, dtype=np.int32)
        found: np.ndarray = self.subject[positions[_among(self.predicate[positions], pids)]]
        return found

    def out(self, concept: str) -> list[Evidence]:
        """Active facts stated about `concept`."""
        return self.evidence(self.out_positions(concept).tolist())

    def into(self, concept: str) -> list[Evidence]:
        """Active facts pointing at `concept`."""
        return self.evidence(self.in_positions(concept).tolist())


def fingerprint(store: GraphStore) -> dict[str, float]:
    """What the data is: the store's write counter, or (a store without one) counts and a confidence checksum
    of the facts (see queries/graph_fingerprint.cypher, which scans every relationship).

    Raises:
        StoreError: the store failed.
    """
    counter = store.write_counter()
    if counter is not None:
        count, token = counter.split(":")
        return {"writes": int(count), "token": int(token, 16)}
    row = store.run("graph_fingerprint")[0]
    return {
        "concepts": int(row["concepts"]),
        "facts": int(row["facts"]),
        "active": int(row["active"] or 0),
        "weight": round(float(row["weight"] or 0.0), 6),
    }


def _blob(names: list[str]) -> np.ndarray:
    # Names joined by a separator that no id or label contains, stored as bytes: fast to save and split.
    return np.frombuffer("\x1f".join(names).encode("utf-8"), dtype=np.uint8)


def _unblob(data: np.ndarray) -> list[str]:
    text = data.tobytes().decode("utf-8")
    return text.split("\x1f") if text else []


def _among(values: np.ndarray, wanted: list[int]) -> np.ndarray:
    # np.isin sorts and allocates: tens of microseconds on the few-element arrays of one claim.
    if len(wanted) > 4:
        return np.isin(values, wanted)
    mask: np.ndarray = values == wanted[0]
    for w in wanted[1:]:
        mask |= values == w
    return mask


def _offsets(sorted_ids: np.ndarray, n: int) -> np.ndarray:
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(sorted_ids, minlength=n), out=offsets[1:])
    return offsets
