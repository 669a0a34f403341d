"""Pydantic models at the boundary: what `--json` prints and what requests accept."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema

from kgbrain.api import MAX_QUESTION_CHARS, Brain, ConceptFacts, Stats
from kgbrain.choices import ConflictStatus, ConflictType, GoalType, VerdictKind, values
from kgbrain.errors import InvalidRequest
from kgbrain.ingest.export import fact_row
from kgbrain.ingest.loader import LoadReport
from kgbrain.output.verdicts import VerifySummary, verdict_row
from kgbrain.reasoning.answering.verify import Verdict
from kgbrain.reasoning.tms.resolution import ConflictRecord

if TYPE_CHECKING:
    from kgbrain.output.answer_check import AnswerReport
    from kgbrain.output.pipeline import BrainOutput
    from kgbrain.reasoning.rules.query import QueryResult
    from kgbrain.reasoning.tms.resolution import RetractResult


def _same_fields(model: type[BaseModel], obj: object) -> dict[str, Any]:
    """The attributes of `obj` named like the model's fields (core dataclasses mirror their --json models)."""
    return {name: getattr(obj, name) for name in model.model_fields}


# Enum fields hold their plain values (`model_dump` gives "open", not ConflictStatus.OPEN): dumps stay plain JSON.
class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True)


class LoadReportOut(_Out):
    """One file's load report."""

    file: str
    rows_read: int
    facts_added: int
    duplicates_skipped: int
    concepts_created: int
    names_added: int
    predicates_declared: int
    sources: int
    per_predicate: dict[str, int]
    skipped: dict[str, int]
    extra: dict[str, int]
    owl2rl: dict[str, int]

    @classmethod
    def from_report(cls, r: LoadReport) -> LoadReportOut:
        """Convert the core dataclass (same field names)."""
        return cls(**_same_fields(cls, r))


class StatsOut(_Out):
    """`kgbrain stats --json`."""

    concepts: int
    individuals: int
    facts: int
    active_facts: int
    predicates: dict[str, int]
    statuses: dict[str, int]
    sources: int
    schema_version: int

    @classmethod
    def from_stats(cls, s: Stats) -> StatsOut:
        """Convert the core dataclass (same field names)."""
        return cls(**_same_fields(cls, s))


class ConceptFactsOut(_Out):
    """`kgbrain facts CONCEPT --json`."""

    id: str
    kind: str
    labels: dict[str, str]
    descriptions: dict[str, str]
    names: list[dict[str, Any]]
    facts: list[dict[str, Any]]

    @classmethod
    def from_concept(cls, c: ConceptFacts) -> ConceptFactsOut:
        """Convert the core dataclass."""
        return cls(
            id=c.id,
            kind=c.kind,
            labels=c.labels,
            descriptions=c.descriptions,
            names=[{k: n[k] for k in ("text", "lang", "kind")} for n in c.names],
            facts=[fact_row(f) for f in c.facts],
        )


class ProofStepOut(_Out):
    """One step of a verdict's proof (verdicts contract)."""

    rule: str
    conclusion: str = ""
    facts: list[str]
    sources: list[str]
    confidence: float
    note: str | None = None


class ClaimOut(_Out):
    """The claim as it was checked (concept ids after linking)."""

    subject: str
    predicate: str
    object: str
    polarity: bool


class VerdictConflictOut(_Out):
    """A stored conflict touching a verdict's evidence."""

    id: str
    type: str  # text: a ConflictNote carries its values as they were read (a test row leaves them empty)
    status: str
    resolution: str
    facts: list[str]
    kept: str | None


class VerdictOut(_Out):
    """One line of the verdicts file (DESIGN.md contract; `error` only on ERROR)."""

    id: str
    verdict: VerdictKind
    confidence: float
    reasoning_type: str | None
    proof: list[ProofStepOut]
    conflicts: list[VerdictConflictOut]
    explanation: str
    claim: ClaimOut | None = None
    error: str | None = None
    intervals: dict[str, str] = {}  # fact id -> validity interval, for the proof's facts that state one

    @classmethod
    def from_verdict(cls, v: Verdict) -> VerdictOut:
        """Convert the core dataclass (through the same row the verdicts file holds)."""
        return cls.model_validate(verdict_row(v))


class VerifySummaryOut(_Out):
    """`kgbrain verify --json`: what the run did."""

    claims: int
    resumed: int
    checked: int
    seconds: float
    claims_per_second: float
    counts: dict[str, int]
    output: str | None
    workers: int
    torn_line_rewritten: bool

    @classmethod
    def from_summary(cls, s: VerifySummary) -> VerifySummaryOut:
        """Convert the core dataclass."""
        return cls(
            claims=s.claims,
            resumed=s.resumed,
            checked=s.checked,
            seconds=round(s.seconds, 3),
            claims_per_second=round(s.rate, 1),
            counts=s.counts,
            output=s.output,
            workers=s.workers,
            torn_line_rewritten=s.torn_line_rewritten,
        )


class ConflictOut(_Out):
    """One conflict in `kgbrain conflicts --json`: its facts, how it was resolved, and its history."""

    id: str
    type: ConflictType
    status: ConflictStatus
    facts: list[dict[str, Any]]
    resolution: dict[str, Any]
    explanation: str
    detected_at: str | None
    history: list[dict[str, Any]]

    @classmethod
    def from_record(cls, r: ConflictRecord) -> ConflictOut:
        """Convert the core record."""
        return cls(
            id=r.id,
            type=r.type.value,
            status=r.status.value,
            facts=[fact_row(f) for f in r.facts],
            resolution={
                "strategy": r.strategy.value,
                "kept_fact": r.kept_fact,
                "resolved_by": r.resolved_by,
                "resolved_at": r.resolved_at.isoformat() if r.resolved_at else None,
            },
            explanation=r.explanation,
            detected_at=r.detected_at.isoformat() if r.detected_at else None,
            history=r.events,
        )


# -- reasoning: ask / why / path / like (--json) ----------------------------------------------------


class TraceStepOut(_Out):
    """One reasoning step: the rule id, its conclusion, the facts and sources used, its confidence."""

    rule: str
    conclusion: str
    facts: list[str]
    sources: list[str]
    confidence: float
    note: str

    @classmethod
    def from_step(cls, s: Step) -> TraceStepOut:
        """Convert the core dataclass."""
        return cls(
            rule=s.rule,
            conclusion=s.conclusion,
            facts=list(s.facts),
            sources=list(s.sources),
            confidence=round(s.confidence, 4),
            note=s.note,
        )


class SourceOut(_Out):
    """A source named in an answer."""

    name: str
    trust: float | None
    authority: str | None


class AskOut(_Out):
    """`kgbrain ask --json` (DESIGN.md contract: answer, language, confidence, uncertainty_level, action,
    reasoning_type, sources, trace)."""

    question: str
    answer: str
    language: str
    intent: str
    confidence: float
    uncertainty_level: str
    action: str
    reasoning_type: str
    outcome: str | None
    hypothesis: bool
    concepts: list[str]
    suggestions: list[str]
    sources: list[SourceOut]
    trace: list[TraceStepOut]
    fact_ids: list[str]
    data: dict[str, Any]
    # The cognitive loop's account (seed 001/000): goal, ring, hypotheses with scores, the chosen action and
    # why, the alternatives considered, proposed actions, validation, digest and latency.
    goal: dict[str, Any] | None = None
    ring: int | None = None
    ring2_triggers: list[str] = []
    hypotheses: list[dict[str, Any]] = []
    why: str | None = None
    alternatives: list[dict[str, Any]] = []
    proposed_actions: list[dict[str, Any]] = []
    validation: dict[str, Any] | None = None
    outcome_code: str | None = None
    digest: str | None = None
    latency_ms: float | None = None
    as_of: str | None = None  # the time asked about (`--as-of`; None: not as of a time)
    intervals: dict[str, str] = {}  # fact id -> validity interval, for the trace's facts that state one
    reading: str | None = None  # how the question was read when it was answered in another form
    # Episodic evidence retrieval found (earlier recorded answers about the concepts, with corrections): shown,
    # never proof of a fact.
    episodes: list[dict[str, Any]] = []

    @classmethod
    def from_output(cls, output: BrainOutput) -> AskOut:
        """The answer of a cognitive cycle with the loop's account."""
        from kgbrain.output.pipeline import answer_of

        t = output.trace
        return cls.from_answer(answer_of(output)).model_copy(
            update={
                "goal": {"type": t.goal_type, "description": t.goal, "priority": output.result.goal.priority},
                "ring": t.ring,
                "ring2_triggers": list(t.ring2_triggers),
                "hypotheses": [dict(h) for h in t.hypotheses],
                "why": t.action_reason,
                "alternatives": [dict(a) for a in t.alternatives_considered],
                "proposed_actions": [
                    {
                        "type": p.action_type,
                        "description": p.description,
                        "params": p.params,
                        "priority": p.priority,
                        "reason": p.reason,
                        "executed": p.executed,
                    }
                    for p in output.proposed_actions
                ],
                "validation": output.record["validation"],
                "outcome_code": t.outcome,
                "digest": output.digest,
                "latency_ms": round(output.total_duration_ms, 2),
                "as_of": output.as_of,
                "intervals": output.intervals,
                "reading": output.reading,
                "episodes": [e.as_dict() for e in output.result.retrieval.episodes],
                **({"question": output.question} if output.question is not None else {}),
            }
        )

    @classmethod
    def from_answer(cls, a: Answer) -> AskOut:
        """Convert the core dataclass."""
        return cls(
            question=a.question,
            answer=a.text,
            language=a.language,
            intent=a.intent,
            confidence=a.confidence,
            uncertainty_level=a.uncertainty.value,
            action=a.action,
            reasoning_type=a.mode.value,
            outcome=a.outcome.value if a.outcome else None,
            hypothesis=a.hypothesis,
            concepts=list(a.concepts),
            suggestions=list(a.suggestions),
            sources=[SourceOut(name=s.name, trust=s.trust, authority=s.authority) for s in a.sources],
            trace=[TraceStepOut.from_step(s) for s in a.trace.steps],
            fact_ids=list(a.trace.fact_ids),
            data=a.data,
        )


class CausalPathOut(_Out):
    """One causal path (`kgbrain why/path --json`)."""

    concepts: list[str]
    predicates: list[str]
    confidence: float
    polarity: bool
    trace: list[TraceStepOut]

    @classmethod
    def from_path(cls, p: CausalPath) -> CausalPathOut:
        """Convert the core dataclass."""
        return cls(
            concepts=list(p.concepts),
            predicates=[lk.predicate for lk in p.links],
            confidence=p.confidence,
            polarity=p.polarity,
            trace=[TraceStepOut.from_step(s) for s in p.steps()],
        )


class AnalogyOut(_Out):
    """One analogy (`kgbrain like --json`): a hypothesis unless `supported`."""

    concept: str
    other: str
    similarity: float
    confidence: float
    supported: bool
    shared: list[list[str]]
    differences: list[str]
    trace: list[TraceStepOut]

    @classmethod
    def from_analogy(cls, a: Analogy) -> AnalogyOut:
        """Convert the core dataclass."""
        return cls(
            concept=a.concept,
            other=a.other,
            similarity=a.similarity,
            confidence=a.confidence,
            supported=a.supported,
            shared=[list(x) for x in a.shared],
            differences=list(a.differences),
            trace=[TraceStepOut.from_step(s) for s in a.steps],
        )


if TYPE_CHECKING:  # the reasoner imports numpy and hnswlib; only reasoning commands need them
    from kgbrain.reasoning.answering.reasoner import Answer
    from kgbrain.reasoning.modes.analogical import Analogy
    from kgbrain.reasoning.modes.causal import CausalPath
    from kgbrain.reasoning.results import Step


class QueryOut(_Out):
    """`kgbrain query --json`: the projected variables and one object per solution (null: unbound)."""

    columns: list[str]
    rows: list[dict[str, str | int | float | bool | None]]

    @classmethod
    def from_result(cls, result: QueryResult) -> QueryOut:
        return cls(columns=list(result.columns), rows=result.records())


# -- check-answer, retract, search (--json of the CLI; the service returns the same) ----------------------


class FiredRuleOut(_Out):
    """A reasoning rule that fired on the draft."""

    id: str
    title: str
    severity: str


class ClaimCheckOut(_Out):
    """One sentence of the draft compared with the knowledge base."""

    sentence: str
    verdict: str
    fact: str
    fact_id: str
    source: str
    authority: str | None
    severity: str


class CitationCheckOut(_Out):
    """One citation of the draft and the source that backs it (None: unbacked)."""

    citation: str
    backed_by: str | None


class CheckAnswerOut(_Out):
    """`kgbrain check-answer --json`: the corrected draft, the rules that fired, claims and citations checked."""

    text: str
    language: str
    critical: bool
    rules: list[FiredRuleOut]
    claims: list[ClaimCheckOut]
    citations: list[CitationCheckOut]

    @classmethod
    def from_report(cls, r: AnswerReport) -> CheckAnswerOut:
        """Convert the core dataclass."""
        return cls(
            text=r.text,
            language=r.language,
            critical=r.critical,
            rules=[FiredRuleOut(id=x.rule_id, title=x.title, severity=x.severity) for x in r.fired],
            claims=[ClaimCheckOut(**_same_fields(ClaimCheckOut, c)) for c in r.claims],
            citations=[CitationCheckOut(citation=c.citation, backed_by=c.backed_by) for c in r.citations],
        )


class RetractOut(_Out):
    """`kgbrain retract`: the fact retracted, its status before, and the open conflicts that closed."""

    fact_id: str
    previous_status: str
    closed: list[str]

    @classmethod
    def from_result(cls, r: RetractResult) -> RetractOut:
        """Convert the core dataclass."""
        return cls(fact_id=r.fact.fact_id, previous_status=r.previous_status.value, closed=list(r.closed))


class ConceptMatchOut(_Out):
    """A concept found by name: its id, kind and labels, and the name that matched."""

    id: str
    kind: str
    labels: dict[str, str]
    matched: str


# -- paged lists (the service and MCP page long lists with an opaque cursor) --------------------------------


class ConceptFactsPageOut(ConceptFactsOut):
    """`ConceptFactsOut` with one page of the facts; `next_cursor` fetches the next (None: the last page)."""

    total_facts: int
    next_cursor: str | None


class RecallOut(ConceptFactsPageOut):
    """MCP `recall`: a page of a concept's facts and the latest episodes about it (episodic memory: what was
    asked and answered, with corrections; never proof of a fact)."""

    episodes: list[dict[str, Any]]


class ConflictsPageOut(_Out):
    """One page of `kgbrain conflicts --json`."""

    conflicts: list[ConflictOut]
    total: int
    next_cursor: str | None


class ConceptMatchesOut(_Out):
    """Concept search results."""

    concepts: list[ConceptMatchOut]


class ExplanationOut(_Out):
    """Where a fact comes from: the fact with its provenance and status, its derivation tree down to sourced facts
    (`kgbrain explain --json`), and the conflicts it is part of."""

    fact: dict[str, Any]
    proof: dict[str, Any]
    conflicts: list[ConflictOut]

    @classmethod
    def of(cls, brain: Brain, fact_id: str) -> ExplanationOut:
        """Explain `fact_id` from `brain` (the CLI's `explain --json`, HTTP and MCP all print this).

        Raises:
            InputError: no fact has this id.
        """
        from kgbrain.reasoning.tms.proofs import proof_json

        proof = proof_json(brain.explain(fact_id))  # first: its unknown-fact message says where ids are shown
        found = brain.conflicts(facts=[fact_id])
        return cls(
            fact=fact_row(brain.fact(fact_id)), proof=proof, conflicts=[ConflictOut.from_record(c) for c in found]
        )


class QueryPageOut(QueryOut):
    """One page of `kgbrain query --json`'s solutions; `next_cursor` fetches the next (None: the last page)."""

    total_rows: int
    next_cursor: str | None


class ErrorOut(_Out):
    """Every service error: the message the CLI prints after `Error:`."""

    error: str


class HealthOut(_Out):
    """`GET /healthz`."""

    status: Literal["ok"]
    read_only: bool
    schema_version: int
    write_counter: str | None


# -- requests: the HTTP bodies and query strings and the MCP tools' arguments ------------------------------
#
# Each limit is written here once, as a field constraint: HTTP and MCP validate through these models (`validated`),
# the OpenAPI document and the MCP tool schemas are their JSON schemas. The CLI cannot import pydantic at start-up;
# its option types read the same enums (kgbrain/choices.py) and the library keeps its own guards for Python callers.

MAX_PAGE = 1000  # items in one page of any paged list
MAX_PAGE_BYTES = 2**20  # a page also stops at about 1 MB of JSON (always at least one item: the cursor moves on)
MAX_SEARCH = 100  # concepts one search returns
MAX_PATHS = 100  # causal paths or analogies one why/path/like call returns
MAX_TOOL_CLAIMS = 100  # claims an MCP call verifies: a verdict with its proof is ~1,500 characters
MAX_TOOL_FACTS = 1000  # facts an MCP call stores
MAX_TOOL_RECALL = 200  # facts in one page of the MCP `recall` tool
MAX_TOOL_CONFLICTS = 100  # conflicts in one page of the MCP `conflicts` tool
# The budget of one request (issue #22): sizes past which the work or the reply grows beyond what one client may
# take from a shared server. Measured (bench/faults.py): a 1,000-character claim is decided in well under a second;
# a 16 KB claim took 18-75 s and a 49,000-character draft 182 s, so a served draft stops at 10,000 characters
# (`kgbrain check-answer` on the user's own machine keeps the library's 50,000).
MAX_CLAIM_CHARS = 1000  # a claim sentence, and each field of a claim row
MAX_SERVED_DRAFT_CHARS = 10_000
MAX_NAME_CHARS = 500  # concept names, ids, sources, who decides, cursors: names, not documents
MAX_FILE_NAME_CHARS = 255  # an upload's file name (what file systems allow)
MAX_VALUE_CHARS = 10_000  # a string anywhere in a fact row
MAX_ROW_DEPTH = 8  # nesting of lists and objects inside a fact or claim row
MAX_CLAIMS = 10_000  # claims one HTTP verify streams
MAX_FACTS = 10_000  # facts one HTTP request stores
MAX_QUERY_CHARS = 10_000  # a SPARQL query or rule body
MAX_RULES_CHARS = 50_000  # a check-answer rules TOML file
MAX_REASON_CHARS = 1000
_FILLED = r"\S"  # text with something in it: not empty, not only spaces


def _bounded_row(row: dict[str, Any]) -> dict[str, Any]:
    """A fact or claim row whose strings and nesting stay within the budget (ValueError names the first excess)."""
    stack: list[tuple[Any, str, int]] = [(row, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_ROW_DEPTH:
            raise ValueError(f"{where or 'the row'} is nested more than {MAX_ROW_DEPTH} levels deep")
        if isinstance(value, str) and len(value) > MAX_VALUE_CHARS:
            raise ValueError(f"{where} has {len(value):,} characters; at most {MAX_VALUE_CHARS:,}")
        if isinstance(value, dict):
            for key, item in value.items():
                if len(str(key)) > MAX_NAME_CHARS:
                    raise ValueError(f"a key of {len(str(key)):,} characters; at most {MAX_NAME_CHARS:,}")
                stack.append((item, f"{where}.{key}" if where else str(key), depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{n}]", depth + 1) for n, item in enumerate(value))
    return row


def _bounded_claim(claim: Any) -> dict[str, Any] | str:
    """A claims-file row or a sentence, each text in it at most MAX_CLAIM_CHARS long."""
    if isinstance(claim, str):
        if len(claim) > MAX_CLAIM_CHARS:
            raise ValueError(f"the sentence has {len(claim):,} characters; at most {MAX_CLAIM_CHARS:,}")
        return claim
    if not isinstance(claim, dict):
        raise ValueError("expected a claim object or a sentence")
    _bounded_row(claim)
    for key, value in claim.items():
        if isinstance(value, str) and len(value) > MAX_CLAIM_CHARS:
            raise ValueError(f"{key} has {len(value):,} characters; at most {MAX_CLAIM_CHARS:,}")
    return claim


Fraction = Annotated[float, Field(ge=0.0, le=1.0)]
Text = Annotated[str, Field(pattern=_FILLED, max_length=MAX_NAME_CHARS)]
Name = Annotated[str, Field(max_length=MAX_NAME_CHARS)]
Reason = Annotated[str, Field(max_length=MAX_REASON_CHARS)]
Question = Annotated[str, Field(pattern=_FILLED, max_length=MAX_QUESTION_CHARS)]
Draft = Annotated[str, Field(pattern=_FILLED, max_length=MAX_SERVED_DRAFT_CHARS)]
DraftQuestion = Annotated[str, Field(max_length=MAX_QUESTION_CHARS)]
PageLimit = Annotated[int, Field(ge=1, le=MAX_PAGE)]
SearchLimit = Annotated[int, Field(ge=1, le=MAX_SEARCH)]
PathLimit = Annotated[int, Field(ge=1, le=MAX_PATHS)]
Cursor = Annotated[str | None, Field(max_length=MAX_NAME_CHARS, description="`next_cursor` of the previous page")]
# One validator for both shapes, so a bad item gets one message rather than one per arm of a union.
Claim = Annotated[
    Any,
    AfterValidator(_bounded_claim),
    WithJsonSchema({"anyOf": [{"type": "object"}, {"type": "string", "maxLength": MAX_CLAIM_CHARS}]}),
]
Claims = Annotated[list[Claim], Field(max_length=MAX_CLAIMS)]
Row = Annotated[dict[str, Any], AfterValidator(_bounded_row)]
SessionId = Annotated[
    str | None,
    Field(
        max_length=100,
        pattern=r"^[A-Za-z0-9_.:-]+$",
        description="a conversation id: follow-up questions are read against this session's last question",
    ),
]


def _time(text: str | None) -> str | None:
    """`as_of` read here, at the boundary, so that a bad one is an error naming the field (`Brain.at` reads it
    again; the text is kept as written for the answer's wording)."""
    from kgbrain.timeline import InvalidTime, Window

    if text is not None:
        try:
            Window.parse(text)
        except InvalidTime as exc:
            raise ValueError(str(exc)) from None
    return text


def _choice(kind: Any, what: str) -> AfterValidator:
    """A text field that must be one of an enum's values (kept as text: the library takes the text)."""

    def check(value: str | None) -> str | None:
        if value is not None and value not in values(kind):
            raise ValueError(f"unknown {what} {value[:60]!r}; expected one of {', '.join(values(kind))}")
        return value

    return AfterValidator(check)


def _format(name: str | None) -> str | None:
    from pathlib import Path

    from kgbrain.errors import InputError
    from kgbrain.ingest.formats import load_format

    if name:
        try:
            load_format(Path("upload"), name)
        except InputError as exc:
            raise ValueError(str(exc)) from None
    return name


AsOf = Annotated[
    str | None,
    Field(
        max_length=40,
        description="use only facts valid at this time: YYYY, YYYY-MM, YYYY-MM-DD or an ISO date-time (default now)",
    ),
    AfterValidator(_time),
]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=True)


class AskIn(_In):
    """`POST /v1/ask`: a question in Russian or English."""

    question: Question
    goal: GoalType | None = None
    priority: Fraction = 0.5
    as_of: AsOf = None
    session: SessionId = None


class VerifyIn(_In):
    """`POST /v1/verify`: claims as claims-file rows (subject/predicate/object or text, optional id) or sentences."""

    claims: Claims
    closed_world: bool = False
    min_confidence: Fraction = 0.0
    as_of: AsOf = None


class CheckAnswerIn(_In):
    """`POST /v1/check-answer`: a draft answer, the question it answers, and optional reasoning rules (TOML)."""

    draft: Draft
    question: DraftQuestion = ""
    rules: Annotated[str | None, Field(max_length=MAX_RULES_CHARS)] = None
    as_of: AsOf = None


class FactsIn(_In):
    """`POST /v1/facts`: rows in the facts-file schema, stored all-or-nothing."""

    facts: Annotated[list[Row], Field(min_length=1, max_length=MAX_FACTS)]
    source: Name | None = None
    trust: Fraction | None = None


class RetractIn(_In):
    """`POST /v1/facts/{fact_id}/retract`."""

    by: Name = "api"
    reason: Reason | None = None


class QueryIn(_In):
    """`POST /v1/query`: a SPARQL SELECT or a rule body, answered read-only with reasoning."""

    query: Annotated[str, Field(pattern=_FILLED, max_length=MAX_QUERY_CHARS)]
    cursor: Cursor = None
    limit: PageLimit = 100
    as_of: AsOf = None


class ResolveIn(_In):
    """`POST /v1/conflicts/{conflict_id}/resolve`: the fact to keep and who decides."""

    keep: Name
    by: Name = "api"


class FactsQuery(_In):
    """`GET /v1/facts?concept=...`: one page of a concept's facts."""

    concept: Annotated[str, Field(pattern=_FILLED, max_length=MAX_NAME_CHARS, description="id, label or alias")]
    cursor: Cursor = None
    limit: PageLimit = 100
    as_of: AsOf = None


class ConceptsQuery(_In):
    """`GET /v1/concepts?q=...`: concepts by name."""

    q: Text
    limit: SearchLimit = 10


class ConflictsQuery(_In):
    """`GET /v1/conflicts`: one page of the recorded conflicts. `type` and `status` stay text (the library takes
    text), checked here against the choices so that a bad one is an error naming the field."""

    type: Annotated[
        str | None,
        Field(max_length=MAX_NAME_CHARS, description=", ".join(values(ConflictType))),
        _choice(ConflictType, "conflict type"),
    ] = None
    status: Annotated[
        str | None,
        Field(max_length=MAX_NAME_CHARS, description=" or ".join(values(ConflictStatus))),
        _choice(ConflictStatus, "conflict status"),
    ] = None
    cursor: Cursor = None
    limit: PageLimit = 50


class LoadQuery(_In):
    """`POST /v1/load?name=...`: how to read the uploaded body."""

    name: Annotated[
        str,
        Field(pattern=_FILLED, max_length=MAX_FILE_NAME_CHARS, description="file name; its extension picks the format"),
    ]
    format: Annotated[
        str | None,
        Field(max_length=MAX_NAME_CHARS, description="jsonl, csv, tsv, ttl, nt, xml, json-ld, n3, trig, nq"),
        AfterValidator(_format),
    ] = None
    source: Annotated[str | None, Field(max_length=MAX_NAME_CHARS, description="source for rows without one")] = None
    trust: Annotated[Fraction | None, Field(description="trust 0..1 for rows without one")] = None


class ConceptQuery(_In):
    """`GET /v1/why|like?concept=...`."""

    concept: Text
    limit: PathLimit = 5
    as_of: AsOf = None


class PathQuery(_In):
    """`GET /v1/path?source=...&target=...`."""

    source: Text
    target: Text
    limit: PathLimit = 5
    as_of: AsOf = None


# The MCP tools' arguments (tools/list publishes these schemas; a call is validated by the same model).


class AskTool(_In):
    """`ask`."""

    question: Question
    as_of: AsOf = None
    session: SessionId = None


class VerifyClaimsTool(_In):
    """`verify_claims`."""

    claims: Annotated[list[Claim], Field(max_length=MAX_TOOL_CLAIMS)]
    closed_world: bool = False
    min_confidence: Fraction = 0.0
    as_of: AsOf = None


class CheckAnswerTool(_In):
    """`check_answer`."""

    draft: Draft
    question: DraftQuestion = ""
    as_of: AsOf = None


class RememberTool(_In):
    """`remember`."""

    facts: Annotated[list[Row], Field(min_length=1, max_length=MAX_TOOL_FACTS)]
    source: Name | None = None  # None: `mcp:<client name>` (the reply says so)
    trust: Fraction | None = None


class RecallTool(_In):
    """`recall`."""

    concept: Text
    cursor: Cursor = None
    limit: Annotated[int, Field(ge=1, le=MAX_TOOL_RECALL)] = 50
    as_of: AsOf = None


class SearchConceptsTool(_In):
    """`search_concepts`."""

    query: Text
    limit: SearchLimit = 10


class ForgetTool(_In):
    """`forget`."""

    fact_id: Name
    reason: Reason | None = None


class ConflictsTool(_In):
    """`conflicts`."""

    status: ConflictStatus | None = None
    type: ConflictType | None = None
    cursor: Cursor = None
    limit: Annotated[int, Field(ge=1, le=MAX_TOOL_CONFLICTS)] = 20


class ExplainTool(_In):
    """`explain`."""

    fact_id: Name
    as_of: AsOf = None


class AsOfQuery(_In):
    """`GET /v1/facts/{id}/explain?as_of=...`: as of when the fact's status is read."""

    as_of: AsOf = None


# -- validation errors, flattened to the project's one-line messages -----------------------------------------

In = TypeVar("In", bound=BaseModel)
_RANGE = {"greater_than_equal", "less_than_equal", "greater_than", "less_than"}
_NOT_A = {"int_parsing": "a whole number", "int_from_float": "a whole number", "float_parsing": "a number"}


def validated(model: type[In], data: Any, *, query_string: bool = False) -> In:
    """`data` as a `model`, or InvalidRequest naming each bad field ("field 'limit': 0 is outside 1..1000; ...").

    Raises:
        InvalidRequest: `data` does not fit the model (the first five problems).
    """
    _plain(data)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = [_problem(model, e, query_string) for e in exc.errors()[:5]]
        raise InvalidRequest("; ".join(problems)) from None


MAX_JSON_DEPTH = 32  # lists and objects inside a request; deeper ones are refused before any code recurses into them


def _plain(data: Any) -> None:
    """Refuse what no field may hold: nesting past MAX_JSON_DEPTH, a NUL, a lone surrogate (JSON's `\\ud800` decodes
    to one; it cannot be written as UTF-8, so it failed deep inside a write instead of here).

    Raises:
        InvalidRequest: naming where.
    """
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, where, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise InvalidRequest(f"field {where!r}: nested more than {MAX_JSON_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                name = f"{where}.{key}" if where else str(key)
                _plain_text(str(key), name[:60])
                stack.append((item, name[:200], depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{where}.{n}", depth + 1) for n, item in enumerate(value))
        elif isinstance(value, str):
            _plain_text(value, where or "body")


def _plain_text(text: str, where: str) -> None:
    if "\x00" in text:
        raise InvalidRequest(f"field {where!r}: contains a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidRequest(f"field {where!r}: contains a lone surrogate (not valid Unicode text)") from None


def _problem(model: type[BaseModel], error: Any, query_string: bool) -> str:
    loc = error["loc"]
    where = ".".join(str(p) for p in loc) or "body"
    return f"field {where!r}: {_wording(model, error, where, query_string)}"


def _wording(model: type[BaseModel], error: Any, where: str, query_string: bool) -> str:
    kind, ctx, given = error["type"], error.get("ctx", {}), error.get("input")
    if kind == "missing":
        return f"missing (add ?{where}=...)" if query_string else "missing"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind in _RANGE and len(error["loc"]) == 1:
        low, high = _bounds(model, where)
        shown = given if isinstance(given, str) else repr(given)  # a query string's "0" is the number 0
        return f"{shown} is outside {low}..{high}"
    if kind in _NOT_A:
        return f"{str(given)[:40]!r} is not {_NOT_A[kind]}"
    if kind == "string_pattern_mismatch" and ctx.get("pattern") == _FILLED:
        return "empty"
    if kind in ("too_short", "too_long") and isinstance(given, list):
        return f"no {where} given" if not given else f"at most {ctx['max_length']:,} {where} (got {len(given):,})"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    if kind == "string_too_long":
        return f"{len(given):,} characters; at most {ctx['max_length']:,}"
    return str(error["msg"])


def _bounds(model: type[BaseModel], name: str) -> tuple[str, str]:
    # Read from the JSON schema, which states the bounds of `float | None` fields too (in an `anyOf` arm).
    prop = model.model_json_schema()["properties"][name]
    for arm in (prop, *prop.get("anyOf", ())):
        if "minimum" in arm or "maximum" in arm:
            return (_number(arm.get("minimum")), _number(arm.get("maximum")))
    return ("", "")


def _number(bound: float | None) -> str:
    return "" if bound is None else f"{bound:g}"
