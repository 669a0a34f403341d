"""The planner: decompose a goal into steps, check stop conditions, re-plan on failure (seed 001).

Outcome codes are the seed's `CognitiveOutcome`: three normal endings and seven failures. A failure
goes to `replan()`, which tries, in the seed's order: RETRY the step (while it has retries left),
ALTERNATIVE retrieval (retrieval failed), GATHER more evidence (insufficient confidence), RESOLVE the
contradiction (conflicting evidence), and otherwise ESCALATE: the goal fails with the outcome code.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from kgbrain.config import Config, GoalLimits
from kgbrain.reasoning.cognition.goals import Goal, GoalManager, GoalType
from kgbrain.reasoning.cognition.monitor import ResourceState


class CognitiveOutcome(str, Enum):
    """How a reasoning loop ended (seed 001)."""

    # Normal endings (not errors).
    STOP_CONDITION_MET = "stop_condition_met"  # confidence reached, or the score is stable
    GOAL_COMPLETED = "goal_completed"
    STEP_LIMIT_REACHED = "step_limit_reached"
    TIME_LIMIT_REACHED = "time_limit_reached"  # ours: the seed checks the time limit "in the main loop"
    # Failures: they go to replan().
    RETRIEVAL_FAILED = "retrieval_failed"
    NO_HYPOTHESIS_GENERATED = "no_hypothesis_generated"
    CONFLICTING_EVIDENCE = "conflicting_evidence"
    INSUFFICIENT_CONFIDENCE = "insufficient_confidence"
    RESOURCE_BLOCKED = "resource_blocked"
    OUT_OF_SCOPE = "out_of_scope"
    REPLAN_LIMIT_REACHED = "replan_limit_reached"


NORMAL_OUTCOMES = frozenset(
    {
        CognitiveOutcome.STOP_CONDITION_MET,
        CognitiveOutcome.GOAL_COMPLETED,
        CognitiveOutcome.STEP_LIMIT_REACHED,
        CognitiveOutcome.TIME_LIMIT_REACHED,
    }
)


class ReplanStrategy(str, Enum):
    """What replan() did (seed 001, in priority order)."""

    RETRY = "retry"
    ALTERNATIVE = "alternative"
    GATHER = "gather"
    RESOLVE = "resolve"
    ESCALATE = "escalate"


_step_ids = itertools.count(1)


@dataclass(slots=True)
class PlanStep:
    """One step of a plan (seed 001 PlanStep)."""

    action: str  # "retrieve_memory" | "reason" | "check_confidence" | "build_response" | ...
    description: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    depends_on: list[str] = field(default_factory=list)
    status: str = "pending"  # pending | running | done | failed | skipped
    retry_count: int = 0
    max_retries: int = 2
    step_cost: float = 0.0
    failure_reason: str | None = None
    duration_ms: float = 0.0
    step_id: str = ""

    def __post_init__(self) -> None:
        if not self.step_id:
            self.step_id = f"step_{next(_step_ids):03d}"


@dataclass(slots=True)
class Plan:
    """An ordered list of steps and the strategy that produced it."""

    steps: list[PlanStep]
    strategy: str = "decompose"

    @property
    def actions(self) -> list[str]:
        """The step actions in order."""
        return [s.action for s in self.steps]


# Seed 001 "Типы целей и их декомпозиция".
DECOMPOSITION: dict[GoalType, tuple[tuple[str, str], ...]] = {
    GoalType.ANSWER_QUESTION: (
        ("retrieve_memory", "find facts about the question's concepts"),
        ("check_confidence", "band the confidence; below 0.5 ask for clarification instead of reasoning on"),
        ("reason", "run Ring 1, and Ring 2 on its triggers"),
        ("build_response", "answer with hedging, sources and the trace"),
        ("store_episode", "record the action's outcome in the success history"),
    ),
    GoalType.LEARN_FACT: (
        ("parse_fact", "read the statement"),
        ("check_contradiction", "compare with stored facts"),
        ("resolve_contradiction", "only when a contradiction was found"),
        ("store_fact", "propose saving the fact (never done without the user)"),
        ("update_source_trust", "propose adjusting the source's trust"),
    ),
    GoalType.VERIFY_CLAIM: (
        ("retrieve_related_facts", "find facts about the claim's concepts"),
        ("cross_modal_check", "compare the evidence of independent sources"),
        ("detect_contradictions", "structural conflicts among the evidence"),
        ("calculate_confidence", "score the hypotheses"),
        ("return_verdict", "verdict with confidence and trace"),
    ),
    GoalType.EXPLORE_TOPIC: (
        ("get_concept_chain", "the topic's neighbourhood and chain"),
        ("find_knowledge_gaps", "related concepts with little or weak evidence"),
        ("create_sub_goals", "one learn_fact sub-goal per gap"),
        ("synthesize_knowledge", "summarise what is known"),
    ),
}


@dataclass(slots=True)
class ReasoningState:
    """What the loop knows so far; updated every iteration (seed 001 ReasoningState)."""

    retrieved_evidence: list[Any] = field(default_factory=list)
    active_hypotheses: list[Any] = field(default_factory=list)
    contradiction_flags: list[str] = field(default_factory=list)
    current_confidence: float = 0.0
    iteration: int = 0
    top_hypothesis_id: str | None = None
    best_score: float = 0.0
    prev_best_score: float = 0.0

    def record_best(self, hypothesis_id: str | None, score: float, confidence: float) -> None:
        """Start a new iteration's bookkeeping: remember the previous best for the stability check."""
        self.prev_best_score = self.best_score
        self.best_score = score
        self.top_hypothesis_id = hypothesis_id
        self.current_confidence = confidence


def check_stop_conditions(
    state: ReasoningState,
    limits: GoalLimits,
    resources: ResourceState,
    config: Config,
    elapsed_ms: float = 0.0,
) -> CognitiveOutcome | None:
    """Why the loop should stop now, or None to go on.

    Checked in the seed's order (resources, step limit, confidence, stability, no evidence, no hypotheses),
    except that the time limit comes last: `elapsed_ms` is the question's own CPU time, and it decides only
    when nothing deterministic has.
    """
    hard = config.resources.hard_on
    if resources.cpu_pct > hard or resources.ram_pct > hard:
        return CognitiveOutcome.RESOURCE_BLOCKED
    if state.iteration >= limits.step_limit:
        return CognitiveOutcome.STEP_LIMIT_REACHED
    if state.best_score >= limits.confidence_threshold:
        return CognitiveOutcome.STOP_CONDITION_MET
    if abs(state.best_score - state.prev_best_score) < config.stop.stability_delta and (
        state.iteration >= limits.stability_window
    ):
        return CognitiveOutcome.STOP_CONDITION_MET
    if not state.retrieved_evidence:
        return CognitiveOutcome.RETRIEVAL_FAILED
    if not state.active_hypotheses:
        return CognitiveOutcome.NO_HYPOTHESIS_GENERATED
    # Last, unlike the seed's order: a stop that depends on the machine's speed may only cut work the
    # conditions above would have let go on, so the same question stops the same way on a busy machine.
    if elapsed_ms >= limits.time_limit_ms:
        return CognitiveOutcome.TIME_LIMIT_REACHED
    return None


class Planner:
    """Decomposes goals into plans and re-plans after a failed step."""

    def __init__(self, goals: GoalManager, config: Config) -> None:
        """Plan for the goals of `goals`, with the retry limits of `config.policy`."""
        self.goals = goals
        self.config = config
        self.replans: dict[str, int] = {}

    def decompose(self, goal: Goal, **params: Any) -> Plan:
        """The seed's step list for the goal's type; each step depends on the one before."""
        steps: list[PlanStep] = []
        for action, description in DECOMPOSITION[goal.goal_type]:
            step = PlanStep(
                action,
                description,
                params=dict(params),
                depends_on=[steps[-1].step_id] if steps else [],
                max_retries=self.config.policy.max_retries,
            )
            steps.append(step)
        return Plan(steps)

    def replan(self, failed: PlanStep, goal: Goal, failure: CognitiveOutcome) -> Plan | None:
        """A new plan after `failed` ended with `failure`, or None when the goal is escalated (failed).

        A step is retried at most `step.max_retries` times; a goal gets at most `policy.max_retries` other
        re-plans (alternative, gather, resolve), after which it fails with REPLAN_LIMIT_REACHED.
        """
        failed.status = "failed"
        failed.failure_reason = failure.value
        if failed.retry_count < failed.max_retries:
            failed.retry_count += 1
            failed.status = "pending"
            return Plan([failed], ReplanStrategy.RETRY.value)
        count = self.replans.get(goal.goal_id, 0)
        if count >= self.config.policy.max_retries:
            self.goals.fail(goal.goal_id, reason=CognitiveOutcome.REPLAN_LIMIT_REACHED.value)
            return None
        self.replans[goal.goal_id] = count + 1
        if failure is CognitiveOutcome.RETRIEVAL_FAILED:
            step = PlanStep(
                "retrieve_alternative",
                "look the question's words up by similar names and a wider neighbourhood",
                params={**failed.params, "fuzzy": True},
                max_retries=0,
            )
            return Plan([step], ReplanStrategy.ALTERNATIVE.value)
        if failure is CognitiveOutcome.INSUFFICIENT_CONFIDENCE:
            step = PlanStep("gather_evidence", "run Ring 2: causal, analogical and staged retrieval", max_retries=0)
            return Plan([step], ReplanStrategy.GATHER.value)
        if failure is CognitiveOutcome.CONFLICTING_EVIDENCE:
            step = PlanStep("resolve_contradiction", "weigh the conflicting facts by source trust", max_retries=0)
            return Plan([step], ReplanStrategy.RESOLVE.value)
        self.goals.fail(goal.goal_id, reason=failure.value)
        return None
