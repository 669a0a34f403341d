"""What every reply is held to: an error message quotes at most a short prefix of the input."""

from __future__ import annotations

MAX_ERROR_CHARS = 600  # a sentence and a prefix of the input: enough to find it, never the whole of it


def clip(message: str) -> str:
    """`message` cut to MAX_ERROR_CHARS, saying how long it was (a 1 MB argument must not come back whole)."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    return f"{message[:MAX_ERROR_CHARS]}... (message cut: {len(message):,} characters)"
