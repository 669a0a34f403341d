"""Confidence bands and hedging phrases (seed 001 UncertaintyMonitor, seed 000 DialogueResponder).

The one place where confidence thresholds live; everything else imports these names.
"""

from __future__ import annotations

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
