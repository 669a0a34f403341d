"""As of a time, the library, the CLI, HTTP and MCP give the same answers and verdicts (one code path)."""

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

ROWS = [
    {"subject": "pluto", "predicate": "is_a", "object": "planet", "valid_from": "1930", "valid_to": "2006-08-23"},
    {"subject": "pluto", "predicate": "is_a", "object": "dwarf_planet", "valid_from": "2006-08-24"},
    {"subject": "planet", "predicate": "is_a", "object": "celestial_body"},
    {"subject": "dwarf_planet", "predicate": "is_a", "object": "celestial_body"},
]
ASKED = [("Is Pluto a planet?", "2000"), ("Is Pluto a planet?", "2010"), ("Плутон — это карликовая планета?", "2000")]
CLAIMS: list[dict[str, Any]] = [
    {"id": "1", "subject": "pluto", "predicate": "is_a", "object": "planet"},
    {"id": "2", "subject": "pluto", "predicate": "is_a", "object": "dwarf_planet"},
    {"id": "3", "subject": "pluto", "predicate": "is_a", "object": "celestial_body"},
]
AS_OF = ["1999", "2020"]
VOLATILE = {"latency_ms", "digest"}


def _rounded(data: Any) -> Any:
    if isinstance(data, float):
        return round(data, 6)
    if isinstance(data, dict):
        return {k: _rounded(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_rounded(v) for v in data]
    return data


def _ask(data: dict[str, Any]) -> dict[str, Any]:
    return _rounded({k: v for k, v in AskOut.model_validate(data).model_dump().items() if k not in VOLATILE})


def _verdict(data: dict[str, Any]) -> dict[str, Any]:
    return _rounded(VerdictOut.model_validate(data).model_dump())


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("as_of_parity")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    facts = folder / "facts.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts], source="iau")
    return db, config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, Any]:
    db, config = setup
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        asks = [_ask(AskOut.from_output(brain.at(when).think(q)).model_dump()) for q, when in ASKED]
        verdicts = [
            [_verdict(VerdictOut.from_verdict(v).model_dump()) for v in brain.at(when).verify(CLAIMS)] for when in AS_OF
        ]
    assert [a["as_of"] for a in asks] == [when for _, when in ASKED]
    assert asks[0]["answer"] != asks[1]["answer"]  # the time changes the answer
    assert [v["verdict"] for v in verdicts[0]] == ["SUPPORTED", "NOT_ENOUGH_INFO", "SUPPORTED"]
    assert [v["verdict"] for v in verdicts[1]] == ["NOT_ENOUGH_INFO", "SUPPORTED", "SUPPORTED"]
    return {"ask": asks, "verify": verdicts}


def test_cli_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any], tmp_path: Path) -> None:
    db, config = setup
    env = env_with(config)

    def cli(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert [_ask(json.loads(cli("ask", q, "--as-of", when, "--json"))) for q, when in ASKED] == library["ask"]
    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS), encoding="utf-8")
    got = [
        [_verdict(json.loads(line)) for line in cli("verify", str(claims), "--as-of", w).splitlines()] for w in AS_OF
    ]
    assert got == library["verify"]


def test_http_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any]) -> None:
    db, config = setup
    server = Server(db, env_with(config))
    try:
        asks = [_ask(server.client.post("/v1/ask", json={"question": q, "as_of": w}).json()) for q, w in ASKED]
        verdicts = []
        for when in AS_OF:
            r = server.client.post("/v1/verify", json={"claims": CLAIMS, "as_of": when})
            verdicts.append([_verdict(json.loads(line)) for line in r.text.splitlines()])
        bad = server.client.post("/v1/ask", json={"question": "Is Pluto a planet?", "as_of": "soon"})
    finally:
        server.stop()
    assert asks == library["ask"]
    assert verdicts == library["verify"]
    assert bad.status_code == 400
    assert "'soon' is not a date" in bad.text


def test_mcp_matches_the_library(setup: tuple[Path, Path], library: dict[str, Any]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    db, config = setup
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(db), "mcp"], env=env_with(config)
    )

    async def run() -> tuple[list[dict[str, Any]], list[list[dict[str, Any]]]]:
        async with Client(params, read_timeout_seconds=120) as client:
            asks = []
            for q, when in ASKED:
                result = await client.call_tool("ask", {"question": q, "as_of": when})
                assert not result.is_error, result.content
                asks.append(_ask(json.loads(result.content[0].text)))  # type: ignore[union-attr]
            verdicts = []
            for when in AS_OF:
                result = await client.call_tool("verify_claims", {"claims": CLAIMS, "as_of": when})
                text = result.content[0].text  # type: ignore[union-attr]
                verdicts.append([_verdict(v) for v in json.loads(text)["verdicts"]])
        return asks, verdicts

    asks, verdicts = asyncio.run(run())
    assert asks == library["ask"]
    assert verdicts == library["verify"]
