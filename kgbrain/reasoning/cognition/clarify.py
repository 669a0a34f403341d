"""The one short clarifying question a cycle may ask (seed 004), as data: which kind of question, about what.

The loop decides *whether* to ask and *what about*; the words, in Russian or English, are the output layer's
(kgbrain.output.wording), so reasoning never builds answer text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from kgbrain.memory.retrieval import Retrieval
from kgbrain.reasoning.cognition.hypotheses import Hypothesis

MAX_SUGGESTIONS = 3  # "did you mean" names at most this many candidates


class ClarificationKind(str, Enum):
    """What the clarifying question asks."""

    WHICH_SOURCE = "which_source"  # the sources disagree: which to trust (`names` for, `against` against)
    DID_YOU_MEAN = "did_you_mean"  # unknown words: the similar names in `names`
    WHICH_CONCEPT = "which_concept"  # content words but no concept named
    WHAT_IS = "what_is"  # the reasoner does not know the name in `names`


@dataclass(frozen=True, slots=True)
class Clarification:
    """A clarifying question as data; kgbrain.output.wording.clarifying_question words it."""

    kind: ClarificationKind
    names: tuple[str, ...] = ()
    against: tuple[str, ...] = ()


def clarification(
    retrieval: Retrieval, suggestions: Sequence[str], best: Hypothesis | None, min_confidence: float
) -> Clarification | None:
    """The question to ask when a needed parameter is missing or unknown (seed 004), or None."""
    if best is not None and best.evidence_against:
        packs = retrieval.by_fact
        pro = sorted({s for f in best.evidence_for if f in packs for s in packs[f].source_refs})
        con = sorted({s for f in best.evidence_against if f in packs for s in packs[f].source_refs})
        if pro and con:
            return Clarification(ClarificationKind.WHICH_SOURCE, tuple(pro), tuple(con))
    if best is not None and best.belief >= min_confidence:
        return None
    if suggestions:
        return Clarification(ClarificationKind.DID_YOU_MEAN, tuple(suggestions[:MAX_SUGGESTIONS]))
    if not retrieval.concepts and retrieval.content_words:
        return Clarification(ClarificationKind.WHICH_CONCEPT)
    return None


def what_is(answer: Any) -> Clarification:
    """Ask what the name the reasoner did not know means."""
    return Clarification(ClarificationKind.WHAT_IS, (str((getattr(answer, "data", None) or {}).get("name", "")),))
