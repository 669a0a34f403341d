"""The bytes an MCP client sends over stdio, made parseable line by line before the SDK reads them.

The SDK parses each line with pydantic's JSON reader, which refuses a lone surrogate escape (`"\\ud800"`); it then
has no request id to answer, so the client's call waits forever. Invalid UTF-8 bytes the SDK already replaces with
U+FFFD; a lone surrogate escape gets the same here, so every request is parsed and answered (paired escapes, which
make one character, and an escaped backslash before `u` are left as they are).

Nor can that reader take a line nested past its recursion limit (about 200 levels): a `tools/call` whose argument
was 100,000 lists deep was dropped the same way. A line nested deeper than MAX_LINE_DEPTH is measured here without
recursing and replaced by a `kgbrain/refused` request under the same id, which the server answers with a JSON-RPC
error saying why (`refuse_handler`); one without an id (a notification) is dropped, as it gets no reply anyway.
"""

from __future__ import annotations

import io
import json
import re
import sys
from typing import Any, BinaryIO

MAX_LINE_DEPTH = 64  # a tool's arguments may nest 32 levels (models.MAX_JSON_DEPTH) inside the 3 of the envelope
REFUSED_METHOD = "kgbrain/refused"

_HIGH, _LOW = rb"\\u[dD][89abAB][0-9a-fA-F]{2}", rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_ESCAPES = re.compile(rb"(\\\\)|" + _HIGH + rb"(" + _LOW + rb")?|" + _LOW)


def mend_line(line: bytes) -> bytes:
    """`line` with every lone surrogate escape replaced by `\\ufffd`."""
    if b"\\" not in line:
        return line
    return _ESCAPES.sub(_mend, line)


def _mend(m: re.Match[bytes]) -> bytes:
    if m.group(1) or m.group(2):  # an escaped backslash (what follows is text), or a surrogate pair
        return m.group(0)
    return rb"\ufffd"


_TOKENS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}:]', re.DOTALL)  # strings whole, then structure
_SCALAR = re.compile(rb'\s*("[^"\\]*(?:\\.[^"\\]*)*"|-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|null)', re.DOTALL)


def bound_line(line: bytes) -> bytes:
    """`line`, or, when it nests more than MAX_LINE_DEPTH lists and objects, a `kgbrain/refused` request with its id
    (an empty line when it has none). Counted without recursing, strings skipped whole."""
    if line.count(b"[") + line.count(b"{") <= MAX_LINE_DEPTH:  # brackets in strings counted too: never too few
        return line
    depth, deepest, key, found = 0, 0, b"", None
    for m in _TOKENS.finditer(line):
        token = m.group()
        if token in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        elif token in (b"]", b"}"):
            depth -= 1
        elif token == b":":
            if depth == 1 and key == b'"id"' and found is None:
                value = _SCALAR.match(line, m.end())
                found = value.group(1) if value else None
        elif depth == 1:
            key = token
    if deepest <= MAX_LINE_DEPTH:
        return line
    if found is None:
        return b"\n"
    reason = f"the request is nested more than {MAX_LINE_DEPTH} levels deep; nothing of it was read"
    params = json.dumps({"reason": reason}).encode()
    return b'{"jsonrpc": "2.0", "id": %s, "method": "%s", "params": %s}\n' % (found, REFUSED_METHOD.encode(), params)


def answer_refusals(server: Any) -> None:
    """Have `server` (an SDK MCPServer) answer `kgbrain/refused` requests with a JSON-RPC error (Invalid Request)
    giving their reason. The SDK has no public way to add a method, so its low-level server is reached for."""
    from mcp.shared.exceptions import MCPError
    from mcp.types import INVALID_REQUEST, RequestParams

    class Refusal(RequestParams):
        reason: str = "the request was refused"

    async def refuse(ctx: Any, params: Refusal) -> Any:
        raise MCPError(INVALID_REQUEST, params.reason[:200])

    server._lowlevel_server.add_request_handler(REFUSED_METHOD, Refusal, refuse)


class _MendedLines(io.RawIOBase):
    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if not self._pending:
            self._pending = bound_line(mend_line(self._source.readline()))
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def mend_stdin() -> None:
    """Read sys.stdin through `mend_line` and `bound_line` from now on (its buffer has no descriptor, so the SDK
    reads it in place)."""
    source = sys.stdin.buffer
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_MendedLines(source)), encoding="utf-8", errors="replace")
