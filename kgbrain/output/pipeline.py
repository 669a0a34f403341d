"""The output pipeline (seed 000 OutputPipeline): respond -> validate -> trace -> propose -> log.

It turns one CognitiveResult into a BrainOutput: the validated answer text, the explainability trace,
its JSONL record and digest, and the proposed actions. Logging is optional (a BrainLogger).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from kgbrain.config import Config
from kgbrain.errors import InputError
from kgbrain.memory.retrieval import Retriever
from kgbrain.output.actions import ActionProposer, ProposedAction
from kgbrain.output.logs import BrainLogger
from kgbrain.output.responder import Responder
from kgbrain.output.trace import ExplainabilityTrace, TraceBuilder
from kgbrain.output.validate import ResponseValidator, ValidationResult
from kgbrain.reasoning.answering.reasoner import Answer
from kgbrain.reasoning.cognition.goals import GoalType
from kgbrain.reasoning.cognition.loop import CognitiveLoop, CognitiveResult
from kgbrain.reasoning.cognition.planner import NORMAL_OUTCOMES, CognitiveOutcome
from kgbrain.reasoning.cognition.selection import ActionType, SuccessHistory
from kgbrain.reasoning.nlu.question import Question
from kgbrain.reasoning.results import Trace
from kgbrain.reasoning.views.timed import TimedStore
from kgbrain.store.protocol import GraphStore

_CONTENT_ACTIONS = frozenset({ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED})


@dataclass(frozen=True, slots=True)
class BrainOutput:
    """Seed 000 BrainOutput."""

    text: str
    language: str
    confidence: float
    uncertainty_level: str
    action: str
    trace: ExplainabilityTrace
    record: dict[str, Any]
    digest: str
    proposed_actions: tuple[ProposedAction, ...]
    validation: ValidationResult
    result: CognitiveResult
    total_duration_ms: float
    created_at: str
    corrections_applied: tuple[str, ...] = field(default=())
    # As of when it was answered (None: not asked as of a time), and the validity interval of every fact its
    # trace uses that has one (fact id -> "2019-10-07..2023-05-01").
    as_of: str | None = None
    intervals: dict[str, str] = field(default_factory=dict)
    # The question as asked when it was answered in another form (None: as answered), and how it was read.
    question: str | None = None
    reading: str | None = None
    # A person's correction of the conversation's last answer ("No, that is wrong: ...") and the question that
    # answer was to: linked to its episode when the conversation is recorded.
    corrects: tuple[str, str] | None = None

    @property
    def validation_passed(self) -> bool:
        """Whether the validator found nothing critical."""
        return self.validation.is_valid


class OutputPipeline:
    """Responder, validator, trace builder, action proposer and (optional) logger, in that order."""

    def __init__(self, responder: Responder, *, logger: BrainLogger | None = None, session_id: str = "cli") -> None:
        """Render with `responder`; log with `logger` when given."""
        self.responder = responder
        self.validator = ResponseValidator()
        self.traces = TraceBuilder(responder.labels, session_id)
        self.proposer = ActionProposer()
        self.logger = logger

    def run(self, result: CognitiveResult) -> BrainOutput:
        """The validated, traced, logged output of one cycle.

        Raises:
            StoreError: the store failed (labels, sources).
        """
        started = time.perf_counter()
        self.responder.forget()
        lang = "ru" if result.language == "ru" else "en"
        draft = self.responder.respond(result)
        content = result.decision.action in _CONTENT_ACTIONS
        topics = list(self.responder.labels(list(result.retrieval.concepts), lang).values()) if content else []
        against = []
        if content and result.selected is not None:
            packs = result.retrieval.by_fact
            against = [packs[f].content for f in result.selected.evidence_against if f in packs]
        validation = self.validator.validate(
            draft,
            question_language=lang,
            confidence=result.confidence,
            topics=topics,
            contradicted=against,
            requires_content=content,
        )
        sources = self.responder.cited(result)
        trace = self.traces.build(result, sources)
        text = validation.corrected_response
        record = self.traces.record(trace, text=text)
        record["validation"] = {
            "passed": validation.is_valid,
            "issues": [
                {"type": i.issue_type, "severity": i.severity, "description": i.description} for i in validation.issues
            ],
        }
        digest = self.traces.digest(trace, detailed=True)
        proposals = tuple(self.proposer.propose(result))
        record["proposed_actions"] = [
            {"type": p.action_type, "priority": p.priority, "params": p.params} for p in proposals
        ]
        total = result.duration_ms + (time.perf_counter() - started) * 1000.0
        record["latency_ms"] = round(total, 2)
        if self.logger is not None:
            self.logger.log(record)
            self.logger.digest(digest)
            for issue in validation.issues:
                if issue.severity == "critical":
                    self.logger.error("validation_failed", issue.description, cycle_id=result.cycle_id)
        return BrainOutput(
            text=text,
            language=lang,
            confidence=result.confidence,
            uncertainty_level=result.uncertainty.uncertainty_level.value,
            action=result.decision.action.value,
            trace=trace,
            record=record,
            digest=digest,
            proposed_actions=proposals,
            validation=validation,
            result=result,
            total_duration_ms=total,
            created_at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            corrections_applied=validation.applied_corrections,
        )


class Cognition:
    """The cognitive loop and the output pipeline of one knowledge base, kept between questions."""

    def __init__(
        self, loop: CognitiveLoop, pipeline: OutputPipeline, retriever: Retriever, timed: TimedStore | None = None
    ) -> None:
        """Use `loop` to think, `pipeline` to answer, `retriever` for check-answer; `timed`: the knowledge base
        as of a time that every answer is stamped with."""
        self.loop = loop
        self.pipeline = pipeline
        self.retriever = retriever
        self.timed = timed

    @classmethod
    def create(cls, store: GraphStore, reasoner: Any, config: Config, *, record: bool = False) -> Cognition:
        """Wire retrieval (with the reasoner's analogy index as the vector stage), loop, responder and logs.

        `record` keeps the action success history (a write per question); off, questions only read.

        Raises:
            StoreError: the store failed (reading the success history).
        """

        def vector(concept: str, k: int) -> list[tuple[str, float]]:
            return [(a.other, float(a.similarity)) for a in reasoner.like(concept, limit=k)]

        retriever = Retriever(store, config, vector_search=vector, index_dir=reasoner.index_dir)
        history = SuccessHistory(store, config.actions.default_success_rate, record=record)
        loop = CognitiveLoop(reasoner, retriever, config, history=history)
        logger = BrainLogger(config.logs.directory, config.logs) if config.logs.directory else None
        pipeline = OutputPipeline(Responder(store, reasoner.sources), logger=logger)
        return cls(loop, pipeline, retriever, store if isinstance(store, TimedStore) else None)

    def think(
        self, question: str, *, goal_type: str | None = None, priority: float = 0.5, parsed: Question | None = None
    ) -> BrainOutput:
        """One cycle: loop, output, and the chosen action's outcome in the success history (`parsed`: the question
        already understood, see `CognitiveLoop.run`).

        Raises:
            InputError: an unknown goal type or a priority outside 0..1.
            StoreError: the store failed.
        """
        try:
            kind = GoalType(goal_type) if goal_type is not None else None
        except ValueError as exc:
            known = ", ".join(g.value for g in GoalType)
            raise InputError(f"unknown goal type {goal_type!r} (known: {known})") from exc
        if not 0.0 <= priority <= 1.0:
            raise InputError(f"priority {priority!r} is outside 0..1")
        result = self.loop.run(question, goal_type=kind, priority=priority, parsed=parsed)
        output = self.pipeline.run(result)
        success = output.validation.is_valid and (
            result.outcome in NORMAL_OUTCOMES or result.outcome is CognitiveOutcome.GOAL_COMPLETED
        )
        self.loop.record_outcome(result, success)
        if self.timed is None:
            return output
        used = [*answer_of(output).trace.fact_ids, *(f for h in result.hypotheses for f in h.trace.fact_ids)]
        return dataclasses.replace(output, as_of=self.timed.window.text, intervals=self.timed.timeline.described(used))


def answer_of(output: BrainOutput) -> Answer:
    """The output as the reasoner's Answer type (`Brain.ask`): the loop's text, confidence and action.

    The Answer behind the selected hypothesis keeps its trace and data; a hypothesis from a stored statement
    gets that statement's trace.
    """
    from kgbrain.reasoning.results import Mode

    result = output.result
    h = result.selected
    base = h.payload if h is not None and isinstance(h.payload, Answer) else None
    if base is None:
        base = next((a for a in result.answers if isinstance(a, Answer)), None)
    level = result.uncertainty.uncertainty_level
    sources = output.trace.input_sources
    if base is None or (h is not None and h.payload is None):
        return Answer(
            question=result.question,
            language=output.language,
            intent=result.intent,
            confidence=output.confidence,
            uncertainty=level,
            action=output.action,
            mode=Mode.ASSOCIATIVE if h is not None else Mode.DIRECT,
            concepts=tuple(result.retrieval.concepts),
            sources=sources,
            trace=h.trace if h is not None else base.trace if base is not None else Trace(),
            suggestions=result.suggestions,
            data={"kind": "statement", "statement": h.statement} if h is not None else {"kind": "no_answer"},
            text=output.text,
        )
    return dataclasses.replace(
        base,
        text=output.text,
        confidence=output.confidence,
        uncertainty=level,
        action=output.action,
        sources=sources or base.sources,
    )
