"""Without a time, every channel answers as of now: `Brain.think`/`ask`/`check`/`verify` on a Brain opened from a
file, `kgbrain ask`/`verify`, HTTP `/v1/ask`/`/v1/verify` and MCP `ask`/`verify_claims` give the same answers and
verdicts, for a fact that expired, one valid now and one valid only in the future; with a time they agree too.

The expected values are written here from the intervals below, not computed by kgbrain.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.config import load_config
from kgbrain.models import AskOut, VerdictOut
from tests.service.conftest import NO_BLOCK, Server, env_with

ROWS: list[dict[str, Any]] = [
    {"subject": "metro_ticket", "predicate": "label", "value": "metro ticket", "lang": "en"},
    {"subject": "metro_ticket", "predicate": "label", "value": "билет метро", "lang": "ru"},
    {"subject": "price", "predicate": "label", "value": "price", "lang": "en"},
    {"subject": "price", "predicate": "label", "value": "цена", "lang": "ru"},
    {"subject": "price", "predicate": "property_type", "value": "functional"},
    {"subject": "metro_ticket", "predicate": "price", "value": 0.2, "unit": "EUR", "valid_from": "2015",
     "valid_to": "2020-12-31"},
    {"subject": "metro_ticket", "predicate": "price", "value": 0.25, "unit": "EUR", "valid_from": "2021-01-01",
     "valid_to": "2089-12-31"},
    {"subject": "metro_ticket", "predicate": "price", "value": 0.3, "unit": "EUR", "valid_from": "2090-01-01"},
    {"subject": "pluto", "predicate": "is_a", "object": "planet", "valid_from": "1930", "valid_to": "2006-08-23"},
    {"subject": "pluto", "predicate": "is_a", "object": "dwarf_planet", "valid_from": "2006-08-24"},
]  # fmt: skip
QUESTIONS = ["What is the price of a metro ticket?", "Какова цена билета метро?", "Is Pluto a dwarf planet?"]
TIMES: list[str | None] = [None, "2000", "2018", "2095"]
# The price each time reads (None: no price held then); now is after 2021 and before 2090.
PRICE = {None: "0,25", "2000": None, "2018": "0,2", "2095": "0,3"}
CLAIMS: list[dict[str, Any]] = [
    {"id": "planet", "subject": "pluto", "predicate": "is_a", "object": "planet"},
    {"id": "dwarf", "subject": "pluto", "predicate": "is_a", "object": "dwarf_planet"},
    {"id": "0.25", "subject": "metro_ticket", "predicate": "price", "value": 0.25, "unit": "EUR"},
    {"id": "0.3", "subject": "metro_ticket", "predicate": "price", "value": 0.3, "unit": "EUR"},
]
EXPECTED = {
    None: ["NOT_ENOUGH_INFO", "SUPPORTED", "SUPPORTED", "REFUTED"],
    "2000": ["SUPPORTED", "NOT_ENOUGH_INFO", "NOT_ENOUGH_INFO", "NOT_ENOUGH_INFO"],
    "2018": ["NOT_ENOUGH_INFO", "SUPPORTED", "REFUTED", "REFUTED"],
    "2095": ["NOT_ENOUGH_INFO", "SUPPORTED", "REFUTED", "SUPPORTED"],
}
VOLATILE = {"latency_ms", "digest"}


def _ask(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in AskOut.model_validate(data).model_dump().items() if k not in VOLATILE}


def _verdict(data: dict[str, Any]) -> dict[str, Any]:
    return VerdictOut.model_validate(data).model_dump()


def _timed(body: dict[str, Any], when: str | None) -> dict[str, Any]:
    return body if when is None else {**body, "as_of": when}


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("now_parity")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    facts = folder / "facts.jsonl"
    facts.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts], source="tariff")
    return db, config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, Any]:
    db, config = setup
    asks: list[dict[str, Any]] = []
    verdicts: list[list[dict[str, Any]]] = []
    with Brain.open(db, read_only=True) as opened:
        opened.config = load_config(config)
        for when in TIMES:
            brain = opened if when is None else opened.at(when)  # no `at` at all: the library's own default
            asks += [_ask(AskOut.from_output(brain.think(q)).model_dump()) for q in QUESTIONS]
            verdicts.append([_verdict(VerdictOut.from_verdict(v).model_dump()) for v in brain.verify(CLAIMS)])
        assert opened.check("pluto", "is_a", "planet").outcome.name == "UNKNOWN"  # expired: not evidence now
        assert "0,25 EUR" in opened.ask(QUESTIONS[1]).text
        assert [f.status.value for f in opened.facts("pluto").facts] == ["active", "out_of_time"]
    return {"ask": asks, "verify": verdicts}


def test_the_library_answers_as_of_now_by_default(library: dict[str, Any]) -> None:
    for n, when in enumerate(TIMES):
        english, russian, dwarf = library["ask"][n * 3 : n * 3 + 3]
        price = PRICE[when]
        if price is None:
            assert "EUR" not in russian["answer"]
        else:
            assert f"{price} EUR" in russian["answer"], (when, russian["answer"])
            assert f"{price.replace(',', '.')} EUR" in english["answer"], (when, english["answer"])
        assert dwarf["answer"].startswith("Yes") == (when != "2000"), (when, dwarf["answer"])
        assert [v["verdict"] for v in library["verify"][n]] == EXPECTED[when], when


def test_cli_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any], tmp_path: Path) -> None:
    db, config = setup
    env = env_with(config)

    def cli(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), *args], env=env, capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS), encoding="utf-8")
    asks, verdicts = [], []
    for when in TIMES:
        timed = [] if when is None else ["--as-of", when]
        asks += [_ask(json.loads(cli("ask", q, "--json", *timed))) for q in QUESTIONS]
        verdicts.append([_verdict(json.loads(line)) for line in cli("verify", str(claims), *timed).splitlines()])
    assert asks == library["ask"]
    assert verdicts == library["verify"]


def test_http_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any]) -> None:
    db, config = setup
    server = Server(db, env_with(config))
    try:
        asks, verdicts = [], []
        for when in TIMES:
            for q in QUESTIONS:
                asks.append(_ask(server.client.post("/v1/ask", json=_timed({"question": q}, when)).json()))
            r = server.client.post("/v1/verify", json=_timed({"claims": CLAIMS}, when))
            verdicts.append([_verdict(json.loads(line)) for line in r.text.splitlines()])
    finally:
        server.stop()
    assert asks == library["ask"]
    assert verdicts == library["verify"]


def test_mcp_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    db, config = setup
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(db), "mcp"], env=env_with(config)
    )

    async def run() -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
        asks, verdicts = [], []
        async with Client(params, read_timeout_seconds=120) as client:
            for when in TIMES:
                for q in QUESTIONS:
                    result = await client.call_tool("ask", _timed({"question": q}, when))
                    assert not result.is_error, result.content
                    asks.append(_ask(json.loads(result.content[0].text)))  # type: ignore[union-attr]
                result = await client.call_tool("verify_claims", _timed({"claims": CLAIMS}, when))
                text = result.content[0].text  # type: ignore[union-attr]
                verdicts.append([_verdict(v) for v in json.loads(text)["verdicts"]])
        return asks, verdicts

    asks, verdicts = asyncio.run(run())
    assert asks == library["ask"]
    assert verdicts == library["verify"]


def test_now_is_worked_out_again_when_an_interval_starts_or_ends() -> None:
    from datetime import datetime, timezone

    from kgbrain.reasoning.views.timed import Timeline

    def at(year: int) -> datetime:
        return datetime(year, 1, 1, tzinfo=timezone.utc)

    timeline = Timeline({"a": (at(2015), at(2021)), "b": (at(2021), at(2090)), "c": (at(2090), None)})
    assert timeline.next_change(at(2018)) == at(2021)
    assert timeline.next_change(at(2021)) == at(2090)  # the instant itself is not after it
    assert timeline.next_change(at(2095)).year == datetime.max.year
