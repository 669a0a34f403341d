"""Whether two concepts are alike: a calibrated similarity over the specific structure they share.

The analogy index finds structural analogues (a neuron and a transistor both transmit signals) and can only
hedge; "Is a violin like a cello?" asks something a person decides: two bowed string instruments are alike. The
score weighs each shared class by how few concepts it covers (its specificity, 1 for a class of two members,
near 0 for the root), takes the most specific shared class and the share of stated relations (predicate and
object) the two have in common, and decides:

- ALIKE when they share a specific class (specificity >= `SPECIFIC`), most of their classes by weight (`KIN`),
  and the score reaches `ALIKE`;
- APART (not alike) when both are placed under classes of their own and share no class (but a root over nearly
  everything, specificity < `GENERIC`) and no stated relation: a smoker (beekeeping equipment) and a queen bee (an
  insect) have nothing in common to be alike in;
- otherwise no decision (the analogy index's hedged answer stands): a generic class in common says little.

Kinship is the weighted share of all their classes they have in common, or, when higher, the share of the nearer
one's direct classes the other has as direct classes too: a worker bee and a worker ant are each directly a worker
caste and a sterile female, two of a kind in different families (alike); a synapse is directly a cell junction and
an electrical contact only a junction (an analogy, not two of a kind).

The score is symmetric, in [0, 1], and 1 for a concept and itself (tests/reasoning/modes/test_likeness.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy

SPECIFIC = 0.5  # a shared class at least this specific makes two concepts alike
ALIKE = 0.55  # the score at or above which they are
KIN = 0.6  # the weighted share of their classes they must have in common
GENERIC = 0.25  # a shared class less specific than this (a root over nearly everything) shares nothing
APART_CONFIDENCE = 0.8  # of "not alike": nothing shared is strong evidence, but the base may not say everything
_HIERARCHY = frozenset({"is_a", "instance_of"})


@dataclass(frozen=True, slots=True)
class Likeness:
    """How alike two concepts are, and what they share."""

    score: float
    alike: bool
    classes: tuple[str, ...]  # shared classes, most specific first
    relations: tuple[tuple[str, str], ...]  # shared (predicate, object)
    specificity: float  # of the most specific shared class
    apart: bool = False  # both placed in the hierarchy, nothing shared: not alike


def likeness(graph: FactGraph, hierarchy: Hierarchy, a: str, b: str) -> Likeness:
    """The likeness of `a` and `b` (names of concepts in the graph)."""
    if a == b:
        return Likeness(1.0, True, (), (), 1.0)
    total = max(len(graph.names), 2)
    up_a, up_b = _up(graph, hierarchy, a), _up(graph, hierarchy, b)
    shared = (set(up_a) & set(up_b)) - {a, b}
    weights = {c: _specificity(hierarchy, c, total) for c in shared}
    classes = tuple(sorted(shared, key=lambda c: (-weights[c], c)))
    best = weights[classes[0]] if classes else 0.0
    # Classes one has and the other not weigh against: a neuron and a transistor share "information processing
    # element", but one is a cell and the other an electronic component (an analogy, not two of a kind).
    every = (set(up_a) | set(up_b)) - {a, b}
    weight = sum(_weights(hierarchy, every, weights, total))
    kinship = max(sum(weights.values()) / weight if weight else 0.0, _nearest_kinship(hierarchy, up_a, up_b, total))
    facts_a, facts_b = _facts(graph, a), _facts(graph, b)
    union = facts_a | facts_b
    common = facts_a & facts_b
    relational = len(common) / len(union) if union else 0.0
    score = round(min(1.0, 0.45 * best + 0.35 * kinship + 0.2 * relational + (0.05 if common else 0.0)), 4)
    alike = best >= SPECIFIC and kinship >= KIN and score >= ALIKE
    apart = bool(up_a) and bool(up_b) and best < GENERIC and not common and not _linked(graph, up_a, up_b, a, b)
    return Likeness(score, alike, classes, tuple(sorted(common)), round(best, 4), apart)


def _linked(graph: FactGraph, up_a: dict[str, int], up_b: dict[str, int], a: str, b: str) -> bool:
    """Whether a stated fact joins one (or a class of it) to the other: a neuron is a cell and a cell has DNA, so
    a neuron and DNA are not merely apart."""
    return any(e.object == b for x in (a, *up_a) for e in graph.out(x)) or any(
        e.object == a for x in (b, *up_b) for e in graph.out(x)
    )


def _nearest_kinship(hierarchy: Hierarchy, up_a: dict[str, int], up_b: dict[str, int], total: int) -> float:
    """The weighted share of the nearer one's direct classes that the other has as direct classes too."""
    near_a, near_b = {c for c, d in up_a.items() if d == 1}, {c for c, d in up_b.items() if d == 1}
    own = min(sum(_weights(hierarchy, near_a, {}, total)), sum(_weights(hierarchy, near_b, {}, total)))
    return sum(_weights(hierarchy, near_a & near_b, {}, total)) / own if own > 0 else 0.0


def _weights(hierarchy: Hierarchy, classes: set[str], known: dict[str, float], total: int) -> list[float]:
    return [known[c] if c in known else _specificity(hierarchy, c, total) for c in classes]


def _up(graph: FactGraph, hierarchy: Hierarchy, concept: str) -> dict[str, int]:
    return hierarchy.ancestors(concept) if concept in graph.index else {}


def _facts(graph: FactGraph, concept: str) -> set[tuple[str, str]]:
    if concept not in graph.index:
        return set()
    return {(e.predicate, e.object) for e in graph.out(concept) if e.polarity and e.predicate not in _HIERARCHY}


def _specificity(hierarchy: Hierarchy, concept: str, total: int) -> float:
    """1 for a class of at most two members, falling with the log of how many concepts it covers."""
    covered = _below(hierarchy, concept)
    return max(0.0, 1.0 - math.log(max(covered, 2) / 2) / math.log(total))


def _below(hierarchy: Hierarchy, concept: str) -> int:
    seen: set[str] = set()
    todo = [concept]
    while todo:
        for child in hierarchy.children(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return len(seen)
