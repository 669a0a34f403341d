"""The action proposer: what kgbrain suggests doing next, never doing it (seed 000 ActionProposer).

Proposals come from the cycle: an inferred statement worth storing (save_fact), an association the
question revealed (add_association), a contradiction a person should settle (confirm_fact), an outdated
fact to refresh (update_fact), an analogy to verify (verify_hypothesis), a weakly sourced answer
(request_source) and words that named no concept (close_gap). Each has a priority and a reason; none is
executed, and the answer text never says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kgbrain.reasoning.cognition.hypotheses import HypothesisStatus, HypothesisType
from kgbrain.reasoning.cognition.loop import CognitiveResult

LOW_TRUST = 0.5
STALE = 0.5


@dataclass(frozen=True, slots=True)
class ProposedAction:
    """Seed 000 ProposedAction. `executed` is always False: kgbrain proposes, a person decides."""

    action_type: str
    description: str
    params: dict[str, Any] = field(default_factory=dict)
    priority: float = 0.5
    reason: str = ""
    executed: bool = False


class ActionProposer:
    """Derives proposals from a cognitive result."""

    def propose(self, result: CognitiveResult) -> list[ProposedAction]:
        """Proposals, highest priority first."""
        out: list[ProposedAction] = []
        h = result.selected
        derived = h is not None and h.hypothesis_type in (HypothesisType.DEDUCTIVE, HypothesisType.CAUSAL)
        if h is not None and derived and h.status is HypothesisStatus.ACCEPTED and len(h.trace.steps) > 1:
            tokens = h.statement.split()
            concepts = [tokens[0], tokens[-1]] if len(tokens) >= 3 else tokens
            if h.hypothesis_type is HypothesisType.DEDUCTIVE:
                out.append(
                    ProposedAction(
                        "save_fact",
                        f"store the inferred statement: {h.statement}",
                        {"statement": h.statement, "confidence": round(h.belief, 4)},
                        priority=round(h.belief, 4),
                        reason=f"inferred with confidence {h.belief:.2f} over {len(h.trace.steps)} steps",
                    )
                )
            else:
                out.append(
                    ProposedAction(
                        "add_association",
                        f"link {concepts[0]} and {concepts[-1]}",
                        {"A": concepts[0], "B": concepts[-1], "weight": round(h.belief, 4)},
                        priority=round(0.8 * h.belief, 4),
                        reason="a causal chain connects them without a direct fact",
                    )
                )
        for flag in result.contradictions:
            out.append(
                ProposedAction(
                    "confirm_fact",
                    "decide which of the conflicting facts is right",
                    {"facts": flag.split("|")},
                    priority=0.7,
                    reason="opposite statements about the same thing (kgbrain conflicts / resolve)",
                )
            )
        if h is not None and h.score is not None:
            if h.score.staleness > STALE:
                out.append(
                    ProposedAction(
                        "update_fact",
                        f"refresh the evidence for: {h.statement}",
                        {"facts": list(h.evidence_for)},
                        priority=0.5,
                        reason=f"the evidence is old (staleness {h.score.staleness:.2f})",
                    )
                )
            if h.evidence_for and h.score.source_trust < LOW_TRUST:
                out.append(
                    ProposedAction(
                        "request_source",
                        f"find a more reliable source for: {h.statement}",
                        {"statement": h.statement},
                        priority=0.5,
                        reason=f"mean source trust {h.score.source_trust:.2f}",
                    )
                )
        for a in result.hypotheses:
            if a.hypothesis_type is HypothesisType.ANALOGICAL and a.status is HypothesisStatus.UNCERTAIN:
                out.append(
                    ProposedAction(
                        "verify_hypothesis",
                        f"verify the analogy: {a.statement}",
                        {"hypothesis": a.hypothesis_id, "probe": a.next_probe},
                        priority=0.4,
                        reason="an analogy is a hypothesis until evidence supports it",
                    )
                )
                break
        for g in result.sub_goals:
            concept = g.description.removeprefix("learn_fact(").removesuffix(")")
            out.append(
                ProposedAction(
                    "close_gap",
                    f"learn more about: {concept}",
                    {"concept": concept, "goal": g.goal_id},
                    priority=0.4,
                    reason="explore_topic found it only weakly supported",
                )
            )
        gap = not result.retrieval.concepts or result.decision.action.value in ("refuse", "ask_clarification")
        for word in result.retrieval.unknown_words if gap else ():
            out.append(
                ProposedAction(
                    "close_gap",
                    f"learn about: {word}",
                    {"concept": word},
                    priority=0.6,
                    reason="the question names something the knowledge base does not know",
                )
            )
        out.sort(key=lambda p: (-p.priority, p.action_type, p.description))
        return out
