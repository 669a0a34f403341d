"""Goals and the goal manager (seed 001, Planner / GoalManager).

The manager is not a stack: it is a tree of goals (parent/children) with a priority queue of the active
ones and a LIFO stack of interrupted goals, so an urgent goal can pre-empt the current one and the
interrupted goal resumes where it stopped.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from kgbrain.choices import GoalType as GoalType  # defined with the other choices a caller names


class GoalStatus(str, Enum):
    """Lifecycle of a goal."""

    PENDING = "pending"
    ACTIVE = "active"
    INTERRUPTED = "interrupted"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


_ids = itertools.count(1)


@dataclass(slots=True)
class Goal:
    """One goal; the manager changes its status, nothing else does."""

    description: str
    goal_type: GoalType = GoalType.ANSWER_QUESTION
    priority: float = 0.5  # 0..1, higher first
    goal_id: str = ""
    parent_goal_id: str | None = None
    sub_goals: list[str] = field(default_factory=list)
    status: GoalStatus = GoalStatus.PENDING
    deadline: float | None = None  # monotonic seconds, or None
    context: dict[str, Any] = field(default_factory=dict)
    failure: str | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= self.priority <= 1.0:
            raise ValueError(f"goal priority {self.priority!r} is outside 0..1")
        if not self.goal_id:
            self.goal_id = f"goal_{next(_ids):04d}"


class GoalManager:
    """A tree of goals with a priority queue of active ones and a stack of interrupted ones."""

    def __init__(self) -> None:
        """Start with no goals."""
        self.tree: dict[str, Goal] = {}
        self._queue: list[tuple[float, int, str]] = []  # (-priority, arrival, goal id)
        self._arrival = itertools.count()
        self.interrupted: list[str] = []
        self.completed: list[str] = []

    def push(self, goal: Goal) -> None:
        """Add a goal to the tree and to the active queue (by priority, then arrival)."""
        self.tree[goal.goal_id] = goal
        if goal.parent_goal_id is not None and goal.parent_goal_id in self.tree:
            parent = self.tree[goal.parent_goal_id]
            if goal.goal_id not in parent.sub_goals:
                parent.sub_goals.append(goal.goal_id)
        goal.status = GoalStatus.ACTIVE
        heapq.heappush(self._queue, (-goal.priority, next(self._arrival), goal.goal_id))

    def peek(self) -> Goal | None:
        """The active goal with the highest priority (None when there is none)."""
        while self._queue:
            goal = self.tree[self._queue[0][2]]
            if goal.status is GoalStatus.ACTIVE:
                return goal
            heapq.heappop(self._queue)  # a finished or interrupted goal left a stale entry
        return None

    def add(self, goal: Goal) -> None:
        """Record a pending sub-goal in the tree without queueing it (it is worked on when pushed)."""
        self.tree[goal.goal_id] = goal
        if goal.parent_goal_id is not None and goal.parent_goal_id in self.tree:
            self.tree[goal.parent_goal_id].sub_goals.append(goal.goal_id)

    def complete(self, goal_id: str) -> None:
        """Mark a goal done and drop it from the active queue."""
        goal = self.tree[goal_id]
        goal.status = GoalStatus.DONE
        self.completed.append(goal_id)

    def fail(self, goal_id: str, reason: str) -> None:
        """Mark a goal failed with the outcome code that ended it (the planner escalates with this)."""
        goal = self.tree[goal_id]
        goal.status = GoalStatus.FAILED
        goal.failure = reason

    def interrupt(self, urgent: Goal) -> Goal | None:
        """Set the current goal aside (LIFO) and make `urgent` the active one; returns the interrupted goal."""
        current = self.peek()
        if current is not None:
            current.status = GoalStatus.INTERRUPTED
            self.interrupted.append(current.goal_id)
        self.push(urgent)
        return current

    def resume_interrupted(self) -> Goal | None:
        """Re-activate the most recently interrupted goal that is still unfinished."""
        while self.interrupted:
            goal = self.tree[self.interrupted.pop()]
            if goal.status is GoalStatus.INTERRUPTED:
                goal.status = GoalStatus.ACTIVE
                heapq.heappush(self._queue, (-goal.priority, next(self._arrival), goal.goal_id))
                return goal
        return None

    def get_active_chain(self) -> list[Goal]:
        """The chain from the root goal down to the current active goal."""
        chain: list[Goal] = []
        goal = self.peek()
        while goal is not None:
            chain.append(goal)
            goal = self.tree.get(goal.parent_goal_id) if goal.parent_goal_id else None
        return chain[::-1]
