"""Working memory (issue #24 item 3): follow-up questions in a session are answered as their full forms are, in
English and Russian, the same through the library, `kgbrain chat`, HTTP /v1/ask and MCP ask."""

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
from tests.service.conftest import NO_BLOCK, Server, copy_kb, env_with

# (what is asked, its full form: what the follow-up must be answered as)
EN = [
    ("What is a neuron?", "What is a neuron?"),
    ("Does it have DNA?", "Does neuron have DNA?"),
    ("And glial cells?", "Does glial cells have DNA?"),
]
RU = [
    ("Что такое нейрон?", "Что такое нейрон?"),
    ("Есть ли у него ДНК?", "Есть ли у нейрон ДНК?"),
    ("А у глиальных клеток?", "Есть ли у глиальных клеток ДНК?"),
]
VOLATILE = {"latency_ms", "digest"}


def _same(data: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in AskOut.model_validate(data).model_dump().items() if k not in VOLATILE}
    return json.loads(json.dumps(out), parse_float=lambda x: round(float(x), 6))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def setup(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("conversation")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    return copy_kb(demo_db, folder), config


@pytest.fixture(scope="module")
def library(setup: tuple[Path, Path]) -> dict[str, list[dict[str, Any]]]:
    db, config = setup
    out: dict[str, list[dict[str, Any]]] = {}
    with Brain.open(db, read_only=True) as brain:
        brain.config = load_config(config)
        for name, dialogue in (("en", EN), ("ru", RU)):
            answers = [AskOut.from_output(brain.converse(q, session=name)).model_dump() for q, _ in dialogue]
            for (asked, full), got in zip(dialogue, answers, strict=True):
                alone = brain.think(full)
                assert got["question"] == asked
                if asked == full:
                    assert got["answer"] == alone.text
                    assert got["reading"] is None
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


def test_cli_chat_matches_the_library(setup: tuple[Path, Path], library: dict[str, list[dict[str, Any]]]) -> None:
    db, config = setup
    for name, dialogue in (("en", EN), ("ru", RU)):
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "chat", "--json"],
            input="".join(q + "\n" for q, _ in dialogue),
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
                for q, _ in dialogue
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
                for q, _ in dialogue:
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
