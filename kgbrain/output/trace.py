"""The trace builder: one cycle as a machine JSONL record and as the human digest (seed 000 TraceBuilder).

The record keeps the seed's machine format (ts, level, module, event, session/cycle/trace ids, input
refs, state, decision, reasoning, latency, notes) and adds the cognitive loop's own account: goal,
ring and its triggers, hypotheses with their scores, the chosen action, why, and the alternatives.
The digest is the seed's "Cycle N / Goal / Memory used / Sources / Reasoning / Contradiction /
Confidence / Action / Duration" block; `--trace` adds the hypotheses and alternatives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from kgbrain.reasoning.answering.reasoner import SourceRef
from kgbrain.reasoning.cognition.hypotheses import Hypothesis, HypothesisStatus, HypothesisType
from kgbrain.reasoning.cognition.loop import CognitiveResult

# concept ids -> labels in the answer's language
Labeller = Callable[[Sequence[str], str], dict[str, str]]


@dataclass(frozen=True, slots=True)
class FactRef:
    """A fact the answer used."""

    fact_id: str
    statement: str
    confidence: float
    source: str


@dataclass(frozen=True, slots=True)
class ExplainabilityTrace:
    """Seed 000 ExplainabilityTrace, plus the loop's goal, ring, hypotheses and decision."""

    trace_id: str
    session_id: str
    cycle_id: str
    input_query: str
    language: str
    goal: str
    goal_type: str
    input_sources: tuple[SourceRef, ...]
    memory_refs: tuple[str, ...]  # "semantic:<label> (conf=0.87)"
    memory_facts: tuple[FactRef, ...]
    reasoning_type: str
    reasoning_chain: tuple[str, ...]  # labels along the chain
    key_inferences: tuple[str, ...]
    hypotheses: tuple[dict[str, Any], ...]
    ring: int
    ring2_triggers: tuple[str, ...]
    ring2_blocked: bool
    outcome: str
    plan: tuple[str, ...]
    replans: tuple[str, ...]
    action_taken: str
    action_reason: str
    alternatives_considered: tuple[dict[str, Any], ...]
    confidence: float
    uncertainty_level: str
    uncertainty_reasons: tuple[str, ...]
    contradictions_found: tuple[str, ...]
    salience: dict[str, Any]
    cpu_pct: float
    ram_mb: float
    total_duration_ms: float
    created_at: str
    conflict_records: tuple[str, ...] = ()
    next_probe: str = ""  # seed 002: the probe with the largest expected reduction of uncertainty
    input_modalities: tuple[str, ...] = ("text",)
    notes: tuple[str, ...] = field(default=())


def hypothesis_row(h: Hypothesis) -> dict[str, Any]:
    """A hypothesis as the trace shows it: the seed-002 record with the seed-001 score parts."""
    s = h.score
    return {
        "id": h.hypothesis_id,
        "type": h.hypothesis_type.value,
        "statement": h.statement,
        "confidence": round(h.confidence, 4),
        "score": round(h.value, 4),
        "support": round(s.support, 4) if s else None,
        "risk": round(s.risk, 4) if s else None,
        "parts": {
            "evidence_coverage": round(s.evidence_coverage, 4),
            "source_trust": round(s.source_trust, 4),
            "relevance": round(s.relevance, 4),
            "contradiction_weight": round(s.contradiction_weight, 4),
            "staleness": round(s.staleness, 4),
            "modality_mismatch": round(s.modality_mismatch, 4),
            "chain_length": round(s.chain_length, 4),
        }
        if s
        else {},
        "status": h.status.value,
        "assumptions": list(h.assumptions),
        "evidence_for": list(h.evidence_for),
        "evidence_against": list(h.evidence_against),
        "falsifiers": list(h.falsifiers),
        "next_probe": h.next_probe,
    }


def next_probe(hypotheses: Sequence[Hypothesis]) -> str:
    """Seed 002's step rule: the probe of the hypothesis whose check would reduce uncertainty most.

    Expected reduction = score x (1 - belief): a well-supported hypothesis that is still uncertain gains most
    from one more check; a rejected one is not worth probing.
    """
    open_ = [h for h in hypotheses if h.status is not HypothesisStatus.REJECTED and h.next_probe]
    if not open_:
        return ""
    best = max(open_, key=lambda h: (h.value * (1.0 - h.belief), h.hypothesis_id))
    return f"{best.hypothesis_id}: {best.next_probe}"


def chain_of(h: Hypothesis | None) -> list[str]:
    """Concept ids along the selected hypothesis (a causal path, an is_a chain, or subject and object)."""
    if h is None:
        return []
    concepts, predicates, _ = h.parts()
    if h.hypothesis_type is HypothesisType.CAUSAL and predicates:
        return list(concepts)
    chain: list[str] = []
    for step in h.trace.steps:
        if step.rule.startswith(("ded.isa", "asc.concept-chain")):
            # Concept ids may hold spaces: split on the predicate, not on every space.
            pred = next((f" {p} " for p in (*predicates, "is_a", "part_of") if f" {p} " in step.conclusion), None)
            if pred is None or " NOT " in step.conclusion:
                continue
            subject, _, obj = step.conclusion.partition(pred)
            if not chain:
                chain.append(subject)
            if chain[-1] == subject:
                chain.append(obj)
    if chain:
        return chain
    ends = list(concepts) if concepts else list(h.concepts)
    return [t for t in dict.fromkeys(ends) if t and t != "NOT"]


class TraceBuilder:
    """Builds the ExplainabilityTrace of a cycle, its JSONL record and its digest."""

    def __init__(self, labels: Labeller, session_id: str = "cli") -> None:
        """Name concepts with `labels`; tag records with `session_id`."""
        self.labels = labels
        self.session_id = session_id

    def build(
        self, result: CognitiveResult, sources: Sequence[SourceRef], now: datetime | None = None
    ) -> ExplainabilityTrace:
        """The trace of one cycle.

        Raises:
            StoreError: the store failed (labels).
        """
        lang = "ru" if result.language == "ru" else "en"
        h = result.selected
        chain_ids = chain_of(h)
        names = self.labels([*chain_ids, *result.retrieval.concepts], lang)
        used = {f for f in (h.evidence_for if h else ())}
        packs = result.retrieval.by_fact
        facts = tuple(
            FactRef(f, packs[f].content, packs[f].confidence, packs[f].fact.source) for f in used if f in packs
        )
        memory = []
        for concept in result.retrieval.concepts:
            confs = [p.confidence for f in used if f in packs and concept in (p := packs[f]).concept_refs]
            label = names.get(concept, concept)
            memory.append(f"semantic:{label} (conf={max(confs):.2f})" if confs else f"semantic:{label}")
        memory += [f"episodic:{e.id}" for e in result.retrieval.episodes]
        d = result.decision
        return ExplainabilityTrace(
            trace_id=f"trace_{result.cycle_id.removeprefix('cycle_')}",
            session_id=self.session_id,
            cycle_id=result.cycle_id,
            input_query=result.question,
            language=result.language,
            goal=result.goal.description,
            goal_type=result.goal.goal_type.value,
            input_sources=tuple(sources),
            memory_refs=tuple(memory),
            memory_facts=tuple(sorted(facts, key=lambda f: f.fact_id)),
            reasoning_type=_reasoning_type(h),
            reasoning_chain=tuple(names.get(c, c) for c in chain_ids),
            key_inferences=tuple(
                s.conclusion for s in h.trace.steps if s.rule.endswith(("conclusion", "transitive", "inheritance"))
            )
            if h
            else (),
            hypotheses=tuple(hypothesis_row(x) for x in result.hypotheses),
            ring=result.ring,
            ring2_triggers=tuple(result.ring2_triggers),
            ring2_blocked=result.ring2_blocked,
            outcome=result.outcome.value,
            plan=tuple(result.plan),
            replans=tuple(result.replans),
            action_taken=d.action.value,
            action_reason=d.reasoning,
            alternatives_considered=tuple(dict(a) for a in d.alternatives),
            confidence=round(result.confidence, 4),
            uncertainty_level=result.uncertainty.uncertainty_level.value,
            uncertainty_reasons=tuple(s.value for s in result.uncertainty.sources),
            contradictions_found=tuple(result.contradictions),
            salience={
                "overall": round(result.salience.overall, 4),
                "novelty": round(result.salience.novelty, 4),
                "urgency": result.salience.urgency,
                "threat": result.salience.threat,
                "relevance": round(result.salience.relevance, 4),
                "action": result.salience.action,
            },
            cpu_pct=round(result.resources.cpu_pct, 1),
            ram_mb=round(result.resources.ram_mb, 1),
            total_duration_ms=round(result.duration_ms, 2),
            created_at=(now or datetime.now(timezone.utc)).isoformat(timespec="milliseconds"),
            notes=tuple(result.notes),
            conflict_records=tuple(result.conflict_records),
            next_probe=next_probe(result.hypotheses),
        )

    @staticmethod
    def record(trace: ExplainabilityTrace, *, text: str = "", level: str = "INFO") -> dict[str, Any]:
        """The seed's machine JSONL record, extended with the loop's account."""
        return {
            "ts": trace.created_at,
            "level": level,
            "module": "output_layer",
            "event": "response_generated",
            "session_id": trace.session_id,
            "cycle_id": trace.cycle_id,
            "trace_id": trace.trace_id,
            "query": trace.input_query,
            "input_ref": ["user_input", *trace.memory_refs],
            "state": {"goal": trace.goal_type, "cpu_pct": trace.cpu_pct, "ram_mb": trace.ram_mb, "ring": trace.ring},
            "decision": {"action": trace.action_taken, "confidence": trace.confidence, "reason": trace.action_reason},
            "reasoning": _arrows(trace.reasoning_chain),
            "reasoning_type": trace.reasoning_type,
            "hypotheses": [
                {k: h[k] for k in ("id", "type", "statement", "score", "support", "risk", "status")}
                for h in trace.hypotheses
            ],
            "alternatives": list(trace.alternatives_considered),
            "ring2_triggers": list(trace.ring2_triggers),
            "outcome": trace.outcome,
            "sources": [{"name": s.name, "trust": s.trust, "authority": s.authority} for s in trace.input_sources],
            "contradictions": list(trace.contradictions_found),
            "conflict_records": list(trace.conflict_records),
            "next_probe": trace.next_probe,
            "latency_ms": trace.total_duration_ms,
            "answer": text,
            "notes": f"{trace.uncertainty_level} confidence"
            + (", hedging applied" if "hedged" in trace.action_taken else ""),
        }

    @staticmethod
    def digest(trace: ExplainabilityTrace, *, detailed: bool = False) -> str:
        """The seed's human digest; `detailed` adds ring, hypotheses, why this action, and alternatives."""
        sources = ", ".join(
            f"{s.name} ({'trust=' + format(s.trust, '.2f') if s.trust is not None else 'trust=?'}"
            + (f", {s.authority}" if s.authority else "")
            + ")"
            for s in trace.input_sources
        )
        contradiction = ", ".join(trace.contradictions_found) or "none"
        if trace.conflict_records:
            contradiction += f" (recorded: {'; '.join(trace.conflict_records)})"
        tone = {
            "respond_direct": "direct response",
            "respond_hedged": "hedged response",
            "ask_clarification": "clarifying question",
            "refuse": "refusal",
        }.get(trace.action_taken, trace.action_taken)
        ram = f"{trace.ram_mb / 1024:.1f} GB" if trace.ram_mb >= 1024 else f"{trace.ram_mb:.0f} MB"
        lines = [
            f"Cycle {trace.cycle_id.removeprefix('cycle_').lstrip('0') or '0'}",
            f'  Query:        "{trace.input_query}"',
            f"  Goal:         {trace.goal}",
            f"  Memory used:  {', '.join(trace.memory_refs) or 'none'}",
            f"  Sources:      {sources or 'none'}",
            f"  Reasoning:    {trace.reasoning_type} [{' '.join(_arrows(trace.reasoning_chain))}]",
            f"  Contradiction: {contradiction}",
            f"  Confidence:   {trace.confidence:.2f} ({trace.uncertainty_level}) → {tone}",
            f"  Action:       {trace.action_taken}",
            f"  Duration:     {trace.total_duration_ms:.0f}ms | CPU: {trace.cpu_pct:.0f}% | RAM: {ram}",
        ]
        if detailed:
            triggers = "; ".join(trace.ring2_triggers) or "none"
            blocked = " (blocked: resources)" if trace.ring2_blocked else ""
            sal = trace.salience
            lines.append(
                f"  Salience:     {sal['overall']:.2f} → {sal['action']} (novelty={sal['novelty']:.2f} "
                f"urgency={sal['urgency']:.2f} threat={sal['threat']:.2f} relevance={sal['relevance']:.2f})"
            )
            lines.append(f"  Ring:         {trace.ring}{blocked}; Ring 2 triggers: {triggers}")
            lines.append(f"  Outcome:      {trace.outcome}; plan: {' → '.join(trace.plan)}")
            if trace.replans:
                lines.append(f"  Replans:      {', '.join(trace.replans)}")
            lines.append("  Hypotheses:")
            for h in trace.hypotheses:
                lines.append(
                    f"    {h['id']:<4} {h['type']:<10} score={h['score']:.2f} (support {h['support']:.2f} - risk "
                    f"{h['risk']:.2f}) conf={h['confidence']:.2f} {h['status']:<9} {h['statement']}"
                )
            lines.append(f"  Why:          {trace.action_reason}")
            lines.append("  Alternatives:")
            for a in trace.alternatives_considered:
                why = f"  blocked: {a['blocked_by']}" if "blocked_by" in a else ""
                lines.append(f"    {a['action']:<18} {float(str(a['score'])):.2f}{why}")
            if trace.uncertainty_reasons:
                lines.append(f"  Uncertainty:  {', '.join(trace.uncertainty_reasons)}")
            if trace.next_probe:
                lines.append(f"  Next probe:   {trace.next_probe}")
        return "\n".join(lines)


def _arrows(chain: Sequence[str]) -> list[str]:
    out: list[str] = []
    for item in chain:
        if out:
            out.append("→")
        out.append(item)
    return out


def _reasoning_type(h: Hypothesis | None) -> str:
    if h is None:
        return "none"
    if h.hypothesis_type is HypothesisType.DIRECT:
        mode = getattr(h.payload, "mode", None)
        return str(getattr(mode, "value", "associative")) if mode is not None else "associative"
    return str(h.hypothesis_type.value)
