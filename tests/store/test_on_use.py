"""OpenOnUse: a read-only store that opens the file at its first query (forked verification workers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import StoreError
from kgbrain.store.on_use import OpenOnUse


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("on_use")
    facts = folder / "facts.jsonl"
    facts.write_text('{"subject": "neuron", "predicate": "is_a", "object": "cell"}\n', encoding="utf-8")
    with Brain.open(folder / "kb.kuzu") as brain:
        brain.load([facts])
    return folder / "kb.kuzu"


def test_nothing_is_opened_until_a_query_and_then_it_is_the_file(db: Path) -> None:
    store = OpenOnUse(db)
    assert (store.path, store.read_only, store._store) == (db, True, None)
    # A writer can still open the file: an unused store holds no lock on it.
    with Brain.open(db) as writer:
        assert writer.store.run("concept_count")[0]["concepts"] == 2
    assert store.run("concept_count")[0]["concepts"] == 2
    assert store._store is not None
    store.close()
    assert store._store is None
    store.close()  # closing twice, or a store never opened, is fine


def test_a_missing_file_fails_at_the_first_query(tmp_path: Path) -> None:
    store = OpenOnUse(tmp_path / "missing.kuzu")
    with pytest.raises(StoreError, match="does not exist"):
        store.run("concept_count")


def test_a_brain_on_it_answers_like_an_open_one(db: Path) -> None:
    lazy = Brain.open_on_use(db)
    with Brain.open(db, read_only=True) as brain:
        assert lazy.check("neuron", "is_a", "cell") == brain.check("neuron", "is_a", "cell")
    lazy.close()
