"""The store's interfaces: what callers reach without getattr, and the check the service makes."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.errors import InputError
from kgbrain.store import GraphStore, KuzuStore
from kgbrain.store.protocol import ServedStore, served


def _members(protocol: type) -> set[str]:
    return {n for n in vars(protocol) if not n.startswith("_")} | set(getattr(protocol, "__annotations__", {}))


def test_a_store_has_every_graph_store_member(tmp_path: Path) -> None:
    with KuzuStore(tmp_path / "kb.kuzu") as store:
        missing = {n for n in _members(GraphStore) if not hasattr(store, n)}
        assert missing == set()
        assert store.path == tmp_path / "kb.kuzu"
        assert store.read_only is False
        assert store.schema_version >= 1
        assert ":" in str(store.write_counter())


def test_a_store_and_its_reader_connection_can_be_served(tmp_path: Path) -> None:
    with KuzuStore(tmp_path / "kb.kuzu") as store:
        assert served(store) is store
        reader = served(store).connect()
        try:
            assert isinstance(reader, ServedStore)
            assert reader.read_only is True
            assert reader.path == store.path
            assert reader.schema_version == store.schema_version
            assert reader.write_counter() == store.write_counter()
        finally:
            reader.close()


def test_a_store_without_the_server_members_is_refused() -> None:
    class Bare:
        path = None
        read_only = True
        schema_version = 1

        def write_counter(self) -> str | None:
            return None

    with pytest.raises(InputError, match="the service needs a Kùzu store"):
        served(Bare())  # type: ignore[arg-type]
