"""The query closure kept beside the database (`<db>.reasoning/query-closure.bin`) between processes.

A `kgbrain query` answers over every active fact plus what the stored strict rules and the entailment regime
derive from them (`build`). Recomputing that is most of a query process on a large base (LUBM(1,0): reading 217k
facts, encoding them and re-running 66 rules, ~1.5 of ~2.2 CPU s), so the result is saved and read back while
it was built from the same data by the same code:

- the data: the store's write counter (every write transaction changes it, memory/persisted.data_key), read
  *before* the facts, so a closure is never filed under a counter newer than its facts;
- the code: a hash of the modules and Cypher files that define the closure (`code_key`).

The file is a header (format, key, a CRC-32 of the rest) then the closure's terms (marshal: plain data, never
runs code) and its arrays (raw bytes). A file that is missing, stale, torn or garbled (the CRC, the lengths)
counts as absent: the closure is recomputed, never answered from a bad file. The definition stays the Cypher in
queries/ and the executor; the file is only a copy (tests/reasoning/rules/test_closure_file.py holds it to a
fresh computation).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import marshal
import os
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from kgbrain.reasoning.rules.executor import Closure
from kgbrain.store.queries import queries_dir

NAME = "query-closure.bin"
FORMAT = 1  # bump when the layout changes
# The Cypher that reads what the closure is built from: the mirror's facts, the literal facts, the rules.
QUERIES = ("graph_facts", "rules_value_facts", "rules_all", "rules_order_all")
# What defines the closure: the executor, the entailment regime, the mirror, the stored program, its parser and
# cache, the rule and fact models, the strict-rule selection (api.Brain.rule_program) and this file.
MODULES = (
    "kgbrain.reasoning.rules.executor",
    "kgbrain.reasoning.rules.query",
    "kgbrain.reasoning.views.graph",
    "kgbrain.reasoning.rules.rulebase",
    "kgbrain.reasoning.rules.program_cache",
    "kgbrain.ingest.rule_syntax",
    "kgbrain.ruleset",
    "kgbrain.knowledge",
    "kgbrain.api",
    __name__,
)
_HEAD = 8  # bytes of the header's length
_DTYPES = {"numbers": np.float64, "is_concept": np.bool_}  # every other array is int64


@cache
def code_key() -> str:
    """A hash of the source files of `MODULES` and of the Cypher in `QUERIES` (found, not imported)."""
    digest = hashlib.blake2b(digest_size=8)
    for module in MODULES:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        digest.update(Path(origin).read_bytes() if origin else module.encode())
    for name in QUERIES:
        digest.update((queries_dir() / f"{name}.cypher").read_bytes())
    return digest.hexdigest()


def load_or_build(folder: Path | None, data_key: str | None, build: Callable[[], Closure]) -> Closure:
    """The closure saved in `folder` under `data_key` and this code, or `build()` (then saved, when it can be).

    `data_key` must be read before `build` reads the facts. None (no folder, no write counter): just `build()`.
    """
    if folder is None or data_key is None:
        return build()
    key = f"{data_key}:{code_key()}"
    path = folder / NAME
    found = read(path, key)
    if found is not None:
        return found
    closure = build()
    with contextlib.suppress(OSError):  # a read-only location: the closure still works from memory
        write(path, key, closure)
    return closure


def write(path: Path, key: str, closure: Closure) -> None:
    """Save `closure` at `path` under `key` (atomically: a temp file renamed into place)."""
    meta, arrays = closure.state()
    specs, blobs, at = [], [], 0
    for name, arr in arrays.items():
        data = np.ascontiguousarray(arr, dtype=_DTYPES.get(name, np.int64)).tobytes()
        data += b"\0" * (-len(data) % 8)  # every array starts 8-byte aligned
        specs.append((name, at, len(arr)))
        blobs.append(data)
        at += len(data)
    meta_bytes = marshal.dumps({**meta, "arrays": specs})
    body = b"".join(blobs)
    crc = zlib.crc32(body, zlib.crc32(meta_bytes))
    header = marshal.dumps((FORMAT, key, len(meta_bytes), len(body), crc))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with tmp.open("wb") as out:
            out.write(len(header).to_bytes(_HEAD, "little"))
            out.write(header)
            pad = -(_HEAD + len(header) + len(meta_bytes)) % 8
            out.write(meta_bytes + b"\0" * pad)
            out.write(body)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def read(path: Path, key: str) -> Closure | None:
    """The closure saved at `path` under `key`; None when it is missing, stale, torn or garbled."""
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        with path.open("rb") as fh:
            length = int.from_bytes(fh.read(_HEAD), "little")
            if not 0 < length < 4096:
                return None
            fmt, stored_key, meta_len, body_len, crc = marshal.loads(fh.read(length))
            if fmt != FORMAT or stored_key != key:
                return None
            meta_bytes = fh.read(meta_len)
            fh.read(-(_HEAD + length + meta_len) % 8)
            body = bytearray(body_len)  # writable: the arrays are used in place
            if fh.readinto(body) != body_len or fh.read(1) or len(meta_bytes) != meta_len:
                return None
        if zlib.crc32(body, zlib.crc32(meta_bytes)) != crc:
            return None
        meta: dict[str, Any] = marshal.loads(meta_bytes)
        arrays: dict[str, npt.NDArray[Any]] = {}
        for name, at, count in meta.pop("arrays"):
            arrays[name] = np.frombuffer(body, dtype=_DTYPES.get(name, np.int64), count=count, offset=at)
        return Closure.restore(meta, arrays)
    return None
