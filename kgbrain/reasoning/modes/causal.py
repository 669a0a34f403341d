"""Causal reasoning: ranked chains over `causes`, `enables`, `leads_to` and `prevents` (seed 001 §2.2).

Theory: a qualitative causal network (Pearl, *Causality*, 2009, ch. 1) read as noisy links: the strength of
a chain is the product of its links' confidences, and a `prevents` link flips the sign of everything
downstream (A causes B, B prevents C ⇒ A works against C). The active causal edges come from the
in-memory FactGraph mirror (queries/graph_active_facts.cypher), rebuilt after each load:
measured in bench/reasoning.py, per-hop frontier queries cost tens to hundreds of milliseconds on a 200,000-
edge graph while a walk over the mirror costs well under one. The neighbourhood is taken breadth-first
(each node once, so cycles terminate), then simple paths are enumerated best-first within it.

Rule ids: `cau.chain` (each link of a chain), `cau.prevents-flip`, `cau.conclusion`.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from kgbrain.reasoning.results import Step
from kgbrain.reasoning.views.graph import FactGraph

CAUSAL = ("causes", "enables", "leads_to", "prevents")
MAX_HOPS = 6
SHORTEST_HOPS = 12  # the bound of queries/cau_shortest.cypher, the fallback for longer chains
MAX_NODES = 5_000  # frontier budget: a dense causal graph is explored this far and no further
MAX_EXPANSIONS = 20_000


@dataclass(frozen=True, slots=True)
class CausalLink:
    """One causal fact on a path."""

    subject: str
    predicate: str
    object: str
    confidence: float
    fact_id: str
    source: str


@dataclass(frozen=True, slots=True)
class CausalPath:
    """A causal chain: its links, strength (product of confidences) and sign (False when prevented)."""

    links: tuple[CausalLink, ...]
    confidence: float
    polarity: bool

    @property
    def source(self) -> str:
        """First concept."""
        return self.links[0].subject

    @property
    def target(self) -> str:
        """Last concept."""
        return self.links[-1].object

    @property
    def concepts(self) -> tuple[str, ...]:
        """Concepts along the path."""
        return (self.links[0].subject, *(lk.object for lk in self.links))

    def steps(self) -> list[Step]:
        """Trace steps: one `cau.chain` per link, then the conclusion."""
        steps = []
        running = 1.0
        positive = True
        for lk in self.links:
            running *= lk.confidence
            if lk.predicate == "prevents":
                positive = not positive
                # RULE cau.prevents-flip: a prevents link flips the sign downstream
                rule = "cau.prevents-flip"
            else:
                # RULE cau.chain: confidence of a chain = product of its links
                rule = "cau.chain"
            steps.append(
                Step(
                    rule,
                    f"{lk.subject} {lk.predicate} {lk.object}",
                    (lk.fact_id,),
                    (lk.source,) if lk.source else (),
                    round(lk.confidence, 4),
                    f"chain so far {running:.4f}",
                )
            )
        verb = "leads_to" if self.polarity else "works_against"
        # RULE cau.conclusion: the chain's end-to-end effect
        steps.append(
            Step(
                "cau.conclusion",
                f"{self.source} {verb} {self.target}",
                (),
                (),
                round(self.confidence, 4),
                " -> ".join(self.concepts),
            )
        )
        return steps


class CausalGraph:
    """The active positive causal edges of the FactGraph mirror, by subject and by object (built per node)."""

    def __init__(self, graph: FactGraph) -> None:
        """View `graph`'s causes/enables/leads_to/prevents facts."""
        self.graph = graph
        self._ids = np.asarray([graph.predicate_id(p) for p in CAUSAL], dtype=np.int16)
        self._out: dict[str, list[CausalLink]] = {}
        self._in: dict[str, list[CausalLink]] = {}

    def _links(self, positions: np.ndarray) -> list[CausalLink]:
        g = self.graph
        keep = positions[np.isin(g.predicate[positions], self._ids) & g.polarity[positions]]
        links = [
            CausalLink(e.subject, e.predicate, e.object, e.confidence, e.fact_id, e.source)
            for e in g.evidence(keep.tolist())
        ]
        return sorted(links, key=lambda lk: (-lk.confidence, lk.fact_id))

    def out(self, concept: str) -> list[CausalLink]:
        """Causal links leaving `concept`, strongest first."""
        found = self._out.get(concept)
        if found is None:
            found = self._out[concept] = self._links(self.graph.out_positions(concept))
        return found

    def into(self, concept: str) -> list[CausalLink]:
        """Causal links entering `concept`, strongest first."""
        found = self._in.get(concept)
        if found is None:
            found = self._in[concept] = self._links(self.graph.in_positions(concept))
        return found


def _expand(graph: CausalGraph, start: str, *, forward: bool, hops: int = MAX_HOPS) -> dict[str, list[CausalLink]]:
    """Adjacency (by the walking direction) of everything within `hops` of `start`, BFS, each node once."""
    adjacency: dict[str, list[CausalLink]] = {}
    seen = {start}
    frontier = [start]
    step = graph.out if forward else graph.into
    for _ in range(hops):
        if not frontier or len(seen) > MAX_NODES:
            break
        nxt: list[str] = []
        for here in frontier:
            links = step(here)
            if links:
                adjacency[here] = links
            for link in links:
                there = link.object if forward else link.subject
                if there not in seen:
                    seen.add(there)
                    nxt.append(there)
        frontier = nxt
    return adjacency


def _best_paths(
    adjacency: dict[str, list[CausalLink]],
    start: str,
    goal: str | None,
    *,
    forward: bool,
    limit: int,
    hops: int = MAX_HOPS,
) -> list[CausalPath]:
    """Best-first enumeration of simple paths from start (to goal, or to every reached node), strongest first."""
    heap: list[tuple[float, int, str, tuple[CausalLink, ...], frozenset[str]]] = [
        (-1.0, 0, start, (), frozenset({start}))
    ]
    found: list[CausalPath] = []
    ends: set[str] = set()
    counter = 0
    expansions = 0
    while heap and len(found) < limit and expansions < MAX_EXPANSIONS:
        neg, _, node, links, visited = heapq.heappop(heap)
        expansions += 1
        if links and (node == goal or (goal is None and node not in ends)):
            ordered = links if forward else tuple(reversed(links))
            flips = sum(1 for lk in links if lk.predicate == "prevents")
            found.append(CausalPath(ordered, round(-neg, 4), flips % 2 == 0))
            ends.add(node)
            if goal is not None:
                continue
        if len(links) >= hops:
            continue
        for link in adjacency.get(node, ()):
            nxt = link.object if forward else link.subject
            if nxt in visited:  # simple paths only: cycles are never walked twice
                continue
            counter += 1
            heapq.heappush(heap, (neg * link.confidence, counter, nxt, (*links, link), visited | {nxt}))
    return found


def paths_between(graph: CausalGraph, source: str, target: str, *, limit: int = 5) -> list[CausalPath]:
    """Strongest simple causal paths from `source` to `target`.

    Raises:
        StoreError: the store failed.
    """
    if source == target:
        return []
    backward = _expand(graph, target, forward=False)
    if source not in backward and not any(lk.subject == source for links in backward.values() for lk in links):
        return []
    forward = _expand(graph, source, forward=True)
    # Keep only links that can lie on a source->target path: reachable from source and reaching target.
    reach_target = _reachable(backward, target, forward=False)
    pruned = {k: [lk for lk in v if lk.object in reach_target] for k, v in forward.items() if k in reach_target}
    return _best_paths(pruned, source, target, forward=True, limit=limit)


def reachable(graph: CausalGraph, source: str, target: str, *, hops: int = SHORTEST_HOPS) -> bool | None:
    """Whether a causal path of at most `hops` links leads from `source` to `target`; None past the budget.

    A bidirectional BFS over the same edges as queries/cau_shortest.cypher (active, positive), so False
    means neither the best-first search nor that query can find a path: a claim with no causal path is
    dismissed in microseconds instead of one Kùzu query.
    """
    if source == target:
        return None
    seen = ({source}, {target})
    frontiers = ([source], [target])
    for _ in range(hops):
        if not frontiers[0] or not frontiers[1]:
            return False
        if len(seen[0]) + len(seen[1]) > MAX_NODES:
            return None
        side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
        mine, other = seen[side], seen[1 - side]
        nxt: list[str] = []
        for here in frontiers[side]:
            for link in graph.out(here) if side == 0 else graph.into(here):
                there = link.object if side == 0 else link.subject
                if there in other:
                    return True
                if there not in mine:
                    mine.add(there)
                    nxt.append(there)
        frontiers = (nxt, frontiers[1]) if side == 0 else (frontiers[0], nxt)
    return False


def causes_of(graph: CausalGraph, concept: str, *, limit: int = 5) -> list[CausalPath]:
    """Strongest causal chains that end at `concept`, one per distinct first cause.

    Raises:
        StoreError: the store failed.
    """
    return _best_paths(
        _expand(graph, concept, forward=False, hops=4), concept, None, forward=False, limit=limit, hops=4
    )


def effects_of(graph: CausalGraph, concept: str, *, limit: int = 5) -> list[CausalPath]:
    """Strongest causal chains that start at `concept`, one per distinct end effect.

    Raises:
        StoreError: the store failed.
    """
    return _best_paths(_expand(graph, concept, forward=True, hops=4), concept, None, forward=True, limit=limit, hops=4)


def _reachable(adjacency: dict[str, list[CausalLink]], start: str, *, forward: bool) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        node = stack.pop()
        for link in adjacency.get(node, ()):
            nxt = link.object if forward else link.subject
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def from_row(source: str, row: dict[str, Any]) -> list[CausalPath]:
    """The path of a queries/cau_shortest.cypher row (its concepts are read off the fact ids' links)."""
    concepts: list[str] = row["concepts"]
    links = tuple(
        CausalLink(a, p, b, float(c), f, s)
        for a, b, p, c, f, s in zip(
            concepts[:-1],
            concepts[1:],
            row["predicates"],
            row["confidences"],
            row["fact_ids"],
            row["sources"],
            strict=True,
        )
    )
    if not links or links[0].subject != source:
        return []
    flips = sum(1 for lk in links if lk.predicate == "prevents")
    return [CausalPath(links, round(float(row["confidence"]), 4), flips % 2 == 0)]


def strongest(paths: Iterable[CausalPath]) -> CausalPath | None:
    """The strongest path, or None."""
    return max(paths, key=lambda p: (p.confidence, -len(p.links)), default=None)
