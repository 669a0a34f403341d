"""An open database reserves address space for `engine.MAX_DB_SIZE`, not the engine's 8 TiB default (an open under
load failed once with "Mmap for size 8796093022208 failed")."""

from __future__ import annotations

import re
from pathlib import Path

from kgbrain.store import KuzuStore
from kgbrain.store.engine import MAX_DB_SIZE


def _virtual_bytes() -> int:
    status = Path("/proc/self/status").read_text(encoding="utf-8")
    match = re.search(r"VmSize:\s+(\d+) kB", status)
    assert match is not None
    return int(match.group(1)) * 1024


def test_an_open_database_reserves_the_capped_size_only(tmp_path: Path) -> None:
    before = _virtual_bytes()
    store = KuzuStore(tmp_path / "kb.kuzu")
    try:
        store.run("concept_count")
        grown = _virtual_bytes() - before
    finally:
        store.close()
    assert MAX_DB_SIZE <= 2**40
    assert grown < 2 * MAX_DB_SIZE  # with the default it grows by 8 TiB
