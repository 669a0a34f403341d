"""Indexes built from the data, kept in `<db>.reasoning/` between processes.

A CLI call must not rebuild what can be persisted: the retriever's term index costs seconds on a large base
(every term stemmed), reading it back a fraction of that. A saved index is used only when it was built from
the same data (the store's write counter) by the same code (a hash of the modules that build it), so a new
stemmer or a load by another process makes it be rebuilt, never wrongly reused.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from kgbrain.store.protocol import GraphStore

T = TypeVar("T")

FORMAT = 1  # bump when the file layout changes


def data_key(store: GraphStore) -> str | None:
    """The store's write counter, or None when it has none (then nothing is persisted).

    Raises:
        StoreError: the store failed.
    """
    read_counter = getattr(store, "write_counter", None)
    counter = read_counter() if read_counter is not None else None
    return str(counter) if counter is not None else None


@cache
def code_key(*builders: Callable[..., Any]) -> str:
    """A hash of the modules defining `builders` (the functions whose output is persisted)."""
    digest = hashlib.blake2b(digest_size=8)
    for fn in builders:
        source = getattr(sys.modules.get(fn.__module__), "__file__", None)
        digest.update(Path(source).read_bytes() if source else fn.__qualname__.encode())
    return digest.hexdigest()


def load_or_build(folder: Path | None, name: str, key: str | None, build: Callable[[], T]) -> T:
    """The value saved as `name` in `folder` under `key`, or `build()` (then saved, when it can be).

    The value must be marshal-able (dicts, tuples, sets, lists, strings, numbers): marshal reads fast and
    never runs code. A missing, stale, torn or unwritable file only costs a rebuild.
    """
    if folder is None or key is None:
        return build()
    path = folder / f"{name}.marshal"
    wanted = f"{FORMAT}:{key}"
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        stored_key, value = marshal.loads(path.read_bytes())
        if stored_key == wanted:
            return value  # type: ignore[no-any-return]
    value = build()
    save(folder, name, key, value)
    return value


def save(folder: Path, name: str, key: str, value: Any) -> None:
    """Save `value` as `name` in `folder` under `key` (atomically; an unwritable folder is not an error)."""
    with contextlib.suppress(OSError, ValueError):
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{name}.tmp-{os.getpid()}"
        tmp.write_bytes(marshal.dumps((f"{FORMAT}:{key}", value)))
        tmp.replace(folder / f"{name}.marshal")
