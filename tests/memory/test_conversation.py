"""Working memory (issue #24 item 3): follow-up questions in a session are answered as their full forms are, in
English and Russian, the same through the library, `kgbrain chat`, HTTP /v1/ask and MCP ask.

A follow-up that changes only the time («А в 2015?») or only the subject ("And glial cells?") re-runs the last
question as understood with that slot replaced; its full form is the question a person would have asked in full.
Who directed a company in a year is computed here from the intervals below, not by kgbrain.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.config import load_config
from kgbrain.models import AskOut
from kgbrain.reasoning.cognition.conversation import Conversations, Focus
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK, Server, copy_kb, env_with

# company -> (director, first year, last year or None: still)
DIRECTORS = {
    "acme": [("ivanov", 2005, 2012), ("petrov", 2013, 2018), ("sidorov", 2019, None)],
    "globex": [("petrov", 2005, 2012), ("ivanov", 2013, None)],
}
DEPUTIES = {"acme": [("kozlov", 2005, 2016), ("orlova", 2017, None)]}
NAMES = {"acme": ("Acme", "Акме"), "globex": ("Globex", "Глобекс"), "ivanov": ("Ivanov", "Иванов"),
         "petrov": ("Petrov", "Петров"), "sidorov": ("Sidorov", "Сидоров"), "kozlov": ("Kozlov", "Козлов"),
         "orlova": ("Orlova", "Орлова")}  # fmt: skip
NOW = 2026  # any year after 2019 gives the same directors


def _director(company: str, year: int) -> str:
    return next(p for p, first, last in DIRECTORS[company] if first <= year <= (last or 9999))


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [
        {"subject": "director", "predicate": "label", "value": "director", "lang": "en"},
        {"subject": "director", "predicate": "label", "value": "директор", "lang": "ru"},
        {"subject": "director", "predicate": "property_type", "value": "functional"},
        {"subject": "deputy_director", "predicate": "label", "value": "deputy director", "lang": "en"},
        {"subject": "deputy_director", "predicate": "label", "value": "заместитель директора", "lang": "ru"},
        {"subject": "deputy_director", "predicate": "alias", "value": "deputy", "lang": "en"},
        {"subject": "deputy_director", "predicate": "alias", "value": "заместитель", "lang": "ru"},
        {"subject": "deputy_director", "predicate": "property_type", "value": "functional"},
    ]
    for cid, (en, ru) in NAMES.items():
        rows += [{"subject": cid, "predicate": "label", "value": en, "lang": "en"},
                 {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
                 {"subject": cid, "predicate": "kind", "value": "individual"}]  # fmt: skip
    for predicate, held in (("director", DIRECTORS), ("deputy_director", DEPUTIES)):
        for company, terms in held.items():
            for person, first, last in terms:
                row = {"subject": company, "predicate": predicate, "object": person, "valid_from": str(first)}
                rows.append({**row, "valid_to": str(last)} if last else row)
    return rows


def _term(held: dict[str, list[tuple[str, int, int | None]]], company: str, year: int) -> tuple[str, int | None]:
    return next((p, last) for p, first, last in held[company] if first <= year <= (last or 9999))


# (what is asked, its full form: what the follow-up must be answered as, (company, year) whose director it names)
EN = [
    ("What is a neuron?", "What is a neuron?", None),
    ("Does it have DNA?", "Does a neuron have DNA?", None),
    ("And glial cells?", "Do glial cells have DNA?", None),
    ("Who was the director of Acme in 2010?", "Who was the director of Acme in 2010?", ("acme", 2010)),
    ("And in 2015?", "Who was the director of Acme in 2015?", ("acme", 2015)),
    ("And Globex?", "Who was the director of Globex in 2015?", ("globex", 2015)),
    ("And now?", "Who is the director of Globex now?", ("globex", NOW)),
    ("What about Acme in 2008?", "Who was the director of Acme in 2008?", ("acme", 2008)),
]
# Follow-ups with no full question of the same words: what the answer must say, from the terms above
# (after "What about Acme in 2008?": until when that director served, then the deputy of that time).
ENDS = {"en": [("Until when?", DIRECTORS, "Until"), ("And his deputy?", DEPUTIES, "Until")],
        "ru": [("До какого числа?", DIRECTORS, "До"), ("А его заместитель?", DEPUTIES, "До")]}  # fmt: skip
RU = [
    ("Что такое нейрон?", "Что такое нейрон?", None),
    ("Есть ли у него ДНК?", "Есть ли у нейрона ДНК?", None),
    ("А у глиальных клеток?", "Есть ли у глиальных клеток ДНК?", None),
    ("Кто был директором Акме в 2010 году?", "Кто был директором Акме в 2010 году?", ("acme", 2010)),
    ("А в 2015?", "Кто был директором Акме в 2015 году?", ("acme", 2015)),
    ("А Глобекс?", "Кто был директором Глобекс в 2015 году?", ("globex", 2015)),
    ("А сейчас?", "Кто сейчас директор Глобекс?", ("globex", NOW)),
    ("А у Акме в 2008 году?", "Кто был директором Акме в 2008 году?", ("acme", 2008)),
]
VOLATILE = {"latency_ms", "digest", "episodes"}  # a service session records episodes; the library here does not


def _same(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in AskOut.model_validate(data).model_dump().items() if k not in VOLATILE}
    return json.loads(json.dumps(out), parse_float=lambda x: round(float(x), 6))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def setup(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("conversation")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = copy_kb(demo_db, folder)
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "directors.jsonl", _rows())], source="registry")
    return db, config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, list[dict[str, Any]]]:
    db, config = setup
    out: dict[str, list[dict[str, Any]]] = {}
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        for name, dialogue in (("en", EN), ("ru", RU)):
            answers = [AskOut.from_output(brain.converse(q, session=name)).model_dump() for q, _, _ in dialogue]
            for asked, held, word in ENDS[name]:
                got = AskOut.from_output(brain.converse(asked, session=name)).model_dump()
                person, last = _term(held, "acme", 2008)
                assert NAMES[person][name == "ru"] in got["answer"], (asked, got["answer"])
                assert got["answer"].endswith(f"{word} {last}-12-31."), (asked, got["answer"])
                answers.append(got)
            for (asked, full, directs), got in zip(dialogue, answers, strict=False):
                alone = brain.think(full)
                assert got["question"] == asked
                if directs is not None:  # the right director, not only the full form's answer
                    person = NAMES[_director(*directs)][name == "ru"]
                    assert person in got["answer"], (asked, got["answer"])
                if asked == full:
                    assert got["answer"] == alone.text
                    assert got["reading"] == alone.reading  # None, or how its time was read
                else:  # the follow-up is answered as its full form, and says how it read it
                    assert got["answer"].endswith(alone.text), (got["answer"], alone.text)
                    assert got["answer"].startswith(("Reading '", "Читаю «"))
                    assert got["reading"] is not None
                    assert got["outcome"] == AskOut.from_output(alone).outcome
            out[name] = [_same(a) for a in answers]
        # without a session, the same question is answered as ever
        alone = brain.think("Does it have DNA?")
        assert alone.reading is None
        assert not alone.text.startswith("Reading")
    return out


def _asked(name: str, dialogue: list[tuple[str, str, Any]]) -> list[str]:
    return [q for q, _, _ in dialogue] + [q for q, _, _ in ENDS[name]]


def test_cli_chat_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    for name, dialogue in (("en", EN), ("ru", RU)):
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "chat", "--json"],
            input="".join(q + "\n" for q in _asked(name, dialogue)),
            env=env_with(config),
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr
        assert [_same(json.loads(line)) for line in done.stdout.splitlines()] == library[name]


def test_http_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    server = Server(db, env_with(config))
    try:
        got = {
            name: [
                _same(server.client.post("/v1/ask", json={"question": q, "session": f"h-{name}"}).json())
                for q in _asked(name, dialogue)
            ]
            for name, dialogue in (("en", EN), ("ru", RU))
        }
        bad = server.client.post("/v1/ask", json={"question": "Why?", "session": "no spaces allowed"})
    finally:
        server.stop()
    assert got == library
    assert bad.status_code == 400


def test_mcp_sessions_match_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    db, config = setup
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(db), "mcp"], env=env_with(config)
    )

    async def run() -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {}
        async with Client(params, read_timeout_seconds=120) as client:
            for name, dialogue in (("en", EN), ("ru", RU)):
                out[name] = []
                for q in _asked(name, dialogue):
                    result = await client.call_tool("ask", {"question": q, "session": f"m-{name}"})
                    assert not result.is_error, result.content
                    out[name].append(_same(json.loads(result.content[0].text)))  # type: ignore[union-attr]
        return out

    assert asyncio.run(run()) == library


def test_sessions_are_bounded_and_expire() -> None:
    talks = Conversations(max_sessions=2, idle_seconds=0.05)
    focus = Focus("What is a neuron?", (("neuron", "neuron"),), "define", "en")
    for s in ("a", "b", "c"):
        talks.put(s, focus)
    assert len(talks) == 2
    assert talks.get("a") is None
    assert talks.get("c") == focus
    time.sleep(0.1)
    assert talks.get("c") is None


def test_a_follow_up_replaces_one_slot_of_the_typed_question() -> None:
    from kgbrain.reasoning.cognition.conversation import follow_up
    from kgbrain.reasoning.nlu.question import Intent, Question
    from kgbrain.reasoning.nlu.when import Asks, TimeInQuestion

    typed = Question(
        "Who was the director of Acme?", "en", Intent.WH, object="acme", verb="director", variables=("?x",),
        concepts=("acme",), linked=True,
    )  # fmt: skip
    at_2010 = TimeInQuestion(Asks.AT, "2010", typed.text, "in 2010")
    focus = Focus("Who was the director of Acme in 2010?", (("director", "director"), ("acme", "Acme")), "wh", "en",
                  typed, at_2010)  # fmt: skip
    names = {"globex": "globex", "acme": "acme"}

    def link(words: str) -> list[str]:
        return [names[words.casefold()]] if words.casefold() in names else []

    later = follow_up("And in 2015?", focus, link)
    assert later is not None
    assert later.typed == typed
    assert later.time is not None
    assert (later.time.asks, later.time.when) == (Asks.AT, "2015")
    other = follow_up("And Globex?", focus, link)
    assert other is not None
    assert other.typed is not None
    assert other.time == at_2010
    assert (other.typed.intent, other.typed.verb, other.typed.concepts) == (Intent.WH, "director", ("globex",))
    assert other.typed.object == "globex"
    assert other.question == "Who was the director of Globex in 2010?"
    unknown = follow_up("And Initech?", focus, link)
    assert unknown is not None
    assert unknown.typed is not None
    assert unknown.typed.concepts == ()
    assert unknown.typed.unresolved == ("Initech",)
    both = follow_up("What about Globex in 2019?", focus, link)
    assert both is not None
    assert both.typed is not None
    assert both.time is not None
    assert (both.typed.concepts, both.time.when) == (("globex",), "2019")
