"""Follow-ups in time (#24): a conversation's short questions are answered as their full forms are, in English and
Russian, the same on the library, `kgbrain chat`, HTTP sessions and MCP sessions.

- a follow-up naming a concept replaces the slot of its kind ("And Spartak?" the club, "And Emery?" the coach),
  and "And in 2016?" the time;
- "And the stadium capacity?" / «А вместимость стадиона?» asks the same club for another predicate (a relation's
  holder becomes an attribute's value and back);
- "Why?" / «Почему?» asks the last question again at its time (a value's answer gives the facts it rests on);
- "When?" / «Когда?» asks when the last question's statement held (its interval);
- `member_of` keeps its direction: "What is Rotor a member of?" and "Who are the members of the Premier League?".

Who held what in a year is computed from tests/time/seasons.py's tables, not by kgbrain.
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
from tests.time.seasons import CAPACITY, COACHES, LEAGUES, NAMES, cli, held, http_posts, mcp_calls, name, rows, same


def _coach(club: str, year: int) -> list[str]:
    return [held(COACHES, club, year)]


def _members(league: str, year: int) -> list[str]:
    return [c for c in LEAGUES if held(LEAGUES, c, year) == league]


# (asked, its full form, the concepts its answer names (None: a value), the value or None)
EN: list[tuple[str, str, Any]] = [
    ("Who coached Zenit in 2010?", "Who coached Zenit in 2010?", _coach("zenit", 2010)),
    ("And in 2016?", "Who coached Zenit in 2016?", _coach("zenit", 2016)),
    ("And Spartak?", "Who coached Spartak in 2016?", _coach("spartak", 2016)),
    ("And the stadium capacity?", "What is the stadium capacity of Spartak in 2016?", held(CAPACITY, "spartak", 2016)),
    ("Why?", "What is the stadium capacity of Spartak in 2016?", held(CAPACITY, "spartak", 2016)),
    ("What is the stadium capacity of Zenit in 2010?", "What is the stadium capacity of Zenit in 2010?",
     held(CAPACITY, "zenit", 2010)),
    ("And the coach?", "What is the coach of Zenit in 2010?", _coach("zenit", 2010)),
    ("Was Spalletti the coach of Zenit in 2012?", "Was Spalletti the coach of Zenit in 2012?", True),
    ("And Spartak?", "Was Spalletti the coach of Spartak in 2012?", False),  # the club replaced, not the coach
    ("And Emery?", "Was Emery the coach of Spartak in 2012?", True),  # the coach replaced, not the club
    ("When?", "When was Emery the coach of Spartak?", True),  # its interval
    ("What is Rotor a member of in 2003?", "What is Rotor a member of in 2003?", [held(LEAGUES, "rotor", 2003)]),
    ("And in 2010?", "What is Rotor a member of in 2010?", [held(LEAGUES, "rotor", 2010)]),
    ("Who are the members of the Premier League in 2003?", "Who are the members of the Premier League in 2003?",
     _members("premier_league", 2003)),
    ("And in 2010?", "Who are the members of the Premier League in 2010?", _members("premier_league", 2010)),
]  # fmt: skip
RU: list[tuple[str, str, Any]] = [
    ("Кто был тренером Зенита в 2010 году?", "Кто был тренером Зенита в 2010 году?", _coach("zenit", 2010)),
    ("А в 2016 году?", "Кто был тренером Зенита в 2016 году?", _coach("zenit", 2016)),
    ("А Спартака?", "Кто был тренером Спартака в 2016 году?", _coach("spartak", 2016)),
    ("А вместимость стадиона?", "Какова вместимость стадиона Спартака в 2016 году?", held(CAPACITY, "spartak", 2016)),
    ("Почему?", "Какова вместимость стадиона Спартака в 2016 году?", held(CAPACITY, "spartak", 2016)),
    ("Какой была вместимость стадиона Зенита в 2010 году?", "Какой была вместимость стадиона Зенита в 2010 году?",
     held(CAPACITY, "zenit", 2010)),
    ("А тренер?", "Кто был тренером Зенита в 2010 году?", _coach("zenit", 2010)),
    ("Был ли Спаллетти тренером Зенита в 2012 году?", "Был ли Спаллетти тренером Зенита в 2012 году?", True),
    ("А Спартака?", "Был ли Спаллетти тренером Спартака в 2012 году?", False),
    ("А Эмери?", "Был ли Эмери тренером Спартака в 2012 году?", True),
    ("Когда?", "Когда Эмери был тренером Спартака?", True),
    ("Членом чего был Ротор в 2003 году?", "Членом чего был Ротор в 2003 году?", [held(LEAGUES, "rotor", 2003)]),
    ("А в 2010 году?", "Членом чего был Ротор в 2010 году?", [held(LEAGUES, "rotor", 2010)]),
    ("Кто был членом Премьер-лиги в 2003 году?", "Кто был членом Премьер-лиги в 2003 году?",
     _members("premier_league", 2003)),
    ("А в 2010 году?", "Кто был членом Премьер-лиги в 2010 году?", _members("premier_league", 2010)),
]  # fmt: skip
DIALOGUES = {"en": EN, "ru": RU}


def _check(lang: str, asked: str, expected: Any, got: dict[str, Any]) -> None:
    """The answer names what holds then and nothing else of its kind."""
    answer = got["answer"]
    if isinstance(expected, bool):
        assert got["outcome"] == ("supported" if expected else "refuted"), (asked, answer)
        return
    if isinstance(expected, int):
        assert str(expected) in answer, (asked, answer)
        return
    named = {name(c, lang) for c in expected}
    assert all(n in answer for n in named), (asked, answer)
    kind = set(LEAGUES) if expected[0] in LEAGUES else {c for terms in COACHES.values() for c, _, _ in terms}
    kind |= {"premier_league", "first_league"} if expected[0].endswith("league") else set()
    assert not [c for c in kind if c in NAMES and name(c, lang) not in named and name(c, lang) in answer], (
        asked,
        answer,
    )


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("follow_ups")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "seasons.jsonl", rows())], source="registry")
    return db, config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, list[dict[str, Any]]]:
    db, config = setup
    out: dict[str, list[dict[str, Any]]] = {}
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        for lang, dialogue in DIALOGUES.items():
            answers = [AskOut.from_output(brain.converse(q, session=lang)).model_dump() for q, _, _ in dialogue]
            for (asked, full, expected), got in zip(dialogue, answers, strict=True):
                alone = brain.think(full)
                _check(lang, asked, expected, AskOut.from_output(alone).model_dump())
                _check(lang, asked, expected, got)
                if asked == full:
                    assert got["answer"] == alone.text
                else:  # answered as its full form, saying how it read the short one
                    assert got["answer"].endswith(alone.text), (asked, got["answer"], alone.text)
                    assert got["answer"].startswith(("Reading '", "Читаю «")), got["answer"]
            out[lang] = [same(a) for a in answers]
    return out


def test_chat_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    for lang, dialogue in DIALOGUES.items():
        lines = cli(db, config, "chat", "--json", stdin="".join(q + "\n" for q, _, _ in dialogue)).splitlines()
        assert [same(json.loads(line)) for line in lines] == library[lang]


def test_http_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    calls = [("/v1/ask", {"question": q, "session": f"h-{lang}"}) for lang, d in DIALOGUES.items() for q, _, _ in d]
    got = [same(a) for a in http_posts(db, config, calls)]
    assert got == library["en"] + library["ru"]


def test_mcp_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    calls = [("ask", {"question": q, "session": f"m-{lang}"}) for lang, d in DIALOGUES.items() for q, _, _ in d]
    got = [same(a) for a in mcp_calls(db, config, calls)]
    assert got == library["en"] + library["ru"]
