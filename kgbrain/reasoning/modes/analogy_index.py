"""A persistent approximate nearest-neighbour index (hnswlib) over concept vectors; the only hnswlib import.

Files beside the database: `<db>.analogy/index.bin` (the HNSW graph), `labels.json` (concept ids in
insertion order) and `meta.json` (dimension and the data fingerprint the index was built from). Writes go
to temporary names and are renamed into place, so a killed process never leaves a half-written index.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import hnswlib
import numpy as np

# 200k concepts on 2 cores: ~35 s to build at 40/12 against ~90 s at 100/16; recall matters little because
# the candidates are re-ranked by the structure they actually share.
EF_CONSTRUCTION = 40
M = 12
EF_SEARCH = 64


class VectorIndex:
    """Cosine-space HNSW index keyed by concept id; adding an existing id replaces its vector."""

    def __init__(self, dim: int) -> None:
        """An empty index of `dim`-dimensional vectors."""
        self.dim = dim
        self.labels: list[str] = []
        self.ids: dict[str, int] = {}
        self._index: Any = None
        self.fingerprint: dict[str, Any] = {}

    def __len__(self) -> int:
        return len(self.labels)

    def _ensure(self, capacity: int) -> Any:
        if self._index is None:
            self._index = hnswlib.Index(space="cosine", dim=self.dim)
            self._index.init_index(max_elements=max(capacity, 16), ef_construction=EF_CONSTRUCTION, M=M)
            self._index.set_ef(EF_SEARCH)
        elif capacity > self._index.get_max_elements():
            self._index.resize_index(max(capacity, 2 * self._index.get_max_elements()))
        return self._index

    def upsert(self, names: list[str], vectors: np.ndarray) -> None:
        """Add or replace the vectors of these concepts."""
        if not names:
            return
        keys = []
        for name in names:
            key = self.ids.get(name)
            if key is None:
                key = self.ids[name] = len(self.labels)
                self.labels.append(name)
            keys.append(key)
        index = self._ensure(len(self.labels))
        index.add_items(np.asarray(vectors, dtype=np.float32), np.asarray(keys, dtype=np.int64))

    def query(self, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        """The k nearest concepts with their cosine similarity, best first."""
        if self._index is None or not self.labels:
            return []
        k = min(k, len(self.labels))
        keys, dists = self._index.knn_query(np.asarray(vector, dtype=np.float32).reshape(1, -1), k=k)
        return [(self.labels[int(i)], round(1.0 - float(d), 4)) for i, d in zip(keys[0], dists[0], strict=True)]

    def save(self, folder: Path) -> None:
        """Write the index files atomically into `folder`."""
        if self._index is None:
            return
        folder.mkdir(parents=True, exist_ok=True)
        suffix = f".tmp-{os.getpid()}"
        self._index.save_index(str(folder / ("index.bin" + suffix)))
        (folder / ("labels.json" + suffix)).write_text(json.dumps(self.labels, ensure_ascii=False), encoding="utf-8")
        meta = {"dim": self.dim, "fingerprint": self.fingerprint}
        (folder / ("meta.json" + suffix)).write_text(json.dumps(meta), encoding="utf-8")
        for name in ("index.bin", "labels.json", "meta.json"):  # meta last: it marks the set complete
            (folder / (name + suffix)).replace(folder / name)

    @classmethod
    def open(cls, folder: Path, dim: int) -> VectorIndex | None:
        """Read an index saved by `save`, or None when there is none (or it has another dimension)."""
        meta_path = folder / "meta.json"
        if not meta_path.is_file():
            return None
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("dim") != dim:
            return None
        labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
        found = cls(dim)
        found.labels = list(labels)
        found.ids = {name: i for i, name in enumerate(found.labels)}
        index = hnswlib.Index(space="cosine", dim=dim)
        index.load_index(str(folder / "index.bin"), max_elements=max(len(labels), 16))
        index.set_ef(EF_SEARCH)
        found._index = index
        found.fingerprint = dict(meta.get("fingerprint") or {})
        return found
