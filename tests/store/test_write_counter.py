"""The write counter: changed by every committed write, untouched by reads and rollbacks; caches key on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.errors import DatabaseLocked, InputError
from kgbrain.memory.persisted import ShardedMap, load_or_build, save_sharded
from kgbrain.reasoning.views.graph import fingerprint
from kgbrain.store.kuzu_store import KuzuStore
from kgbrain.store.lock import FileLock
from tests.conftest import write_jsonl


def test_every_write_changes_the_counter_and_reads_do_not(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        first = brain.store.write_counter()
        assert first is not None
        brain.stats()
        brain.ask("What is a cell?")
        assert brain.store.write_counter() == first  # reads, and questions, do not write
        brain.load([write_jsonl(tmp_path / "a.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}])])
        second = brain.store.write_counter()
        assert second is not None
        assert int(second.split(":")[0]) > int(first.split(":")[0])
        with pytest.raises(InputError):  # refused while reading the file, before any transaction
            brain.load([write_jsonl(tmp_path / "bad.jsonl", [{"subject": "a"}])])
        assert brain.store.write_counter() == second
        assert fingerprint(brain.store)["writes"] == int(second.split(":")[0])

        def failing_write() -> None:
            with brain.store.transaction():
                assert brain.store.write_counter() is None
                brain.store.run("meta_set", key="note", value="y")
                raise RuntimeError("boom")

        # Inside a write the counter names no state (caches built meanwhile are not kept); after a rollback the data
        # is as it was, and so is the counter (indexes keyed by it stay valid), and the store takes further writes
        # (Kùzu's rollback trap: see kuzu_store).
        with pytest.raises(RuntimeError, match="boom"):
            failing_write()
        third = brain.store.write_counter()
        assert third == second
        for n in range(3):
            with brain.store.transaction():
                brain.store.run("meta_set", key="note", value=str(n))
        # A write query run outside a transaction gets one, and counts.
        brain.store.run("meta_set", key="note", value="x")
        assert brain.store.write_counter() not in (None, third)


def test_a_second_connection_sees_committed_writes(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        reader = brain.store.connect()
        assert reader.read_only
        seen: list[str | None] = []
        brain.store.on_commit.append(lambda: seen.append(reader.write_counter()))
        brain.load([write_jsonl(tmp_path / "a.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}])])
        assert seen[-1] == brain.store.write_counter()
        assert Brain(reader).stats().facts == brain.stats().facts
        reader.close()
        assert brain.stats().facts >= 1  # closing the reader leaves the database open


def test_persisted_values_are_reused_only_for_the_same_key(tmp_path: Path) -> None:
    builds: list[int] = []

    def build() -> dict[tuple[str, ...], set[str]]:
        builds.append(1)
        return {("нейрон",): {"neuron"}}

    assert load_or_build(tmp_path, "terms", "k1", build) == {("нейрон",): {"neuron"}}
    assert load_or_build(tmp_path, "terms", "k1", build) == {("нейрон",): {"neuron"}}
    assert len(builds) == 1
    load_or_build(tmp_path, "terms", "k2", build)
    assert len(builds) == 2
    (tmp_path / "terms.marshal").write_bytes(b"\x00torn")
    load_or_build(tmp_path, "terms", "k2", build)
    assert len(builds) == 3


def test_a_sharded_map_reads_back_what_was_saved_only_for_the_same_key(tmp_path: Path) -> None:
    value = {(f"w{i}", "x"): {f"c{i}", f"d{i % 7}"} for i in range(5_000)}  # many shards
    save_sharded(tmp_path, "terms", "k1", value)
    found = ShardedMap.open(tmp_path, "terms", "k1")
    assert found is not None
    assert found.size == len(value)
    assert found.get(("w42", "x")) == {"c42", "d0"}
    assert found.get(("w42",)) is None
    assert found.whole() == value
    assert ShardedMap.open(tmp_path, "terms", "k2") is None  # other data: rebuilt, not reused
    save_sharded(tmp_path, "small", "k1", {("a",): {"b"}})  # one shard
    small = ShardedMap.open(tmp_path, "small", "k1")
    assert small is not None
    assert small.whole() == {("a",): {"b"}}
    data = (tmp_path / "terms.shards").read_bytes()
    (tmp_path / "terms.shards").write_bytes(data[: len(data) // 2])  # torn: not used
    assert ShardedMap.open(tmp_path, "terms", "k1") is None


def test_the_term_index_is_persisted_beside_the_database(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    rows = [
        {"subject": "zork", "predicate": "is_a", "object": "cell"},
        {"subject": "zork", "predicate": "label", "value": "Зорк", "lang": "ru"},
    ]
    with Brain.open(db) as brain:
        brain.load([write_jsonl(tmp_path / "a.jsonl", rows)])
    with Brain.open(db, read_only=True) as brain:
        assert "zork" in brain.ask("Что такое зорк?").concepts
    assert (tmp_path / "kb.kuzu.reasoning" / "terms.shards").is_file()
    with Brain.open(db, read_only=True) as brain:
        retriever = brain.cognition.retriever
        real = brain.store.iterate

        def no_terms_scan(name: str, /, **params: Any) -> Iterator[dict[str, Any]]:
            assert name != "terms_all", "the term index must come from the file"
            return real(name, **params)

        brain.store.iterate = no_terms_scan  # type: ignore[method-assign]
        assert retriever.link("Что такое зорк?")[0] == {"zork": "зорк"}


def test_a_served_database_is_refused_at_once_with_the_servers_address(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with KuzuStore(db) as store:
        store.announce("http://127.0.0.1:9999")
        with pytest.raises(DatabaseLocked, match=r"is served by http://127.0.0.1:9999"):
            FileLock(db, shared=True, timeout_s=3600).acquire()
