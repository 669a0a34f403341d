"""Over MCP stdio a request nested too deep for any parser is answered at once with a JSON-RPC error under its id,
whatever the method and wherever the depth is (issue #22: a `verify_claims` argument 100,000 levels deep got no
reply at all: the SDK's JSON reader stops at about 200 levels and then has no id to answer)."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from kgbrain.service.stdio_input import MAX_LINE_DEPTH, bound_line
from tests.security.conftest import small_kb
from tests.service.conftest import env_with

DEEP = b"[" * 100_000 + b"]" * 100_000
REPLY_S = 20.0  # each reply's hard limit (they come in about 0.1 s)


class Client:
    """A stdio MCP client speaking raw JSON-RPC lines, each reply waited for at most REPLY_S."""

    def __init__(self, server: subprocess.Popen[bytes]) -> None:
        assert server.stdin is not None
        assert server.stdout is not None
        self.stdin, self.stdout = server.stdin, server.stdout

    def send(self, line: bytes) -> None:
        self.stdin.write(line + b"\n")
        self.stdin.flush()

    def reply(self, timeout: float = REPLY_S) -> dict[str, Any] | None:
        ready, _, _ = select.select([self.stdout], [], [], timeout)
        return json.loads(self.stdout.readline()) if ready else None

    def call(self, line: bytes) -> tuple[dict[str, Any], float]:
        start = time.monotonic()
        self.send(line)
        reply = self.reply()
        assert reply is not None, f"no reply within {REPLY_S} s to {line[:120]!r}"
        return reply, time.monotonic() - start


def refused(reply: dict[str, Any], rid: Any) -> None:
    assert reply["id"] == rid, reply
    assert reply["error"]["code"] == -32600, reply
    assert f"nested more than {MAX_LINE_DEPTH} levels deep" in reply["error"]["message"]


def test_every_method_answers_a_request_nested_100000_deep(tmp_path: Path, no_block: Path) -> None:
    kb = small_kb(tmp_path)
    with subprocess.Popen(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), "mcp"],
        env=env_with(no_block),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    ) as server:
        try:
            _talk(Client(server))
        finally:
            server.kill()
            server.wait(timeout=60)


def _talk(client: Client) -> None:
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    client.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode())
    assert client.reply(120) is not None
    client.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    tools, _ = client.call(b'{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}')
    schemas = {t["name"]: list(t["inputSchema"]["properties"]) for t in tools["result"]["tools"]}
    assert {"verify_claims", "remember", "forget"} <= set(schemas)
    rid = 100
    for name, fields in sorted(schemas.items()):  # each tool, each of its arguments
        for field in fields:
            rid += 1
            line = b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", "arguments": ' % (
                rid,
                name.encode(),
            )
            reply, took = client.call(line + b'{"%s": %s}}}' % (field.encode(), DEEP))
            refused(reply, rid)
            assert took < 10
    methods = ["ping", "tools/list", "resources/list", "prompts/list", "completion/complete", "logging/setLevel"]
    for method in [*methods, "no/such/method"]:  # the methods besides tools/call, and one there is not
        rid += 1
        reply, _ = client.call(
            b'{"jsonrpc": "2.0", "id": %d, "method": "%s", "params": {"x": %s}}' % (rid, method.encode(), DEEP)
        )
        refused(reply, rid)
    outside = [  # the depth in params outside `arguments`, the id a string with brackets, the id after the depth
        b'{"jsonrpc": "2.0", "id": 300, "method": "tools/call", "params": {"name": "ask", "_meta": {"x": %s}}}' % DEEP,
        b'{"jsonrpc": "2.0", "id": 301, "method": "tools/call", "params": {"name": %s}}' % DEEP,
        b'{"jsonrpc": "2.0", "id": 302, "method": "tools/call", "params": %s}' % DEEP,
        b'{"jsonrpc": "2.0", "id": "a[{\\"b", "method": "ping", "params": {"x": %s}}' % DEEP,
        b'{"jsonrpc": "2.0", "method": "ping", "params": {"x": %s}, "id": 303}' % DEEP,
    ]
    for line, rid_ in zip(outside, [300, 301, 302, 'a[{"b', 303], strict=True):
        reply, _ = client.call(line)
        refused(reply, rid_)
    client.send(b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"x": %s}}' % DEEP)  # no id
    # Deeper than a field may be but well inside the line's bound: the tool's own error, as before.
    line = b'{"jsonrpc": "2.0", "id": 400, "method": "tools/call", "params": {"name": "verify_claims", "arguments": '
    reply, _ = client.call(line + b'{"claims": %s}}}' % (b"[" * 40 + b"]" * 40))
    assert reply["id"] == 400
    assert reply["result"]["isError"], reply
    assert "nested more than 32 levels deep" in reply["result"]["content"][0]["text"]
    fine = {"name": "ask", "arguments": {"question": "Is a neuron a cell?"}}
    reply, _ = client.call(json.dumps({"jsonrpc": "2.0", "id": 500, "method": "tools/call", "params": fine}).encode())
    assert reply["id"] == 500, reply  # the notification got no reply; the server answers on
    assert "Yes" in reply["result"]["content"][0]["text"]


@pytest.mark.parametrize("depth", [MAX_LINE_DEPTH - 1, MAX_LINE_DEPTH])
def test_a_line_within_the_bound_is_left_as_it_is(depth: int) -> None:
    inner = b"[" * (depth - 1) + b'"[[[[{{{{"' + b"]" * (depth - 1)  # brackets inside a string are text
    line = b'{"id": 1, "method": "x", "params": %s}\n' % inner
    assert bound_line(line) == line


def test_a_line_past_the_bound_keeps_only_its_id() -> None:
    line = b'{"method": "x", "id": -7, "params": {"a": %s}}\n' % (b"[" * MAX_LINE_DEPTH + b"]" * MAX_LINE_DEPTH)
    assert json.loads(bound_line(line))["id"] == -7
    assert json.loads(bound_line(line))["method"] == "kgbrain/refused"
    assert bound_line(b'{"method": "x", "params": %s}\n' % DEEP) == b"\n"  # a notification: nothing to answer
