"""Hypothesis scoring: support - risk with the seed's weights, pinned by worked numbers; records; templates."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta, timezone

import pytest

from kgbrain.config import Config, FreshnessConfig, HypothesisConfig
from kgbrain.knowledge import Fact
from kgbrain.memory.evidence import EvidencePack, freshness
from kgbrain.reasoning.cognition.hypotheses import (
    Conclusion,
    Hypothesis,
    HypothesisEngine,
    HypothesisStatus,
    HypothesisType,
    score_all,
    score_hypothesis,
)
from kgbrain.reasoning.results import Step, Trace

NOW = datetime(2026, 11, 30, tzinfo=timezone.utc)
W = HypothesisConfig()


def pack(fact: Fact, relevance: float, *, fresh: float = 1.0) -> EvidencePack:
    p = EvidencePack.of(fact, relevance=relevance, now=NOW, config=FreshnessConfig(), stage=3)
    return dataclasses.replace(p, freshness_score=fresh)


F1 = Fact("neuron", "causes", "signal_transmission", confidence=0.9, source="docs/нейробиология.pdf", trust=0.87)
F2 = Fact("signal_transmission", "enables", "thinking", confidence=0.87, source="docs/нейробиология.pdf", trust=0.87)


def test_seed_weights() -> None:
    assert (W.evidence_coverage, W.source_trust, W.relevance) == (0.45, 0.35, 0.20)
    assert (W.contradiction, W.staleness, W.modality_mismatch, W.chain_length) == (0.40, 0.30, 0.20, 0.10)


def test_worked_example_causal_chain_of_the_seed() -> None:
    """Seed 001 full example: neuron -causes-> signal_transmission -enables-> thinking, sources trust 0.87."""
    h = Hypothesis(
        "H1",
        "neuron causes signal_transmission enables thinking",
        HypothesisType.CAUSAL,
        confidence=0.9 * 0.87,
        evidence_for=(F1.fact_id, F2.fact_id),
        source_refs=("docs/нейробиология.pdf",),
        evidence_packs=(pack(F1, 0.7), pack(F2, 0.7)),
        reasoning_steps=("cau.chain", "cau.chain", "cau.conclusion"),
    )
    s = score_hypothesis(h, W)
    # support = 0.45*1.0 + 0.35*0.87 + 0.20*0.7 = 0.8945; risk = 0.10 * 3/10 = 0.03
    assert s.evidence_coverage == 1.0
    assert s.source_trust == pytest.approx(0.87)
    assert s.relevance == pytest.approx(0.7)
    assert s.support == pytest.approx(0.8945)
    assert s.risk == pytest.approx(0.03)
    assert s.score == pytest.approx(0.8645)
    # The answer may claim the chain's own confidence, 0.9 * 0.87 = 0.783 ("Confidence: 0.78" in the seed).
    scored = score_all([h], W)[0]
    assert scored.belief == pytest.approx(0.783)
    assert scored.status is HypothesisStatus.ACCEPTED


def test_defaults_and_risk_terms() -> None:
    """No sources, no packs: trust 0.5, relevance 0.5, staleness 0.5; two conflicts weigh 0.5."""
    h = Hypothesis(
        "H2", "x", HypothesisType.DIRECT, confidence=0.9,
        evidence_for=("a",), evidence_against=("b", "c", "d"), conflict_ids=("k1", "k2"),
    )  # fmt: skip
    s = score_hypothesis(h, W)
    # coverage 1/4; support = 0.45*0.25 + 0.35*0.5 + 0.20*0.5 = 0.3875; risk = 0.40*0.5 + 0.30*0.5 = 0.35
    assert s.support == pytest.approx(0.3875)
    assert s.risk == pytest.approx(0.35)
    assert s.score == pytest.approx(0.0375)


def test_score_never_goes_below_zero_and_conflicts_saturate() -> None:
    h = Hypothesis("H3", "x", HypothesisType.DIRECT, 0.5, conflict_ids=tuple(f"k{i}" for i in range(9)))
    s = score_hypothesis(h, W)
    assert s.contradiction_weight == 1.0
    assert s.score == 0.0


def test_staleness_from_freshness_and_chain_length_cap() -> None:
    old = pack(F1, 1.0, fresh=0.2)
    h = Hypothesis(
        "H4", "x", HypothesisType.DEDUCTIVE, 0.9, evidence_for=(F1.fact_id,), source_refs=(F1.source,),
        evidence_packs=(old,), reasoning_steps=("ded.isa-transitive",) * 15,
    )  # fmt: skip
    s = score_hypothesis(h, W)
    assert s.staleness == pytest.approx(0.8)
    assert s.chain_length == 1.0
    assert s.risk == pytest.approx(0.30 * 0.8 + 0.10)


def test_freshness_decays_by_kind_of_fact() -> None:
    cfg = FreshnessConfig()
    stamp = NOW - timedelta(days=100)
    science = Fact("a", "p", "b", source="textbook/x", observed_at=stamp)
    news = Fact("a", "p", "b", source="news/daily", observed_at=stamp)
    user = Fact("a", "p", "b", source="user_input", observed_at=stamp)
    assert freshness(science, NOW, cfg) == pytest.approx(0.999**100)
    assert freshness(news, NOW, cfg) == pytest.approx(0.95**100)
    assert freshness(user, NOW, cfg) == 1.0
    assert freshness(Fact("a", "p", "b", source="textbook/x"), NOW, cfg) == 1.0


def test_an_analogy_without_supporting_evidence_stays_uncertain() -> None:
    engine = HypothesisEngine(W)
    c = Conclusion(
        HypothesisType.ANALOGICAL, "neuron ~ transistor", 0.95,
        trace=Trace((Step("ana.relational-match", "neuron receives x ~ transistor receives x", facts=(F1.fact_id,)),)),
        concepts=("neuron", "transistor"), supporting=(),
    )  # fmt: skip
    h = engine.from_conclusion(c, {F1.fact_id: pack(F1, 1.0)})
    assert h.evidence_for == ()
    assert h.bearing == (F1.fact_id,)
    scored = score_all([h], W)[0]
    assert scored.value > 0.0
    assert scored.status is HypothesisStatus.UNCERTAIN
    assert "kgbrain verify" in scored.next_probe


def test_direct_template_groups_statements_and_counts_the_opposite_polarity_against() -> None:
    engine = HypothesisEngine(W)
    yes = Fact(
        "human_brain", "has_property", "ten_percent_usage", confidence=0.45, source="forum/brain-myths", trust=0.3
    )
    no = Fact(
        "human_brain",
        "has_property",
        "ten_percent_usage",
        polarity=False,
        confidence=0.95,
        source="textbook/k",
        trust=0.95,
    )
    out = engine.direct([pack(no, 1.0), pack(yes, 1.0)], ["human_brain"], limit=5)
    by_polarity = {h.polarity: h for h in out}
    assert by_polarity[False].evidence_for == (no.fact_id,)
    assert by_polarity[False].evidence_against == (yes.fact_id,)
    assert by_polarity[True].evidence_against == (no.fact_id,)
    scored = {h.polarity: h for h in score_all(out, W)}
    assert scored[True].status is HypothesisStatus.REJECTED or scored[True].value < scored[False].value
    record = by_polarity[False]
    assert record.assumptions
    assert record.falsifiers
    assert record.next_probe
    assert record.trace.steps[0].rule == "hyp.direct"


def test_config_override_changes_the_score() -> None:
    h = Hypothesis("H5", "x", HypothesisType.DIRECT, 0.9, evidence_for=("a",))
    heavier = Config().hypotheses.__class__(evidence_coverage=0.6)
    assert score_hypothesis(h, heavier).support > score_hypothesis(h, W).support
