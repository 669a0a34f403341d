"""Comparing two concepts: "What is the difference between X and Y?", «Что общего у X и Y?».

A comparison is made of reasoner decisions, never of raw lookups: the nearest classes both belong to, the
statements that hold for both, those that hold for one and are refuted for the other, and those known for one
only. Each is a `Check` from `Reasoner.decide`, so it carries the proof (inheritance, overrides, conflicts)
that `verify` gives the same statement. Candidate statements are the stated features of the two concepts and
of their classes, nearest first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgbrain.reasoning.modes.deductive import Claim
from kgbrain.reasoning.results import Check, Outcome
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy

# Predicates that place a concept or name a class relation: compared through the hierarchy, not as features.
NOT_FEATURES = frozenset({"is_a", "instance_of", "disjoint_with", "equivalent_to", "same_as", "similar_to"})
MAX_CANDIDATES = 64  # stated features weighed, the concepts' own and their nearest classes' first
MAX_COMMON = 2  # nearest common classes named


@dataclass(frozen=True, slots=True)
class Comparison:
    """What the reasoner decided about two concepts, `first` and `second`."""

    first: str
    second: str
    common: tuple[str, ...]  # nearest classes both belong to (the second itself when the first is one)
    placements: tuple[Check, ...]  # the is_a decisions behind `common`
    shared: tuple[tuple[Check, Check], ...]  # the same statement supported for both
    contrasts: tuple[tuple[Check, Check], ...]  # supported for one, refuted for the other (first's check first)
    only: tuple[Check, ...]  # supported for one, unknown for the other

    @property
    def empty(self) -> bool:
        """Nothing relates the two: no common class and no statement decided for either."""
        return not (self.common or self.shared or self.contrasts or self.only)


def compare(
    first: str,
    second: str,
    hierarchy: Hierarchy,
    graph: FactGraph,
    decide: Callable[[Sequence[Claim]], list[Check]],
) -> Comparison:
    """Compare `first` and `second` (concept ids) with the reasoner's `decide`."""
    common = nearest_common(hierarchy, first, second)
    placing = [Claim(c, "is_a", k) for k in common for c in (first, second) if c != k]
    placements = tuple(ch for ch in decide(placing) if ch.outcome is Outcome.SUPPORTED)
    features = candidates(hierarchy, graph, first, second)
    checks = decide([Claim(c, p, o) for p, o in features for c in (first, second)])
    shared, contrasts, only = [], [], []
    for a, b in zip(checks[0::2], checks[1::2], strict=True):
        outcomes = {a.outcome, b.outcome}
        if outcomes == {Outcome.SUPPORTED}:
            shared.append((a, b))
        elif outcomes == {Outcome.SUPPORTED, Outcome.REFUTED}:
            contrasts.append((a, b))
        elif outcomes == {Outcome.SUPPORTED, Outcome.UNKNOWN}:
            only.append(a if a.outcome is Outcome.SUPPORTED else b)
    return Comparison(first, second, common, placements, tuple(shared), tuple(contrasts), tuple(only))


def nearest_common(hierarchy: Hierarchy, first: str, second: str) -> tuple[str, ...]:
    """The lowest classes both concepts belong to (a concept counts as its own class), nearest first."""
    up = [{c: 0, **hierarchy.ancestors(c)} for c in (first, second)]
    common = set(up[0]) & set(up[1])
    # Lowest: not above another common class ("cell" is common too when "eukaryotic cell" is).
    above = {a for c in common for a in hierarchy.ancestors(c)}
    lowest = sorted(common - above, key=lambda c: (up[0][c] + up[1][c], c))
    return tuple(lowest[:MAX_COMMON])


def candidates(hierarchy: Hierarchy, graph: FactGraph, first: str, second: str) -> list[tuple[str, str]]:
    """(predicate, object) of the active stated features of both concepts and their classes, nearest first.

    Statements about each other ("glial cell supports neuron") are links, not features; they are left out.
    """
    holders: dict[str, int] = {first: 0, second: 0}
    for c in (first, second):
        for a, d in hierarchy.ancestors(c).items():
            holders[a] = min(d, holders.get(a, d))
    found: dict[tuple[str, str], None] = {}
    for holder in sorted(holders, key=lambda h: (holders[h], h)):
        if holder not in graph.index:
            continue
        for e in sorted(graph.out(holder), key=lambda e: (e.predicate, e.object)):
            if e.active and e.predicate not in NOT_FEATURES and e.object not in (first, second):
                found[(e.predicate, e.object)] = None
                if len(found) >= MAX_CANDIDATES:
                    return list(found)
    return list(found)
