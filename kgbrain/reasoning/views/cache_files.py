"""Reading the caches persisted beside a database (`<db>.reasoning/`) without trusting them.

A cache is only a copy of what the database holds: a truncated, garbled or foreign file there must never
stop a command, so a cache that cannot be read counts as absent and is rebuilt from the database.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

# What numpy, json and hnswlib raise on a file that is not what they wrote (hnswlib: RuntimeError).
CORRUPT = (OSError, ValueError, KeyError, EOFError, IndexError, TypeError, RuntimeError, zipfile.BadZipFile)


def read_cache(open_cache: Callable[[], T | None]) -> T | None:
    """The cache `open_cache` reads, or None (rebuild it) when there is none or it cannot be read."""
    try:
        return open_cache()
    except CORRUPT:
        return None
