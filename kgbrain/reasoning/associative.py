"""Associative reasoning: the ranked neighbourhood and concept chain of a concept (seed 001 §2.1).

Theory: spreading activation over a semantic network (Collins & Loftus, 1975): activation starts at the
concept, flows along relations weighted by relation type and fact confidence, decays per hop, and the most
activated neighbours are "what the concept is associated with". The concept chain follows the most
confident `is_a` parent upwards (нейрон → клетка → …).

Rule ids: `asc.definition`, `asc.concept-chain`, `asc.neighbourhood`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kgbrain.reasoning.closure import Hierarchy, Link
from kgbrain.reasoning.graph import FactGraph
from kgbrain.reasoning.trace import Step

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
