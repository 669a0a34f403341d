"""The salience engine: how much a question matters now (seed 001, SalienceEngine).

    salience = 0.25 * novelty + 0.35 * urgency + 0.25 * threat + 0.15 * relevance   (capped at 1)

*novelty* is 1 - the best similarity to the working memory (recent questions of this session); with an
empty working memory the seed says "everything is new" (1.0), but a question whose every word names a
known concept is not new to the knowledge base, so novelty is also capped by the share of the
question's content words that name no concept. *urgency* and *threat* are marker words; *relevance* is
the similarity to the active goal (0.5 without one). Above 0.8 the question interrupts the current goal,
above 0.5 it is prioritised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kgbrain.config import SalienceConfig
from kgbrain.language import similarity, words


@dataclass(frozen=True, slots=True)
class SalienceScore:
    """Seed 001 SalienceScore."""

    overall: float
    novelty: float
    urgency: float
    threat: float
    relevance: float
    action: str  # "interrupt" | "prioritize" | "normal"
    reason: str


def _has_marker(text: str, markers: Sequence[str]) -> bool:
    tokens = words(text)
    lowered = " ".join(tokens)
    # A marker may be a whole word or a word's beginning ("ошибк" in "ошибки"); the seed matches substrings.
    return any(m in lowered for m in markers)


def compute_salience(
    stimulus: str,
    config: SalienceConfig,
    *,
    working_memory: Sequence[str] = (),
    active_goal: str | None = None,
    unknown_share: float | None = None,
) -> SalienceScore:
    """Weighted sum of novelty, urgency, threat and goal relevance (seed 001 compute_salience)."""
    novelty = 1.0 - max((similarity(stimulus, item) for item in working_memory[-10:]), default=0.0)
    if unknown_share is not None:
        novelty = min(novelty, unknown_share)
    urgency = 1.0 if _has_marker(stimulus, config.urgency_keywords) else 0.0
    threat = 1.0 if _has_marker(stimulus, config.threat_keywords) else 0.0
    relevance = similarity(stimulus, active_goal) if active_goal else config.default_relevance
    return salience_of(novelty, urgency, threat, relevance, config)


def salience_of(
    novelty: float, urgency: float, threat: float, relevance: float, config: SalienceConfig
) -> SalienceScore:
    """The seed's weighted sum for given components."""
    total = min(
        1.0,
        config.novelty * novelty + config.urgency * urgency + config.threat * threat + config.relevance * relevance,
    )
    if total > config.interrupt_above:
        action = "interrupt"
    elif total > config.prioritize_above:
        action = "prioritize"
    else:
        action = "normal"
    return SalienceScore(
        overall=total,
        novelty=novelty,
        urgency=urgency,
        threat=threat,
        relevance=relevance,
        action=action,
        reason=f"novelty={novelty:.2f} urgency={urgency:.2f} threat={threat:.2f} relevance={relevance:.2f}",
    )
