"""Time in questions (issue #24 item 1): "in 2010", «в 2000 году», "still", "currently", "until when", «до какого
числа», "since when" are understood, answered as of that time, and answered with the interval.

Expected answers come from the intervals written in this file, not from kgbrain.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.models import AskOut
from kgbrain.reasoning.nlu.when import Asks, read_time

# (subject, predicate, object, first day, last day): each pair below in English and in Russian ids.
PLANET = ("1930-02-18", "2006-08-23")
DWARF = ("2006-08-24", None)
ROWS = [
    {"subject": "pluto", "predicate": "is_a", "object": "planet", "valid_from": PLANET[0], "valid_to": PLANET[1]},
    {"subject": "pluto", "predicate": "is_a", "object": "dwarf_planet", "valid_from": DWARF[0]},
    {"subject": "плутон", "predicate": "is_a", "object": "планета", "valid_from": PLANET[0], "valid_to": PLANET[1]},
    {"subject": "плутон", "predicate": "is_a", "object": "карликовая планета", "valid_from": DWARF[0]},
]


@pytest.mark.parametrize(
    ("question", "asks", "when", "rest"),
    [
        ("Was Pluto a planet in 2000?", Asks.AT, "2000", "Is Pluto a planet?"),
        ("Is Pluto a planet as of 2010-05-03?", Asks.AT, "2010-05-03", "Is Pluto a planet?"),
        ("Is Pluto still a planet?", Asks.NOW, None, "Is Pluto a planet?"),
        ("Is Pluto currently a dwarf planet?", Asks.NOW, None, "Is Pluto a dwarf planet?"),
        ("Until when was Pluto a planet?", Asks.UNTIL, None, "Is Pluto a planet?"),
        ("Since when is Pluto a dwarf planet?", Asks.SINCE, None, "Is Pluto a dwarf planet?"),
        ("Был ли плутон планетой в 2000 году?", Asks.AT, "2000", "Является ли плутон планетой?"),
        ("До какого числа плутон был планетой?", Asks.UNTIL, None, "Является ли плутон планетой?"),
        (
            "С каких пор плутон является карликовой планетой?",
            Asks.SINCE,
            None,
            "Является ли плутон карликовой планетой?",
        ),
        ("Является ли плутон сейчас карликовой планетой?", Asks.NOW, None, "Является ли плутон карликовой планетой?"),
        # dates in words
        ("Was Pluto a planet in March 2000?", Asks.AT, "2000-03", "Is Pluto a planet?"),
        ("Was Pluto a planet on 5 May 2000?", Asks.AT, "2000-05-05", "Is Pluto a planet?"),
        ("Was Pluto a planet on August 24th, 2006?", Asks.AT, "2006-08-24", "Is Pluto a planet?"),
        ("Был ли плутон планетой в марте 2000 года?", Asks.AT, "2000-03", "Является ли плутон планетой?"),
        ("Был ли плутон планетой 24 августа 2006 года?", Asks.AT, "2006-08-24", "Является ли плутон планетой?"),
        ("Был ли плутон планетой на 1 мая 2000 г.?", Asks.AT, "2000-05-01", "Является ли плутон планетой?"),
        # when a statement held: its interval
        ("When was Pluto a planet?", Asks.WHEN, None, "Is Pluto a planet?"),
        ("Когда плутон был планетой?", Asks.WHEN, None, "Является ли плутон планетой?"),
    ],
)
def test_a_time_expression_is_read_and_taken_out(question: str, asks: Asks, when: str | None, rest: str) -> None:
    found = read_time(question)
    assert found is not None
    assert (found.asks, found.when, found.question) == (asks, when, rest)


@pytest.mark.parametrize(
    "question",
    ["Is Pluto a planet?", "Что такое нейрон?", "How many moons has Saturn?", "Was it on 31 February 2000?",
     "May I ask?"],
)  # fmt: skip
def test_a_question_without_time_has_none(question: str) -> None:
    assert read_time(question) is None


def _holds(first: str | None, last: str | None, year: int) -> bool:
    return (first is None or date.fromisoformat(first) < date(year + 1, 1, 1)) and (
        last is None or date.fromisoformat(last) >= date(year, 1, 1)
    )


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Brain:
    folder = tmp_path_factory.mktemp("when")
    facts = folder / "facts.jsonl"
    facts.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    b = Brain.open(None)
    b.load([facts], source="iau")
    return b


@pytest.mark.parametrize("year", [1920, 1990, 2006, 2015])
def test_in_a_year_the_answer_is_as_of_that_year_with_the_interval(brain: Brain, year: int) -> None:
    cases = [
        (f"Was Pluto a planet in {year}?", PLANET, "en"),
        (f"Is Pluto a dwarf planet in {year}?", DWARF, "en"),
        (f"Был ли плутон планетой в {year} году?", PLANET, "ru"),
        (f"Является ли плутон карликовой планетой в {year} году?", DWARF, "ru"),
    ]
    for question, (first, last), lang in cases:
        out = brain.think(question)
        yes = _holds(first, last, year)
        assert out.text.startswith("Yes" if lang == "en" else "Да") == yes, (question, out.text)
        assert (f"As of {year}." if lang == "en" else f"По состоянию на {year}.") in out.text
        if yes:
            interval = f"{first} по {last}" if last and lang == "ru" else f"{first} to {last}" if last else first
            assert interval in out.text, out.text
        data = AskOut.from_output(out)
        assert data.question == question
        assert data.as_of == str(year)
        assert data.reading is not None
        assert str(year) in data.reading


def test_until_and_since_are_answered_with_the_interval_over_all_time(brain: Brain) -> None:
    last_day = PLANET[1]
    assert brain.think("Until when was Pluto a planet?").text.endswith(f"Until {last_day}.")
    assert brain.think("До какого числа плутон был планетой?").text.endswith(f"До {last_day}.")
    assert brain.think("Since when is Pluto a dwarf planet?").text.endswith(f"Since {DWARF[0]}.")
    assert brain.think("С каких пор плутон является карликовой планетой?").text.endswith(f"С {DWARF[0]}.")
    assert brain.think("Until when is Pluto a dwarf planet?").text.endswith("No end is stated.")


MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"]  # fmt: skip
MONTHS_RU = ["января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября",
             "декабря"]  # fmt: skip


@pytest.mark.parametrize(("day", "planet"), [(PLANET[1], True), (DWARF[0], False)])
def test_a_day_in_words_is_that_day(brain: Brain, day: str, planet: bool) -> None:
    year, month, number = (int(x) for x in day.split("-"))
    en, ru = MONTHS_EN[month - 1], MONTHS_RU[month - 1]
    said = brain.think(f"Was Pluto a planet on {number} {en} {year}?").text
    assert said.startswith("Yes") == planet  # the next day it is a dwarf planet (no disjointness here: not "No")
    assert f"As of {day}." in said
    said = brain.think(f"Был ли плутон планетой {number} {ru} {year} года?").text
    assert said.startswith("Да") == planet
    assert f"По состоянию на {day}." in said


def test_when_a_statement_held_is_its_interval(brain: Brain) -> None:
    assert brain.think("When was Pluto a planet?").text.endswith(f"From {PLANET[0]} to {PLANET[1]}.")
    assert brain.think("Когда плутон был планетой?").text.endswith(f"С {PLANET[0]} по {PLANET[1]}.")
    assert brain.think("When is Pluto a dwarf planet?").text.endswith(f"Valid from {DWARF[0]} on.")
    # "when" asking for a value is the question it was
    assert brain.think("When was Pluto discovered?").text == brain.cognition.think("When was Pluto discovered?").text


def test_still_and_currently_are_as_of_now(brain: Brain) -> None:
    today = date.today()
    planet_now = _holds(*PLANET, today.year) and date.fromisoformat(PLANET[1]) >= today
    assert brain.think("Is Pluto still a planet?").text.startswith("Yes") == planet_now
    out = brain.think("Is Pluto currently a dwarf planet?")
    assert out.text.startswith("Yes")
    assert out.text.endswith(f"As of now. Valid from {DWARF[0]} on.")
    assert brain.think("Является ли плутон сейчас карликовой планетой?").text.endswith(f"Действует с {DWARF[0]}.")


def test_a_question_without_time_is_answered_as_before(tmp_path: Path) -> None:
    facts = tmp_path / "f.jsonl"
    facts.write_text(json.dumps({"subject": "pluto", "predicate": "is_a", "object": "planet"}) + "\n")
    with Brain.open(None) as b:
        b.load([facts])
        out = b.think("Is Pluto a planet?")
        assert out.reading is None
        assert out.question is None
        assert out.as_of is None
        assert "As of" not in out.text
        # a date in a question about a fact without an interval changes nothing but the words
        assert b.think(f"Is Pluto a planet on {date.today() - timedelta(days=1)}?").text.startswith("Yes")
