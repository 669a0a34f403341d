"""A write too big for the engine's buffer pool (KGBRAIN_BUFFER_POOL_MB) is one clear error naming the setting, and
the knowledge base is as before: on disk through the CLI's working copy, and in place as a server writes (issue
#22: a 200k-row load with a 64 MB pool failed with the engine's "Buffer manager exception", once as "ROLLBACK
failed"). A rollback the engine cannot do reopens it on the committed state (`KuzuStore.transaction`)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import StoreError
from tests.conftest import write_jsonl

ROWS = 200_000  # more than a 64 MB pool holds in one COPY
SMALL = [{"subject": "glorp", "predicate": "is_a", "object": "k1"}]


def _big(folder: Path) -> Path:
    rows = [{"subject": f"e{i}", "predicate": "is_a", "object": f"k{i % 50}"} for i in range(ROWS)]
    return write_jsonl(folder / "big.jsonl", rows)


def _export(brain: Brain) -> str:
    out = io.StringIO()
    brain.export(out)
    return out.getvalue()


def test_a_load_too_big_for_the_pool_is_one_clear_error_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(tmp_path / "base.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}])])
        before = _export(brain)
    monkeypatch.setenv("KGBRAIN_BUFFER_POOL_MB", "64")
    with Brain.open(db) as brain:
        with pytest.raises(StoreError, match=r"buffer pool \(KGBRAIN_BUFFER_POOL_MB=64 MB\) is too small") as raised:
            brain.load([_big(tmp_path)])
        assert "nothing of the write was stored" in str(raised.value)
        assert _export(brain) == before
        brain.load([write_jsonl(tmp_path / "small.jsonl", SMALL)])
        assert brain.stats().facts == 2


def test_a_served_write_too_big_for_the_pool_is_one_clear_error_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kgbrain.service.core import Service

    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(tmp_path / "base.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}])])
        before = _export(brain)
    monkeypatch.setenv("KGBRAIN_BUFFER_POOL_MB", "64")
    text = _big(tmp_path).read_bytes()

    async def run() -> None:
        service = Service(db)
        try:
            with pytest.raises(StoreError, match=r"KGBRAIN_BUFFER_POOL_MB=64 MB\) is too small"):
                await service.load_text(text, name="big.jsonl")
            assert (await service.add_facts(SMALL)).facts_added == 1
            assert (await service.stats()).facts == 2
        finally:
            service.close()

    asyncio.run(run())
    with Brain.open(db, read_only=True) as brain:
        after = _export(brain)
    assert set(before.splitlines()) <= set(after.splitlines())
    assert not [line for line in after.splitlines() if '"subject": "e1"' in line]
