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
import zlib
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
    counter = store.write_counter()
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


class ShardedMap:
    """A persisted dict read one shard at a time: a CLI question looks up a few keys of an index with hundreds of
    thousands (the term index of a 1M-fact base: 0.2-0.7 s to read whole, a few milliseconds by shard).

    The file holds a header (the key it was built under and each shard's place) and the shards, each a marshalled
    dict of the keys that hash to it. Keys are tuples of strings.
    """

    def __init__(self, data: bytes, places: list[tuple[int, int]], size: int) -> None:
        """Over the file's bytes `data`, whose shards lie at `places` (offset, length); `size` keys in all."""
        self._data = data
        self._places = places
        self._shards: dict[int, dict[Any, Any]] = {}
        self.size = size

    @classmethod
    def open(cls, folder: Path, name: str, key: str) -> ShardedMap | None:
        """The map saved as `name` in `folder` under `key`; None when missing, stale or torn."""
        with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
            data = (folder / f"{name}.shards").read_bytes()
            length = int.from_bytes(data[:8], "little")
            stored_key, size, places = marshal.loads(data[8 : 8 + length])
            if stored_key == f"{FORMAT}:{key}" and places and places[-1][0] + places[-1][1] <= len(data):
                return cls(data, [(8 + length + at, n) for at, n in places], size)
        return None

    def get(self, key: tuple[str, ...]) -> Any:
        """The value of `key`, or None."""
        n = _shard_of(key, len(self._places))
        shard = self._shards.get(n)
        if shard is None:
            at, length = self._places[n]
            shard = self._shards[n] = marshal.loads(self._data[at : at + length])
        return shard.get(key)

    def whole(self) -> dict[Any, Any]:
        """Every key and value (reads every shard)."""
        out: dict[Any, Any] = {}
        for at, length in self._places:
            out.update(marshal.loads(self._data[at : at + length]))
        return out


def save_sharded(folder: Path, name: str, key: str, value: dict[Any, Any]) -> None:
    """Save `value` (keys: tuples of strings) as `name` in `folder` under `key`, for `ShardedMap.open` (atomically;
    an unwritable folder is not an error)."""
    count = max(1, min(SHARDS, len(value) // 64))
    shards: list[dict[Any, Any]] = [{} for _ in range(count)]
    for k, v in value.items():
        shards[_shard_of(k, count)][k] = v
    blobs = [marshal.dumps(s) for s in shards]
    places, at = [], 0
    for blob in blobs:
        places.append((at, len(blob)))
        at += len(blob)
    header = marshal.dumps((f"{FORMAT}:{key}", len(value), places))
    with contextlib.suppress(OSError, ValueError):
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{name}.tmp-{os.getpid()}"
        with tmp.open("wb") as out:
            out.write(len(header).to_bytes(8, "little"))
            out.write(header)
            for blob in blobs:
                out.write(blob)
        tmp.replace(folder / f"{name}.shards")


SHARDS = 1024


def _shard_of(key: tuple[str, ...], count: int) -> int:
    # Stable across processes (str hashes are salted per process).
    return zlib.crc32("\x1f".join(key).encode("utf-8")) % count
