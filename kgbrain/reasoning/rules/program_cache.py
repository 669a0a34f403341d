"""The parsed stored program and its strata, kept between calls (in the process and in `<db>.reasoning/`).

A knowledge base with an ontology's rules (DBpedia: 5,100) would otherwise parse every rule and stratify
the program on each load. The key is a digest of the stored rule rows (id, text, origin) and superiority
statements, so any change to the rules misses the cache; the file is written atomically (temp + rename)
and a file that does not load is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Sequence
from pathlib import Path

from kgbrain.ingest.rule_syntax import strata
from kgbrain.ruleset import Program, Rule, Superiority
from kgbrain.store.protocol import GraphStore

_FILE = "rules-program.pickle"
_FORMAT = 1
_MEMORY: dict[str, Program] = {}
_STRATA: dict[int, tuple[Program, list[list[Rule]]]] = {}  # id(program) -> (program, strata)


def digest(rows: Sequence[tuple[str, str, str]], order: Sequence[Superiority]) -> str:
    """The key of a stored program: its rule rows in order and its superiority statements."""
    h = hashlib.blake2b(digest_size=16)
    for row in rows:
        h.update("\x1f".join(row).encode("utf-8") + b"\x1e")
    for s in order:
        h.update(f"{s.stronger}>{s.weaker}".encode() + b"\x1e")
    return h.hexdigest()


def _path(store: GraphStore) -> Path | None:
    db = store.path
    return None if db is None else Path(f"{db}.reasoning") / _FILE


def get(store: GraphStore, key: str) -> Program | None:
    """The cached program with this key, or None."""
    if key in _MEMORY:
        return _MEMORY[key]
    path = _path(store)
    if path is None or not path.is_file():
        return None
    try:
        with path.open("rb") as fh:
            fmt, stored_key, program, layers = pickle.load(fh)  # our own file beside the database
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError):
        return None
    if fmt != _FORMAT or stored_key != key or not isinstance(program, Program):
        return None
    by_id = {r.id: r for r in program.rules}
    _remember(key, program, [[by_id[i] for i in layer] for layer in layers])
    return program


def put(store: GraphStore, key: str, program: Program) -> None:
    """Cache a freshly parsed program (and its strata); a read-only or unwritable directory only skips the file."""
    layers = program_strata(program)
    _remember(key, program, layers)
    path = _path(store)
    if path is None or store.read_only:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".rules-program.")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((_FORMAT, key, program, [[r.id for r in layer] for layer in layers]), fh)
        Path(tmp).replace(path)
    except OSError:
        return


def _remember(key: str, program: Program, layers: list[list[Rule]]) -> None:
    if len(_MEMORY) > 8:
        _MEMORY.clear()
        _STRATA.clear()
    _MEMORY[key] = program
    _STRATA[id(program)] = (program, layers)


def program_strata(program: Program) -> list[list[Rule]]:
    """`rule_syntax.strata(program)`, computed once per program object.

    Raises:
        InputError: the program cannot be stratified.
    """
    hit = _STRATA.get(id(program))
    if hit is not None and hit[0] is program:
        return hit[1]
    layers = strata(program)
    if len(_STRATA) > 8:
        _STRATA.clear()
    _STRATA[id(program)] = (program, layers)
    return layers
