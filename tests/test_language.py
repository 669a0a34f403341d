"""The text module: language, stems, lemmas, Russian agreement, English articles and plurals."""

from __future__ import annotations

import pytest

from kgbrain.language import (
    agree,
    article,
    can_phrase,
    content_words,
    detect_language,
    display_name,
    inflect_phrase,
    lemma,
    plural,
    similarity,
    singular,
    split_identifier,
    stem,
    stem_key,
    words,
)


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("Почему нейроны важны для мышления?", "ru"),
        ("Что такое NamedPizza?", "ru"),
        ("Is Max sour?", "en"),
        ("Is ub:GraduateStudent0 a Person?", "en"),
        ("", "en"),
        ("2024", "en"),
    ],
)
def test_language_by_words_of_each_script(text: str, lang: str) -> None:
    assert detect_language(text) == lang


def test_inflected_forms_share_a_stem_in_both_languages() -> None:
    assert stem("нейронами") == stem("нейрон") == stem("нейроны")
    assert stem("tumpuses") == stem("tumpus")
    assert stem_key("Нейронов мозга") == stem_key("нейрон мозг")
    assert stem("2009") == "2009"
    assert similarity("нейроны мозга", "мозг") == 1.0
    assert similarity("neurons", "helmets") == 0.0


def test_identifiers_split_into_words() -> None:
    assert split_identifier("NamedPizza") == "Named Pizza"
    assert split_identifier("GraduateStudent0") == "Graduate Student 0"
    assert split_identifier("has_part") == "has part"
    assert words("Is NamedPizza a Pizza?") == ["is", "named", "pizza", "a", "pizza"]
    assert content_words("Что такое клеточное деление?") == ["клеточное", "деление"]


def test_lemmas() -> None:
    assert lemma("нейронами") == "нейрон"
    assert lemma("мышления") == "мышление"
    assert lemma("tumpuses") == "tumpus"


@pytest.mark.parametrize(
    ("word", "one"),
    [
        ("tumpuses", "tumpus"),
        ("impuses", "impus"),
        ("wumpus", "wumpus"),
        ("cats", "cat"),
        ("bodies", "body"),
        ("boxes", "box"),
        ("glass", "glass"),
        ("analysis", "analysis"),
        ("children", "child"),
    ],
)
def test_english_singular_and_plural_round_trip(word: str, one: str) -> None:
    assert singular(word) == one
    if word != one:
        assert plural(one) == word


@pytest.mark.parametrize(
    ("phrase", "a"),
    [
        ("impus", "an"),
        ("neuron", "a"),
        ("information processing element", "an"),
        ("unicorn", "a"),
        ("hour", "an"),
        ("MRI", "an"),
        ("one-way street", "a"),
    ],
)
def test_english_article(phrase: str, a: str) -> None:
    assert article(phrase) == a


@pytest.mark.parametrize(
    ("phrase", "case", "form"),
    [
        ("энергия", "accs", "энергию"),
        ("элемент обработки информации", "ablt", "элементом обработки информации"),
        ("клеточное деление", "ablt", "клеточным делением"),
        ("нервная система", "gent", "нервной системы"),
        ("мышление", "datv", "мышлению"),
        ("ДНК", "accs", "ДНК"),
        ("DNA", "ablt", "DNA"),
    ],
)
def test_russian_noun_phrase_in_a_case(phrase: str, case: str, form: str) -> None:
    assert inflect_phrase(phrase, case) == form


def test_russian_can_takes_an_infinitive() -> None:
    assert can_phrase("усиление сигнала") == "усиливать сигнал"
    assert can_phrase("переключение сигнала") == "переключать сигнал"
    # The cell is the one dividing when the subject is a cell: reflexive, no object.
    assert can_phrase("деление клетки", {"клетка"}) == "делиться"
    assert can_phrase("ходьба") == "быть способным к ходьбе"


def test_russian_short_adjective_agrees_with_the_subject() -> None:
    assert agree("важен", "передача сигналов") == "важна"
    assert agree("важен", "нейроны") == "важны"
    assert agree("важен", "нейрон") == "важен"


@pytest.mark.parametrize(
    ("concept", "name"),
    [
        ("pizza:NamedPizza", "named pizza"),
        ("Department0.University0.edu:GraduateStudent0", "graduate student 0"),
        ("signal_transmission", "signal transmission"),
        ("pizza:Margherita", "Margherita"),
        ("obo:GO_0006915", "GO 0006915"),
    ],
)
def test_a_concept_without_a_label_is_named_by_its_local_name(concept: str, name: str) -> None:
    assert display_name(concept) == name


def test_a_short_participle_agrees_and_a_hyphenated_name_keeps_its_capitals() -> None:
    from kgbrain.language import inflect_phrase, is_short_form

    assert is_short_form("сделан")
    assert not is_short_form("растёт")
    assert inflect_phrase("Санкт-Петербург", "accs") == "Санкт-Петербург"
