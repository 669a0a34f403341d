"""`difflib.get_close_matches` over a fixed list of keys, with the same answer and far fewer comparisons.

difflib scores every key with `SequenceMatcher.ratio` behind two cheap upper bounds; on an ontology of 33,000
long, similar identifiers (LUBM) most keys pass the bounds and one "did you mean" takes seconds. Here the
second bound, `quick_ratio` (shared characters, counted with multiplicity), is computed for every key at
once with numpy, keys are scored in decreasing order of that bound, and the scan stops when no remaining
key can reach the n-th best score. Keys that stop scoring can only score below every key kept, so the
result (the n best by score, ties by key as difflib's `heapq.nlargest` breaks them) is the same.
"""

from __future__ import annotations

import heapq
from collections import Counter
from difflib import SequenceMatcher

import numpy as np


class CloseMatcher:
    """Close matches of a word among fixed keys, exactly as `difflib.get_close_matches(word, keys, n, cutoff)`."""

    def __init__(self, keys: list[str]) -> None:
        """Index `keys` (their characters, concatenated as code points)."""
        self.keys = keys
        self.lengths = np.asarray([len(k) for k in keys], dtype=np.int64)
        joined = "".join(keys)
        self._codes = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32) if joined else np.empty(0, np.uint32)
        self._starts = np.concatenate(([0], np.cumsum(self.lengths)[:-1])) if keys else np.empty(0, np.int64)
        self._columns: dict[str, np.ndarray] = {}

    def _column(self, char: str) -> np.ndarray:
        # How many times `char` occurs in each key (cached per character).
        found = self._columns.get(char)
        if found is None:
            hits = np.concatenate(([0], np.cumsum(self._codes == ord(char))))
            ends = self._starts + self.lengths
            found = (hits[ends] - hits[self._starts]).astype(np.int32)
            if len(self._columns) > 512:
                self._columns.clear()
            self._columns[char] = found
        return found

    def matches(self, word: str, n: int = 3, cutoff: float = 0.6) -> list[str]:
        """The best `n` keys scoring at least `cutoff` against `word`, best first."""
        if not n > 0:
            raise ValueError(f"n must be > 0: {n!r}")
        if not 0.0 <= cutoff <= 1.0:
            raise ValueError(f"cutoff must be in [0.0, 1.0]: {cutoff!r}")
        if not self.keys:
            return []
        # difflib's arithmetic (2.0 * matches / length, 1.0 for two empty strings), so the floats are equal.
        # First bound, real_quick_ratio: the lengths alone.
        total = self.lengths + len(word)
        rough = np.where(total > 0, 2.0 * np.minimum(self.lengths, len(word)) / np.maximum(total, 1), 1.0)
        alive = np.nonzero(rough >= cutoff)[0]
        if not len(alive):
            return []
        # Second bound, quick_ratio: the characters shared, with multiplicity.
        shared = np.zeros(len(alive), dtype=np.int64)
        for char, count in Counter(word).items():
            shared += np.minimum(self._column(char)[alive], count)
        total = total[alive]
        bound = np.where(total > 0, 2.0 * shared / np.maximum(total, 1), 1.0)
        keep = bound >= cutoff
        alive, bound = alive[keep], bound[keep]
        order = np.argsort(-bound, kind="stable")
        alive, bound = alive[order], bound[order]
        matcher = SequenceMatcher()
        matcher.set_seq2(word)
        kept: list[tuple[float, str]] = []
        best: list[float] = []  # a min-heap of the n best scores so far
        for i, ub in zip(alive.tolist(), bound.tolist(), strict=True):
            if len(best) >= n and ub < best[0]:
                break
            key = self.keys[i]
            matcher.set_seq1(key)
            if matcher.real_quick_ratio() >= cutoff and matcher.quick_ratio() >= cutoff:
                score = matcher.ratio()
                if score >= cutoff:
                    kept.append((score, key))
                    if len(best) < n:
                        heapq.heappush(best, score)
                    elif score > best[0]:
                        heapq.heapreplace(best, score)
        return [key for _, key in heapq.nlargest(n, kept)]
