"""Staged retrieval (seed 001 retrieve_staged): broad search, filter, rerank into evidence packs.

Stage 1 (broad): link the question's words to concepts through the Term keys (labels, aliases, ids;
compared by crude stems so "нейроны" finds "нейрон"), then take the facts around them (one hop in Ring 1,
`retrieval.ring2_hops` in Ring 2), plus the nearest concepts of a vector index when one is given.
Stage 2 (filter): drop retracted facts and facts below the trust/confidence floors.
Stage 3 (rerank): relevance = overlap with the question's concepts and the goal, and graph distance.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from kgbrain.config import Config
from kgbrain.knowledge import Fact, Status
from kgbrain.language import content_words, local_name, stem, words
from kgbrain.memory import episodes
from kgbrain.memory.episodes import Episode
from kgbrain.memory.evidence import EvidencePack
from kgbrain.memory.persisted import ShardedMap, code_key, data_key, save_sharded
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import fact_from_row

# Concept id -> [(neighbour concept id, similarity 0..1)], e.g. the reasoner's analogy index.
VectorSearch = Callable[[str, int], list[tuple[str, float]]]

_MAX_NGRAM = 6
_LOOKUPS = 12  # up to this many concepts, one primary-key query each (measured break-even on 200k concepts)
_SMALL_KB = 20_000  # up to this many concepts, scanning the nodes costs less than one lookup per concept
# Up to this many touched concepts, their names are read with one `id IN $ids` query (measured: 10,000 ids
# take 0.45 s, about what re-reading every term of a small base costs), or up to a quarter of the indexed keys
# (re-reading 200,000 terms costs 15 s); more, and the index is rebuilt.
_INCREMENTAL_TERMS = 2_000


@dataclass(frozen=True, slots=True)
class Retrieval:
    """What retrieval found for a question."""

    concepts: dict[str, str]  # linked concept id -> the words of the question that named it
    packs: tuple[EvidencePack, ...]  # reranked, most relevant first
    unknown_words: tuple[str, ...]  # content words that named no concept
    content_words: tuple[str, ...]
    dropped: int = 0  # facts removed by the stage-2 filter
    notes: tuple[str, ...] = ()
    by_fact: dict[str, EvidencePack] = field(default_factory=dict)  # every kept pack, also those past top_k
    # Episodic evidence (memory/episodes.py): the latest recorded answers about the concepts; never proof.
    episodes: tuple[Episode, ...] = ()

    @property
    def known_fraction(self) -> float:
        """Share of the question's content words that named a concept (1.0 for a question without any)."""
        if not self.content_words:
            return 1.0
        return 1.0 - len(self.unknown_words) / len(self.content_words)


class _TermIndex:
    """The stems of every name -> the concepts they name: built here, or read back shard by shard as lookups
    need it (a question looks up a few phrases), plus what was added since."""

    __slots__ = ("added", "saved")

    def __init__(self, added: dict[tuple[str, ...], set[str]] | None = None, saved: ShardedMap | None = None) -> None:
        self.added = added if added is not None else {}
        self.saved = saved

    def get(self, key: tuple[str, ...]) -> set[str] | None:
        found = self.added.get(key)
        base: set[str] | None = self.saved.get(key) if self.saved is not None else None
        if found is None or not base:
            return found if found is not None else base
        return found | base

    def add(self, key: tuple[str, ...], owners: set[str]) -> None:
        self.added.setdefault(key, set()).update(owners)

    def size(self) -> int:
        return len(self.added) + (self.saved.size if self.saved is not None else 0)

    def whole(self) -> dict[tuple[str, ...], set[str]]:
        if self.saved is None:
            return self.added
        out: dict[tuple[str, ...], set[str]] = self.saved.whole()
        for key, owners in self.added.items():
            out[key] = out.get(key, set()) | owners
        return out


class Retriever:
    """Staged retrieval over one store; the term index is built once, on first use."""

    def __init__(
        self,
        store: GraphStore,
        config: Config,
        vector_search: VectorSearch | None = None,
        *,
        index_dir: Path | None = None,
    ) -> None:
        """Retrieve from `store` with `config.retrieval` and `config.freshness`; keep the term index in `index_dir`."""
        self.store = store
        self.config = config
        self.vector_search = vector_search
        self.index_dir = index_dir
        self._index: _TermIndex | None = None
        self._around: dict[tuple[str, bool], list[Fact]] = {}
        self._small: bool | None = None  # whether a node scan is cheap (decided on first use)

    # -- stage 1 -------------------------------------------------------------------------------

    def _terms(self) -> _TermIndex:
        if self._index is None:
            # Persisted: stemming every term of a large base costs seconds in each new process, and reading all of
            # them back a good part of a second, so a process reads only the shards its lookups need.
            key = self._key()
            saved = ShardedMap.open(self.index_dir, "terms", key) if self.index_dir and key else None
            if saved is not None:
                self._index = _TermIndex(saved=saved)
            else:
                by_stems = _stem_terms(self.store.iterate("terms_all"))
                if self.index_dir is not None and key is not None:
                    save_sharded(self.index_dir, "terms", key, by_stems)
                self._index = _TermIndex(by_stems)
        return self._index

    def _key(self) -> str | None:
        key = data_key(self.store)
        return f"{key}:{code_key(stem, words, local_name, _TermIndex)}" if key is not None else None

    def persist(self) -> None:
        """Save the term index for the data it now covers (a server calls this when it stops: its incremental
        updates would otherwise leave the next process to rebuild it).

        Raises:
            StoreError: the store failed.
        """
        key = self._key()
        if self._index is not None and self.index_dir is not None and key is not None:
            save_sharded(self.index_dir, "terms", key, self._index.whole())

    def invalidate(self, concepts: Iterable[str] | None = None) -> None:
        """Another writer changed the data: re-read the names of `concepts` (None: rebuild the term index).

        Names are only ever added, so adding those of the touched concepts keeps the index whole.

        Raises:
            StoreError: the store failed.
        """
        self._around.clear()
        self._small = None
        ids = sorted(set(concepts)) if concepts is not None else []
        if concepts is None or self._index is None or len(ids) > max(_INCREMENTAL_TERMS, self._index.size() // 4):
            self._index = None  # rebuilt (or read back) on next use
            return
        found = _stem_terms(self.store.iterate("terms_of_concepts", ids=ids))
        for key, owners in found.items():
            self._index.add(key, owners)

    def link(self, text: str) -> tuple[dict[str, str], tuple[str, ...], tuple[str, ...]]:
        """Concepts named in `text` (longest phrases first), the content words left unnamed, and all of them."""
        tokens = words(text)
        content = content_words(text)
        content_set = set(content)
        index = self._terms()
        stems_ = [stem(w) for w in tokens]
        used = [False] * len(tokens)
        linked: dict[str, str] = {}
        for n in range(min(_MAX_NGRAM, len(tokens)), 0, -1):
            for i in range(len(tokens) - n + 1):
                if any(used[i : i + n]):
                    continue
                hits = index.get(tuple(stems_[i : i + n]))
                if not hits:
                    continue
                if n == 1 and tokens[i] not in content_set:
                    continue
                for concept in sorted(hits):
                    linked.setdefault(concept, " ".join(tokens[i : i + n]))
                for j in range(i, i + n):
                    used[j] = True
        named = {w for phrase in linked.values() for w in phrase.split()}
        unknown = tuple(w for w in content if w not in named)
        return linked, unknown, tuple(content)

    def begin(self) -> None:
        """Start a new cycle: forget the facts remembered by `facts_around` (they may change between cycles)."""
        self._around.clear()

    def facts_around(self, concepts: Iterable[str], *, incoming: bool = True) -> list[Fact]:
        """Every fact with one of `concepts` as subject (or, with `incoming`, object), any status.

        Results are remembered per concept until `begin()`, so Ring 2 does not re-read Ring 1's neighbourhood.
        """
        ids = sorted(set(concepts))
        todo = [i for i in ids if (i, incoming) not in self._around and (i, True) not in self._around]
        if self._small is None:
            self._small = int(self.store.run("concept_count")[0]["concepts"]) <= _SMALL_KB
        # One scan of the nodes beats many primary-key lookups on a small KB, or for many concepts.
        if todo and (self._small or len(todo) > _LOOKUPS):
            rows = self.store.run("cog_facts_out", ids=todo)
            if incoming:
                rows += self.store.run("cog_facts_in", ids=todo)
            by_end: dict[str, list[Fact]] = {i: [] for i in todo}
            for row in rows:
                fact = fact_from_row(row)
                for end in {fact.subject, fact.object or ""} & by_end.keys():
                    by_end[end].append(fact)
            for i in todo:
                self._around[(i, incoming)] = by_end[i]
        else:
            for i in todo:
                rows = self.store.run("cog_fact_out_one", id=i)
                if incoming:
                    rows += self.store.run("cog_fact_in_one", id=i)
                self._around[(i, incoming)] = [fact_from_row(r) for r in rows]
        seen: dict[str, Fact] = {}
        for i in ids:
            for fact in self._around.get((i, True)) or self._around.get((i, incoming), []):
                seen.setdefault(fact.fact_id, fact)
        return list(seen.values())

    # -- the stages together -------------------------------------------------------------------

    def retrieve(
        self,
        query: str,
        *,
        hops: int = 1,
        goal_text: str = "",
        extra_concepts: Iterable[str] = (),
        neighbours: Iterable[str] | None = None,
        now: datetime | None = None,
    ) -> Retrieval:
        """Staged retrieval for `query`: link, broad search up to `hops`, filter, rerank to `top_k` packs.

        `neighbours` are the vector stage's results when the caller already has them (Ring 2 asks the analogy
        index once and shares the answer); otherwise `vector_search` is asked when `hops` > 1.

        Raises:
            StoreError: the store failed.
        """
        cfg = self.config.retrieval
        now = now or datetime.now(timezone.utc)
        linked, unknown, content = self.link(query)
        for extra in extra_concepts:
            linked.setdefault(extra, extra)
        notes: list[str] = []
        distance = self._seeds(linked, hops, neighbours, notes)
        facts = self._expand(distance, hops)
        # Stage 2: filter.
        kept: list[tuple[Fact, int]] = []
        for fact, hop in facts.values():
            if fact.status is Status.RETRACTED or fact.trust < cfg.min_trust or fact.confidence < cfg.min_confidence:
                continue
            kept.append((fact, hop))
        packs = self._rerank(kept, set(linked), goal_text, now)
        return Retrieval(
            concepts=linked,
            packs=tuple(packs[: cfg.top_k]),
            unknown_words=unknown,
            content_words=content,
            dropped=len(facts) - len(kept),
            notes=tuple(notes),
            by_fact={p.evidence_id: p for p in packs},
            episodes=episodes.about(self.store, list(linked)),
        )

    def _seeds(
        self, linked: dict[str, str], hops: int, neighbours: Iterable[str] | None, notes: list[str]
    ) -> dict[str, int]:
        """Stage 1's starting concepts at their graph distance: the linked ones (0) and their vector neighbours (1)."""
        distance: dict[str, int] = dict.fromkeys(linked, 0)
        if neighbours is not None:
            for neighbour in neighbours:
                distance.setdefault(neighbour, 1)
        elif self.vector_search is not None and hops > 1:  # the vector stage belongs to Ring 2's staged retrieval
            for concept in list(linked):
                for neighbour, _similarity in self.vector_search(concept, 3):
                    distance.setdefault(neighbour, 1)
        elif hops > 1:
            notes.append("vector search skipped: no analogy index")
        return distance

    def _expand(self, distance: dict[str, int], hops: int) -> dict[str, tuple[Fact, int]]:
        """Stage 1, broad search: the facts up to `hops` away, each with the hop it was found at.

        `distance` gains every concept reached.
        """
        facts: dict[str, tuple[Fact, int]] = {}
        frontier = set(distance)
        for hop in range(1, max(1, hops) + 1):
            # A hub would flood the next hop: beyond the first, expand at most `frontier_limit` concepts (first in
            # id order), along their outgoing facts only (incoming ones are mostly siblings of the question).
            if hop == 1:
                found = self.facts_around(frontier)
            else:
                found = self.facts_around(sorted(frontier)[: self.config.retrieval.frontier_limit], incoming=False)
            nxt: set[str] = set()
            for fact in found:
                facts.setdefault(fact.fact_id, (fact, hop))
                for end in (fact.subject, fact.object):
                    if end is not None and end not in distance:
                        distance[end] = hop
                        nxt.add(end)
            frontier = nxt
            if not frontier:
                break
        return facts

    def _rerank(
        self, kept: list[tuple[Fact, int]], query_concepts: set[str], goal_text: str, now: datetime
    ) -> list[EvidencePack]:
        """Stage 3: packs ranked by overlap with the question's concepts and the goal, and by graph distance."""
        cfg = self.config.retrieval
        goal_words = {stem(w) for w in content_words(goal_text)}
        packs = []
        for fact, hop in kept:
            refs = {fact.subject} | ({fact.object} if fact.object else set())
            overlap = len(refs & query_concepts) / max(1, min(2, len(query_concepts)))
            if goal_words and stem(fact.predicate.split("_")[0]) in goal_words:
                overlap += 0.25
            relevance = cfg.overlap_weight * min(1.0, overlap) + cfg.distance_weight / hop
            packs.append(
                EvidencePack.of(
                    fact,
                    relevance=round(min(1.0, relevance), 6),
                    now=now,
                    config=self.config.freshness,
                    stage=3,
                    distance=hop,
                )
            )
        packs.sort(key=lambda p: (-p.relevance_score, -p.confidence * p.trust, p.evidence_id))
        return packs


def _stem_terms(rows: Iterable[dict[str, str]]) -> dict[tuple[str, ...], set[str]]:
    by_stems: dict[tuple[str, ...], set[str]] = {}
    for row in rows:
        key = tuple(stem(w) for w in words(row["key"]))
        if key:
            by_stems.setdefault(key, set()).add(row["concept"])
        # An identifier as written ("pizza:NamedPizza") also answers to its words ("named pizza").
        local = tuple(stem(w) for w in words(local_name(row["text"] or "")))
        if local and local != key:
            by_stems.setdefault(local, set()).add(row["concept"])
    return by_stems
