"""A rolled-back insert that opened a new node group (Ladybug: one every 131,072 rows) must leave nothing behind
(issue #22): before `Database.discard_uncommitted`, the next insert in the process failed ("Index contains an
invalid node offset"), the damage reached the file at the next close, and the checkpoint after that wrote a
shadow file without end. Also: a kill in the middle of that reopen is finished by the next open."""

from __future__ import annotations

import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow as pa
import pytest

from kgbrain.store import KuzuStore
from kgbrain.store.rollback import ROLLBACK_SUFFIX, finish_rollback, pending_rollback, snapshot

NODE_GROUP = 131_072
BASE = NODE_GROUP - 100  # a node table 100 rows short of a node group boundary


def _concepts(ids: list[str]) -> pa.Table:
    n = len(ids)
    return pa.table(
        {"id": ids, "kind": ["class"] * n}
        | {c: pa.nulls(n, pa.string()) for c in ("label_en", "label_ru", "description_en", "description_ru")}
        | {"description": pa.nulls(n, pa.string())}
    )


def _insert_then_fail(store: KuzuStore, ids: list[str]) -> None:
    with store.transaction():
        store.copy("Concept", _concepts(ids))
        raise RuntimeError("given up")


def _has(store: KuzuStore, cid: str) -> bool:
    return bool(store.run("concept_get", id=cid))


@contextmanager
def _file_size_limit(limit: int) -> Iterator[None]:
    # A runaway checkpoint fails the test with "File too large" instead of filling the disk.
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def _near_a_boundary(db: Path) -> None:
    with KuzuStore(db) as store:
        store.copy("Concept", _concepts([f"b{i}" for i in range(BASE)]))


@pytest.mark.slow
def test_a_rolled_back_insert_past_a_node_group_leaves_the_next_writes_whole(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    _near_a_boundary(db)
    with _file_size_limit(2**30), KuzuStore(db) as store:
        with pytest.raises(RuntimeError, match="given up"):
            _insert_then_fail(store, [f"s{i}" for i in range(1_000)])  # past 131,072
        store.copy("Concept", _concepts(["glorp"]))  # the next insert, in the same process
        assert _has(store, "glorp")
        assert not _has(store, "s5")
        assert _has(store, "b5")
    # The file holds it, and a checkpoint after the next write ends (it used to write a shadow file without end).
    with _file_size_limit(2**30), KuzuStore(db) as store:
        assert _has(store, "glorp")
        store.copy("Concept", _concepts(["glorp2"]))
        assert int(store.run("concept_count")[0]["concepts"]) == BASE + 2
    assert not list(tmp_path.glob("*" + ROLLBACK_SUFFIX + "*"))


def test_a_reopen_cut_short_is_finished_by_the_next_open(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with KuzuStore(db) as store:
        store.copy("Concept", _concepts(["kept"]))
    snapshot(db)  # the committed state, taken aside; then the engine wrote what is to be dropped, and was killed
    folder = db.with_name(db.name + ROLLBACK_SUFFIX)
    aside = folder.rename(tmp_path / "aside")
    with KuzuStore(db) as store:
        store.copy("Concept", _concepts(["dropped"]))
    aside.rename(folder)
    assert pending_rollback(db)
    with KuzuStore(db, read_only=True) as store:  # a reader finishes it too (it takes the writer's lock for that)
        assert _has(store, "kept")
        assert not _has(store, "dropped")
    assert not pending_rollback(db)


def test_an_incomplete_copy_is_dropped_and_the_file_kept(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with KuzuStore(db) as store:
        store.copy("Concept", _concepts(["kept"]))
    partial = db.with_name(db.name + ROLLBACK_SUFFIX + ".tmp")
    partial.mkdir()
    (partial / "db").write_bytes(b"half a copy")
    finish_rollback(db)
    assert not partial.exists()
    with KuzuStore(db) as store:
        assert _has(store, "kept")
