"""Response validator: every check of seed 000 plus seed 004's discipline, with its correction."""

from __future__ import annotations

import pytest

from kgbrain.output.validate import ResponseValidator

V = ResponseValidator()


def kinds(result: object) -> list[tuple[str, str]]:
    return [(i.issue_type, i.severity) for i in result.issues]  # type: ignore[attr-defined]


def test_a_good_answer_passes_unchanged() -> None:
    text = "Нейрон — основная клетка нервной системы. Источники: textbook/kandel (доверие 0.95)."
    r = V.validate(text, question_language="ru", confidence=0.9, topics=["нейрон"])
    assert r.is_valid
    assert r.issues == ()
    assert r.corrected_response == text


def test_incomplete_empty_and_off_topic() -> None:
    empty = V.validate("   ", question_language="ru", confidence=0.9)
    assert not empty.is_valid
    assert kinds(empty) == [("incomplete", "critical")]
    off = V.validate(
        "Транзистор — полупроводниковый прибор.", question_language="ru", confidence=0.9, topics=["нейрон"]
    )
    assert kinds(off) == [("incomplete", "warning")]


def test_inconsistent_with_memory_adds_a_caveat() -> None:
    r = V.validate(
        "Brains use ten percent.", question_language="en", confidence=0.9, topics=["brain"],
        contradicted=["human_brain NOT has_property ten_percent_usage"],
    )  # fmt: skip
    assert ("inconsistent", "warning") in kinds(r)
    assert r.corrected_response.endswith(
        "There is evidence against this: human_brain NOT has_property ten_percent_usage."
    )


@pytest.mark.parametrize(
    ("lang", "confidence", "prefix"),
    [("ru", 0.65, "Вероятно,"), ("en", 0.65, "Probably,"), ("ru", 0.5, "Возможно,"), ("en", 0.2, "Very uncertain:")],
)
def test_a_sure_tone_at_low_confidence_gets_hedged(lang: str, confidence: float, prefix: str) -> None:
    text = "Нейрон передаёт сигналы." if lang == "ru" else "Neurons transmit signals."
    r = V.validate(text, question_language=lang, confidence=confidence)
    assert ("mismatch", "warning") in kinds(r)
    assert r.corrected_response.startswith(prefix + " ")
    assert "hedging added" in r.applied_corrections


def test_hedging_at_high_confidence_is_removed() -> None:
    r = V.validate("Вероятно, нейрон — это клетка.", question_language="ru", confidence=0.95)
    assert ("mismatch", "info") in kinds(r)
    assert r.corrected_response == "Нейрон — это клетка."


def test_a_hedged_low_confidence_answer_is_left_alone() -> None:
    r = V.validate("Возможно, нейрон похож на транзистор.", question_language="ru", confidence=0.5)
    assert r.issues == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Напишите на ivan.petrov@example.com.", "email"),
        ("Звоните +7 (912) 345-67-89.", "phone"),
        ("Карта 4111 1111 1111 1111.", "card"),
        ("СНИЛС 123-456-789 01.", "snils"),
        ("Паспорт 45 08 123456.", "passport"),
        ("Сервер 192.168.10.20.", "ip"),
    ],
)
def test_private_data_is_redacted(text: str, kind: str) -> None:
    r = V.validate(text, question_language="ru", confidence=0.9, requires_content=False)
    assert ("unsafe", "warning") in kinds(r)
    assert "[скрыто]" in r.corrected_response
    assert f"{kind} redacted" in r.applied_corrections


def test_language_mismatch_is_critical() -> None:
    r = V.validate("A neuron is a cell.", question_language="ru", confidence=0.9)
    assert not r.is_valid
    assert ("language", "critical") in kinds(r)
    ru = V.validate(
        "Нейрон — клетка. Источники: textbook/kandel-principles-neural-science.", question_language="ru", confidence=0.9
    )
    assert ("language", "critical") not in kinds(ru)  # Latin source names do not count


def test_the_answer_starts_with_content_not_a_greeting() -> None:
    r = V.validate("Здравствуйте! Нейрон — это клетка.", question_language="ru", confidence=0.9)
    assert ("discipline", "warning") in kinds(r)
    assert r.corrected_response == "Нейрон — это клетка."


def test_an_action_that_was_not_performed_is_not_claimed() -> None:
    r = V.validate("Я сохранил факт о нейроне.", question_language="ru", confidence=0.9, requires_content=False)
    assert ("discipline", "critical") in kinds(r)
    assert "сохранил" not in r.corrected_response
    assert "предлагаю сохранить" in r.corrected_response
    done = V.validate(
        "Я сохранил факт.", question_language="ru", confidence=0.9, performed=["save_fact"], requires_content=False
    )
    assert done.issues == ()
