"""Concept linking: from the words of a question or claim to concept ids.

A name is tried as an id, then as a label or alias (normalised with `normalize_term`), then by the Snowball
stems of its words (`kgbrain.language.stem_key`: нейроны → нейрон, tumpuses → tumpus, NamedPizza → named pizza),
which is enough for labels that differ from the text by an inflection or by how an identifier is written.
Unknown names get a "did you mean" list from the closest term keys.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass

from kgbrain.knowledge import normalize_term
from kgbrain.language import stem_key, words
from kgbrain.store.protocol import GraphStore

CACHE_SIZE = 200_000  # resolved names kept between loads


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of text linked to a concept."""

    text: str
    concept: str
    start: int  # word index
    end: int


class Linker:
    """Resolves names to concept ids; resolutions and the stem index are cached until the next load."""

    def __init__(self, store: GraphStore, known: Callable[[], Container[str]] | None = None) -> None:
        """Link against `store`; `known` gives ids known to exist without a query (the reasoner's mirror)."""
        self.store = store
        self._known = known
        self._cache: dict[str, str | None] = {}
        self._stems: dict[str, list[str]] | None = None
        self._keys: list[str] | None = None

    def invalidate(self) -> None:
        """Forget cached resolutions and term indexes (called after a load)."""
        self._cache = {}
        self._stems = None
        self._keys = None

    def lookup(self, name: str) -> str | None:
        """The concept named `name` (id, label, alias or an inflected form of one), or None.

        Raises:
            StoreError: the store failed.
        """
        if name in self._cache:
            return self._cache[name]
        found = self._resolve(name)
        if len(self._cache) > CACHE_SIZE:
            self._cache = {}
        self._cache[name] = found
        return found

    def _resolve(self, name: str) -> str | None:
        if not name.strip():
            return None
        if self._known is not None and name in self._known():
            return name
        if self.store.run("link_concept", id=name):
            return name
        exact = self._exact(normalize_term(name))
        if exact:
            return exact
        found = self._stem_index().get(stem_key(name))
        return _pick(found) if found else None

    def lookup_many(self, names: Sequence[str]) -> dict[str, str | None]:
        """`lookup` for many names."""
        return {n: self.lookup(n) for n in names}

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Term keys close to `name` ("did you mean")."""
        if self._keys is None:
            self._stem_index()
        assert self._keys is not None
        key = normalize_term(name)
        close = difflib.get_close_matches(key, self._keys, n=limit, cutoff=0.6)
        if not close:
            close = difflib.get_close_matches(stem_key(key), self._keys, n=limit, cutoff=0.6)
        return close

    def mentions(self, text: str, max_words: int = 5) -> list[Mention]:
        """Concepts named in free text, longest spans first, left to right, not overlapping."""
        tokens = words(text)
        index = self._stem_index()
        found: list[Mention] = []
        taken: set[int] = set()
        for size in range(min(max_words, len(tokens)), 0, -1):
            for start in range(len(tokens) - size + 1):
                span = range(start, start + size)
                if taken.intersection(span):
                    continue
                phrase = " ".join(tokens[start : start + size])
                concept = self._exact(phrase) or _pick(index.get(stem_key(phrase), []))
                if concept:
                    found.append(Mention(phrase, concept, start, start + size))
                    taken.update(span)
        return sorted(found, key=lambda m: m.start)

    def _exact(self, key: str) -> str | None:
        rows = self.store.run("link_term", key=key)
        return _pick([r["concept"] for r in rows]) if rows else None

    def _stem_index(self) -> dict[str, list[str]]:
        if self._stems is None:
            stems: dict[str, list[str]] = {}
            keys: set[str] = set()
            for r in self.store.iterate("link_all_terms"):
                keys.add(r["key"])
                stems.setdefault(stem_key(r["key"]), []).append(r["concept"])
            self._stems = stems
            self._keys = sorted(keys)
        return self._stems


def _pick(concepts: Sequence[str]) -> str | None:
    # Several concepts can share a name; the most frequently named one wins, ties by id, deterministically.
    if not concepts:
        return None
    counts: dict[str, int] = {}
    for c in concepts:
        counts[c] = counts.get(c, 0) + 1
    return min(counts, key=lambda c: (-counts[c], c))
