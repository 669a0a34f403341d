"""Concept linking: from the words of a question or claim to concept ids.

A name is tried as an id, then as a label or alias (normalised with `normalize_term`), then by the Snowball
stems of its words (`kgbrain.language.stem_key`: нейроны → нейрон, tumpuses → tumpus, NamedPizza → named pizza),
which is enough for labels that differ from the text by an inflection or by how an identifier is written.
Unknown names get a "did you mean" list from the closest term keys.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from pathlib import Path

from kgbrain.knowledge import normalize_term
from kgbrain.language import lemmas, local_name, stem_key, words
from kgbrain.memory.fuzzy import CloseMatcher
from kgbrain.memory.persisted import code_key, data_key, load_or_build
from kgbrain.memory.typos import MIN_WORD, TypoIndex
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

    def __init__(
        self, store: GraphStore, known: Callable[[], Container[str]] | None = None, *, index_dir: Path | None = None
    ) -> None:
        """Link against `store`; `known` gives ids known to exist without a query (the reasoner's mirror); the
        stem index is kept in `index_dir` between processes."""
        self.store = store
        self.index_dir = index_dir
        self._known = known
        self._cache: dict[str, str | None] = {}
        self._stems: dict[str, list[str]] | None = None
        self._keys: list[str] | None = None
        self._matcher: CloseMatcher | None = None
        self._typos: TypoIndex | None = None
        self._written: dict[str, str] = {}  # term key -> the name as first written (for "did you mean")

    def invalidate(self) -> None:
        """Forget cached resolutions and term indexes (called after a load)."""
        self._cache = {}
        self._stems = None
        self._keys = None
        self._matcher = None
        self._typos = None

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
        found = self._stem_index().get(stem_key(name)) or self._stem_index().get(_lemma_key(name))
        if not found:  # "Old Lighthouse" for "The Old Lighthouse", "the Maritime Museum" for "Maritime Museum"
            found = next(filter(None, (self._stem_index().get(stem_key(n)) for n in _article_variants(name))), None)
        return _pick(found) if found else None

    def lookup_typed(self, name: str) -> str | None:
        """`lookup`, else the concept `name` names with its typos corrected ("аудогид"; typos.py): for the words of
        a question, never for an id given to the API (an exact name always wins)."""
        found = self.lookup(name)
        if found is not None:
            return found
        fixed = self._without_typos(words(name))
        return self.lookup(" ".join(fixed)) if fixed != words(name) else None

    def _without_typos(self, tokens: list[str]) -> list[str]:
        """`tokens` with each word that is a typo of one known word replaced by it."""
        if not any(len(t) >= MIN_WORD for t in tokens):
            return tokens
        if self._typos is None:
            self._stem_index()
            self._typos = TypoIndex(self._written)
        return [self._typos.correct(t) or t for t in tokens]

    def lookup_many(self, names: Sequence[str]) -> dict[str, str | None]:
        """`lookup` for many names."""
        return {n: self.lookup(n) for n in names}

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Names close to `name` ("did you mean"), as they are written (`ub:GraduateStudent`, not a lookup key)."""
        if self._keys is None:
            self._stem_index()
        assert self._keys is not None
        key = normalize_term(name)
        if self._matcher is None:
            self._matcher = CloseMatcher(self._keys)  # difflib's answer without scoring every key
        close = self._matcher.matches(key, n=limit, cutoff=0.6)
        if not close:
            close = self._matcher.matches(stem_key(key), n=limit, cutoff=0.6)
        return list(dict.fromkeys(self._written.get(k, k) for k in close))

    def candidates(self, name: str) -> list[str]:
        """Every concept `name` or an inflected form of it could mean, without choosing (from memory, no query)."""
        if not name.strip():
            return []
        return list(dict.fromkeys(self._stem_index().get(stem_key(name), [])))

    def ambiguous(self, name: str) -> list[str]:
        """The candidates of `name` when they come from different ontologies (id prefixes), else [].

        A label such as "restaurant" in both schema.org and DBpedia names two concepts that no frequency count
        should choose between; concepts of one ontology that share a name keep the deterministic choice of
        `lookup`. An exact id is never ambiguous.
        """
        if self._known is not None and name in self._known():
            return []
        found = self.candidates(name)
        if len(found) < 2 or len({c.rpartition(":")[0] for c in found}) < 2 or name in found:
            return []
        return sorted(found)

    def link(self, text: str) -> list[str]:
        """Concepts named in a slot: the whole text if it is a name, else the mentions inside it.

        A name of several ontologies' concepts links to none (the answer then asks which one is meant).

        Raises:
            StoreError: the store failed.
        """
        if self.ambiguous(text):
            return []
        whole = self.lookup(text)
        if whole:
            return [whole]
        return list(dict.fromkeys(m.concept for m in self.mentions(text)))

    def names(self, concept: str) -> list[str]:
        """Every name of a concept: its English and Russian labels, then its other names; its id as words when
        it has none.

        Raises:
            StoreError: the store failed.
        """
        info = next(iter(self.store.run("link_label", id=concept)), {})
        names = [str(info.get(k) or "") for k in ("label_en", "label_ru")]
        names += [r["text"] for r in self.store.run("concept_names", id=concept)]
        return [n for n in names if n] or [concept.replace("_", " ")]

    def describe(self, concept: str) -> str:
        """A candidate as a clarification lists it: its id and the source of its facts ("dbo:Restaurant (dbpedia)").

        Raises:
            StoreError: the store failed.
        """
        rows = self.store.run("concept_facts_out", id=concept) or self.store.run("concept_facts_in", id=concept)
        sources = sorted({str(r["source"]) for r in rows if r["source"]})
        return f"{concept} ({', '.join(sources[:2])})" if sources else concept

    def mentions(self, text: str, max_words: int = 5) -> list[Mention]:
        """Concepts named in free text, longest spans first, left to right, not overlapping."""
        tokens = words(text)
        found = self._mentions(tokens, max_words, set())
        taken = {i for m in found for i in range(m.start, m.end)}
        rest = [t if i not in taken else "" for i, t in enumerate(tokens)]
        fixed = self._without_typos(rest)
        if fixed != rest:  # "the bronze ancor": the words no name covers, typos corrected, linked again
            again = self._mentions([f or t for f, t in zip(fixed, tokens, strict=True)], max_words, set())
            if _covered(again) > len(taken):
                found = again
        return sorted(found, key=lambda m: m.start)

    def _mentions(self, tokens: list[str], max_words: int, taken: set[int]) -> list[Mention]:
        index = self._stem_index()
        found: list[Mention] = []
        taken = set(taken)
        for size in range(min(max_words, len(tokens)), 0, -1):
            for start in range(len(tokens) - size + 1):
                span = range(start, start + size)
                if taken.intersection(span):
                    continue
                phrase = " ".join(tokens[start : start + size])
                concept = (
                    self._exact(phrase)
                    or _pick(index.get(stem_key(phrase), []))
                    or _pick(index.get(_lemma_key(phrase), []))
                )
                if concept:
                    found.append(Mention(phrase, concept, start, start + size))
                    taken.update(span)
        return found

    def _exact(self, key: str) -> str | None:
        rows = self.store.run("link_term", key=key)
        return _pick([r["concept"] for r in rows]) if rows else None

    def _stem_index(self) -> dict[str, list[str]]:
        if self._stems is None:
            # Persisted: stemming every term of a large base costs seconds in each new process.
            key = data_key(self.store)
            key = f"{key}:{code_key(stem_key, local_name, Linker)}" if key is not None else None
            stems, written = load_or_build(self.index_dir, "link_terms", key, self._build_stem_index)
            self._stems = stems
            self._keys = sorted(written)
            self._written = written
        return self._stems

    def _build_stem_index(self) -> tuple[dict[str, list[str]], dict[str, str]]:
        stems: dict[str, list[str]] = {}
        written: dict[str, str] = {}
        for r in self.store.iterate("link_all_terms"):
            key, concept, text = r["key"], r["concept"], r["text"] or r["key"]
            written.setdefault(key, text)
            stems.setdefault(stem_key(key), []).append(concept)
            # Identifiers as written ("pizza:NamedPizza", "GraduateStudent0") also answer to their words.
            local = stem_key(local_name(text))
            if local and local != stem_key(key):
                stems.setdefault(local, []).append(concept)
        return stems, written


def _covered(mentions: list[Mention]) -> int:
    return sum(m.end - m.start for m in mentions)


_ARTICLES = ("the", "a", "an")


def _article_variants(name: str) -> list[str]:
    """`name` without its leading English article, or with "the" before it (labels are written either way)."""
    first, _, rest = name.strip().partition(" ")
    if first.lower() in _ARTICLES:
        return [rest] if rest else []
    return [f"the {name.strip()}"] if name.strip().isascii() else []


def _lemma_key(text: str) -> str:
    # Snowball stems some inflected forms apart from their dictionary form (эритроцита vs эритроцит):
    # the stems of the lemmas meet them again.
    return stem_key(" ".join(lemmas(text)))


def _pick(concepts: Sequence[str]) -> str | None:
    # Several concepts can share a name; the most frequently named one wins, ties by id, deterministically.
    if not concepts:
        return None
    counts: dict[str, int] = {}
    for c in concepts:
        counts[c] = counts.get(c, 0) + 1
    return min(counts, key=lambda c: (-counts[c], c))
