"""Episodic memory (issue #24 item 2): record, list, retrieve as episodic evidence, correct, forget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.models import AskOut

ROWS = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "neuron", "predicate": "has_property", "object": "axon"},
    {"subject": "glial_cell", "predicate": "is_a", "object": "cell"},
]


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    facts = tmp_path / "facts.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts], source="textbook")
    return db


def _cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(db), *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_an_episode_is_recorded_listed_retrieved_corrected_and_forgotten(kb: Path) -> None:
    done = _cli(kb, "ask", "Is a neuron a cell?", "--record", "--json")
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)
    assert first["episodes"] == []  # nothing recorded before it
    listed = json.loads(_cli(kb, "history", "--json").stdout)
    assert len(listed) == 1
    ep = listed[0]
    assert ep["question"] == "Is a neuron a cell?"
    assert ep["intent"] == first["intent"]
    assert set(ep["concepts"]) == {"neuron", "cell"}
    assert ep["answer"] == first["answer"]
    assert ep["fact_ids"] == first["fact_ids"]
    assert ep["channel"] == "cli"
    assert ep["id"].startswith("ep_")

    # A later question about the same concept retrieves it as episodic evidence, never as proof.
    later = json.loads(_cli(kb, "ask", "Does a neuron have an axon?", "--json").stdout)
    assert [e["id"] for e in later["episodes"]] == [ep["id"]]
    assert f"episodic:{ep['id']}" in later["digest"]
    assert ep["id"] not in later["fact_ids"]
    assert all(ep["id"] not in step["facts"] for step in later["trace"])
    assert json.loads(_cli(kb, "ask", "Is a glial cell a neuron?", "--json").stdout)["episodes"][0]["id"] == ep["id"]

    # A correction links to the episode and comes back with it.
    done = _cli(kb, "correct", ep["id"], "No, that is wrong: say which kind of cell", "--by", "teacher")
    assert done.returncode == 0, done.stderr
    assert _cli(kb, "correct", ep["id"], "«Нет, это неверно»", "--by", "reviewer").returncode == 0
    again = json.loads(_cli(kb, "history", "--concept", "neuron", "--json").stdout)
    assert again[0]["corrections"] == ["No, that is wrong: say which kind of cell", "«Нет, это неверно»"]
    assert again[0]["corrected_by"] == ["teacher", "reviewer"]  # who corrected, in the order they did
    records = again[0]["correction_records"]
    expected = list(zip(again[0]["corrections"], ["teacher", "reviewer"], strict=True))
    assert [(r["text"], r["by"]) for r in records] == expected
    assert all(r["id"].startswith("co_") and r["made_at"].endswith("Z") for r in records)
    shown = _cli(kb, "history").stdout
    assert "corrected by teacher at " in shown
    assert "corrected by reviewer at " in shown
    assert json.loads(_cli(kb, "history", "--concept", "glial_cell", "--json").stdout) == []
    assert json.loads(_cli(kb, "history", "--since", "2999", "--json").stdout) == []

    # Forgetting removes episodes (with a count) and nothing else.
    with Brain.open(kb, read_only=True) as brain:
        facts_before = brain.stats().facts
    done = _cli(kb, "forget-episodes", "--before", "2000")
    assert done.stdout.strip() == "Forgot 0 episodes asked before 2000."
    done = _cli(kb, "forget-episodes", "--before", "2999")
    assert done.stdout.strip() == "Forgot 1 episode asked before 2999."
    assert json.loads(_cli(kb, "history", "--json").stdout) == []
    with Brain.open(kb, read_only=True) as brain:
        assert brain.stats().facts == facts_before


def test_without_record_nothing_is_stored(kb: Path) -> None:
    assert _cli(kb, "ask", "Is a neuron a cell?").returncode == 0
    assert json.loads(_cli(kb, "history", "--json").stdout) == []


def test_bad_requests_name_the_problem_and_change_nothing(kb: Path) -> None:
    done = _cli(kb, "forget-episodes", "--before", "last week")
    assert done.returncode == 2
    assert "'last week' is not a date" in done.stderr
    done = _cli(kb, "correct", "ep_nope", "wrong")
    assert done.returncode == 2
    assert "Unknown episode 'ep_nope'" in done.stderr
    with Brain.open(kb) as brain:
        out = brain.think("Is a neuron a cell?")
        ep = brain.record_episode(out, channel="test")
        with pytest.raises(InputError, match="the correction is empty"):
            brain.correct_episode(ep.id, "  ", by="me")
        assert [e.corrections for e in brain.history()] == [()]
        assert AskOut.from_output(brain.think("Is a neuron a cell?")).episodes[0]["id"] == ep.id


def test_service_sessions_record_every_question_with_its_channel(kb: Path, tmp_path: Path) -> None:
    import asyncio

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from tests.service.conftest import NO_BLOCK, Server, env_with

    config = tmp_path / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    server = Server(kb, env_with(config))
    try:
        for q in ("What is a neuron?", "Is it a cell?"):
            assert server.client.post("/v1/ask", json={"question": q, "session": "talk-1"}).status_code == 200
        assert server.client.post("/v1/ask", json={"question": "What is a neuron?"}).status_code == 200  # no session
    finally:
        server.stop()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(kb), "mcp"], env=env_with(config)
    )

    async def run() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            result = await client.call_tool("ask", {"question": "Is a glial cell a cell?", "session": "talk-2"})
            assert not result.is_error, result.content

    asyncio.run(run())
    with Brain.open(kb, read_only=True) as brain:
        got = [(e.question, e.channel, e.session) for e in brain.history()]
        assert got == [
            ("What is a neuron?", "http", "talk-1"),
            ("Is it a cell?", "http", "talk-1"),  # as asked, answered as its full form
            ("Is a glial cell a cell?", "mcp", "talk-2"),
        ]
        assert all(e.intent and e.answer for e in brain.history())


def test_an_episode_of_a_question_without_a_verdict_says_whether_it_was_answered(kb: Path) -> None:
    with Brain.open(kb) as brain:
        found = brain.record_episode(brain.think("What is a neuron?"), channel="cli")
        missing = brain.record_episode(brain.think("What is a quasar?"), channel="cli")
        checked = brain.record_episode(brain.think("Is a neuron a cell?"), channel="cli")
    assert (found.outcome, missing.outcome, checked.outcome) == ("answered", "not_answered", "supported")
