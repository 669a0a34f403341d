"""Responder: one template per action, RU/EN hedging by the seed's bands, content first, sources with tiers."""

from __future__ import annotations

import dataclasses

import pytest

from kgbrain.api import Brain
from kgbrain.output.responder import _hedge
from kgbrain.reasoning.cognition.clarify import Clarification, ClarificationKind
from kgbrain.reasoning.cognition.monitor import ResourceMonitor
from kgbrain.reasoning.cognition.selection import ActionDecision, ActionType


@pytest.mark.parametrize(
    ("confidence", "ru", "en"),
    [
        (0.90, "", ""),
        (0.80, "Вероятно,", "Probably,"),  # seed 001: the whole medium band (0.60-0.85) is hedged
        (0.65, "Вероятно,", "Probably,"),
        (0.50, "Возможно,", "Perhaps,"),
        (0.35, "Не уверен, но,", "I'm not sure, but,"),
        (0.10, "Очень неуверенно:", "Very uncertain:"),
    ],
)
def test_hedging_bands_in_both_languages(confidence: float, ru: str, en: str) -> None:
    if confidence > 0.85:
        assert (
            _hedge("Нейрон — клетка.", confidence, "ru") == "Вероятно, нейрон — клетка."
        )  # only hedged actions call it
        return
    assert _hedge("Нейрон — клетка.", confidence, "ru") == f"{ru} нейрон — клетка."
    assert _hedge("Neurons are cells.", confidence, "en") == f"{en} neurons are cells."


def calm(brain: Brain) -> Brain:
    brain.cognition.loop.monitor = ResourceMonitor(sampler=lambda: (10.0, 20.0))
    return brain


def test_respond_direct_starts_with_the_content_and_names_sources(demo: Brain) -> None:
    out = calm(demo).think("Что такое нейрон?")
    assert out.action == "respond_direct"
    assert out.text.startswith("Нейрон — это основная клетка нервной системы")
    assert "Источники: textbook/kandel-principles-neural-science (доверие 0.95)" in out.text


def test_sources_keep_their_authority_tier(demo: Brain) -> None:
    out = calm(demo).think("Что такое СИЗ с истёкшим сертификатом?")
    assert "norm/tr-ts-019-2011 (NORM, доверие 0.95)" in out.text
    assert "company/instrukciya-po-siz (OPERATIVE, доверие 0.80)" in out.text


def test_a_low_confidence_answer_recommends_checking_the_source(demo: Brain) -> None:
    out = calm(demo).think("Нейрон похож на что?")
    assert out.action == "respond_hedged"
    assert out.confidence == demo.reasoner.ask("Нейрон похож на что?").confidence < 0.6  # the analogy's own
    assert out.text.startswith("Возможно, нейрон похож на транзистор")
    assert "Это гипотеза по аналогии, а не вывод." in out.text
    assert "Рекомендую проверить в источнике:" in out.text


def test_an_unknown_concept_asks_exactly_one_question(demo: Brain) -> None:
    out = calm(demo).think("What is phlogiston?")
    assert out.action == "ask_clarification"
    assert out.text.startswith("I don't know the concept 'phlogiston'.")
    assert out.text.count("?") <= 1


def _with(out_result: object, action: ActionType) -> object:
    decision = ActionDecision(action, 0.5, 0.5, "test")
    return dataclasses.replace(out_result, decision=decision)  # type: ignore[type-var]


def test_refusal_names_the_knowledge_gap(demo: Brain) -> None:
    brain = calm(demo)
    result = brain.cognition.loop.run("Что такое флогистон?")
    text = brain.cognition.pipeline.responder.respond(_with(result, ActionType.REFUSE))  # type: ignore[arg-type]
    assert text == "У меня недостаточно данных для ответа на этот вопрос. Пробел в знаниях: флогистон."


def test_learning_is_proposed_never_claimed(demo: Brain) -> None:
    brain = calm(demo)
    result = brain.cognition.loop.run("Unicorns have horns")
    text = brain.cognition.pipeline.responder.respond(_with(result, ActionType.LEARN))  # type: ignore[arg-type]
    assert text == "I propose storing the fact: Unicorns have horns. It is not stored until you confirm it."


def test_a_known_fact_is_not_proposed_again(demo: Brain) -> None:
    out = calm(demo).think("Нейрон передаёт сигналы", goal_type="learn_fact")
    assert out.action == "learn"
    assert out.text.startswith("Это уже есть в базе знаний: нейрон передаёт сигнал.")


def test_a_clarifying_question_without_an_unknown_concept(demo: Brain) -> None:
    brain = calm(demo)
    result = brain.cognition.loop.run("Что такое нейрон?")
    # The loop says what to ask as data; the responder words it (kgbrain.output.wording).
    which = Clarification(ClarificationKind.WHICH_CONCEPT)
    asked = dataclasses.replace(_with(result, ActionType.ASK_CLARIFICATION), clarification=which)  # type: ignore[type-var]
    assert brain.cognition.pipeline.responder.respond(asked) == "Уточните, пожалуйста: О каком понятии идёт речь?"
