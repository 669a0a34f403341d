"""Follow-ups that point back (#24): a pronoun read as the last answer or the last question's subject, a possessive
("its mayor", «его мэром»), "then" / «тогда» as the last question's time, a role said without its holder ("the
operator", «перевозчиком») and a multi-word role replaced ("And the head of the parks department?"). Each is
answered as its full form is, in English and Russian, the same on the library, `kgbrain chat`, HTTP and MCP.

Who held what in a year is computed from the tables below, never by kgbrain.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.config import load_config
from kgbrain.models import AskOut
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK
from tests.time.seasons import cli, http_posts, mcp_calls, same

# predicate -> [(holder, first year, last year or None: still)] of the town Millbrook
TERMS: dict[str, list[tuple[Any, int, int | None]]] = {
    "ferry_operator": [("seaway", 2010, 2019), ("bluewater", 2020, None)],
    "mayor": [("harlow", 2004, 2011), ("denton", 2012, None)],
    "head_of_health_department": [("keel", 2008, 2016), ("marsh", 2017, None)],
    "head_of_parks_department": [("ortiz", 2009, 2018), ("quinn", 2019, None)],
    "population": [(41000, 2000, 2009), (45500, 2010, 2015), (48200, 2016, None)],
}
NAMES = {"millbrook": ("Millbrook", "Миллбрук"), "seaway": ("Seaway", "Сиуэй"), "bluewater": ("Bluewater", "Блувотер"),
         "harlow": ("Harlow", "Харлоу"), "denton": ("Denton", "Дентон"), "keel": ("Keel", "Кил"),
         "marsh": ("Marsh", "Марш"), "ortiz": ("Ortiz", "Ортис"), "quinn": ("Quinn", "Куинн")}  # fmt: skip
PREDICATES = {"ferry_operator": ("ferry operator", "паромный перевозчик"), "mayor": ("mayor", "мэр"),
              "head_of_health_department": ("head of the health department", "глава департамента здравоохранения"),
              "head_of_parks_department": ("head of the parks department", "глава департамента парков"),
              "population": ("population", "население")}  # fmt: skip
NOW = 2026


def _rows() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for cid, (en, ru) in {**NAMES, **PREDICATES, "town": ("town", "город"), "company": ("company", "компания"),
                          "person": ("person", "человек")}.items():  # fmt: skip
        out += [{"subject": cid, "predicate": "label", "value": en, "lang": "en"},
                {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"}]  # fmt: skip
    for cid in NAMES:
        kind = "town" if cid == "millbrook" else "company" if cid in ("seaway", "bluewater") else "person"
        out.append({"subject": cid, "predicate": "instance_of", "object": kind})
    for predicate, terms in TERMS.items():
        out.append({"subject": predicate, "predicate": "property_type", "value": "functional"})
        for held, first, last in terms:
            row = {"subject": "millbrook", "predicate": predicate, "valid_from": str(first)}
            row.update({"value": held} if isinstance(held, int) else {"object": held})
            out.append({**row, "valid_to": str(last)} if last else row)
    return out


def _held(predicate: str, year: int) -> Any:
    return next(h for h, first, last in TERMS[predicate] if first <= year <= (last or 9999))


def _last(predicate: str, held: str) -> str:
    return f"{next(last for h, _, last in TERMS[predicate] if h == held)}-12-31"


def _first(predicate: str, held: str) -> str:
    return f"{next(first for h, first, _ in TERMS[predicate] if h == held)}-01-01"


def _ru_number(year: int) -> str:
    return f"{_held('population', year):,}".replace(",", "\N{NO-BREAK SPACE}")  # «41 000»


# (asked, its full form, what the answer must say)
EN: list[tuple[str, str, str]] = [
    ("Who is the ferry operator of Millbrook now?", "Who is the ferry operator of Millbrook now?",
     NAMES[_held("ferry_operator", NOW)][0]),
    ("And in 2015?", "Who is the ferry operator of Millbrook in 2015?", NAMES[_held("ferry_operator", 2015)][0]),
    ("Until when was it the operator?", "Until when was Seaway the ferry operator of Millbrook?",
     f"Until {_last('ferry_operator', 'seaway')}"),
    ("What was the population of Millbrook in 2005?", "What was the population of Millbrook in 2005?",
     f"{_held('population', 2005):,}"),
    ("And in 2012?", "What was the population of Millbrook in 2012?", f"{_held('population', 2012):,}"),
    ("Who was its mayor then?", "Who was the mayor of Millbrook in 2012?", NAMES[_held("mayor", 2012)][0]),
    ("What was the population of Millbrook in 2008?", "What was the population of Millbrook in 2008?",
     f"{_held('population', 2008):,}"),
    ("Who was the mayor then?", "Who was the mayor of Millbrook in 2008?", NAMES[_held("mayor", 2008)][0]),
    ("Is he still the mayor?", "Is Harlow still the mayor of Millbrook?", "No"),
    ("Who was mayor after him?", "Who was mayor of Millbrook after Harlow?", NAMES[_held("mayor", 2012)][0]),
    ("Is she still the mayor?", "Is Denton still the mayor of Millbrook?", "Yes"),
    ("Who was the head of the health department of Millbrook in 2012?",
     "Who was the head of the health department of Millbrook in 2012?",
     NAMES[_held("head_of_health_department", 2012)][0]),
    ("And the head of the parks department?", "Who was the head of the parks department of Millbrook in 2012?",
     NAMES[_held("head_of_parks_department", 2012)][0]),
    ("And in 2021?", "Who was the head of the parks department of Millbrook in 2021?",
     NAMES[_held("head_of_parks_department", 2021)][0]),
    ("What was the population of Millbrook in 2005?", "What was the population of Millbrook in 2005?",
     f"{_held('population', 2005):,}"),
    ("And who was the mayor?", "Who was the mayor of Millbrook in 2005?", NAMES[_held("mayor", 2005)][0]),
    ("Who is its mayor now?", "Who is the mayor of Millbrook now?", NAMES[_held("mayor", NOW)][0]),
]  # fmt: skip
RU: list[tuple[str, str, str]] = [
    ("Кто сейчас паромный перевозчик Миллбрука?", "Кто сейчас паромный перевозчик Миллбрука?",
     NAMES[_held("ferry_operator", NOW)][1]),
    ("А в 2015?", "Кто паромный перевозчик Миллбрука в 2015?", NAMES[_held("ferry_operator", 2015)][1]),
    ("До какого числа он был перевозчиком?", "До какого числа Сиуэй был паромным перевозчиком Миллбрука?",
     f"До {_last('ferry_operator', 'seaway')}"),
    ("Каким было население Миллбрука в 2005 году?", "Каким было население Миллбрука в 2005 году?",
     _ru_number(2005)),
    ("А в 2012?", "Каково население Миллбрука в 2012?", _ru_number(2012)),
    ("Кто тогда был его мэром?", "Кто был мэром Миллбрука в 2012?", NAMES[_held("mayor", 2012)][1]),
    ("Кто был мэром Миллбрука в 2008 году?", "Кто был мэром Миллбрука в 2008 году?", NAMES[_held("mayor", 2008)][1]),
    ("Кто был мэром после него?", "Кто был мэром Миллбрука после Харлоу?", NAMES[_held("mayor", 2012)][1]),
    ("Он до сих пор мэр?", "Дентон до сих пор мэр Миллбрука?", "Да"),
    ("Какое население у него?", "Какое население у Миллбрука?", _ru_number(NOW)),
    ("С каких пор Блувотер паромный перевозчик?", "С каких пор Блувотер паромный перевозчик Миллбрука?",
     f"С {_first('ferry_operator', 'bluewater')}"),
    ("Кто был главой департамента здравоохранения Миллбрука в 2012 году?",
     "Кто был главой департамента здравоохранения Миллбрука в 2012 году?",
     NAMES[_held("head_of_health_department", 2012)][1]),
    ("А глава департамента парков?", "Кто был главой департамента парков Миллбрука в 2012 году?",
     NAMES[_held("head_of_parks_department", 2012)][1]),
    ("А в 2021?", "Кто был главой департамента парков Миллбрука в 2021?",
     NAMES[_held("head_of_parks_department", 2021)][1]),
    ("Каким было население Миллбрука в 2005 году?", "Каким было население Миллбрука в 2005 году?", _ru_number(2005)),
    ("А кто был мэром?", "Кто был мэром Миллбрука в 2005 году?", NAMES[_held("mayor", 2005)][1]),
]  # fmt: skip
DIALOGUES = {"en": EN, "ru": RU}


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("pointing_back")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "town.jsonl", _rows())], source="registry")
    return db, config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, list[dict[str, Any]]]:
    db, config = setup
    out: dict[str, list[dict[str, Any]]] = {}
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        for lang, dialogue in DIALOGUES.items():
            answers = [AskOut.from_output(brain.converse(q, session=lang)).model_dump() for q, _, _ in dialogue]
            for (asked, full, says), got in zip(dialogue, answers, strict=True):
                alone = brain.think(full)
                assert says in alone.text, (full, alone.text)
                if asked == full:
                    assert got["answer"] == alone.text
                else:  # answered as its full form, saying how it read the short one
                    assert got["answer"] == f"{_reading(lang, asked, full)} {alone.text}", (asked, got["answer"])
                    assert got["outcome"] == AskOut.from_output(alone).outcome
            out[lang] = [same(a) for a in answers]
        assert brain.think("Who was its mayor then?").reading is None  # without a session: as ever
    return out


def _reading(lang: str, asked: str, full: str) -> str:
    return f"Читаю «{asked}» как «{full}»." if lang == "ru" else f"Reading '{asked}' as '{full}'."


def test_chat_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    for lang, dialogue in DIALOGUES.items():
        lines = cli(db, config, "chat", "--json", stdin="".join(q + "\n" for q, _, _ in dialogue)).splitlines()
        assert [same(json.loads(line)) for line in lines] == library[lang]


def test_http_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    calls = [("/v1/ask", {"question": q, "session": f"h-{lang}"}) for lang, d in DIALOGUES.items() for q, _, _ in d]
    assert [same(a) for a in http_posts(db, config, calls)] == library["en"] + library["ru"]


def test_mcp_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    calls = [("ask", {"question": q, "session": f"m-{lang}"}) for lang, d in DIALOGUES.items() for q, _, _ in d]
    assert [same(a) for a in mcp_calls(db, config, calls)] == library["en"] + library["ru"]
