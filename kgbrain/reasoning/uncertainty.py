"""Confidence bands and hedging phrases (seed 001 UncertaintyMonitor, seed 000 DialogueResponder).

The one place where confidence thresholds live; everything else imports these names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

HIGH_CONFIDENCE = 0.85  # above: proceed without hedging
MEDIUM_CONFIDENCE = 0.60  # above: hedge ("вероятно")
LOW_CONFIDENCE = 0.40  # above: gather more evidence, else report uncertainty; below: refuse


class UncertaintyLevel(str, Enum):
    """Seed 001 levels."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    VERY_LOW = "very_low"


def uncertainty_level(confidence: float) -> UncertaintyLevel:
    """Band a confidence the way seed 001's UncertaintyMonitor does."""
    if confidence > HIGH_CONFIDENCE:
        return UncertaintyLevel.HIGH
    if confidence > MEDIUM_CONFIDENCE:
        return UncertaintyLevel.MEDIUM
    if confidence > LOW_CONFIDENCE:
        return UncertaintyLevel.LOW
    return UncertaintyLevel.VERY_LOW


# Seed 000: hedging phrases by confidence band, [low, high).
HEDGING_BY_CONFIDENCE: dict[str, tuple[tuple[float, float, tuple[str, ...]], ...]] = {
    "ru": (
        (0.75, 1.01, ()),
        (0.60, 0.75, ("Вероятно,", "Скорее всего,")),
        (0.45, 0.60, ("Возможно,", "Я думаю,", "Мне кажется,")),
        (0.30, 0.45, ("Не уверен, но,", "Предположительно,")),
        (0.00, 0.30, ("Очень неуверенно:", "Это лишь предположение:")),
    ),
    "en": (
        (0.75, 1.01, ()),
        (0.60, 0.75, ("Probably,", "Most likely,")),
        (0.45, 0.60, ("Perhaps,", "I think,", "It seems,")),
        (0.30, 0.45, ("I'm not sure, but,", "Presumably,")),
        (0.00, 0.30, ("Very uncertain:", "This is just a guess:")),
    ),
}


def hedging_phrases(confidence: float, lang: str) -> tuple[str, ...]:
    """The seed's hedging phrases for this confidence, in 'ru' or 'en' (empty when none is needed)."""
    for low, high, phrases in HEDGING_BY_CONFIDENCE["ru" if lang == "ru" else "en"]:
        if low <= confidence < high:
            return phrases
    return ()


# -- UncertaintyMonitor (seed 001) ----------------------------------------------------------------


class UncertaintySource(str, Enum):
    """Why a conclusion is not certain (seed 001)."""

    MISSING_DATA = "missing_data"
    CONTRADICTING = "contradicting"
    LOW_SOURCE_TRUST = "low_source_trust"
    OUTDATED = "outdated"
    MODAL_MISMATCH = "modal_mismatch"
    INFERENCE_CHAIN = "inference_chain"
    OUT_OF_SCOPE = "out_of_scope"
    RESOURCE_CONSTRAINED = "resource_constrained"  # Ring 2 was blocked by the resource monitor


# What the monitor recommends per level (seed 001: proceed / add hedging / gather more / refuse).
RECOMMENDED_ACTION: dict[UncertaintyLevel, str] = {
    UncertaintyLevel.HIGH: "proceed",
    UncertaintyLevel.MEDIUM: "hedge",
    UncertaintyLevel.LOW: "gather",
    UncertaintyLevel.VERY_LOW: "refuse",
}
LOW_TRUST = 0.5  # mean source trust below this is a reason for doubt
LONG_CHAIN = 4  # inference steps from this many on are a reason for doubt
STALE = 0.5  # mean evidence freshness below this is a reason for doubt


@dataclass(frozen=True, slots=True)
class UncertaintyReport:
    """Seed 001 UncertaintyReport."""

    overall_confidence: float
    uncertainty_level: UncertaintyLevel
    sources: tuple[UncertaintySource, ...]
    missing_concepts: tuple[str, ...]
    recommended_action: str  # "proceed" | "hedge" | "gather" | "refuse"
    hedging_phrases: tuple[str, ...]


def evaluate_uncertainty(
    confidence: float,
    lang: str,
    *,
    missing_concepts: tuple[str, ...] = (),
    contradictions: int = 0,
    mean_trust: float | None = None,
    mean_freshness: float | None = None,
    chain_steps: int = 0,
    has_evidence: bool = True,
    resource_constrained: bool = False,
) -> UncertaintyReport:
    """Band the confidence and name the reasons it is not 1 (seed 001 UncertaintyMonitor.evaluate)."""
    level = uncertainty_level(confidence)
    reasons: list[UncertaintySource] = []
    if not has_evidence:
        reasons.append(UncertaintySource.MISSING_DATA)
    if missing_concepts:
        reasons.append(UncertaintySource.OUT_OF_SCOPE)
    if contradictions:
        reasons.append(UncertaintySource.CONTRADICTING)
    if mean_trust is not None and mean_trust < LOW_TRUST:
        reasons.append(UncertaintySource.LOW_SOURCE_TRUST)
    if mean_freshness is not None and mean_freshness < STALE:
        reasons.append(UncertaintySource.OUTDATED)
    if chain_steps >= LONG_CHAIN:
        reasons.append(UncertaintySource.INFERENCE_CHAIN)
    if resource_constrained:
        reasons.append(UncertaintySource.RESOURCE_CONSTRAINED)
    phrases = hedging_phrases(confidence, lang)
    if level is UncertaintyLevel.MEDIUM and not phrases:
        # Seed 001 hedges the whole medium band ("вероятно"); seed 000's table starts hedging only below 0.75.
        phrases = MEDIUM_HEDGE["ru" if lang == "ru" else "en"]
    return UncertaintyReport(
        overall_confidence=confidence,
        uncertainty_level=level,
        sources=tuple(reasons),
        missing_concepts=missing_concepts,
        recommended_action=RECOMMENDED_ACTION[level],
        hedging_phrases=phrases,
    )


MEDIUM_HEDGE: dict[str, tuple[str, ...]] = {"ru": ("Вероятно,", "Скорее всего,"), "en": ("Probably,", "Most likely,")}
