"""Each closed set of names (goal types, conflict types and statuses, verdicts) is written once: kgbrain/choices.py."""

from __future__ import annotations

import ast
from enum import Enum
from pathlib import Path

from kgbrain import choices
from kgbrain.choices import ConflictStatus, ConflictType, GoalType, VerdictKind, values
from kgbrain.models import AskIn, ConflictOut, VerdictOut
from kgbrain.reasoning.answering.verify import VerdictKind as ReasoningVerdictKind
from kgbrain.reasoning.cognition.goals import GoalType as ReasoningGoalType
from kgbrain.reasoning.tms.resolution import ConflictStatus as ReasoningConflictStatus

PACKAGE = Path(choices.__file__).parent
ENUMS: tuple[type[Enum], ...] = (GoalType, ConflictType, ConflictStatus, VerdictKind)


def _copies(tree: ast.AST) -> list[tuple[int, str]]:
    """Literal lists, tuples, sets and `Literal[...]`s holding every value of one of the enums (a subset, such as
    config's deep goal types, is a choice among them, not a copy)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.List | ast.Tuple | ast.Set):  # `Literal["a", "b"]`'s slice is a tuple too
            continue
        texts = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        for kind in ENUMS:
            if set(values(kind)) <= texts:
                found.append((getattr(node, "lineno", 0), kind.__name__))
    return found


def test_no_module_lists_the_values_of_a_choice_again() -> None:
    copies = {
        str(path.relative_to(PACKAGE)): found
        for path in sorted(PACKAGE.rglob("*.py"))
        if path.name != "choices.py" and (found := _copies(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert copies == {}


def test_the_scan_would_see_a_copy() -> None:
    source = (
        'CHOICES = ["open", "resolved"]\nx: Literal["SUPPORTED", "REFUTED", "CONFLICTING", "NOT_ENOUGH_INFO", "ERROR"]'
    )
    assert _copies(ast.parse(source)) == [(1, "ConflictStatus"), (2, "VerdictKind")]


def test_reasoning_and_the_boundary_models_use_the_same_enums() -> None:
    assert ReasoningGoalType is GoalType
    assert ReasoningConflictStatus is ConflictStatus
    assert ReasoningVerdictKind is VerdictKind
    schema = AskIn.model_json_schema()
    assert schema["$defs"]["GoalType"]["enum"] == values(GoalType)
    assert VerdictOut.model_json_schema()["$defs"]["VerdictKind"]["enum"] == values(VerdictKind)
    assert set(ConflictOut.model_json_schema()["$defs"]) == {"ConflictType", "ConflictStatus"}
