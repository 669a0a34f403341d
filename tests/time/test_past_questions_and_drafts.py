"""Past-tense questions of quality and drafts out of time (#24).

- «Каким было / Какой была / Какими были / Каков был … в 2012 году?» ask what «Каково … ?» asks, as of that year;
- "Who was the coach of Zenit before Spalletti?", «Кто был тренером Спартака после Эмери?» are asked as of the day
  before (after) that coach's term, the next term across a gap;
- a draft checked `--as-of` a year when its claim is out of time while another value of the functional relation
  holds then is contradicted (it was left without a verdict), supported when it holds, and left alone when nothing
  does; the same on the library, the CLI, HTTP and MCP;
- "Who was Zenit's coach in 2010?", "Zenit's coach is Advocaat.": the possessive read as "the coach of Zenit".

What holds in a year is computed from tests/time/seasons.py's tables, not by kgbrain.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.config import load_config
from kgbrain.models import AskOut, CheckAnswerOut
from kgbrain.reasoning.nlu.when import Asks, read_time
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK
from tests.time.seasons import CAPACITY, COACHES, cli, held, http_posts, mcp_calls, name, rows, same

YEARS = (2008, 2012, 2017)


@pytest.mark.parametrize(
    ("question", "present"),
    [
        ("Каким было население Москвы в 2018 году?", "Каково население Москвы?"),
        ("Какой была численность населения в 2018 году?", "Какова численность населения?"),
        ("Какими были цвета флага в 2018 году?", "Каковы цвета флага?"),
        ("Каков был тренер Зенита в 2010 году?", "Каков тренер Зенита?"),
        ("Какова была цена в 2010 году?", "Какова цена?"),
        ("Какое население было у Москвы в 2018 году?", "Каково население у Москвы?"),
        ("Каким будет тариф в 2030 году?", "Каков тариф?"),
        ("Какой клуб в 2010 году был чемпионом?", "Какой клуб был чемпионом?"),  # no quality asked: left as is
    ],
)
def test_a_past_wh_question_of_quality_is_asked_in_the_present(question: str, present: str) -> None:
    found = read_time(question)
    assert found is not None
    assert found.asks is Asks.AT
    assert found.question == present


def _questions() -> list[tuple[str, str, Any]]:
    """(question, language, what its answer must name) for each club and year."""
    out: list[tuple[str, str, Any]] = []
    for year in YEARS:
        for club in ("zenit", "spartak"):
            coach, capacity = held(COACHES, club, year), held(CAPACITY, club, year)
            g = name(club, "ru") + "а"  # «Зенита», «Спартака»
            out += [
                (f"Каким был тренер {g} в {year} году?", "ru", coach and name(coach, "ru")),
                (f"Каков был тренер {g} в {year} году?", "ru", coach and name(coach, "ru")),
                (f"Какой была вместимость стадиона {g} в {year} году?", "ru", capacity),
                (f"Каким было значение вместимости стадиона {g} в {year} году?", "ru", capacity),
                (f"Who was the coach of {name(club, 'en')} in {year}?", "en", coach and name(coach, "en")),
                (f"Who was {name(club, 'en')}'s coach in {year}?", "en", coach and name(coach, "en")),
            ]
    return out


GENITIVE = {"advocaat": "Адвоката", "spalletti": "Спаллетти", "villas_boas": "Виллаш-Боаша", "karpin": "Карпина",
            "emery": "Эмери", "carrera": "Карреры"}  # fmt: skip


def _next_to() -> list[tuple[str, str, Any]]:
    """ "Who was the coach of X before / after Y?": the coach whose term came just before / after Y's (a gap
    between terms skipped)."""
    out: list[tuple[str, str, Any]] = []
    for club, terms in COACHES.items():
        g = name(club, "ru") + "а"
        for (a, _, _), (b, _, _) in pairwise(terms):
            out += [
                (f"Who was the coach of {name(club, 'en')} before {name(b, 'en')}?", "en", name(a, "en")),
                (f"Who coached {name(club, 'en')} after {name(a, 'en')}?", "en", name(b, "en")),
                (f"Кто был тренером {g} до {GENITIVE[b]}?", "ru", name(a, "ru")),
                (f"Кто был тренером {g} после {GENITIVE[a]}?", "ru", name(b, "ru")),
            ]
    return out


QUESTIONS = _questions() + _next_to()
# (draft, language, coach, club): each claims `club coach coach`
DRAFTS = [
    ("{coach} coached {club}.", "en"),
    ("{coach} coaches {club}.", "en"),
    ("The coach of {club} is {coach}.", "en"),
    ("{club}'s coach is {coach}.", "en"),
    ("{coach} тренирует {club}.", "ru"),
    ("Тренер {club} — {coach}.", "ru"),
]


def _drafts() -> list[tuple[str, str, int, str]]:
    """(draft, as of, year, the claim check's verdict expected: supported / contradicted / none)."""
    out = []
    for template, lang in DRAFTS:
        for club, terms in COACHES.items():
            for coach, _first, _last in terms[:2]:
                draft = template.format(coach=name(coach, lang), club=name(club, lang))
                draft = draft.replace("Тренер Зенит ", "Тренер Зенита ").replace("Тренер Спартак ", "Тренер Спартака ")
                for year in YEARS:
                    now = held(COACHES, club, year)
                    expected = "none" if now is None else "supported" if now == coach else "contradicted"
                    out.append((draft, str(year), year, expected))
    return out


DRAFT_CASES = _drafts()


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("seasons")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "seasons.jsonl", rows())], source="registry")
    return db, config


def _verdict(report: dict[str, Any]) -> str:
    claims = report["claims"]
    assert len(claims) <= 1, claims
    return str(claims[0]["verdict"]) if claims else "none"


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, list[Any]]:
    db, config = setup
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        asks = [AskOut.from_output(brain.think(q)).model_dump() for q, _, _ in QUESTIONS]
        drafts = [CheckAnswerOut.from_report(brain.at(w).check_answer(d)).model_dump() for d, w, _, _ in DRAFT_CASES]
    for (question, lang, expected), got in zip(QUESTIONS, asks, strict=True):
        answer = got["answer"]
        unknown = answer.startswith(("Не знаю", "I don't know"))
        assert unknown == (expected is None), (question, answer)  # nothing held then: no value is named
        if expected is None:
            continue
        assert str(expected) in answer, (question, answer)
        others = {name(c, lang) for terms in COACHES.values() for c, _, _ in terms} - {str(expected)}
        assert not [o for o in others if o in answer], (question, answer)  # only the one holding then
        assert ("По состоянию на" if lang == "ru" else "As of") in answer
    for (draft, when, _year, expected), got in zip(DRAFT_CASES, drafts, strict=True):
        assert _verdict(got) == expected, (draft, when, got["claims"])
    assert {e for _, _, _, e in DRAFT_CASES} == {"none", "supported", "contradicted"}
    return {"ask": [same(a) for a in asks], "drafts": drafts}


def test_the_cli_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[Any]]) -> None:
    db, config = setup
    # a sample (each is a process): every form of question, and drafts of every verdict
    asked = [same(json.loads(cli(db, config, "ask", q, "--json"))) for q, _, _ in QUESTIONS[::3]]
    assert asked == library["ask"][::3]
    got = [
        json.loads(cli(db, config, "check-answer", "-", "--as-of", w, "--json", stdin=d))
        for d, w, _, _ in DRAFT_CASES[::5]
    ]
    assert got == library["drafts"][::5]
    assert {_verdict(r) for r in got} == {"none", "supported", "contradicted"}


def test_http_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[Any]]) -> None:
    db, config = setup
    calls = [("/v1/ask", {"question": q}) for q, _, _ in QUESTIONS]
    calls += [("/v1/check-answer", {"draft": d, "as_of": w}) for d, w, _, _ in DRAFT_CASES]
    got = http_posts(db, config, calls)
    assert [same(a) for a in got[: len(QUESTIONS)]] == library["ask"]
    assert got[len(QUESTIONS) :] == library["drafts"]


def test_mcp_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[Any]]) -> None:
    db, config = setup
    calls = [("ask", {"question": q}) for q, _, _ in QUESTIONS]
    calls += [("check_answer", {"draft": d, "as_of": w}) for d, w, _, _ in DRAFT_CASES]
    got = mcp_calls(db, config, calls)
    assert [same(a) for a in got[: len(QUESTIONS)]] == library["ask"]
    assert got[len(QUESTIONS) :] == library["drafts"]
