"""The closed sets of names a caller chooses from, defined once for every layer.

Goal types, conflict types and statuses, and verdicts are named by people (CLI options, HTTP bodies, MCP tool
arguments) and by the reasoning code alike. They live here, in a leaf that imports nothing but `enum`, so the
CLI can build its `click.Choice`s at start-up without loading pydantic or the reasoning modules, the boundary
models (kgbrain/models.py) take them as field types, and the reasoning modules re-export them under their old
homes. A new member added here reaches every one of them.
"""

from __future__ import annotations

from enum import Enum


class GoalType(str, Enum):
    """The goal types kgbrain pursues; their values are the keys of `Config.goal_limits`."""

    ANSWER_QUESTION = "answer_question"
    VERIFY_CLAIM = "verify_claim"
    EXPLORE_TOPIC = "explore_topic"
    LEARN_FACT = "learn_fact"


class ConflictType(str, Enum):
    """The five structural conflict types of seed 001, and OWL 2 RL inconsistency."""

    OPPOSITE_POLARITY = "opposite_polarity"
    CONFLICTING_VALUE = "conflicting_value"
    SOURCE_CONFLICT = "source_conflict"
    RELATION_CONFLICT = "relation_conflict"
    STALE_EVIDENCE = "stale_evidence"
    # An OWL 2 RL "false" rule fired (prp-irp, prp-asyp, eq-diff1, cls-nothing2, cax-dw, ...): the ontology and
    # the data cannot both hold. The rule's conclusion is a denial; the conflict names the rule, deletes nothing.
    INCONSISTENCY = "inconsistency"


class ConflictStatus(str, Enum):
    """Whether a conflict still needs attention."""

    OPEN = "open"
    RESOLVED = "resolved"


class VerdictKind(str, Enum):
    """The `verdict` field of the verdicts contract."""

    SUPPORTED = "SUPPORTED"
    REFUTED = "REFUTED"
    CONFLICTING = "CONFLICTING"
    NOT_ENOUGH_INFO = "NOT_ENOUGH_INFO"
    ERROR = "ERROR"


def values(kind: type[Enum]) -> list[str]:
    """The members' values in definition order (what a `click.Choice` or a help text lists)."""
    return [str(member.value) for member in kind]
