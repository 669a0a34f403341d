"""Every weight and threshold of the cognitive loop and the output layer, in one configuration object.

The defaults are the seeds' starting values (seed 001 Cognitive Core, seed 000 Output Layer); the seeds
say they are to be calibrated, so a user can override any of them from a TOML file whose tables mirror
the dataclasses below (`kgbrain --config FILE` or the `KGBRAIN_CONFIG` environment variable):

    [salience]
    urgency = 0.4

    [goal_limits.answer_question]
    step_limit = 4

Confidence bands and hedging phrases stay in `kgbrain.reasoning.uncertainty` (shared with the reasoner);
this object refers to them instead of repeating them.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from kgbrain.errors import InputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised only on 3.10
    import tomli as tomllib  # type: ignore[import-not-found]

CONFIG_ENV = "KGBRAIN_CONFIG"


@dataclass(frozen=True, slots=True)
class GoalLimits:
    """Stop conditions of one goal type (seed 001 GoalTypeLimits)."""

    step_limit: int
    time_limit_ms: float
    confidence_threshold: float
    stability_window: int


def _goal_limits() -> dict[str, GoalLimits]:
    return {
        "answer_question": GoalLimits(step_limit=3, time_limit_ms=200.0, confidence_threshold=0.75, stability_window=2),
        "verify_claim": GoalLimits(step_limit=7, time_limit_ms=500.0, confidence_threshold=0.80, stability_window=2),
        "explore_topic": GoalLimits(step_limit=10, time_limit_ms=800.0, confidence_threshold=0.70, stability_window=3),
        "learn_fact": GoalLimits(step_limit=3, time_limit_ms=150.0, confidence_threshold=0.70, stability_window=1),
    }


@dataclass(frozen=True, slots=True)
class StopConfig:
    """Universal stop conditions (seed 001 check_stop_conditions)."""

    stability_delta: float = 0.01  # |best - previous best| below this counts as "no change"


@dataclass(frozen=True, slots=True)
class PolicyConfig:
    """PolicyConstraints and the PolicyLayer's filters and modifiers (seed 001)."""

    min_confidence: float = 0.4  # Filter 1: no direct answer below this
    max_retries: int = 2  # replan(): RETRY while a step has been retried fewer times
    soft_cost_penalty: float = 0.15  # Modifier 1: x estimated cost, when soft-blocked
    clarification_boost: float = 0.20  # Modifier 2: when contradictions are flagged
    hedged_boost: float = 0.15  # Modifier 3: best score within [hedged_low, hedged_high]
    hedged_low: float = 0.5
    hedged_high: float = 0.7
    # Ours: with usable evidence, refuse only below this (seed 001: "не отказывать, если есть данные";
    # seed 000 refuses at 0.15 and still answers 0.00-0.30 with "Это лишь предположение:").
    refuse_below: float = 0.2


@dataclass(frozen=True, slots=True)
class SalienceConfig:
    """SalienceEngine weights, thresholds and marker words (seed 001)."""

    novelty: float = 0.25
    urgency: float = 0.35
    threat: float = 0.25
    relevance: float = 0.15
    interrupt_above: float = 0.8
    prioritize_above: float = 0.5
    default_relevance: float = 0.5  # no active goal
    urgency_keywords: tuple[str, ...] = ("срочно", "немедленно", "сейчас", "urgent", "asap", "критично")
    threat_keywords: tuple[str, ...] = ("ошибка", "опасность", "сбой", "error", "fail", "danger", "критическая")


@dataclass(frozen=True, slots=True)
class HypothesisConfig:
    """score = max(0, support - risk) (seed 001 score_hypothesis)."""

    evidence_coverage: float = 0.45
    source_trust: float = 0.35
    relevance: float = 0.20
    contradiction: float = 0.40
    staleness: float = 0.30
    modality_mismatch: float = 0.20
    chain_length: float = 0.10
    per_conflict: float = 0.25  # contradiction_weight = min(1, conflicts * per_conflict)
    chain_norm: float = 10.0  # inference_chain_len = steps / chain_norm
    candidate_relevance: float = 0.3  # candidate facts: relevance_score above this
    default_trust: float = 0.5  # no sources
    default_relevance: float = 0.5  # no evidence packs
    default_staleness: float = 0.5  # no evidence packs
    accept_above: float = 0.6  # status "accepted" at or above this score (with support and no opposition)
    reject_below: float = 0.2


@dataclass(frozen=True, slots=True)
class ActionConfig:
    """ActionSelector utility (seed 001): base score minus cost penalty, plus our deterministic tables.

    The seed scores goal relevance by semantic similarity of an action's description to the goal's; without
    an embedding model that similarity is noise, so `goal_relevance` is a table by goal type instead.
    """

    confidence: float = 0.35
    goal_relevance: float = 0.30
    feasibility: float = 0.20
    success_rate: float = 0.15
    cost: float = 0.15
    info_gain: float = 0.10
    default_success_rate: float = 0.5  # no history: Laplace prior (s + 1) / (n + 2)
    ask_info_gain: float = 0.6
    learn_info_gain: float = 0.8
    search_info_gain_with_data: float = 0.3
    search_feasibility_with_data: float = 0.5
    # Normalised expected cost 0..1 (CPU x ms), per action.
    costs: dict[str, float] = field(
        default_factory=lambda: {
            "respond_direct": 0.05,
            "respond_hedged": 0.05,
            "ask_clarification": 0.05,
            "search_memory": 0.3,
            "gather_evidence": 0.8,
            "refuse": 0.0,
            "learn": 0.2,
            "correct": 0.2,
            "explore": 0.9,
        }
    )
    goal_relevance_by_goal: dict[str, dict[str, float]] = field(
        default_factory=lambda: {
            "answer_question": {
                "respond_direct": 1.0,
                "respond_hedged": 1.0,
                "ask_clarification": 0.6,
                "search_memory": 0.5,
                "gather_evidence": 0.5,
                "refuse": 0.3,
                "explore": 0.3,
                "learn": 0.1,
                "correct": 0.2,
            },
            "verify_claim": {
                "respond_direct": 1.0,
                "respond_hedged": 1.0,
                "ask_clarification": 0.5,
                "search_memory": 0.6,
                "gather_evidence": 0.7,
                "refuse": 0.3,
                "explore": 0.3,
                "learn": 0.1,
                "correct": 0.5,
            },
            "explore_topic": {
                "respond_direct": 0.8,
                "respond_hedged": 0.8,
                "ask_clarification": 0.4,
                "search_memory": 0.7,
                "gather_evidence": 0.7,
                "refuse": 0.2,
                "explore": 1.0,
                "learn": 0.3,
                "correct": 0.2,
            },
            "learn_fact": {
                "respond_direct": 0.3,
                "respond_hedged": 0.3,
                "ask_clarification": 0.6,
                "search_memory": 0.3,
                "gather_evidence": 0.3,
                "refuse": 0.2,
                "explore": 0.1,
                "learn": 1.0,
                "correct": 0.8,
            },
        }
    )


@dataclass(frozen=True, slots=True)
class ResourceConfig:
    """ResourceMonitor thresholds with hysteresis, in percent (seed 001 ResourceState)."""

    soft_on: float = 70.0  # soft_blocked when cpu >= soft_on
    soft_off: float = 60.0  # ... lifted when cpu <= soft_off
    hard_on: float = 85.0  # ring2_allowed = False when cpu or ram >= hard_on
    hard_off: float = 75.0  # ... restored only when cpu and ram <= hard_off


@dataclass(frozen=True, slots=True)
class RingConfig:
    """When Ring 2 runs (seed 001 select_ring)."""

    accept_confidence: float = 0.75  # Ring 1 alone is enough at or above this, without contradictions
    low_confidence: float = 0.60  # trigger: Ring 1 confidence below this
    novelty: float = 0.7  # trigger: salience novelty above this
    priority: float = 0.8  # trigger: goal priority above this
    deep_goal_types: tuple[str, ...] = ("verify_claim", "explore_topic")


@dataclass(frozen=True, slots=True)
class FreshnessConfig:
    """Daily decay of an evidence pack's freshness by kind of fact (seed 001 EvidencePack note)."""

    daily_factor: dict[str, float] = field(
        default_factory=lambda: {"scientific": 0.999, "news": 0.95, "user": 1.0, "norm": 1.0}
    )
    default_kind: str = "scientific"
    # Source-name prefix -> kind; the first match wins.
    source_kinds: dict[str, str] = field(
        default_factory=lambda: {
            "news/": "news",
            "user": "user",
            "person/": "user",
            "norm/": "norm",
        }
    )


@dataclass(frozen=True, slots=True)
class RetrievalConfig:
    """Staged retrieval: broad -> filter by trust/confidence -> rerank (seed 001 retrieve_staged)."""

    broad_limit: int = 20  # stage 1 keeps this many candidates per concept... and overall top-k after stage 3
    top_k: int = 20
    min_trust: float = 0.3
    min_confidence: float = 0.3
    overlap_weight: float = 0.6  # relevance = overlap_weight * query overlap + distance_weight / (1 + distance)
    distance_weight: float = 0.4
    ring2_hops: int = 2  # neighbourhood depth in Ring 2 (Ring 1 uses 1)
    frontier_limit: int = 8  # concepts expanded per hop beyond the first (outgoing facts only)


@dataclass(frozen=True, slots=True)
class LogConfig:
    """Log files: brain.jsonl, errors.jsonl and daily digests (seed 000 Observability)."""

    directory: str = ""  # empty: no logs are written unless a directory is given
    max_bytes: int = 100 * 2**20  # rotate brain.jsonl / errors.jsonl beyond this
    retention_days: int = 30


@dataclass(frozen=True, slots=True)
class Config:
    """The one configuration object. `Config()` is the seeds' defaults."""

    goal_limits: dict[str, GoalLimits] = field(default_factory=_goal_limits)
    stop: StopConfig = field(default_factory=StopConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    salience: SalienceConfig = field(default_factory=SalienceConfig)
    hypotheses: HypothesisConfig = field(default_factory=HypothesisConfig)
    actions: ActionConfig = field(default_factory=ActionConfig)
    resources: ResourceConfig = field(default_factory=ResourceConfig)
    rings: RingConfig = field(default_factory=RingConfig)
    freshness: FreshnessConfig = field(default_factory=FreshnessConfig)
    retrieval: RetrievalConfig = field(default_factory=RetrievalConfig)
    logs: LogConfig = field(default_factory=LogConfig)

    def limits(self, goal_type: str) -> GoalLimits:
        """The stop conditions of a goal type (answer_question's for an unknown type)."""
        return self.goal_limits.get(goal_type, self.goal_limits["answer_question"])


T = TypeVar("T")


def load_config(path: str | Path | None = None) -> Config:
    """The defaults overridden by a TOML file: `path`, else $KGBRAIN_CONFIG, else none.

    Raises:
        InputError: the file is missing, is not TOML, or names an unknown key or a value of the wrong type.
    """
    chosen = path if path is not None else os.environ.get(CONFIG_ENV) or None
    if chosen is None:
        return Config()
    file = Path(chosen)
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError(f"config file {str(file)!r} does not exist") from exc
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"config file {str(file)!r} is not valid TOML: {exc}") from exc
    return config_from_dict(data, where=str(file))


def config_from_dict(data: dict[str, Any], *, where: str = "config") -> Config:
    """The defaults with the tables of `data` laid over them.

    Raises:
        InputError: an unknown key or a value of the wrong type (named with its dotted path).
    """
    return _overlay(Config(), data, where)


def _overlay(obj: T, data: dict[str, Any], path: str) -> T:
    fields = {f.name: f for f in dataclasses.fields(obj)}  # type: ignore[arg-type]
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key not in fields:
            raise InputError(f"{path}: unknown key {key!r} (known: {', '.join(sorted(fields))})")
        changes[key] = _merge(getattr(obj, key), value, f"{path}.{key}")
    return dataclasses.replace(obj, **changes)  # type: ignore[type-var]


def _merge(current: Any, value: Any, path: str) -> Any:
    """`value` from the file laid over the default `current`, checked against the default's type."""
    if dataclasses.is_dataclass(current):
        if not isinstance(value, dict):
            raise InputError(f"{path}: expected a table, got {value!r}")
        return _overlay(current, value, path)
    if isinstance(current, dict):
        if not isinstance(value, dict):
            raise InputError(f"{path}: expected a table, got {value!r}")
        return _merge_table(current, value, path)
    return _checked_value(current, value, path)


def _merge_table(current: dict[str, Any], value: dict[str, Any], path: str) -> dict[str, Any]:
    """A table of the defaults (weights by name, ...) with the file's entries: new entries of dataclasses are whole."""
    merged = dict(current)
    for key, item in value.items():
        if key in current:
            merged[key] = _merge(current[key], item, f"{path}.{key}")
        elif current and dataclasses.is_dataclass(next(iter(current.values()))):
            template = next(iter(current.values()))
            if not isinstance(item, dict) or set(item) != {f.name for f in dataclasses.fields(template)}:
                raise InputError(f"{path}.{key}: a new entry needs every field of {type(template).__name__}")
            merged[key] = _overlay(template, item, f"{path}.{key}")
        else:
            merged[key] = item
    return merged


def _checked_value(current: Any, value: Any, path: str) -> Any:
    """A single value of the file, of the default's type (an int stays an int, a float accepts an int)."""
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise InputError(f"{path}: expected true or false, got {value!r}")
        return value
    if isinstance(current, (int, float)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputError(f"{path}: expected a number, got {value!r}")
        if isinstance(current, int) and not isinstance(current, bool) and not isinstance(value, int):
            raise InputError(f"{path}: expected an integer, got {value!r}")
        return type(current)(value)
    if isinstance(current, tuple):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(f"{path}: expected a list of strings, got {value!r}")
        return tuple(value)
    if isinstance(current, str):
        if not isinstance(value, str):
            raise InputError(f"{path}: expected a string, got {value!r}")
        return value
    raise InputError(f"{path}: cannot override a value of type {type(current).__name__}")


DEFAULT = Config()
