"""Shared result types of the reasoner: steps, traces and checked statements.

Every reasoning module returns these; `verify`, `ask`, the cognitive loop and the output layer consume
them. Keep them plain and stable: golden files and the verdicts contract are built from them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum


class Mode(str, Enum):
    """Reasoning modes (DESIGN.md)."""

    DIRECT = "direct"  # a stored fact answers it
    DEDUCTIVE = "deductive"
    CAUSAL = "causal"
    ASSOCIATIVE = "associative"
    ANALOGICAL = "analogical"


class Outcome(str, Enum):
    """What the reasoner concluded about a statement."""

    SUPPORTED = "supported"
    REFUTED = "refuted"
    CONFLICTING = "conflicting"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Step:
    """One inference step: the rule applied, what it concluded, and the evidence it used."""

    rule: str  # stable rule id, e.g. "ded.isa-transitive", "cau.chain", "ana.relational-match"
    conclusion: str  # machine-readable statement, e.g. "neuron is_a cell" or "penguin NOT can fly"
    facts: tuple[str, ...] = ()  # fact ids used
    sources: tuple[str, ...] = ()  # their sources
    confidence: float = 1.0  # confidence of this step's conclusion, in [0, 1]
    note: str = ""  # e.g. "outdated fact shown for context", "more specific statement wins"


@dataclass(frozen=True, slots=True)
class Trace:
    """The chain of steps behind a conclusion, in the order they were taken."""

    steps: tuple[Step, ...] = ()

    @property
    def fact_ids(self) -> tuple[str, ...]:
        """Every fact id used, in first-use order."""
        seen: dict[str, None] = {}
        for step in self.steps:
            seen.update(dict.fromkeys(step.facts))
        return tuple(seen)

    @property
    def sources(self) -> tuple[str, ...]:
        """Every source used, in first-use order."""
        seen: dict[str, None] = {}
        for step in self.steps:
            seen.update(dict.fromkeys(step.sources))
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Check:
    """The reasoner's conclusion about one statement `subject predicate object` (claimed polarity)."""

    subject: str
    predicate: str
    object: str
    polarity: bool
    outcome: Outcome
    confidence: float
    mode: Mode
    trace: Trace = field(default_factory=Trace)
    conflicts: tuple[str, ...] = ()  # ids of stored conflict records touching the evidence
    explanation: str = ""
    # (fact id, "2019-10-07..2023-05-01") for each fact of the trace that states a validity interval, when the
    # check was made as of a time (reasoning/views/timed.py)
    intervals: tuple[tuple[str, str], ...] = ()


def chain_of_steps(steps: Iterable[Step]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The concepts and predicates of the causal chain that `steps` (one path's `cau.*` steps) record.

    Concept ids may hold spaces ("lung damage"), so a step's conclusion is not split on spaces: the concepts come
    from the conclusion step's note (joined by " -> ") and each link's predicate is what lies between them.
    Returns empty tuples when the steps hold no conclusion.
    """
    links = [st for st in steps if st.rule in ("cau.chain", "cau.prevents-flip")]
    end = next((st for st in steps if st.rule == "cau.conclusion"), None)
    if end is None or not end.note:
        return (), ()
    concepts = tuple(end.note.split(" -> "))
    if len(concepts) != len(links) + 1:
        return (), ()
    predicates = []
    for st, s, o in zip(links, concepts, concepts[1:], strict=False):
        text = st.conclusion
        if not (text.startswith(s + " ") and text.endswith(" " + o)):
            return (), ()
        predicates.append(text[len(s) + 1 : len(text) - len(o) - 1])
    return concepts, tuple(predicates)
