"""One writer, many readers: reads during a write see it whole or not at all; a kill -9 mid-write loses all of it
or none of it."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgbrain.api import Brain
from tests.service.conftest import Server, copy_kb, env_with


def _rows(n: int, tag: str) -> list[dict[str, Any]]:
    return [{"subject": f"{tag}{i}", "predicate": "is_a", "object": f"{tag}_kind{i % 97}"} for i in range(n)]


def test_reads_during_a_write_see_before_or_after_never_between(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    server = Server(copy_kb(demo_db, tmp_path / "kb"), env_with(no_block))
    try:
        before = server.client.get("/v1/stats").json()["facts"]
        rows = _rows(6_000, "bulk")
        writing = threading.Event()
        done = threading.Event()
        response: dict[str, Any] = {}

        def write() -> None:
            with httpx.Client(base_url=server.url, timeout=300) as client:
                writing.set()
                response["r"] = client.post("/v1/facts", json={"facts": rows, "source": "bulk"})
            done.set()

        seen: list[tuple[int, bool]] = []  # (facts, whether the write was still in flight when the read returned)
        writer = threading.Thread(target=write)
        writer.start()
        writing.wait()
        with httpx.Client(base_url=server.url, timeout=300) as client:
            while not done.is_set():
                facts = client.get("/v1/stats").json()["facts"]
                seen.append((facts, not done.is_set()))
                answer = client.post("/v1/verify/one", json={"claims": ["bulk7 is a bulk_kind7"]}).json()
                assert answer["verdict"] in ("SUPPORTED", "NOT_ENOUGH_INFO")
            after = client.get("/v1/stats").json()["facts"]
        writer.join()
        assert response["r"].status_code == 201, response["r"].text
        assert after == before + len(rows)
        assert {facts for facts, _ in seen} <= {before, after}
        # Reads were answered while the write was still running: they did not queue behind it.
        assert any(in_flight for _, in_flight in seen)
    finally:
        server.stop()


@pytest.mark.parametrize("delay", [0.3, 1.5])
def test_kill_9_mid_write_keeps_all_or_none_of_it(demo_db: Path, no_block: Path, tmp_path: Path, delay: float) -> None:
    db = copy_kb(demo_db, tmp_path / "kb")
    with Brain.open(db, read_only=True) as brain:
        before = brain.stats().facts
    server = Server(db, env_with(no_block))
    rows = _rows(10_000, "killed")

    def write() -> None:
        try:
            with httpx.Client(base_url=server.url, timeout=300) as client:
                client.post("/v1/facts", json={"facts": rows, "source": "killed"})
        except httpx.HTTPError:
            pass  # the server died under it: that is the point

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(delay)
    server.kill()
    writer.join()
    with Brain.open(db) as brain:  # read-write: Kùzu replays or drops the write-ahead log
        added = brain.stats().facts - before
        assert added in (0, len(rows))
        assert brain.stats().facts == before + added
    # A new server on the same file starts and serves the same state.
    again = Server(db, env_with(no_block))
    try:
        assert again.client.get("/v1/stats").json()["facts"] == before + added
    finally:
        again.stop()
