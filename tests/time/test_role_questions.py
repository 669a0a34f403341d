"""Questions about when someone holds a role (#24): "Since when / until when is X the P of Y?", «С какого года /
до какого числа X — P Y?», "Is X still the P of Y?", "Who was the P of Y in 2010 / last year?" and the claims
"X is the P of Y" / «X — P Y», answered with the interval.

Who held the role when is computed here from the terms below, not by kgbrain.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from tests.conftest import write_jsonl

# company -> [(director, first year, last year or None: still)]
TERMS = {
    "acme": [("ivanov", 2005, 2012), ("petrov", 2013, 2018), ("sidorov", 2019, None)],
    "globex": [("petrov", 2005, 2012), ("ivanov", 2013, None)],
}
NAMES = {"acme": ("Acme", "Акме"), "globex": ("Globex", "Глобекс"), "ivanov": ("Ivanov", "Иванов"),
         "petrov": ("Petrov", "Петров"), "sidorov": ("Sidorov", "Сидоров")}  # fmt: skip
THIS_YEAR = datetime.now(timezone.utc).year


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"subject": "director", "predicate": "label", "value": "director", "lang": "en"},
        {"subject": "director", "predicate": "label", "value": "директор", "lang": "ru"},
        {"subject": "director", "predicate": "property_type", "value": "functional"},
    ]
    for cid, (en, ru) in NAMES.items():
        rows += [{"subject": cid, "predicate": "label", "value": en, "lang": "en"},
                 {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
                 {"subject": cid, "predicate": "kind", "value": "individual"}]  # fmt: skip
    for company, terms in TERMS.items():
        for person, first, last in terms:
            row = {"subject": company, "predicate": "director", "object": person, "valid_from": str(first)}
            rows.append({**row, "valid_to": str(last)} if last else row)
    return rows


def _director(company: str, year: int) -> str:
    return next(p for p, first, last in TERMS[company] if first <= year <= (last or 9999))


TERMS_HELD = [(c, p, first, last) for c, terms in TERMS.items() for p, first, last in terms]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder = tmp_path_factory.mktemp("roles")
    db = folder / "kb.kuzu"
    with Brain.open(db) as b:
        b.load([write_jsonl(folder / "terms.jsonl", _rows())], source="registry")
    with Brain.open(db, read_only=True) as b:
        yield b


def _en(cid: str) -> str:
    return NAMES[cid][0]


def _ru(cid: str) -> str:
    return NAMES[cid][1]


@pytest.mark.parametrize(("company", "person", "first", "last"), TERMS_HELD)
def test_since_and_until_when_give_the_interval(
    brain: Brain, company: str, person: str, first: int, last: int | None
) -> None:
    since = [f"Since when is {_en(person)} the director of {_en(company)}?",
             f"С какого года {_ru(person)} — директор {_ru(company)}?"]  # fmt: skip
    for question, word in zip(since, ("Since", "С"), strict=True):
        text = brain.ask(question).text
        if last is None:  # the term holds now
            assert text.startswith(("Yes", "Да")), (question, text)
            assert text.endswith(f"{word} {first}-01-01."), (question, text)
        else:  # "since when is" a term that has ended: answered as of now (a successor holds), then when it held
            assert text.startswith(("No", "Нет")), (question, text)
            span = f"{first}-01-01 to {last}-12-31" if word == "Since" else f"{first}-01-01 по {last}-12-31"
            held = f"It held from {span}." if word == "Since" else f"с {span}."
            assert text.endswith(held), (question, text)
    until = [f"Until when was {_en(person)} the director of {_en(company)}?",
             f"До какого числа {_ru(person)} был директором {_ru(company)}?"]  # fmt: skip
    for question, word in zip(until, ("Until", "До"), strict=True):
        text = brain.ask(question).text
        assert text.startswith(("Yes", "Да")), (question, text)
        if last is not None:
            assert text.endswith(f"{word} {last}-12-31."), (question, text)
        else:
            assert text.endswith(("No end is stated.", "Срок окончания не указан.")), (question, text)


@pytest.mark.parametrize(("company", "person"), [(c, p) for c, p, _, _ in TERMS_HELD])
def test_still_is_as_of_now(brain: Brain, company: str, person: str) -> None:
    holds = _director(company, THIS_YEAR) == person
    for question in (f"Is {_en(person)} still the director of {_en(company)}?",
                     f"Является ли {_ru(person)} всё ещё директором {_ru(company)}?"):  # fmt: skip
        text = brain.ask(question).text
        assert text.startswith(("Yes", "Да") if holds else ("No", "Нет")), (question, text)
        assert text.endswith(("Valid from 2019-01-01 on.", "Действует с 2019-01-01.", "Valid from 2013-01-01 on.",
                              "Действует с 2013-01-01.")), (question, text)  # fmt: skip


@pytest.mark.parametrize("year", [2005, 2010, 2013, 2018, 2019, THIS_YEAR - 1])
@pytest.mark.parametrize("company", sorted(TERMS))
def test_who_held_the_role_in_a_year(brain: Brain, company: str, year: int) -> None:
    person = _director(company, year)
    asked = [f"Who was the director of {_en(company)} in {year}?", f"Кто был директором {_ru(company)} в {year} году?"]
    if year == THIS_YEAR - 1:
        asked += [f"Who was the director of {_en(company)} last year?",
                  f"Кто был директором {_ru(company)} в прошлом году?"]  # fmt: skip
    for question in asked:
        text = brain.ask(question).text
        assert _en(person) in text or _ru(person) in text, (question, text)
        assert f" {year}." in text, (question, text)  # "As of 2010." / «По состоянию на 2010.»


@pytest.mark.parametrize("year", [2008, 2015, 2021])
def test_role_claims_are_decided_as_of_the_time(brain: Brain, year: int) -> None:
    claims = [{"id": f"{c}-{p}-{lang}", "text": text} for c, p, _, _ in TERMS_HELD for lang, text in _forms(c, p)]
    got = {v.id: v.verdict.value for v in brain.at(str(year)).verify(claims)}
    for c, p, _, _ in TERMS_HELD:
        expected = "SUPPORTED" if _director(c, year) == p else "REFUTED"  # director: one value at a time
        assert {got[f"{c}-{p}-{lang}"] for lang, _ in _forms(c, p)} == {expected}, (c, p, year)
        report = brain.at(str(year)).check_answer(f"The director of {_en(c)} is {_en(p)}.")
        assert [k.verdict for k in report.claims] == ["supported" if expected == "SUPPORTED" else "contradicted"]


def _forms(c: str, p: str) -> list[tuple[str, str]]:
    """A role claim in the four ways it is said (value order and role order, RU and EN)."""
    return [("en", f"{_en(p)} is the director of {_en(c)}"), ("ru", f"{_ru(p)} — директор {_ru(c)}"),
            ("en-value", f"The director of {_en(c)} is {_en(p)}"),
            ("ru-value", f"Директор {_ru(c)} — {_ru(p)}")]  # fmt: skip


def test_a_class_question_with_of_stays_a_class_question(demo_db: Path) -> None:
    with Brain.open(demo_db, read_only=True) as demo:
        assert demo.reasoner.understand("Is a neuron a kind of cell?").intent.value == "is_a"


@pytest.mark.parametrize(
    ("day", "holder"), [("2021-01-31", "sokolova"), ("2021-02-01", "orlov"), ("2021-02-02", "orlov")]
)
def test_a_hand_over_day_belongs_to_the_successor(tmp_path: Path, day: str, holder: str) -> None:
    rows = [
        {"subject": "director", "predicate": "property_type", "value": "functional"},
        {"subject": "nta", "predicate": "director", "object": "sokolova", "valid_from": "2014-07-01",
         "valid_to": "2021-02-01"},
        {"subject": "nta", "predicate": "director", "object": "orlov", "valid_from": "2021-02-01"},
    ]  # fmt: skip
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as b:
        b.load([write_jsonl(tmp_path / "terms.jsonl", rows)])
        assert b.conflicts() == []  # a hand-over, not two values at once
        claims = [{"id": p, "subject": "nta", "predicate": "director", "object": p} for p in ("sokolova", "orlov")]
        got = {v.id: v.verdict.value for v in b.at(day).verify(claims)}
        assert got == {p: "SUPPORTED" if p == holder else "REFUTED" for p in ("sokolova", "orlov")}
        stated = {f.object: f.valid_to for f in b.facts("nta").facts}
        assert stated["sokolova"] == datetime(2021, 2, 2, tzinfo=timezone.utc)  # shown as stated: to 2021-02-01
