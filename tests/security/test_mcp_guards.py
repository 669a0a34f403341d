"""The MCP server: tokens with scopes on the HTTP transport, the default source of `remember`, and the lock a
stdio server holds (a CLI command fails at once naming it, as with `kgbrain serve`)."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from tests.security.conftest import small_kb
from tests.service.conftest import env_with, wait_until


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_remember_defaults_its_source_to_the_clients_name(tmp_path: Path, no_block: Path) -> None:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters
    from mcp_types import Implementation

    kb = small_kb(tmp_path)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(kb), "mcp"], env=env_with(no_block)
    )

    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        info = Implementation(name="test-agent", version="1.0")
        async with Client(params, read_timeout_seconds=120, client_info=info) as client:
            result = await client.call_tool(
                "remember", {"facts": [{"subject": "zorp", "predicate": "is_a", "object": "cell"}]}
            )
            assert not result.is_error, result.content[0].text
            stored = json.loads(result.content[0].text)
            recalled = await client.call_tool("recall", {"concept": "zorp"})
            return stored, json.loads(recalled.content[0].text)

    stored, recalled = asyncio.run(run())
    assert stored["source"] == "mcp:test-agent"
    assert "mcp:test-agent" in stored["note"]
    assert recalled["facts"][0]["source"] == "mcp:test-agent"


def test_a_cli_command_on_a_stdio_mcp_servers_file_fails_at_once_naming_it(tmp_path: Path, no_block: Path) -> None:
    kb = small_kb(tmp_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp"],
        env=env_with(no_block),
        stdin=subprocess.PIPE,  # kept open: a stdio server stops when its client closes the pipe
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: " " in (kb.parent / (kb.name + ".lock")).read_text(errors="replace"))
        for command in (["stats"], ["load", str(tmp_path / "base.jsonl")]):
            started = time.monotonic()
            done = subprocess.run(
                [sys.executable, "-m", "kgbrain", "--db", str(kb), *command],
                env=env_with(no_block, KGBRAIN_LOCK_TIMEOUT="600"),
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode != 0, command
            assert "is served by `kgbrain mcp` over stdio (pid" in done.stderr, done.stderr
            assert time.monotonic() - started < 30
    finally:
        server.kill()
        server.wait()
        assert server.stdin is not None
        server.stdin.close()


def test_mcp_http_needs_a_token_of_the_right_scope(tmp_path: Path, no_block: Path) -> None:
    from mcp import Client

    kb = small_kb(tmp_path)
    port = _port()
    env = env_with(no_block, KGBRAIN_READ_TOKEN="r-token", KGBRAIN_WRITE_TOKEN="w-token", KGBRAIN_TOKEN="a-token")
    process = subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp", "--transport", "http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"

    def listening() -> bool:
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    async def calls(token: str) -> dict[str, Any]:
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        http = httpx2.AsyncClient(headers={"authorization": f"Bearer {token}"}, timeout=120)
        out: dict[str, Any] = {}
        transport = streamable_http_client(url, http_client=http)
        async with http, Client(transport, read_timeout_seconds=120) as client:
            out["tools"] = {t.name for t in (await client.list_tools()).tools}
            fact = {"facts": [{"subject": f"q{token[0]}", "predicate": "is_a", "object": "cell"}], "source": "t"}
            out["remember"] = await client.call_tool("remember", fact)
            out["forget"] = await client.call_tool("forget", {"fact_id": "nope", "reason": "t"})
        return out

    try:
        wait_until(listening)
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        assert httpx.post(url, json=body, timeout=30).status_code == 401
        assert httpx.post(url, json=body, headers={"authorization": "Bearer wrong"}, timeout=30).status_code == 401
        r = httpx.post(url, json=body, headers={"authorization": "Bearer r-token", "host": "evil.example"}, timeout=30)
        assert r.status_code == 421
        read = asyncio.run(calls("r-token"))
        assert read["remember"].is_error
        assert "needs a write token" in read["remember"].content[0].text
        write = asyncio.run(calls("w-token"))
        assert not write["remember"].is_error, write["remember"].content[0].text
        assert "needs a admin token" in write["forget"].content[0].text or "admin" in write["forget"].content[0].text
        admin = asyncio.run(calls("a-token"))
        assert "admin" not in admin["forget"].content[0].text  # refused only as an unknown fact
    finally:
        process.terminate()
        process.wait(timeout=60)


def _rpc(server: subprocess.Popen[bytes], line: bytes, timeout: float = 60) -> dict[str, Any] | None:
    import select

    assert server.stdin is not None
    assert server.stdout is not None
    server.stdin.write(line + b"\n")
    server.stdin.flush()
    ready, _, _ = select.select([server.stdout], [], [], timeout)
    return json.loads(server.stdout.readline()) if ready else None


def test_a_stdio_request_with_a_lone_surrogate_escape_is_answered(tmp_path: Path, no_block: Path) -> None:
    """Blind attack M09: the SDK could not parse `"\\ud800"` and sent no reply at all (the client's call hung)."""
    kb = small_kb(tmp_path)
    with subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp"],
        env=env_with(no_block),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as server:
        _talk_with_surrogates(server)


def _talk_with_surrogates(server: subprocess.Popen[bytes]) -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    try:
        assert _rpc(server, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode())
        assert server.stdin is not None
        server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
        for n, text in enumerate([rb"Is a \ud800 a cell?", rb"Is a \udfff\ud800 a cell?", rb"Is a \\ud800 a cell?"]):
            call = b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "ask", ' % (10 + n)
            reply = _rpc(server, call + b'"arguments": {"question": "' + text + b'"}}}')
            assert reply is not None, text
            assert reply["id"] == 10 + n
        pair = b'{"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "ask", "arguments": '
        reply = _rpc(server, pair + b'{"question": "Is a \\ud83d\\ude00 a cell?"}}}')  # a pair is a character
        assert reply is not None
        assert "\U0001f600" in reply["result"]["content"][0]["text"]
        fine = {"name": "ask", "arguments": {"question": "Is a neuron a cell?"}}
        reply = _rpc(server, json.dumps({"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": fine}).encode())
        assert reply is not None
        assert "Yes" in reply["result"]["content"][0]["text"]
    finally:
        server.kill()
        server.wait()


def test_a_stdio_server_takes_the_time_limits(tmp_path: Path, no_block: Path) -> None:
    """`kgbrain mcp --timeout`: tool calls past it are short tool errors and the server answers on (issue #22)."""
    kb = small_kb(tmp_path)
    with subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp", "--timeout", "0.1", "--write-timeout", "30"],
        env=env_with(no_block),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            _past_the_time_limit(server)
        finally:
            server.kill()
            server.wait(timeout=60)


def _past_the_time_limit(server: subprocess.Popen[bytes]) -> None:
    import select

    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    assert _rpc(server, json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode())
    assert server.stdin is not None
    assert server.stdout is not None
    server.stdin.write(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')
    for n in range(8):  # sent at once: the reader takes them in turn, so some run or wait past 0.1 s
        draft = " ".join(f"The neuron_{i} is a cell{(i + n) % 9}." for i in range(1_500))[:10_000]
        call = {"name": "check_answer", "arguments": {"draft": draft}}
        message = {"jsonrpc": "2.0", "id": 10 + n, "method": "tools/call", "params": call}
        server.stdin.write(json.dumps(message).encode() + b"\n")
    server.stdin.flush()
    replies: dict[int, dict[str, Any]] = {}
    deadline = time.monotonic() + 120
    while len(replies) < 8 and time.monotonic() < deadline:
        ready, _, _ = select.select([server.stdout], [], [], 5)
        if ready:
            reply = json.loads(server.stdout.readline())
            replies[reply["id"]] = reply
    assert sorted(replies) == list(range(10, 18))
    late = [r["result"]["content"][0]["text"] for r in replies.values() if r["result"].get("isError")]
    assert late, "no call ran past the limit"
    assert all("longer than 0.1 s" in text and len(text) < 1_000 for text in late), late[:1]
    fine = {"name": "remember", "arguments": {"facts": [{"subject": "zorp", "predicate": "is_a", "object": "cell"}]}}
    reply = _rpc(server, json.dumps({"jsonrpc": "2.0", "id": 30, "method": "tools/call", "params": fine}).encode())
    assert reply is not None
    assert not reply["result"].get("isError"), reply
