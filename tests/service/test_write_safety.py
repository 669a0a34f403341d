"""One writer, many readers: reads during a write see it whole or not at all; a kill -9 mid-write loses all of it
or none of it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from kgbrain.api import Brain
from kgbrain.service.uploads import remove_orphans
from tests.service.conftest import Server, copy_kb, env_with

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

OCTETS = {"content-type": "application/octet-stream"}  # a write is never a simple request


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


def _upload_begun(db: Path, tmp: Path) -> bool:
    # The write's job has started: the facts are in the request's folder, on their way into one transaction.
    return any(tmp.glob("kgbrain-upload-*/*"))


def _log_written(db: Path, tmp: Path) -> bool:
    # The transaction is under way: Kùzu is writing its log beside the database.
    wal = db.with_name(db.name + ".wal")
    return wal.exists() and wal.stat().st_size > 0


@pytest.mark.parametrize("trigger", [_upload_begun, _log_written], ids=["upload-begun", "log-written"])
def test_kill_9_mid_write_keeps_all_or_none_of_it(
    demo_db: Path, no_block: Path, tmp_path: Path, trigger: Callable[[Path, Path], bool]
) -> None:
    db = copy_kb(demo_db, tmp_path / "kb")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = env_with(no_block, TMPDIR=str(tmp))
    with Brain.open(db, read_only=True) as brain:
        before = brain.stats().facts
    server = Server(db, env)
    rows = _rows(10_000, "killed")

    def write() -> None:
        try:
            with httpx.Client(base_url=server.url, timeout=300) as client:
                client.post("/v1/facts", json={"facts": rows, "source": "killed"})
        except httpx.HTTPError:
            pass  # the server died under it: that is the point

    writer = threading.Thread(target=write)
    writer.start()
    deadline = time.monotonic() + 120
    while writer.is_alive() and not trigger(db, tmp) and time.monotonic() < deadline:
        time.sleep(0.001)
    server.kill()
    writer.join()
    left = list(tmp.glob("kgbrain-upload-*"))  # kill -9 runs no clean-up
    with Brain.open(db) as brain:  # read-write: Kùzu replays or drops the write-ahead log
        added = brain.stats().facts - before
        assert added in (0, len(rows))
        assert brain.stats().facts == before + added
    # A new server on the same file starts, serves the same state and removes the folder the killed one left.
    again = Server(db, env)
    try:
        assert again.client.get("/v1/stats").json()["facts"] == before + added
        assert not list(tmp.glob("kgbrain-upload-*"))
    finally:
        again.stop()
    if trigger is _upload_begun:
        assert left  # killed mid-request: there was something to remove


def test_request_folders_are_removed_after_use_and_after_their_server_is_gone(served: Server, tmp_path: Path) -> None:
    # After use: a stored file, a load that fails and a check with a rules file leave nothing in the temporary folder.
    client = served.client
    good, bad = b'{"subject": "a1", "predicate": "is_a", "object": "b1"}\n', b'{"subject": "a1"}\n'
    assert client.post("/v1/load", params={"name": "ok.jsonl"}, content=good, headers=OCTETS).status_code == 201
    assert client.post("/v1/load", params={"name": "bad.jsonl"}, content=bad, headers=OCTETS).status_code == 400
    draft = {"draft": "Neurons are cells.", "rules": '[[rule]]\nid = "r1"\nwhen = "x"\nrequire = "y"\n'}
    assert client.post("/v1/check-answer", json=draft).status_code in (200, 400)
    pid = str(served.process.pid)
    assert not [p for p in Path(tempfile.gettempdir()).glob("kgbrain-*") if p.name.split("-")[2:3] == [pid]]
    # After their process is gone (a kill -9 mid-request): the next server to start removes them, and only them.
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    orphans = [tmp_path / f"kgbrain-upload-{dead}-x1", tmp_path / f"kgbrain-rules-{dead}-x2"]
    kept = [tmp_path / f"kgbrain-upload-{os.getpid()}-x3", tmp_path / "kgbrain-upload-notapid", tmp_path / "other"]
    for folder in (*orphans, *kept):
        folder.mkdir()
        (folder / "facts.jsonl").write_text("{}\n", encoding="utf-8")
    assert sorted(remove_orphans(tmp_path)) == sorted(orphans)
    assert all(f.exists() for f in kept)
    assert not any(f.exists() for f in orphans)
