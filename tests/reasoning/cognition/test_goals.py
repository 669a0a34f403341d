"""GoalManager: a tree of goals with a priority queue and a LIFO stack of interrupted goals (seed 001)."""

from __future__ import annotations

import pytest

from kgbrain.reasoning.cognition.goals import Goal, GoalManager, GoalStatus, GoalType


def test_peek_returns_the_highest_priority_active_goal() -> None:
    gm = GoalManager()
    low, high = Goal("low", priority=0.2), Goal("high", priority=0.9)
    gm.push(low)
    gm.push(high)
    assert gm.peek() is high
    gm.complete(high.goal_id)
    assert gm.peek() is low
    assert gm.completed == [high.goal_id]


def test_equal_priorities_keep_arrival_order() -> None:
    gm = GoalManager()
    first, second = Goal("a"), Goal("b")
    gm.push(first)
    gm.push(second)
    assert gm.peek() is first


def test_interrupt_sets_the_current_goal_aside_and_resume_brings_it_back() -> None:
    gm = GoalManager()
    current = Goal("explain neurons", GoalType.ANSWER_QUESTION, priority=0.5)
    gm.push(current)
    urgent = Goal("verify a safety claim", GoalType.VERIFY_CLAIM, priority=0.95)
    assert gm.interrupt(urgent) is current
    assert current.status is GoalStatus.INTERRUPTED
    assert gm.peek() is urgent
    gm.complete(urgent.goal_id)
    assert gm.peek() is None
    assert gm.resume_interrupted() is current
    assert current.status is GoalStatus.ACTIVE
    assert gm.peek() is current
    assert gm.resume_interrupted() is None


def test_resume_is_last_in_first_out() -> None:
    gm = GoalManager()
    a, b, c = Goal("a", priority=0.1), Goal("b", priority=0.5), Goal("c", priority=0.9)
    gm.push(a)
    gm.interrupt(b)
    gm.interrupt(c)
    gm.complete(c.goal_id)
    assert gm.resume_interrupted() is b
    gm.complete(b.goal_id)
    assert gm.resume_interrupted() is a


def test_fail_records_the_outcome_and_the_tree_keeps_the_goal() -> None:
    gm = GoalManager()
    g = Goal("x")
    gm.push(g)
    gm.fail(g.goal_id, "retrieval_failed")
    assert g.status is GoalStatus.FAILED
    assert g.failure == "retrieval_failed"
    assert gm.peek() is None
    assert gm.tree[g.goal_id] is g


def test_active_chain_runs_from_the_root_to_the_active_sub_goal() -> None:
    gm = GoalManager()
    root = Goal("explore the brain", GoalType.EXPLORE_TOPIC, priority=0.4)
    gm.push(root)
    child = Goal("learn about glia", GoalType.LEARN_FACT, priority=0.6, parent_goal_id=root.goal_id)
    gm.push(child)
    assert root.sub_goals == [child.goal_id]
    assert gm.get_active_chain() == [root, child]


def test_priority_outside_0_1_is_a_bug() -> None:
    with pytest.raises(ValueError, match="priority"):
        Goal("x", priority=1.5)


def test_a_pending_sub_goal_is_in_the_tree_but_not_queued() -> None:
    gm = GoalManager()
    root = Goal("explore", GoalType.EXPLORE_TOPIC)
    gm.push(root)
    gap = Goal("learn_fact(glia)", GoalType.LEARN_FACT, parent_goal_id=root.goal_id)
    gm.add(gap)
    assert gm.tree[gap.goal_id] is gap
    assert root.sub_goals == [gap.goal_id]
    assert gap.status is GoalStatus.PENDING
    gm.complete(root.goal_id)
    assert gm.peek() is None
    gm.push(gap)
    assert gm.peek() is gap
