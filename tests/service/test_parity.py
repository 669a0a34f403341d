"""The same questions and claims through the library, the CLI, HTTP and MCP give identical results."""

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
from tests.service.conftest import Server, copy_kb, env_with

QUESTIONS = [
    "Does a neuron have DNA?",
    "Почему нейроны важны для мышления?",
    "What is a neuron?",
    "Можно ли использовать СИЗ с истёкшим сертификатом?",
]
CLAIMS: list[dict[str, Any]] = [
    {"id": "1", "subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"id": "2", "subject": "neuron", "predicate": "has_property", "object": "dna"},
    {"id": "3", "subject": "neuron", "predicate": "is_a", "object": "cell", "polarity": False},
    {"id": "4", "text": "Neurons cause thinking"},
    {"id": "5", "subject": "nosuchthing", "predicate": "is_a", "object": "cell"},
]
# Per-call timings and the digest that prints them.
VOLATILE = {"latency_ms", "digest"}


def _rounded(data: Any) -> Any:
    # Freshness decays confidences with the clock (about 1e-8 a second here), so compare them to 6 places.
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
def kb(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_kb(demo_db, tmp_path_factory.mktemp("parity"))


@pytest.fixture(scope="module")
def library(kb: Path, no_block: Path) -> dict[str, Any]:
    with Brain.open(kb, read_only=True) as brain:
        brain.config = load_config(no_block)
        asks = [_ask(AskOut.from_output(brain.think(q)).model_dump()) for q in QUESTIONS]
        verdicts = [_verdict(VerdictOut.from_verdict(v).model_dump()) for v in brain.verify(CLAIMS)]
    return {"ask": asks, "verify": verdicts}


def test_cli_matches_the_library(kb: Path, no_block: Path, library: dict[str, Any], tmp_path: Path) -> None:
    env = env_with(no_block)
    asks = []
    for q in QUESTIONS:
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(kb), "ask", q, "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        asks.append(_ask(json.loads(done.stdout)))
    assert asks == library["ask"]
    claims = tmp_path / "claims.jsonl"
    claims.write_text("".join(json.dumps(c) + "\n" for c in CLAIMS), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "verify", str(claims)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert [_verdict(json.loads(line)) for line in done.stdout.splitlines()] == library["verify"]


def test_http_matches_the_library(kb: Path, no_block: Path, library: dict[str, Any]) -> None:
    server = Server(kb, env_with(no_block))
    try:
        asks = [_ask(server.client.post("/v1/ask", json={"question": q}).json()) for q in QUESTIONS]
        r = server.client.post("/v1/verify", json={"claims": CLAIMS})
        verdicts = [_verdict(json.loads(line)) for line in r.text.splitlines()]
    finally:
        server.stop()
    assert asks == library["ask"]
    assert verdicts == library["verify"]


def test_mcp_matches_the_library(kb: Path, no_block: Path, library: dict[str, Any]) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(kb), "mcp"], env=env_with(no_block)
    )

    async def run() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        async with Client(params, read_timeout_seconds=120) as client:
            asks = []
            for q in QUESTIONS:
                result = await client.call_tool("ask", {"question": q})
                assert not result.is_error, result.content
                asks.append(_ask(json.loads(result.content[0].text)))  # type: ignore[union-attr]
            result = await client.call_tool("verify_claims", {"claims": CLAIMS})
            verdicts = [_verdict(v) for v in json.loads(result.content[0].text)["verdicts"]]  # type: ignore[union-attr]
        return asks, verdicts

    asks, verdicts = asyncio.run(run())
    assert asks == library["ask"]
    assert verdicts == library["verify"]
