"""The answer to a question and the sources it names: what `ask` returns and the output layer words.

A leaf beside results.py (it holds only data), so question understanding, the intent handlers, the Reasoner
façade and output/ all use one `Answer` without importing one another.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgbrain.reasoning.results import Mode, Outcome, Trace
from kgbrain.reasoning.uncertainty import UncertaintyLevel


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A source named in an answer, with its trust and authority tier (seed 003)."""

    name: str
    trust: float | None = None
    authority: str | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """The reasoner's answer to a question: content first, hedged, with its sources and trace.

    `action` is what the responder did with it: `respond` (confident), `respond_hedged`,
    `report_uncertainty` (too weak to assert), `ask_clarification` (an unknown concept; see
    `suggestions`) or `no_answer` (nothing in the knowledge base bears on it).
    """

    question: str
    language: str  # "ru" or "en", the question's language
    intent: str  # question.Intent value
    confidence: float
    uncertainty: UncertaintyLevel
    action: str
    mode: Mode
    outcome: Outcome | None = None  # for yes/no questions
    concepts: tuple[str, ...] = ()  # linked concept ids, in question order
    sources: tuple[SourceRef, ...] = ()
    trace: Trace = field(default_factory=Trace)
    suggestions: tuple[str, ...] = ()  # "did you mean" names for unknown concepts
    hypothesis: bool = False  # analogies are hypotheses, never proofs
    data: dict[str, Any] = field(default_factory=dict)  # what was found, by kind (see `Reasoner.answer`)
    labels: dict[str, str] = field(default_factory=dict)  # concept id -> label in the question's language
    text: str = ""  # filled by output.dialogue (Brain.ask): the hedged answer sentence(s)
