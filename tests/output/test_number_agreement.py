"""A unit said by its word agrees with the number (#26 item 5): «1 год», «2 года», «5 лет», «21 месяц», «1,5 года»;
"1 week", "6 weeks"; and a Russian unit word in any form is read as its unit («3 года» is 3 year)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kgbrain.output.dialogue import _quantity
from kgbrain.reasoning.modes.quantities import Match, compare

# The three forms Russian counting takes: after 1 (not 11), after 2-4 (not 12-14), after anything else.
FORMS = {
    "year": ("год", "года", "лет"),
    "month": ("месяц", "месяца", "месяцев"),
    "week": ("неделя", "недели", "недель"),
    "day": ("день", "дня", "дней"),
    "hour": ("час", "часа", "часов"),
}


def _form(n: int) -> int:
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


@given(st.integers(min_value=0, max_value=999), st.sampled_from(sorted(FORMS)))
def test_russian_unit_words_agree_with_the_number(n: int, unit: str) -> None:
    assert _quantity(str(n), unit, "lifespan", "ru") == f"{n} {FORMS[unit][_form(n)]}"


@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["year", "month", "week", "day"]))
def test_english_unit_words_are_plural_but_after_one(n: int, unit: str) -> None:
    said = _quantity(str(n), unit, "lifespan", "en")
    assert said.endswith(f" {unit}" if n == 1 else f" {unit}s"), said


def test_a_fraction_takes_the_genitive_singular_and_a_calendar_year_no_unit() -> None:
    assert _quantity("1.5", "year", "lifespan", "ru") == "1,5 года"
    assert _quantity("1638", "year", "year_born", "ru") == "1638"
    assert _quantity("20", "percent", "moisture", "ru") == "20 %"


def test_russian_unit_words_are_read_as_their_units() -> None:
    assert compare("3 year", "3 года").match is Match.SAME
    assert compare("5 year", "5 лет").match is Match.SAME
    assert compare("6 week", "42 дня").match is Match.SAME
    assert compare("15 month", "15 месяцев").match is Match.SAME
    assert compare("3 year", "5 лет").match is Match.DIFFERENT
