"""The bytes an MCP client sends over stdio, made parseable line by line before the SDK reads them.

The SDK parses each line with pydantic's JSON reader, which refuses a lone surrogate escape (`"\\ud800"`); it then
has no request id to answer, so the client's call waits forever. Invalid UTF-8 bytes the SDK already replaces with
U+FFFD; a lone surrogate escape gets the same here, so every request is parsed and answered (paired escapes, which
make one character, and an escaped backslash before `u` are left as they are).
"""

from __future__ import annotations

import io
import re
import sys
from typing import BinaryIO

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


class _MendedLines(io.RawIOBase):
    def __init__(self, source: BinaryIO) -> None:
        self._source = source
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        if not self._pending:
            self._pending = mend_line(self._source.readline())
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def mend_stdin() -> None:
    """Read sys.stdin through `mend_line` from now on (its buffer has no descriptor, so the SDK reads it in place)."""
    source = sys.stdin.buffer
    sys.stdin = io.TextIOWrapper(io.BufferedReader(_MendedLines(source)), encoding="utf-8", errors="replace")
