"""Regular expressions compiled when first used: the question and claim grammars define about a hundred, and a CLI
question, which runs a few of them, paid for compiling all of them at import (tens of milliseconds)."""

from __future__ import annotations

import re


class LazyPattern:
    """`re.compile(source, flags)`, done on the first `match`."""

    __slots__ = ("_compiled", "_flags", "_source")

    def __init__(self, source: str, flags: int = 0) -> None:
        """Keep the pattern's text and flags."""
        self._source = source
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def match(self, text: str) -> re.Match[str] | None:
        """`re.Pattern.match`."""
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, self._flags)
        return compiled.match(text)
