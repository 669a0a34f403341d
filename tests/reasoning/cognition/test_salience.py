"""Salience: 0.25 novelty + 0.35 urgency + 0.25 threat + 0.15 relevance (seed 001), with its bands."""

from __future__ import annotations

import pytest

from kgbrain.config import SalienceConfig
from kgbrain.reasoning.cognition.salience import compute_salience, salience_of

S = SalienceConfig()


def test_weights_sum_to_one() -> None:
    assert S.novelty + S.urgency + S.threat + S.relevance == pytest.approx(1.0)


def test_seed_example_components() -> None:
    """The seed's example lists novelty 0.3, urgency 0, threat 0, relevance 0.8 (and says 0.55, which its own
    formula does not give: 0.25*0.3 + 0.15*0.8 = 0.195). The formula is what we implement."""
    s = salience_of(0.3, 0.0, 0.0, 0.8, S)
    assert s.overall == pytest.approx(0.195)
    assert s.action == "normal"
    assert s.reason == "novelty=0.30 urgency=0.00 threat=0.00 relevance=0.80"


def test_urgent_threat_with_empty_memory_interrupts() -> None:
    s = compute_salience("Срочно: ошибка в системе!", S)
    assert (s.novelty, s.urgency, s.threat, s.relevance) == (1.0, 1.0, 1.0, 0.5)
    assert s.overall == pytest.approx(0.25 + 0.35 + 0.25 + 0.075)
    assert s.action == "interrupt"


def test_prioritize_band() -> None:
    s = compute_salience("urgent: what is a neuron?", S, unknown_share=0.5)
    assert s.overall == pytest.approx(0.25 * 0.5 + 0.35 + 0.15 * 0.5)
    assert s.action == "prioritize"


def test_novelty_from_working_memory_and_known_concepts() -> None:
    q = "Почему нейроны важны для мышления?"
    assert compute_salience(q, S, working_memory=[q]).novelty == 0.0
    assert compute_salience(q, S, unknown_share=1 / 3).novelty == pytest.approx(1 / 3)
    assert compute_salience(q, S, working_memory=["What is a transistor?"]).novelty == 1.0


def test_relevance_to_the_active_goal() -> None:
    s = compute_salience("нейроны и мышление", S, active_goal="answer_question(Почему нейроны важны для мышления?)")
    assert s.relevance == 1.0
