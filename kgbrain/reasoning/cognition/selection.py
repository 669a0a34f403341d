"""Action selection and the policy layer (seed 001, ActionSelector and PolicyLayer).

Utility of an action (weights in Config.actions):

    base    = 0.35 * confidence + 0.30 * goal_relevance + 0.20 * feasibility + 0.15 * success_rate
    penalty = 0.15 * estimated_cost - 0.10 * expected_info_gain
    utility = max(0, base - penalty)

`confidence` is the confidence that the action serves the goal: the best belief for the answering
actions and its complement for the information-seeking ones (asking, searching, gathering, exploring,
refusing), so a weak answer makes seeking more attractive instead of lifting every action alike.
The policy layer then removes actions (seed filters 0-2, plus: the answer's tone must match the
confidence band, a clarifying question needs something to clarify, and kgbrain does not refuse while it
holds usable evidence) and adjusts utilities (seed modifiers 1-3). The success rate of each action is
kept in the database (ActionStat), with a Laplace prior: (successes + 1) / (attempts + 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum

from kgbrain.config import ActionConfig, Config
from kgbrain.reasoning.cognition.clarify import Clarification
from kgbrain.reasoning.cognition.monitor import ResourceState
from kgbrain.reasoning.uncertainty import UncertaintyLevel, uncertainty_level
from kgbrain.store.protocol import GraphStore


class ActionType(str, Enum):
    """Seed 001 actions."""

    RESPOND_DIRECT = "respond_direct"
    RESPOND_HEDGED = "respond_hedged"
    ASK_CLARIFICATION = "ask_clarification"
    SEARCH_MEMORY = "search_memory"
    GATHER_EVIDENCE = "gather_evidence"
    REFUSE = "refuse"
    LEARN = "learn"
    CORRECT = "correct"
    EXPLORE = "explore"


ACTION_DESCRIPTIONS: dict[ActionType, str] = {
    ActionType.RESPOND_DIRECT: "give a direct answer",
    ActionType.RESPOND_HEDGED: "answer with a caveat about confidence",
    ActionType.ASK_CLARIFICATION: "ask the user one clarifying question",
    ActionType.SEARCH_MEMORY: "look for more facts in the knowledge base",
    ActionType.GATHER_EVIDENCE: "gather more evidence (Ring 2: causal, analogical, wider retrieval)",
    ActionType.REFUSE: "decline to answer for lack of data",
    ActionType.LEARN: "propose storing a new fact",
    ActionType.CORRECT: "propose correcting a stored fact",
    ActionType.EXPLORE: "explore the topic through sub-goals",
}
ANSWERING = frozenset({ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED, ActionType.LEARN, ActionType.CORRECT})
# Actions the loop performs itself and then decides again; the others end the cycle.
SEEKING = frozenset({ActionType.SEARCH_MEMORY, ActionType.GATHER_EVIDENCE, ActionType.EXPLORE})
TERMINAL = frozenset(ActionType) - SEEKING
RESOURCE_BLOCKED_ACTIONS = frozenset({ActionType.GATHER_EVIDENCE, ActionType.EXPLORE})

CANDIDATES: dict[str, tuple[ActionType, ...]] = {
    "answer_question": (
        ActionType.RESPOND_DIRECT,
        ActionType.RESPOND_HEDGED,
        ActionType.ASK_CLARIFICATION,
        ActionType.SEARCH_MEMORY,
        ActionType.GATHER_EVIDENCE,
        ActionType.REFUSE,
    ),
    "verify_claim": (
        ActionType.RESPOND_DIRECT,
        ActionType.RESPOND_HEDGED,
        ActionType.ASK_CLARIFICATION,
        ActionType.SEARCH_MEMORY,
        ActionType.GATHER_EVIDENCE,
        ActionType.REFUSE,
    ),
    "explore_topic": (
        ActionType.RESPOND_DIRECT,
        ActionType.RESPOND_HEDGED,
        ActionType.EXPLORE,
        ActionType.SEARCH_MEMORY,
        ActionType.GATHER_EVIDENCE,
        ActionType.REFUSE,
    ),
    "learn_fact": (ActionType.LEARN, ActionType.CORRECT, ActionType.ASK_CLARIFICATION, ActionType.REFUSE),
}


@dataclass(frozen=True, slots=True)
class Situation:
    """What the selector needs to know about the cycle (a slice of ReasoningState and the goal)."""

    goal_type: str
    best_score: float  # belief in the best hypothesis
    has_evidence: bool
    evidence_coverage: float = 1.0
    knowledge_coverage: float = 1.0  # share of the question's words that named a concept
    contradictions: int = 0
    clarification: Clarification | None = None  # the question to ask, when a parameter is missing or ambiguous
    searched: bool = False  # alternative retrieval already done
    gathered: bool = False  # Ring 2 already done
    explored: bool = False
    guessed: bool = False  # the concepts were guessed from similar names, not named by the question
    unknown_concept: bool = False  # the question names something the knowledge base does not know


@dataclass(frozen=True, slots=True)
class ActionDecision:
    """Seed 001 ActionDecision."""

    action: ActionType
    score: float
    confidence: float
    reasoning: str
    alternatives: tuple[dict[str, object], ...] = ()  # other candidates: action, score, blocked_by
    blocked: dict[str, str] = field(default_factory=dict)  # action -> the filter that removed it


class SuccessHistory:
    """Per-action success counts, kept in the database.

    Only counted when `record` is set: counting writes to the database (so a plain question would take the
    write lock) and makes the answer to the same question drift with use.
    """

    def __init__(self, store: GraphStore | None, prior: float = 0.5, *, record: bool = False) -> None:
        """Load the counts from `store` (None: in memory only); `record` counts new outcomes."""
        self.store = store
        self.prior = prior
        self.recording = record
        self.counts: dict[str, tuple[int, int]] = {}
        if store is not None:
            for row in store.run("cog_action_stats"):
                self.counts[row["action"]] = (int(row["attempts"]), int(row["successes"]))

    def rate(self, action: ActionType) -> float:
        """(successes + 1) / (attempts + 2); the prior when the action was never chosen."""
        attempts, successes = self.counts.get(action.value, (0, 0))
        if attempts == 0:
            return self.prior
        return (successes + 1) / (attempts + 2)

    def record(self, action: ActionType, success: bool) -> None:
        """Count one use of `action` when recording (persisted unless the store is read-only).

        Raises:
            StoreError: the store failed.
        """
        if not self.recording:
            return
        attempts, successes = self.counts.get(action.value, (0, 0))
        self.counts[action.value] = (attempts + 1, successes + int(success))
        if self.store is not None and not self.store.read_only:
            with self.store.transaction():
                self.store.run(
                    "cog_action_record", action=action.value, success=int(success), now=datetime.now(timezone.utc)
                )


def feasibility(action: ActionType, s: Situation, resources: ResourceState) -> float:
    """Seed 001 _check_feasibility, plus: nothing left to seek once it was sought, nothing to ask without a question."""
    if action in (ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED):
        return s.best_score
    if action is ActionType.GATHER_EVIDENCE:
        return 1.0 if resources.ring2_allowed and not s.gathered else 0.0
    if action is ActionType.EXPLORE:
        return 1.0 if resources.ring2_allowed and not s.explored else 0.0
    if action is ActionType.SEARCH_MEMORY:
        if s.searched:
            return 0.0
        return 1.0 if not s.has_evidence else 0.5
    if action is ActionType.ASK_CLARIFICATION:
        return 1.0 if s.clarification else 0.0
    return 1.0


def info_gain(action: ActionType, s: Situation, config: ActionConfig) -> float:
    """Seed 001 _estimate_info_gain."""
    if action is ActionType.GATHER_EVIDENCE:
        return 1.0 - s.evidence_coverage
    if action is ActionType.SEARCH_MEMORY:
        return 1.0 if not s.has_evidence else config.search_info_gain_with_data
    if action is ActionType.EXPLORE:
        return 1.0 - s.knowledge_coverage
    if action is ActionType.ASK_CLARIFICATION:
        return config.ask_info_gain
    if action in (ActionType.LEARN, ActionType.CORRECT):
        return config.learn_info_gain
    return 0.0


class ActionSelector:
    """Scores candidate actions, applies the policy layer and picks the best."""

    def __init__(self, config: Config, history: SuccessHistory) -> None:
        """Score with `config.actions`, filter and modify with `config.policy`."""
        self.config = config
        self.history = history

    def score_action(self, action: ActionType, s: Situation, resources: ResourceState) -> float:
        """The seed's utility: base score minus cost penalty, never below 0."""
        c = self.config.actions
        confidence = s.best_score if action in ANSWERING else 1.0 - s.best_score
        relevance = c.goal_relevance_by_goal.get(s.goal_type, c.goal_relevance_by_goal["answer_question"]).get(
            action.value, 0.0
        )
        base = (
            c.confidence * confidence
            + c.goal_relevance * relevance
            + c.feasibility * feasibility(action, s, resources)
            + c.success_rate * self.history.rate(action)
        )
        penalty = c.cost * c.costs.get(action.value, 0.0) - c.info_gain * info_gain(action, s, c)
        return max(0.0, base - penalty)

    def filters(self, action: ActionType, s: Situation, resources: ResourceState, final: bool) -> str | None:
        """The policy filter that removes `action`, or None when it stays (the first that applies, in order)."""
        return (
            self._seed_filter(action, s, resources)
            or _tone_filter(action, s)
            or self._use_filter(action, s, resources, final)
        )

    def _seed_filter(self, action: ActionType, s: Situation, resources: ResourceState) -> str | None:
        """Seed filters 0-2, and seed 004's: no answer about guessed or unknown concepts while a question can ask."""
        p = self.config.policy
        hard = self.config.resources.hard_on
        if action in RESOURCE_BLOCKED_ACTIONS and (
            not resources.ring2_allowed or resources.cpu_pct > hard or resources.ram_pct > hard
        ):
            return "resource_blocked"  # filter 0
        if action is ActionType.RESPOND_DIRECT and s.best_score < p.min_confidence:
            return "low_confidence"  # filter 1
        if action is ActionType.GATHER_EVIDENCE and resources.soft_blocked:
            return "soft_blocked"  # filter 2
        if action in ANSWERING and s.guessed and s.clarification:
            return "concepts_guessed"  # seed 004: ask one short question rather than answer a guess
        if action in ANSWERING and s.unknown_concept and s.clarification:
            return "unknown_concept"  # an answer about the other concepts would not answer the question
        return None

    def _use_filter(self, action: ActionType, s: Situation, resources: ResourceState, final: bool) -> str | None:
        """Actions with nothing to do: no question to ask, no refusal while evidence is usable, no seeking twice."""
        if action is ActionType.ASK_CLARIFICATION and not s.clarification:
            return "nothing_to_clarify"
        if action is ActionType.REFUSE and s.has_evidence and s.best_score >= self.config.policy.refuse_below:
            return "evidence_available"
        if final and action in SEEKING:
            return "cycle_ended"
        if action in SEEKING and feasibility(action, s, resources) == 0.0:
            return "already_done"
        return None

    def modifiers(
        self, scores: dict[ActionType, float], s: Situation, resources: ResourceState
    ) -> dict[ActionType, float]:
        """Seed modifiers 1-3."""
        p = self.config.policy
        out = dict(scores)
        if resources.soft_blocked:
            for action in (ActionType.GATHER_EVIDENCE, ActionType.EXPLORE):
                if action in out:
                    out[action] -= p.soft_cost_penalty * self.config.actions.costs.get(action.value, 0.0)
        if s.contradictions and ActionType.ASK_CLARIFICATION in out:
            out[ActionType.ASK_CLARIFICATION] += p.clarification_boost
        if p.hedged_low <= s.best_score <= p.hedged_high and ActionType.RESPOND_HEDGED in out:
            out[ActionType.RESPOND_HEDGED] += p.hedged_boost
        return out

    def select(self, s: Situation, resources: ResourceState, *, final: bool = False) -> ActionDecision:
        """The best allowed action, with every alternative and why filtered ones were removed.

        `final` leaves only actions that end the cycle (the loop has stopped).
        """
        candidates = CANDIDATES.get(s.goal_type, CANDIDATES["answer_question"])
        raw = {a: self.score_action(a, s, resources) for a in candidates}
        blocked = {a.value: why for a in candidates if (why := self.filters(a, s, resources, final))}
        allowed = {a: v for a, v in raw.items() if a.value not in blocked}
        if not allowed:  # the policy removed everything: refusing is always possible
            allowed = {ActionType.REFUSE: raw.get(ActionType.REFUSE, 0.0)}
            blocked.pop(ActionType.REFUSE.value, None)
        scored = self.modifiers(allowed, s, resources)
        order = sorted(scored, key=lambda a: (-scored[a], candidates.index(a) if a in candidates else 99))
        best = order[0]
        alternatives: list[dict[str, object]] = [{"action": a.value, "score": round(scored[a], 4)} for a in order[1:]]
        alternatives += [
            {"action": a, "score": round(raw[ActionType(a)], 4), "blocked_by": why} for a, why in blocked.items()
        ]
        margin = scored[best] - (scored[order[1]] if len(order) > 1 else 0.0)
        return ActionDecision(
            action=best,
            score=scored[best],
            confidence=max(0.0, min(1.0, 0.5 + margin)),
            reasoning=_why(best, s),
            alternatives=tuple(alternatives),
            blocked=blocked,
        )


def _tone_filter(action: ActionType, s: Situation) -> str | None:
    """The answer's tone must match the confidence band: hedged below high confidence, plain above."""
    level = uncertainty_level(s.best_score)
    if action is ActionType.RESPOND_DIRECT and level is not UncertaintyLevel.HIGH:
        return "tone_needs_hedging"
    if action is ActionType.RESPOND_HEDGED and level is UncertaintyLevel.HIGH:
        return "tone_needs_no_hedging"
    return None


def _why(action: ActionType, s: Situation) -> str:
    level = uncertainty_level(s.best_score).value
    base = f"confidence={s.best_score:.2f} ({level})"
    reasons = {
        ActionType.RESPOND_DIRECT: f"{base} -> direct answer",
        ActionType.RESPOND_HEDGED: f"{base} -> hedging applied",
        ActionType.ASK_CLARIFICATION: f"{base}; a needed parameter is missing or ambiguous",
        ActionType.SEARCH_MEMORY: f"{base}; more facts may be found by similar names",
        ActionType.GATHER_EVIDENCE: f"{base}; Ring 2 may find more evidence",
        ActionType.REFUSE: f"{base}; not enough data to answer",
        ActionType.LEARN: f"{base}; a new fact can be proposed for storage",
        ActionType.CORRECT: f"{base}; a stored fact can be proposed for correction",
        ActionType.EXPLORE: f"{base}; the topic has gaps worth exploring",
    }
    if s.contradictions:
        return reasons[action] + f"; {s.contradictions} contradiction(s)"
    return reasons[action]
