"""The cognitive loop (seed 001): retrieve -> hypothesise -> score -> select -> act, in two rings.

Ring 1 always runs: one-hop retrieval, the direct-statement template, the reasoner's answer for the
questions Ring 1 can answer (definitions, yes/no checks, relations: associative and deductive modes), and
a contradiction scan of the evidence. Ring 2 runs on the seed's triggers (confidence below 0.60,
contradictions, a verify/explore goal, novelty above 0.7, priority above 0.8) and on ours: the question
asks for a cause or an analogy, which only the Ring-2 modes can give. Ring 2 is two-hop staged
retrieval, the causal and analogical modes and a re-score. It never runs while the resource monitor
holds the hard block; the result then says the check was limited.

Between iterations the planner's stop conditions decide whether to go on; failures are re-planned
(alternative retrieval, gather evidence = Ring 2, resolve contradictions by source trust) or escalated.
The action selector then picks what to do with the best hypothesis.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from kgbrain.config import Config
from kgbrain.memory.evidence import EvidencePack
from kgbrain.memory.retrieval import Retrieval, Retriever
from kgbrain.reasoning.cognition import clarify
from kgbrain.reasoning.cognition.clarify import Clarification
from kgbrain.reasoning.cognition.goals import Goal, GoalManager, GoalStatus, GoalType
from kgbrain.reasoning.cognition.hypotheses import (
    Conclusion,
    Hypothesis,
    HypothesisEngine,
    HypothesisStatus,
    HypothesisType,
    score_all,
)
from kgbrain.reasoning.cognition.monitor import ResourceMonitor, ResourceState
from kgbrain.reasoning.cognition.planner import (
    NORMAL_OUTCOMES,
    CognitiveOutcome,
    Plan,
    Planner,
    ReasoningState,
    check_stop_conditions,
)
from kgbrain.reasoning.cognition.salience import SalienceScore, compute_salience
from kgbrain.reasoning.cognition.selection import ActionDecision, ActionSelector, ActionType, Situation, SuccessHistory
from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.results import Mode, Outcome, Step, Trace, chain_of_steps
from kgbrain.reasoning.uncertainty import UncertaintyReport, evaluate_uncertainty

# Question intents (kgbrain.reasoning.nlu.question.Intent values) that only Ring-2 modes answer.
RING2_INTENTS: dict[str, HypothesisType] = {
    "why": HypothesisType.CAUSAL,
    "causes": HypothesisType.CAUSAL,
    "effects": HypothesisType.CAUSAL,
    "like": HypothesisType.ANALOGICAL,
}
VERIFY_INTENTS = frozenset({"is_a", "has_property", "has", "part_of", "can", "causal"})
_MODE_KIND = {
    Mode.CAUSAL: HypothesisType.CAUSAL,
    Mode.ANALOGICAL: HypothesisType.ANALOGICAL,
    Mode.DEDUCTIVE: HypothesisType.DEDUCTIVE,
    Mode.ASSOCIATIVE: HypothesisType.DIRECT,
    Mode.DIRECT: HypothesisType.DIRECT,
}
# The reasoner's action for its answer -> the loop's action (seed 001 ActionType names).
REPLY_ACTIONS: dict[str, ActionType] = {
    "respond": ActionType.RESPOND_DIRECT,
    "respond_hedged": ActionType.RESPOND_HEDGED,
    "report_uncertainty": ActionType.RESPOND_HEDGED,
    "ask_clarification": ActionType.ASK_CLARIFICATION,
    "no_answer": ActionType.REFUSE,
}
SOURCE_CONFLICT_GAP = 0.3  # seed 001 SOURCE_CONFLICT: the more trusted side wins beyond this trust gap
GAP_STRENGTH = 0.5  # explore_topic: a neighbour whose best fact has confidence x trust below this is a gap


class ReasonerPort(Protocol):
    """What the loop needs from the reasoner (kgbrain.reasoning.answering.reasoner.Reasoner provides it)."""

    def understand(self, question: str) -> Question:
        """The question parsed once and linked: every later stage receives this."""
        ...

    def answer(self, question: Question) -> Any:
        """The reasoner's Answer (mode, confidence, trace, concepts, sources, suggestions, outcome)."""
        ...

    def like(self, concept: str, limit: int = 5) -> list[Any]:
        """Analogies of a concept (concept, other, confidence, supported, steps)."""
        ...

    def resolve(self, name: str) -> str | None:
        """The concept a name refers to."""
        ...


@dataclass(slots=True)
class CognitiveResult:
    """Everything one cycle decided, for the responder, the trace builder and the logs (seed 001)."""

    question: str
    language: str
    intent: str
    cycle_id: str
    goal: Goal
    goal_chain: list[Goal]
    plan: list[str]  # step actions in the order they ran
    salience: SalienceScore
    resources: ResourceState
    ring: int
    ring2_triggers: list[str]
    ring2_blocked: bool
    retrieval: Retrieval
    hypotheses: list[Hypothesis]
    selected: Hypothesis | None
    state: ReasoningState
    outcome: CognitiveOutcome
    replans: list[str]
    decision: ActionDecision
    uncertainty: UncertaintyReport
    contradictions: list[str]
    clarification: Clarification | None  # the question to ask, as data (kgbrain.output.wording words it)
    suggestions: tuple[str, ...]
    confidence: float
    answers: list[Any] = field(default_factory=list)  # the reasoner's Answers consulted
    conflict_records: list[str] = field(default_factory=list)  # stored conflicts touching the evidence
    duration_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    sub_goals: list[Goal] = field(default_factory=list)  # explore_topic: learn_fact goals for knowledge gaps
    subject_text: str = ""  # the question's subject slot as the user wrote it ("нейроны важны для мышления")
    reply: Any = None  # the reasoner's Answer to the question as asked: it alone decides text and confidence
    parsed: Question | None = None  # the question as understood (a conversation re-runs it with a slot replaced)

    @property
    def answer(self) -> Any:
        """The reasoner Answer behind the selected hypothesis (None for a direct statement)."""
        return self.selected.payload if self.selected is not None else None


_Part = tuple[str, Trace, float]  # a conclusion's statement, its trace and its confidence


def conclusions_of(answer: Any, packs: dict[str, EvidencePack] | None = None) -> list[Conclusion]:
    """A reasoner Answer as inputs to the hypothesis templates: one per causal path, else one (or none).

    A CONFLICTING check splits its facts by polarity (with `packs`): those stating the opposite are
    evidence against it.
    """
    trace: Trace = answer.trace
    if not trace.steps or answer.confidence <= 0.0:
        return []
    kind = _MODE_KIND.get(answer.mode, HypothesisType.DIRECT)
    data = getattr(answer, "data", {}) or {}
    refuted = getattr(answer, "outcome", None) is Outcome.REFUTED
    analogy_unsupported = kind is HypothesisType.ANALOGICAL and not data.get("supported")
    opposing: tuple[str, ...] = ()
    supporting: tuple[str, ...] | None = None
    parts: list[_Part]
    if data.get("kind") in ("check", "value_check"):
        parts = [(_checked_statement(data, refuted), trace, float(answer.confidence))]
        if getattr(answer, "outcome", None) is Outcome.CONFLICTING and packs:
            supporting, opposing = _split_by_polarity(trace, packs, claimed=not refuted)
    elif kind is HypothesisType.CAUSAL:
        parts = _causal_parts(trace, float(answer.confidence))
    else:
        heads = [s for s in trace.steps if s.rule.endswith((".definition", ".hypothesis", ".conclusion"))]
        parts = [((heads or list(trace.steps))[-1 if not heads else 0].conclusion, trace, float(answer.confidence))]
    return [
        Conclusion(
            kind=kind,
            statement=statement,
            confidence=confidence,
            trace=part,
            concepts=tuple(answer.concepts),
            polarity=not refuted,
            supporting=() if analogy_unsupported else supporting,
            opposing=opposing,
            payload=answer,
        )
        for statement, part, confidence in parts
    ]


def _checked_statement(data: dict[str, Any], refuted: bool) -> str:
    """A yes/no check as a statement (`subject [NOT ]predicate object`); a value_check names its attribute."""
    value = "predicate" not in data  # a value_check names its attribute and the value asked about
    predicate, obj = (data["attribute"], data["value"]) if value else (data["predicate"], data["object"])
    return f"{data['subject']} {'NOT ' if refuted else ''}{predicate} {obj}"


def _split_by_polarity(
    trace: Trace, packs: dict[str, EvidencePack], *, claimed: bool
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The trace's facts that state what the check claims, and those that state the opposite."""
    facts = [f for f in trace.fact_ids if f in packs]
    supporting = tuple(f for f in facts if packs[f].fact.polarity == claimed)
    opposing = tuple(f for f in facts if packs[f].fact.polarity != claimed)
    return supporting, opposing


def _causal_parts(trace: Trace, confidence: float) -> list[_Part]:
    """One part per causal path: the steps up to each `.conclusion` step, read as a chain; the rest last."""
    parts: list[_Part] = []
    current: list[Step] = []
    for step in trace.steps:
        if step.rule.endswith(".conclusion"):
            concepts, predicates = chain_of_steps((*current, step))
            chain = " ".join([concepts[0], *(f"{p} {c}" for p, c in zip(predicates, concepts[1:], strict=True))])
            parts.append((chain if predicates else step.conclusion, Trace((*current, step)), step.confidence))
            current = []
        else:
            current.append(step)
    if current or not parts:
        parts.append((trace.steps[-1].conclusion, Trace(tuple(current) or trace.steps), confidence))
    return parts


def contradiction_scan(packs: Sequence[EvidencePack]) -> list[str]:
    """Opposite-polarity pairs among the usable evidence, as `fact_a|fact_b` ids."""
    sides: dict[tuple[str, str, str], dict[bool, list[str]]] = {}
    for p in packs:
        f = p.fact
        if p.usable:
            sides.setdefault((f.subject, f.predicate, f.target), {True: [], False: []})[f.polarity].append(
                p.evidence_id
            )
    return sorted(f"{min(s[True])}|{min(s[False])}" for s in sides.values() if s[True] and s[False])


def best_hypothesis(hypotheses: Sequence[Hypothesis], intent: str) -> Hypothesis | None:
    """The best hypothesis of the kind the question asks for (a cause for "why"), else the best of all."""
    if not hypotheses:
        return None
    usable = [h for h in hypotheses if h.status is not HypothesisStatus.REJECTED] or list(hypotheses)
    wanted = RING2_INTENTS.get(intent)
    if wanted is not None:
        fitting = [h for h in usable if h.hypothesis_type is wanted]
    else:  # the reasoner's answer to the question as asked, over loose statements about its concepts
        fitting = [h for h in usable if h.payload is not None and h.hypothesis_type is not HypothesisType.ANALOGICAL]
    return max(fitting or usable, key=lambda h: (h.value, h.belief))


def resolve_by_trust(h: Hypothesis, packs: dict[str, EvidencePack]) -> Hypothesis:
    """Seed SOURCE_TRUST strategy: the side whose best source is more than 0.3 more trusted wins."""
    if not h.evidence_against:
        return h
    pro = max((packs[f].trust for f in h.evidence_for if f in packs), default=0.0)
    con = max((packs[f].trust for f in h.evidence_against if f in packs), default=0.0)
    if pro - con > SOURCE_CONFLICT_GAP:
        return replace(h, evidence_against=(), conflict_ids=(), score=None)
    if con - pro > SOURCE_CONFLICT_GAP:
        return replace(h, evidence_for=(), score=None)
    return h


@dataclass(frozen=True, slots=True)
class _Ending:
    """How a cycle's rings and iterations ended: what `CognitiveLoop._conclude` weighs."""

    goal: Goal
    salience: SalienceScore
    resources: ResourceState
    triggers: list[str]  # why Ring 2 was due
    ring2_blocked: bool
    outcome: CognitiveOutcome
    replans: list[str]
    started: float  # perf_counter() when the cycle began
    goal_type: GoalType | None  # as the caller gave it (None: the text is a question)


class _Cycle:
    """The mutable working state of one cycle."""

    def __init__(self, loop: CognitiveLoop, question: Question, retrieval: Retrieval, *, statement: bool) -> None:
        self.loop = loop
        self.statement = statement  # a goal type was given: the text may be a statement, not a question
        self.parsed = question
        self.question = question.text
        self.intent = question.intent.value
        self.retrieval = retrieval
        self.engine = HypothesisEngine(loop.config.hypotheses)
        self.state = ReasoningState(retrieved_evidence=list(retrieval.packs))
        self.hypotheses: list[Hypothesis] = []
        self.answers: list[Any] = []
        self.suggestions: tuple[str, ...] = ()
        self.ring = 1
        self.plan: list[str] = ["retrieve_memory"]
        self.conflicts: dict[str, str] = {}  # stored conflict records touching the evidence, described
        self.open_conflicts: set[str] = set()
        self.recorded: set[str] = set()  # facts that stored conflict records already cover
        self.guessed: list[str] = []  # names tried in place of unknown words (alternative retrieval)

    @property
    def packs(self) -> dict[str, EvidencePack]:
        return self.retrieval.by_fact or {p.evidence_id: p for p in self.retrieval.packs}

    def rescore(self, extra: Sequence[Hypothesis], *, replace_all: bool = False) -> None:
        base = [] if replace_all else self.hypotheses
        self.hypotheses = score_all([*base, *extra], self.loop.config.hypotheses)
        best = best_hypothesis(self.hypotheses, self.intent)
        self.state.active_hypotheses = list(self.hypotheses)
        self.state.record_best(
            best.hypothesis_id if best else None, best.belief if best else 0.0, best.confidence if best else 0.0
        )
        self.state.iteration += 1

    def consult(self) -> list[Hypothesis]:
        q = self.parsed
        if q.intent is Intent.UNKNOWN and self.statement and len(q.concepts) >= 2:
            # A statement to learn or a topic to explore is no question: what the knowledge base says about the
            # concepts it names is what the loop weighs it against.
            q = replace(q, intent=Intent.RELATION, unresolved=())
        answer = self.loop.reasoner.answer(q)
        self.answers.append(answer)
        self.suggestions = self.suggestions or tuple(getattr(answer, "suggestions", ()) or ())
        return [self.engine.from_conclusion(c, self.packs) for c in conclusions_of(answer, self.packs)]

    def flag_conflicts(self, retrieval: Retrieval) -> Retrieval:
        """Mark packs with the stored conflict records that involve them (open ones count as contradictions)."""
        ids = sorted(retrieval.by_fact)
        if not ids:
            return retrieval
        flags: dict[str, list[str]] = {}
        for row in self.loop.retriever.store.run("conflict_of_facts", ids=ids):
            self.conflicts[row["id"]] = f"{row['id']} ({row['type']}, {row['status']}, {row['strategy'] or 'pending'})"
            self.recorded.update(row["fact_ids"])
            if row["status"] == "open":
                for fact_id in row["fact_ids"]:
                    flags.setdefault(fact_id, []).append(row["id"])
        if not flags:
            return retrieval
        by_fact = {f: replace(p, contradiction_flags=tuple(flags.get(f, ()))) for f, p in retrieval.by_fact.items()}
        packs = tuple(by_fact[p.evidence_id] for p in retrieval.packs)
        self.open_conflicts.update(c for cs in flags.values() for c in cs)
        return replace(retrieval, packs=packs, by_fact=by_fact)

    def scan(self) -> list[str]:
        """Opposite-polarity pairs in the evidence that no stored conflict record covers yet."""
        return [f for f in contradiction_scan(self.retrieval.packs) if not set(f.split("|")) <= self.recorded]

    def ring1(self) -> None:
        self.retrieval = self.flag_conflicts(self.retrieval)
        found = self.engine.direct(self.retrieval.packs, self.retrieval.concepts)
        # The mode the question asks for always runs here, in Ring 1 (a causal chain costs under a millisecond):
        # resource limits may drop Ring 2's optional work, never the answer to the question as asked.
        found += self.consult()
        self.state.contradiction_flags = sorted({*self.scan(), *self.open_conflicts})
        self.rescore(found)
        self.plan.append("check_confidence")

    def ring2(self) -> None:
        self.ring = 2
        self.plan.append("reason")
        concepts = list(self.retrieval.concepts)
        # The analogy index is asked once: its neighbours are the vector stage of retrieval and the analogies.
        analogies = self.loop.reasoner.like(concepts[0], limit=3) if concepts and self.intent != "like" else []
        deeper = self.loop.retriever.retrieve(
            self.question,
            hops=self.loop.config.retrieval.ring2_hops,
            goal_text=self.question,
            extra_concepts=concepts,  # keep concepts found by alternative retrieval
            neighbours=[a.other for a in analogies],
        )
        if deeper.packs:
            self.retrieval = self.flag_conflicts(deeper)
            self.state.retrieved_evidence = list(deeper.packs)
        extra: list[Hypothesis] = []
        for analogy in analogies[:2]:
            c = Conclusion(
                kind=HypothesisType.ANALOGICAL,
                statement=f"{analogy.concept} similar_to {analogy.other}",
                confidence=float(analogy.confidence),
                trace=Trace(tuple(analogy.steps)),
                concepts=(analogy.concept, analogy.other),
                supporting=None if analogy.supported else (),
                payload=analogy,
            )
            extra.append(self.engine.from_conclusion(c, self.packs))
        flags = {*self.state.contradiction_flags, *self.scan(), *self.open_conflicts}
        self.state.contradiction_flags = sorted(flags)
        self.rescore(extra)

    def alternative_retrieval(self) -> None:
        self.plan.append("retrieve_alternative")
        extra, names = self.loop.similar_names(self.retrieval.unknown_words)
        self.guessed = names
        found = self.loop.retriever.retrieve(self.question, hops=1, goal_text=self.question, extra_concepts=extra)
        if found.packs:
            self.retrieval = self.flag_conflicts(found)
            self.state.retrieved_evidence = list(found.packs)
            self.rescore(self.engine.direct(found.packs, found.concepts))
        else:
            self.state.iteration += 1

    def resolve(self) -> None:
        self.plan.append("resolve_contradiction")
        resolved = [resolve_by_trust(h, self.packs) for h in self.hypotheses]
        against = {f for h in resolved for f in h.evidence_against}
        # A stored conflict stays open until a person resolves it; a pair found only in the evidence is settled
        # once no hypothesis counts either of its facts against it.
        self.state.contradiction_flags = [
            f for f in self.state.contradiction_flags if f in self.open_conflicts or set(f.split("|")) & against
        ]
        self.rescore(resolved, replace_all=True)

    def failure(self) -> CognitiveOutcome | None:
        """A failure the stop conditions do not name: conflicting evidence or too little confidence."""
        s = self.state
        best = next((h for h in s.active_hypotheses if h.hypothesis_id == s.top_hypothesis_id), None)
        if not s.retrieved_evidence:
            return CognitiveOutcome.RETRIEVAL_FAILED
        if best is None:
            return CognitiveOutcome.NO_HYPOTHESIS_GENERATED
        if best.evidence_against:
            return CognitiveOutcome.CONFLICTING_EVIDENCE
        if s.best_score < self.loop.config.policy.min_confidence:
            return CognitiveOutcome.INSUFFICIENT_CONFIDENCE
        return None

    def execute(self, plan: Plan, resources: ResourceState) -> None:
        for step in plan.steps:
            step.status = "running"
            if step.action == "retrieve_alternative":
                self.alternative_retrieval()
            elif step.action == "gather_evidence" and self.ring == 1 and resources.ring2_allowed:
                self.ring2()
            elif step.action == "resolve_contradiction":
                self.resolve()
            else:  # a retried read, or Ring 2 that already ran: nothing new, one more iteration
                self.plan.append(step.action)
                self.state.iteration += 1
            step.status = "done"


class CognitiveLoop:
    """Runs cycles over one knowledge base; keeps goals and working memory between questions."""

    def __init__(
        self,
        reasoner: ReasonerPort,
        retriever: Retriever,
        config: Config,
        *,
        monitor: ResourceMonitor | None = None,
        history: SuccessHistory | None = None,
    ) -> None:
        """Reason with `reasoner`, retrieve with `retriever`, weigh everything with `config`."""
        self.reasoner = reasoner
        self.retriever = retriever
        self.config = config
        self.monitor = monitor or ResourceMonitor(config.resources)
        self.history = history or SuccessHistory(None, config.actions.default_success_rate)
        self.goals = GoalManager()
        self.planner = Planner(self.goals, config)
        self.selector = ActionSelector(config, self.history)
        self.working_memory: list[str] = []
        self._cycles = itertools.count(1)

    def reset(self) -> None:
        """Forget the goals, working memory and cycle count of earlier questions, as a new loop starts.

        A server calls it before each question: the answer (and its trace) must not depend on what other clients
        asked before, so a question gets what a fresh `kgbrain ask` process would give it.
        """
        self.goals = GoalManager()
        self.planner = Planner(self.goals, self.config)
        self.working_memory = []
        self._cycles = itertools.count(1)

    def run(
        self,
        question: str,
        *,
        goal_type: GoalType | None = None,
        priority: float = 0.5,
        parsed: Question | None = None,
    ) -> CognitiveResult:
        """Think about `question` once: goal, plan, rings, hypotheses, decision.

        `parsed` is the question already understood (a follow-up in a conversation: the last question with one
        slot replaced); `question` is then its words for retrieval, and the concepts it names are retrieved
        whatever those words link.

        Raises:
            StoreError: the store failed.
        """
        extra = parsed.concepts if parsed is not None else ()
        parsed = parsed if parsed is not None else self.reasoner.understand(question)
        # The goal's time limit counts the cycle, not understanding (the first question of a process loads the
        # morphology dictionaries).
        started = time.perf_counter()
        # The goal's time limit is spent in this thread's CPU time, not the wall clock: other processes on
        # the host (or a morphology dictionary loading on another thread) must not change the answer.
        cpu_started = time.thread_time()
        self.retriever.begin()
        retrieval = self.retriever.retrieve(question, hops=1, goal_text=question, extra_concepts=extra)
        cycle = _Cycle(self, parsed, retrieval, statement=goal_type is not None)
        salience, goal = self._open_goal(parsed, retrieval, goal_type, priority)
        plan = self.planner.decompose(goal, query=question)
        for step in plan.steps[:3]:
            step.max_retries = 0  # reads of the store are deterministic: a retry returns the same
        resources = self.monitor.sample()

        replans: list[str] = []
        if not retrieval.packs:  # step 1 failed: re-plan it (alternative retrieval by similar names)
            first = self.planner.replan(plan.steps[0], goal, CognitiveOutcome.RETRIEVAL_FAILED)
            if first is not None:
                replans.append(first.strategy)
                cycle.execute(first, resources)
        cycle.ring1()
        triggers = self.triggers(cycle.state, goal, salience, cycle.intent)
        if triggers and resources.ring2_allowed:
            cycle.ring2()
        outcome = self._iterate(cycle, plan, goal, resources, cpu_started, replans)
        # Blocked either before Ring 2 could run or by the stop conditions while it was still due.
        blocked = bool(triggers) and (not resources.ring2_allowed or outcome is CognitiveOutcome.RESOURCE_BLOCKED)
        blocked = blocked and cycle.ring == 1
        end = _Ending(goal, salience, resources, triggers, blocked, outcome, replans, started, goal_type)
        return self._conclude(cycle, end)

    def _open_goal(
        self, parsed: Question, retrieval: Retrieval, goal_type: GoalType | None, priority: float
    ) -> tuple[SalienceScore, Goal]:
        """The question's salience and its goal, pushed (or interrupting the active one, seed 001)."""
        question, intent = parsed.text, parsed.intent.value
        active = self.goals.peek()
        salience = compute_salience(
            question,
            self.config.salience,
            working_memory=self.working_memory,
            active_goal=active.description if active else None,
            unknown_share=1.0 - retrieval.known_fraction,
        )
        kind = goal_type or (GoalType.VERIFY_CLAIM if intent in VERIFY_INTENTS else GoalType.ANSWER_QUESTION)
        goal = Goal(
            f"{kind.value}({question.strip()})", kind, priority, context={"question": question, "intent": intent}
        )
        if salience.action == "interrupt" and active is not None:
            self.goals.interrupt(goal)
        else:
            self.goals.push(goal)
        return salience, goal

    def _iterate(
        self, cycle: _Cycle, plan: Plan, goal: Goal, resources: ResourceState, started: float, replans: list[str]
    ) -> CognitiveOutcome:
        """Check the stop conditions and re-plan failures until the goal stops; the outcome."""
        limits = self.config.limits(goal.goal_type.value)
        step = plan.steps[min(2, len(plan.steps) - 1)]  # the reasoning step of every decomposition
        while True:
            elapsed = (time.thread_time() - started) * 1000.0
            stop = check_stop_conditions(cycle.state, limits, resources, self.config, elapsed)
            if stop is CognitiveOutcome.RESOURCE_BLOCKED:
                return stop
            failure = stop if stop is not None and stop not in NORMAL_OUTCOMES else cycle.failure()
            if failure is None or (stop in NORMAL_OUTCOMES and failure is not CognitiveOutcome.CONFLICTING_EVIDENCE):
                return stop or CognitiveOutcome.GOAL_COMPLETED
            new_plan = self.planner.replan(step, goal, failure)
            if new_plan is None:
                return CognitiveOutcome(goal.failure or failure.value)
            replans.append(new_plan.strategy)
            cycle.execute(new_plan, resources)
            step = new_plan.steps[-1]

    def _conclude(self, cycle: _Cycle, end: _Ending) -> CognitiveResult:
        """Select the answer and the action, close the goal and record the cycle."""
        reply, best = _chosen(cycle, end.goal_type)
        clarification, unknown = self._clarification(cycle, best)
        situation = _situation(cycle, end.goal, best, clarification, unknown=unknown is not None)
        decision = self.selector.select(situation, end.resources, final=True)
        confidence = cycle.state.best_score
        if reply is not None:
            # One decision: the answer's verdict and confidence are the reasoner's (as in verify), whatever the
            # loop's scoring or the resources; the loop's own choice stays in the trace as an alternative.
            confidence = float(reply.confidence)
            decision = replace(decision, action=REPLY_ACTIONS.get(str(reply.action), decision.action))
        uncertainty = _uncertainty(
            cycle,
            best,
            confidence,
            has_evidence=situation.has_evidence,
            constrained=end.ring2_blocked and reply is None,
        )
        sub_goals = self._close(cycle, end)
        retrieval = cycle.retrieval
        return CognitiveResult(
            question=cycle.question,
            language=cycle.parsed.language,
            intent=cycle.intent,
            cycle_id=f"cycle_{next(self._cycles):04d}",
            goal=end.goal,
            goal_chain=[self.goals.tree[g] for g in _ancestry(self.goals, end.goal)],
            plan=cycle.plan,
            salience=end.salience,
            resources=end.resources,
            ring=cycle.ring,
            ring2_triggers=end.triggers,
            ring2_blocked=end.ring2_blocked,
            retrieval=retrieval,
            hypotheses=cycle.hypotheses,
            selected=best,
            state=cycle.state,
            outcome=end.outcome,
            replans=end.replans,
            decision=decision,
            uncertainty=uncertainty,
            contradictions=list(cycle.state.contradiction_flags),
            clarification=clarification,
            suggestions=cycle.suggestions,
            confidence=confidence,
            answers=cycle.answers,
            conflict_records=sorted(cycle.conflicts.values()),
            duration_ms=(time.perf_counter() - end.started) * 1000.0,
            notes=[*(["ring 2 blocked by the resource monitor"] if end.ring2_blocked else []), *retrieval.notes],
            sub_goals=sub_goals,
            subject_text=cycle.parsed.subject,
            reply=reply,
            parsed=cycle.parsed,
        )

    def _clarification(self, cycle: _Cycle, best: Hypothesis | None) -> tuple[Clarification | None, Any]:
        """The clarifying question to ask (or None), and the reasoner's answer that found a name unknown."""
        retrieval, floor = cycle.retrieval, self.config.policy.min_confidence
        asked = clarify.clarification(retrieval, cycle.suggestions or tuple(cycle.guessed), best, floor)
        if cycle.guessed and asked is None:  # the concepts were guessed from similar names: ask first
            asked = clarify.clarification(retrieval, tuple(cycle.guessed), None, floor)
        unknown = next((a for a in cycle.answers if _kind(a) in ("unknown_concept", "ambiguous")), None)
        if unknown is not None:  # "Is a zorblax a cell?": facts about cells do not answer it; ask instead
            asked = clarify.clarification(retrieval, cycle.suggestions, None, floor) or clarify.what_is(unknown)
        return asked, unknown

    def _close(self, cycle: _Cycle, end: _Ending) -> list[Goal]:
        """Finish the plan and close the goal; an explored topic's knowledge gaps become its sub-goals."""
        goal = end.goal
        sub_goals = self.knowledge_gaps(goal, cycle.retrieval) if goal.goal_type is GoalType.EXPLORE_TOPIC else []
        if sub_goals:
            cycle.plan.extend(["find_knowledge_gaps", "create_sub_goals"])
        cycle.plan.append("build_response")
        if goal.status is not GoalStatus.FAILED:
            if end.outcome in NORMAL_OUTCOMES or end.outcome is CognitiveOutcome.GOAL_COMPLETED:
                self.goals.complete(goal.goal_id)
            else:
                self.goals.fail(goal.goal_id, end.outcome.value)
        self.working_memory.append(cycle.question)
        return sub_goals

    def record_outcome(self, result: CognitiveResult, success: bool) -> None:
        """store_episode: count the chosen action's outcome in the success history.

        Raises:
            StoreError: the store failed.
        """
        self.history.record(result.decision.action, success)
        result.plan.append("store_episode")

    def knowledge_gaps(self, goal: Goal, retrieval: Retrieval, limit: int = 3) -> list[Goal]:
        """explore_topic (seed): neighbours known only weakly (best confidence x trust below 0.5) become pending
        learn_fact sub-goals of the goal."""
        best: dict[str, float] = {}
        for p in retrieval.by_fact.values():
            if p.graph_distance == 1 and p.fact.object is not None:
                for c in p.concept_refs:
                    if c not in retrieval.concepts:
                        best[c] = max(best.get(c, 0.0), p.confidence * p.trust)
        weak = sorted((score, c) for c, score in best.items() if score < GAP_STRENGTH)[:limit]
        gaps = []
        for _score, concept in weak:
            sub = Goal(f"learn_fact({concept})", GoalType.LEARN_FACT, 0.3, parent_goal_id=goal.goal_id)
            self.goals.add(sub)
            gaps.append(sub)
        return gaps

    def triggers(self, state: ReasoningState, goal: Goal, salience: SalienceScore, intent: str) -> list[str]:
        """Why Ring 2 should run (empty: Ring 1 is enough)."""
        r = self.config.rings
        found = []
        if state.best_score < r.low_confidence:
            found.append(f"confidence {state.best_score:.2f} < {r.low_confidence:.2f}")
        if state.contradiction_flags:
            found.append(f"{len(state.contradiction_flags)} contradiction(s)")
        if goal.goal_type.value in r.deep_goal_types:
            found.append(f"goal type {goal.goal_type.value}")
        if salience.novelty > r.novelty:
            found.append(f"novelty {salience.novelty:.2f} > {r.novelty:.2f}")
        if goal.priority > r.priority:
            found.append(f"priority {goal.priority:.2f} > {r.priority:.2f}")
        if intent in RING2_INTENTS:
            found.append(f"the question asks for a {RING2_INTENTS[intent].value} answer")
        return found

    def similar_names(self, words: Sequence[str]) -> tuple[list[str], list[str]]:
        """Concepts (and their names) named like the question's unknown words, for alternative retrieval."""
        linker = getattr(self.reasoner, "linker", None)
        found: list[str] = []
        names: list[str] = []
        for word in words:
            for name in linker.suggest(word, 1) if linker is not None else []:
                concept = self.reasoner.resolve(name)
                if concept:
                    found.append(concept)
                    names.append(name)
        return found, names


def _chosen(cycle: _Cycle, goal_type: GoalType | None) -> tuple[Any, Hypothesis | None]:
    """The reasoner's reply that decides (or None) and the hypothesis selected.

    The reasoner's answer to the question as asked decides, never a loose statement; a sentence that is no
    question (a fact to learn, a topic to explore) is left to the loop's own hypotheses.
    """
    reply = cycle.answers[0] if cycle.answers and (cycle.intent != "unknown" or goal_type is None) else None
    best = best_hypothesis(cycle.hypotheses, cycle.intent)
    if reply is not None:
        own = [h for h in cycle.hypotheses if h.payload is reply]
        best = own[0] if own else None  # the first is the reasoner's best (its best causal path)
    return reply, best


def _situation(
    cycle: _Cycle, goal: Goal, best: Hypothesis | None, clarification: Clarification | None, *, unknown: bool
) -> Situation:
    """What the action selector weighs at the end of the cycle."""
    retrieval = cycle.retrieval
    score = best.score if best is not None else None
    return Situation(
        goal_type=goal.goal_type.value,
        best_score=cycle.state.best_score,
        has_evidence=bool(retrieval.packs) and best is not None,
        evidence_coverage=score.evidence_coverage if score else 0.0,
        knowledge_coverage=retrieval.known_fraction,
        contradictions=len(cycle.state.contradiction_flags),
        clarification=clarification,
        searched="retrieve_alternative" in cycle.plan,
        gathered=cycle.ring == 2,
        explored=cycle.ring == 2,
        guessed=bool(cycle.guessed),
        unknown_concept=unknown,
    )


def _uncertainty(
    cycle: _Cycle, best: Hypothesis | None, confidence: float, *, has_evidence: bool, constrained: bool
) -> UncertaintyReport:
    """The answer's uncertainty report (seed 001): where the doubt in `confidence` comes from."""
    retrieval = cycle.retrieval
    score = best.score if best is not None else None
    return evaluate_uncertainty(
        confidence,
        cycle.parsed.language,
        # Unknown words are missing concepts only when nothing was named or the reasoner found a name unknown
        # ("важны" in a question about neurons is not a gap in the knowledge base).
        missing_concepts=retrieval.unknown_words
        if not retrieval.concepts or any(_kind(a) == "unknown_concept" for a in cycle.answers)
        else (),
        contradictions=len(cycle.state.contradiction_flags),
        mean_trust=score.source_trust if score else None,
        mean_freshness=1.0 - score.staleness if score else None,
        chain_steps=len(best.reasoning_steps) if best else 0,
        has_evidence=has_evidence,
        resource_constrained=constrained,
    )


def _kind(answer: Any) -> str:
    return str((getattr(answer, "data", None) or {}).get("kind", ""))


def _ancestry(goals: GoalManager, goal: Goal) -> list[str]:
    chain = [goal.goal_id]
    while (parent := goals.tree[chain[-1]].parent_goal_id) is not None and parent in goals.tree:
        chain.append(parent)
    return chain[::-1]
