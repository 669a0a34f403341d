"""`kgbrain mcp` over stdio with the `mcp` client: the tools, their paging, writes, errors and result sizes."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from kgbrain.service.mcp_tools import TOOLS as TOOLS_BY_MODEL
from tests.service.conftest import copy_kb, env_with

TOOLS = {
    "ask",
    "verify_claims",
    "check_answer",
    "remember",
    "recall",
    "search_concepts",
    "forget",
    "conflicts",
    "explain",
}
MAX_TOKENS = 25_000


def _text(result: Any) -> str:
    return str(result.content[0].text)


def test_mcp_tools_over_stdio(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    kb = copy_kb(demo_db, tmp_path / "mcp")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(kb), "mcp"], env=env_with(no_block)
    )

    async def run() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            listed = await client.list_tools()
            tools = {t.name: t for t in listed.tools}
            assert set(tools) == TOOLS
            assert all(len(t.description or "") > 80 for t in tools.values())
            assert "question" in tools["ask"].input_schema["properties"]
            # Each tool's input schema is its arguments' model's, limits included.
            for spec in TOOLS_BY_MODEL:
                assert tools[spec.name].input_schema == spec.arguments.model_json_schema()
            assert tools["verify_claims"].input_schema["properties"]["claims"]["maxItems"] == 100
            sizes: list[int] = []

            async def call(name: str, args: dict[str, Any]) -> Any:
                result = await client.call_tool(name, args)
                assert not result.is_error, _text(result)
                sizes.append(len(_text(result)))
                return json.loads(_text(result))

            found = await call("search_concepts", {"query": "нейроны"})
            assert found["concepts"][0]["id"] == "neuron"
            first = await call("recall", {"concept": "neuron", "limit": 3})
            assert len(first["facts"]) == 3
            assert first["next_cursor"] is not None
            second = await call("recall", {"concept": "neuron", "limit": 3, "cursor": first["next_cursor"]})
            assert {f["fact_id"] for f in first["facts"]}.isdisjoint(f["fact_id"] for f in second["facts"])
            stored = await call(
                "remember",
                {
                    "facts": [{"subject": "glorp", "predicate": "is_a", "object": "neuron"}],
                    "source": "agent",
                    "trust": 0.7,
                },
            )
            assert stored["facts_added"] == 1
            answer = await call("ask", {"question": "Is a glorp a cell?"})
            assert "glorp" in answer["concepts"]
            assert answer["outcome"] == "supported"
            [fact] = (await call("recall", {"concept": "glorp"}))["facts"]
            assert fact["source"] == "agent"
            assert fact["trust"] == 0.7
            explained = await call("explain", {"fact_id": fact["fact_id"]})
            assert explained["fact"]["fact_id"] == fact["fact_id"]
            assert explained["conflicts"] == []
            forgotten = await call("forget", {"fact_id": fact["fact_id"], "reason": "test"})
            assert forgotten["previous_status"] == "active"
            again = await call("ask", {"question": "Is a glorp a cell?"})
            assert again["outcome"] != "supported"
            conflicts = await call("conflicts", {"limit": 2})
            assert len(conflicts["conflicts"]) <= 2
            assert conflicts["total"] >= 1
            report = await call("check_answer", {"draft": "Neurons have DNA.", "question": "Do neurons have DNA?"})
            assert report["language"] == "en"
            assert report["text"].startswith("Neurons have DNA")
            # Errors come back as tool errors with the CLI's message, not as crashes.
            bad = await client.call_tool("recall", {"concept": "neuronn"})
            assert bad.is_error
            assert "Unknown concept 'neuronn'. Did you mean 'neuron'" in _text(bad)
            bad = await client.call_tool("remember", {"facts": [{"subject": "x"}], "source": "agent"})
            assert bad.is_error
            assert "field 'predicate'" in _text(bad)
            bad = await client.call_tool("recall", {"concept": "neuron", "limit": 0})
            assert bad.is_error
            assert "field 'limit': 0 is outside 1..200" in _text(bad)
            bad = await client.call_tool("conflicts", {"status": "maybe"})
            assert bad.is_error
            assert "field 'status'" in _text(bad)
            too_many = await client.call_tool("verify_claims", {"claims": ["Neurons have DNA"] * 101})
            assert too_many.is_error
            assert "at most 100 claims" in _text(too_many)
            many = await call("verify_claims", {"claims": ["Neurons have DNA"] * 100})
            returned = [v["id"] for v in many["verdicts"]] + many["not_returned"]
            assert returned == [str(n) for n in range(1, 101)]
            assert many["verdicts"]
            assert many["verdicts"][0]["verdict"] == "SUPPORTED"
            # ~3 characters a token for Russian text: every result stays under 25,000 tokens.
            assert max(sizes) < MAX_TOKENS * 3

    asyncio.run(run())


def test_mcp_read_only_leaves_out_the_writing_tools(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    kb = copy_kb(demo_db, tmp_path / "ro")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(kb), "mcp", "--read-only"], env=env_with(no_block)
    )

    async def run() -> set[str]:
        async with Client(params, read_timeout_seconds=120) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert asyncio.run(run()) == TOOLS - {"remember", "forget"}


def test_mcp_over_streamable_http(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    import socket
    import subprocess

    from mcp import Client

    from tests.service.conftest import wait_until

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    kb = copy_kb(demo_db, tmp_path / "http")
    command = [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp", "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, env=env_with(no_block), stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)

    def listening() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    async def run() -> dict[str, Any]:
        async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=120) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            result = await client.call_tool("search_concepts", {"query": "нейрон"})
            return dict(json.loads(_text(result)))

    try:
        wait_until(listening)
        found = asyncio.run(run())
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert found["concepts"][0]["id"] == "neuron"
