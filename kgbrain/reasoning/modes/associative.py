"""Associative reasoning: the ranked neighbourhood and concept chain of a concept (seed 001 §2.1).

Theory: spreading activation over a semantic network (Collins & Loftus, 1975): activation starts at the
concept, flows along relations weighted by relation type and fact confidence, decays per hop, and the most
activated neighbours are "what the concept is associated with". The concept chain follows the most
confident `is_a` parent upwards (нейрон → клетка → …).

Rule ids: `asc.definition`, `asc.concept-chain`, `asc.neighbourhood`, `asc.direct-relation`, `asc.path`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kgbrain.reasoning.results import Step
from kgbrain.reasoning.views.evidence_rows import Evidence
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy, Link

# Relation weights for spreading activation; hierarchy and parts weigh most, generic relations least.
RELATION_WEIGHT = {
    "is_a": 1.0,
    "instance_of": 1.0,
    "part_of": 0.9,
    "has_property": 0.8,
    "causes": 0.8,
    "enables": 0.8,
    "leads_to": 0.75,
    "prevents": 0.7,
    "related_to": 0.6,
    "disjoint_with": 0.3,
}
DEFAULT_WEIGHT = 0.7
INCOMING_FACTOR = 0.8  # a fact pointing at the concept says less about it than one it states
HOP_DECAY = 0.5
MAX_DEPTH = 2
FRONTIER = 10  # concepts expanded per hop
FAN_OUT = 200  # facts read per concept and direction (the most confident), so hubs stay cheap
CONNECT_HOPS = 4
CONNECT_NODES = 50_000  # a connection search gives up after reaching this many concepts
CHAIN_DEPTH = 4


@dataclass(frozen=True, slots=True)
class Neighbour:
    """A concept associated with the origin, with its activation and the fact that links it."""

    concept: str
    score: float
    predicate: str
    direction: str  # "out" (origin predicate concept) or "in"
    via: str  # the concept it was reached from
    depth: int
    fact_id: str
    source: str
    confidence: float
    polarity: bool


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    """Associative result: chain upwards, ranked neighbours, and the trace steps."""

    concept: str
    chain: tuple[Link, ...] = ()
    neighbours: tuple[Neighbour, ...] = ()
    steps: tuple[Step, ...] = field(default=())


def explore(graph: FactGraph, hierarchy: Hierarchy, concept: str, *, limit: int = 8) -> Neighbourhood:
    """Spread activation from `concept` for MAX_DEPTH hops and climb its concept chain."""
    best: dict[str, Neighbour] = {}
    seen = {concept}
    frontier = [concept]
    activation = {concept: 1.0}
    for depth in range(1, MAX_DEPTH + 1):
        if not frontier:
            break
        rows = _around(graph, frontier)
        reached: dict[str, float] = {}
        for r in rows:
            other = r["other"]
            if other == concept:
                continue
            weight = RELATION_WEIGHT.get(r["predicate"], DEFAULT_WEIGHT)
            if r["direction"] == "in":
                weight *= INCOMING_FACTOR
            if not r["polarity"]:
                weight *= 0.5
            score = activation[r["origin"]] * weight * float(r["confidence"]) * (HOP_DECAY ** (depth - 1))
            current = best.get(other)
            if current is None or score > current.score:
                best[other] = Neighbour(
                    other,
                    round(score, 4),
                    r["predicate"],
                    r["direction"],
                    r["origin"],
                    depth,
                    r["fact_id"],
                    r["source"] or "",
                    float(r["confidence"]),
                    bool(r["polarity"]),
                )
            reached[other] = max(reached.get(other, 0.0), score)
        nxt = sorted((c for c in reached if c not in seen), key=lambda c: (-reached[c], c))[:FRONTIER]
        for c in nxt:
            activation[c] = reached[c]
        seen.update(nxt)
        frontier = nxt
    ranked = sorted(best.values(), key=lambda n: (-n.score, n.concept))[:limit]
    chain = concept_chain(hierarchy, concept)
    steps: list[Step] = []
    for lk in chain:
        # RULE asc.concept-chain: follow the most confident is_a parent upwards
        steps.append(Step("asc.concept-chain", f"{lk.child} is_a {lk.parent}", confidence=round(lk.confidence, 4)))
    for n in ranked:
        s, o = (n.via, n.concept) if n.direction == "out" else (n.concept, n.via)
        sign = "" if n.polarity else "NOT "
        # RULE asc.neighbourhood: activation = weight(relation) * confidence * decay^(hop-1)
        steps.append(
            Step(
                "asc.neighbourhood",
                f"{s} {sign}{n.predicate} {o}",
                (n.fact_id,),
                (n.source,) if n.source else (),
                round(n.confidence, 4),
                f"activation {n.score:.3f}, hop {n.depth}",
            )
        )
    return Neighbourhood(concept, tuple(chain), tuple(ranked), tuple(steps))


def _around(graph: FactGraph, frontier: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for origin in frontier:
        for direction, positions in (("out", graph.out_positions(origin)), ("in", graph.in_positions(origin))):
            if len(positions) > FAN_OUT:
                top = np.argpartition(-graph.confidence[positions], FAN_OUT)[:FAN_OUT]
                positions = np.sort(positions[top])
            for e in graph.evidence(positions.tolist()):
                other = e.object if direction == "out" else e.subject
                rows.append(
                    {
                        "origin": origin,
                        "other": other,
                        "predicate": e.predicate,
                        "polarity": e.polarity,
                        "confidence": e.confidence,
                        "fact_id": e.fact_id,
                        "source": e.source,
                        "direction": direction,
                    }
                )
    return rows


def concept_chain(hierarchy: Hierarchy, concept: str, depth: int = CHAIN_DEPTH) -> list[Link]:
    """The chain of most confident is_a parents (ties by id), at most `depth` links, cycle-safe."""
    chain: list[Link] = []
    seen = {concept}
    node = concept
    for _ in range(depth):
        parents = [(p, c) for p, c in hierarchy.parents(node) if p not in seen]
        if not parents:
            break
        parent, conf = min(parents, key=lambda pc: (-pc[1], pc[0]))
        chain.append(Link(node, parent, conf))
        seen.add(parent)
        node = parent
    return chain


@dataclass(frozen=True, slots=True)
class Connection:
    """How two concepts are linked when no causal chain joins them: facts in either direction."""

    source: str
    target: str
    facts: tuple[Evidence, ...]
    confidence: float  # the weakest fact of the chain

    @property
    def concepts(self) -> tuple[str, ...]:
        """Concepts along the connection, from source to target."""
        out = [self.source]
        for e in self.facts:
            out.append(e.object if e.subject == out[-1] else e.subject)
        return tuple(out)

    def steps(self) -> list[Step]:
        """One `asc.path` step per fact, then the conclusion."""
        # RULE asc.path: concepts linked by a chain of facts in either direction are associated
        steps = [
            Step("asc.path", e.statement(), (e.fact_id,), (e.source,) if e.source else (), round(e.confidence, 4))
            for e in self.facts
        ]
        steps.append(
            Step(
                "asc.path",
                f"{self.source} related_to {self.target}",
                (),
                (),
                round(self.confidence, 4),
                " - ".join(self.concepts),
            )
        )
        return steps


def connect(graph: FactGraph, source: str, target: str, *, max_hops: int = CONNECT_HOPS) -> Connection | None:
    """The shortest chain of active positive facts (either direction) from source to target, or None."""
    if source == target or source not in graph.index or target not in graph.index:
        return None
    pred: dict[str, Evidence | None] = {source: None}
    frontier = [source]
    for _ in range(max_hops):
        nxt: list[str] = []
        for node in frontier:
            for row in _around(graph, [node]):
                other = row["other"]
                if other in pred or not row["polarity"]:
                    continue
                pred[other] = Evidence(
                    node if row["direction"] == "out" else other,
                    row["predicate"],
                    other if row["direction"] == "out" else node,
                    row["fact_id"],
                    True,
                    row["confidence"],
                    row["source"],
                    "active",
                )
                if other == target:
                    return _connection(pred, source, target)
                nxt.append(other)
        if len(pred) > CONNECT_NODES:
            break
        frontier = nxt
    return None


def _connection(pred: dict[str, Evidence | None], source: str, target: str) -> Connection:
    facts: list[Evidence] = []
    node = target
    while (e := pred[node]) is not None:
        facts.append(e)
        node = e.subject if e.object == node else e.object
    facts.reverse()
    return Connection(source, target, tuple(facts), min(e.confidence for e in facts))
