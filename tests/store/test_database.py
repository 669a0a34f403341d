"""The store's parts: a database shared by connections, the working copy they follow, the delta recorder."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

from kgbrain.errors import StoreError
from kgbrain.store import KuzuStore
from kgbrain.store.delta import DeltaRecorder
from kgbrain.store.working_copy import WORK_SUFFIX


def _concepts(ids: list[str]) -> pa.Table:
    n = len(ids)
    return pa.table(
        {"id": ids, "kind": ["concept"] * n, "label_en": ids, "label_ru": ids}
        | {c: [""] * n for c in ("description_en", "description_ru", "description")}
    )


def _count(store: KuzuStore) -> int:
    return int(store.run("concept_count")[0]["concepts"])


def test_connect_is_a_second_connection_on_the_same_database(tmp_path: Path) -> None:
    with KuzuStore(tmp_path / "kb.kuzu") as store:
        reader = store.connect()
        assert reader.database is store.database
        assert store.database.shared
        assert reader.read_only
        assert not store.read_only
        with pytest.raises(StoreError, match="read-only"), reader.transaction():
            pass
        reader.close()
        reader.close()  # idempotent, and the database stays open for its owner
        assert store.write_counter() is not None


def test_closing_the_owner_closes_the_database_and_releases_the_lock(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    store = KuzuStore(path)
    store.close()
    store.close()
    with KuzuStore(path, lock_timeout_s=0) as again:  # the lock is free
        assert again.schema_version == store.schema_version


def test_an_atomic_block_runs_on_the_working_copy_and_lands_whole(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    with KuzuStore(path) as store:
        before = _count(store)
        with store.atomic():
            assert store.database.in_working_copy
            assert path.with_name(path.name + WORK_SUFFIX).exists()
            with store.transaction():
                store.copy("Concept", _concepts(["a"]))
            with store.transaction():
                store.copy("Concept", _concepts(["b"]))
        assert not store.database.in_working_copy
        assert _count(store) == before + 2
        with pytest.raises(RuntimeError, match="stop"), store.atomic():  # noqa: PT012
            with store.transaction():
                store.copy("Concept", _concepts(["c"]))
            raise RuntimeError("stop")
        assert _count(store) == before + 2  # the committed transaction in the failed block is gone too
        assert not list(tmp_path.glob("kb.kuzu" + WORK_SUFFIX + "*"))


def test_a_database_with_a_reader_is_not_swapped_under_it(tmp_path: Path) -> None:
    with KuzuStore(tmp_path / "kb.kuzu") as store:
        reader = store.connect()
        try:
            with store.atomic():
                assert not store.database.in_working_copy
        finally:
            reader.close()


def test_the_recorder_keeps_what_committed_and_drops_what_rolled_back() -> None:
    recorder = DeltaRecorder()
    recorder.unknown()
    assert recorder.take() is None  # not tracking: nothing recorded
    recorder.track()
    recorder.begin()
    recorder.update({"subjects": ["s"], "ids": ["f1"], "statuses": ["active"], "confidences": [0.5]})
    recorder.commit()
    recorder.begin()  # a transaction that rolls back: never committed
    recorder.unknown()
    recorder.begin()
    recorder.update({"subjects": ["t"], "ids": ["f2"], "statuses": None, "confidences": None})
    recorder.commit()
    delta = recorder.take()
    assert delta is not None
    assert delta.updated == {"f1": ("active", 0.5)}
    assert delta.update_subjects == {"s"}
    assert delta.reread == {"t"}
    assert not delta.unknown
    taken_again = recorder.take()
    assert taken_again is not None
    assert taken_again.empty
