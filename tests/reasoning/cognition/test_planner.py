"""Planner: seed decompositions, every stop condition in the seed's order, every replan strategy."""

from __future__ import annotations

import pytest

from kgbrain.config import Config
from kgbrain.reasoning.cognition.goals import Goal, GoalManager, GoalStatus, GoalType
from kgbrain.reasoning.cognition.monitor import ResourceState
from kgbrain.reasoning.cognition.planner import (
    NORMAL_OUTCOMES,
    CognitiveOutcome,
    Planner,
    PlanStep,
    ReasoningState,
    check_stop_conditions,
)

CFG = Config()
CALM = ResourceState(cpu_pct=20.0, ram_pct=30.0)


def test_goal_limits_are_the_seed_table() -> None:
    table = {
        k: (v.step_limit, v.time_limit_ms, v.confidence_threshold, v.stability_window)
        for k, v in CFG.goal_limits.items()
    }
    assert table == {
        "answer_question": (3, 200.0, 0.75, 2),
        "verify_claim": (7, 500.0, 0.80, 2),
        "explore_topic": (10, 800.0, 0.70, 3),
        "learn_fact": (3, 150.0, 0.70, 1),
    }


@pytest.mark.parametrize(
    ("goal_type", "actions"),
    [
        (
            GoalType.ANSWER_QUESTION,
            ["retrieve_memory", "check_confidence", "reason", "build_response", "store_episode"],
        ),
        (
            GoalType.LEARN_FACT,
            ["parse_fact", "check_contradiction", "resolve_contradiction", "store_fact", "update_source_trust"],
        ),
        (
            GoalType.VERIFY_CLAIM,
            [
                "retrieve_related_facts",
                "cross_modal_check",
                "detect_contradictions",
                "calculate_confidence",
                "return_verdict",
            ],
        ),
        (
            GoalType.EXPLORE_TOPIC,
            ["get_concept_chain", "find_knowledge_gaps", "create_sub_goals", "synthesize_knowledge"],
        ),
    ],
)
def test_decomposition_follows_the_seed(goal_type: GoalType, actions: list[str]) -> None:
    plan = Planner(GoalManager(), CFG).decompose(Goal("g", goal_type), query="q")
    assert plan.actions == actions
    assert plan.steps[1].depends_on == [plan.steps[0].step_id]
    assert all(s.params == {"query": "q"} and s.max_retries == CFG.policy.max_retries for s in plan.steps)


def _state(**kw: object) -> ReasoningState:
    base = {
        "retrieved_evidence": ["e"],
        "active_hypotheses": ["h"],
        "iteration": 1,
        "best_score": 0.5,
        "prev_best_score": 0.3,
    }
    base.update(kw)
    return ReasoningState(**base)  # type: ignore[arg-type]


LIMITS = CFG.limits("answer_question")


def test_no_stop_while_work_remains() -> None:
    assert check_stop_conditions(_state(), LIMITS, CALM, CFG, elapsed_ms=10) is None


@pytest.mark.parametrize(("cpu", "ram"), [(85.1, 10.0), (10.0, 90.0)])
def test_resource_blocked_comes_first(cpu: float, ram: float) -> None:
    state = _state(iteration=9, best_score=0.99)  # also over the step limit and confident: resources win
    assert check_stop_conditions(state, LIMITS, ResourceState(cpu, ram), CFG) is CognitiveOutcome.RESOURCE_BLOCKED


def test_exactly_85_percent_is_not_blocked_by_the_stop_check() -> None:
    assert check_stop_conditions(_state(), LIMITS, ResourceState(85.0, 85.0), CFG) is None


def test_step_limit_is_a_normal_stop() -> None:
    out = check_stop_conditions(_state(iteration=3, best_score=0.99), LIMITS, CALM, CFG)
    assert out is CognitiveOutcome.STEP_LIMIT_REACHED
    assert out in NORMAL_OUTCOMES


def test_time_limit() -> None:
    assert check_stop_conditions(_state(), LIMITS, CALM, CFG, elapsed_ms=200.0) is CognitiveOutcome.TIME_LIMIT_REACHED
    assert check_stop_conditions(_state(), LIMITS, CALM, CFG, elapsed_ms=199.9) is None


def test_a_slow_machine_cannot_preempt_a_deterministic_stop() -> None:
    """The time limit decides only when nothing else has: the same question stops the same way when slow."""
    confident = _state(best_score=0.99)
    assert (
        check_stop_conditions(confident, LIMITS, CALM, CFG, elapsed_ms=10_000.0) is CognitiveOutcome.STOP_CONDITION_MET
    )
    empty = _state(retrieved_evidence=[])
    assert check_stop_conditions(empty, LIMITS, CALM, CFG, elapsed_ms=10_000.0) is CognitiveOutcome.RETRIEVAL_FAILED


def test_confidence_threshold_per_goal_type() -> None:
    assert check_stop_conditions(_state(best_score=0.75), LIMITS, CALM, CFG) is CognitiveOutcome.STOP_CONDITION_MET
    verify = CFG.limits("verify_claim")
    assert check_stop_conditions(_state(best_score=0.79), verify, CALM, CFG) is None
    assert check_stop_conditions(_state(best_score=0.80), verify, CALM, CFG) is CognitiveOutcome.STOP_CONDITION_MET


def test_stability_window() -> None:
    stable = _state(best_score=0.5, prev_best_score=0.495, iteration=2)
    assert check_stop_conditions(stable, LIMITS, CALM, CFG) is CognitiveOutcome.STOP_CONDITION_MET
    too_early = _state(best_score=0.5, prev_best_score=0.495, iteration=1)
    assert check_stop_conditions(too_early, LIMITS, CALM, CFG) is None
    explore = CFG.limits("explore_topic")  # window 3
    assert check_stop_conditions(stable, explore, CALM, CFG) is None


def test_no_evidence_then_no_hypotheses() -> None:
    assert check_stop_conditions(_state(retrieved_evidence=[]), LIMITS, CALM, CFG) is CognitiveOutcome.RETRIEVAL_FAILED
    assert (
        check_stop_conditions(_state(active_hypotheses=[]), LIMITS, CALM, CFG)
        is CognitiveOutcome.NO_HYPOTHESIS_GENERATED
    )


def _planner() -> tuple[Planner, Goal]:
    gm = GoalManager()
    goal = Goal("answer", GoalType.ANSWER_QUESTION)
    gm.push(goal)
    return Planner(gm, CFG), goal


def test_replan_retries_a_step_while_it_has_retries_left() -> None:
    planner, goal = _planner()
    step = PlanStep("retrieve_memory", max_retries=2)
    for n in (1, 2):
        plan = planner.replan(step, goal, CognitiveOutcome.RETRIEVAL_FAILED)
        assert plan is not None
        assert plan.strategy == "retry"
        assert plan.steps == [step]
        assert step.retry_count == n
    plan = planner.replan(step, goal, CognitiveOutcome.RETRIEVAL_FAILED)
    assert plan is not None
    assert plan.strategy == "alternative"


@pytest.mark.parametrize(
    ("failure", "strategy", "action"),
    [
        (CognitiveOutcome.RETRIEVAL_FAILED, "alternative", "retrieve_alternative"),
        (CognitiveOutcome.INSUFFICIENT_CONFIDENCE, "gather", "gather_evidence"),
        (CognitiveOutcome.CONFLICTING_EVIDENCE, "resolve", "resolve_contradiction"),
    ],
)
def test_replan_strategy_per_failure(failure: CognitiveOutcome, strategy: str, action: str) -> None:
    planner, goal = _planner()
    plan = planner.replan(PlanStep("reason", max_retries=0), goal, failure)
    assert plan is not None
    assert plan.strategy == strategy
    assert plan.actions == [action]


@pytest.mark.parametrize("failure", [CognitiveOutcome.OUT_OF_SCOPE, CognitiveOutcome.NO_HYPOTHESIS_GENERATED])
def test_other_failures_escalate(failure: CognitiveOutcome) -> None:
    planner, goal = _planner()
    assert planner.replan(PlanStep("reason", max_retries=0), goal, failure) is None
    assert goal.status is GoalStatus.FAILED
    assert goal.failure == failure.value


def test_replan_limit() -> None:
    planner, goal = _planner()
    for _ in range(CFG.policy.max_retries):
        assert planner.replan(PlanStep("reason", max_retries=0), goal, CognitiveOutcome.INSUFFICIENT_CONFIDENCE)
    assert planner.replan(PlanStep("reason", max_retries=0), goal, CognitiveOutcome.INSUFFICIENT_CONFIDENCE) is None
    assert goal.failure == CognitiveOutcome.REPLAN_LIMIT_REACHED.value
