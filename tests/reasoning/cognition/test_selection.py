"""Action selector utility, policy filters and modifiers (seed 001), and the success history in the database."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.config import Config
from kgbrain.reasoning.cognition.clarify import Clarification, ClarificationKind
from kgbrain.reasoning.cognition.monitor import ResourceState
from kgbrain.reasoning.cognition.selection import ActionSelector, ActionType, Situation, SuccessHistory

CFG = Config()
NEURON_MEANT = Clarification(ClarificationKind.DID_YOU_MEAN, ("нейрон",))  # "Вы имели в виду «нейрон»?"
CALM = ResourceState(cpu_pct=20.0, ram_pct=30.0)
SOFT = ResourceState(cpu_pct=72.0, ram_pct=30.0, soft_blocked=True)
HARD = ResourceState(cpu_pct=90.0, ram_pct=30.0, ring2_allowed=False, soft_blocked=True)


def selector() -> ActionSelector:
    return ActionSelector(CFG, SuccessHistory(None, CFG.actions.default_success_rate))


def test_seed_weights() -> None:
    a = CFG.actions
    assert (a.confidence, a.goal_relevance, a.feasibility, a.success_rate, a.cost, a.info_gain) == (
        0.35, 0.30, 0.20, 0.15, 0.15, 0.10,
    )  # fmt: skip


def test_worked_utility_of_a_hedged_answer() -> None:
    """confidence 0.78 (the seed's example): 0.35*0.78 + 0.30*1.0 + 0.20*0.78 + 0.15*0.5 - 0.15*0.05 = 0.7965."""
    s = Situation("answer_question", best_score=0.78, has_evidence=True)
    assert selector().score_action(ActionType.RESPOND_HEDGED, s, CALM) == pytest.approx(0.7965)


def test_worked_utility_of_a_clarifying_question() -> None:
    """Seeking actions weigh 1 - confidence: 0.35*0.22 + 0.30*0.6 + 0.20*1 + 0.15*0.5 - (0.15*0.05 - 0.10*0.6)."""
    s = Situation("answer_question", best_score=0.78, has_evidence=True, clarification=NEURON_MEANT)
    assert selector().score_action(ActionType.ASK_CLARIFICATION, s, CALM) == pytest.approx(0.5845)


def test_seed_example_selects_respond_hedged() -> None:
    d = selector().select(Situation("answer_question", best_score=0.78, has_evidence=True), CALM, final=True)
    assert d.action is ActionType.RESPOND_HEDGED
    assert d.blocked["respond_direct"] == "tone_needs_hedging"
    assert {a["action"] for a in d.alternatives} >= {"respond_direct", "ask_clarification", "refuse"}
    assert "hedging applied" in d.reasoning


def test_high_confidence_answers_directly() -> None:
    d = selector().select(Situation("answer_question", best_score=0.9, has_evidence=True), CALM, final=True)
    assert d.action is ActionType.RESPOND_DIRECT
    assert d.blocked["respond_hedged"] == "tone_needs_no_hedging"


def test_filter_1_no_direct_answer_below_min_confidence() -> None:
    s = Situation("answer_question", best_score=0.35, has_evidence=True)
    assert selector().filters(ActionType.RESPOND_DIRECT, s, CALM, final=True) == "low_confidence"
    assert selector().select(s, CALM, final=True).action is ActionType.RESPOND_HEDGED


def test_filter_0_hard_block_removes_expensive_actions() -> None:
    s = Situation("explore_topic", best_score=0.5, has_evidence=True)
    sel = selector()
    assert sel.filters(ActionType.GATHER_EVIDENCE, s, HARD, final=False) == "resource_blocked"
    assert sel.filters(ActionType.EXPLORE, s, HARD, final=False) == "resource_blocked"
    assert sel.filters(ActionType.GATHER_EVIDENCE, s, CALM, final=False) is None


def test_filter_2_soft_block_removes_gathering() -> None:
    s = Situation("answer_question", best_score=0.5, has_evidence=True)
    assert selector().filters(ActionType.GATHER_EVIDENCE, s, SOFT, final=False) == "soft_blocked"


def test_no_refusal_while_usable_evidence_exists() -> None:
    sel = selector()
    assert (
        sel.filters(ActionType.REFUSE, Situation("answer_question", 0.35, True), CALM, final=True)
        == "evidence_available"
    )
    assert sel.filters(ActionType.REFUSE, Situation("answer_question", 0.15, True), CALM, final=True) is None
    assert sel.select(Situation("answer_question", 0.0, False), CALM, final=True).action is ActionType.REFUSE


def test_modifiers() -> None:
    sel = selector()
    base = {
        ActionType.GATHER_EVIDENCE: 0.5,
        ActionType.EXPLORE: 0.5,
        ActionType.ASK_CLARIFICATION: 0.5,
        ActionType.RESPOND_HEDGED: 0.5,
    }
    calm = sel.modifiers(base, Situation("answer_question", 0.8, True), CALM)
    assert calm == base
    soft = sel.modifiers(base, Situation("answer_question", 0.8, True), SOFT)
    assert soft[ActionType.GATHER_EVIDENCE] == pytest.approx(0.5 - 0.15 * 0.8)
    assert soft[ActionType.EXPLORE] == pytest.approx(0.5 - 0.15 * 0.9)
    conflicted = sel.modifiers(base, Situation("answer_question", 0.8, True, contradictions=1), CALM)
    assert conflicted[ActionType.ASK_CLARIFICATION] == pytest.approx(0.70)
    medium = sel.modifiers(base, Situation("answer_question", 0.6, True), CALM)
    assert medium[ActionType.RESPOND_HEDGED] == pytest.approx(0.65)


def test_seeking_actions_are_chosen_mid_cycle_but_not_as_the_final_action() -> None:
    s = Situation("answer_question", best_score=0.0, has_evidence=False)
    assert selector().select(s, CALM).action is ActionType.SEARCH_MEMORY
    assert selector().select(s, CALM, final=True).action is ActionType.REFUSE


def test_success_history_is_kept_in_the_database(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    with Brain.open(path) as brain:
        history = SuccessHistory(brain.store, record=True)
        assert history.rate(ActionType.RESPOND_HEDGED) == 0.5
        history.record(ActionType.RESPOND_HEDGED, True)
        history.record(ActionType.RESPOND_HEDGED, True)
        history.record(ActionType.RESPOND_HEDGED, False)
    with Brain.open(path, read_only=True) as brain:
        again = SuccessHistory(brain.store, record=True)
        assert again.counts["respond_hedged"] == (3, 2)
        assert again.rate(ActionType.RESPOND_HEDGED) == pytest.approx(3 / 5)
        again.record(ActionType.REFUSE, False)  # read-only: counted in memory, not written
        assert again.rate(ActionType.REFUSE) == pytest.approx(1 / 3)


def test_success_history_without_record_neither_writes_nor_drifts(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        before = brain.store.write_counter()
        history = SuccessHistory(brain.store)
        history.record(ActionType.RESPOND_HEDGED, True)
        assert history.rate(ActionType.RESPOND_HEDGED) == 0.5
        assert brain.store.write_counter() == before
        assert SuccessHistory(brain.store).counts == {}


def test_history_changes_the_utility() -> None:
    history = SuccessHistory(None, record=True)
    sel = ActionSelector(CFG, history)
    s = Situation("answer_question", best_score=0.78, has_evidence=True)
    before = sel.score_action(ActionType.RESPOND_HEDGED, s, CALM)
    for _ in range(8):
        history.record(ActionType.RESPOND_HEDGED, True)
    assert sel.score_action(ActionType.RESPOND_HEDGED, s, CALM) == pytest.approx(before + 0.15 * (0.9 - 0.5))
