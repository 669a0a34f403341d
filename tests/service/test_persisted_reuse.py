"""What a server saves in <db>.reasoning/ when it stops is what the next CLI process uses, not rebuilds.

The server keys its mirror, reachability labels, analogy, term and link indexes by the store's write counter. A
write that failed and rolled back still moved the counter (and the server's reader went on reading the old value
from its query cache), so the indexes it saved at close named a counter the file no longer had, and the next
`kgbrain ask` rebuilt all of them (27 s of CPU on a 1M-fact knowledge base).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kgbrain.api import Brain
from tests.service.conftest import Server, copy_kb, env_with

# Each is decided from a persisted index: the mirror and reach labels (is_a), the term and link indexes (a
# misspelt name), the analogy index (like).
QUESTIONS = ["Is a neuron a cell?", "Что такое нейон?", "What is a neuron like?"]


def _saved(db: Path) -> dict[str, int]:
    folder = Path(f"{db}.reasoning")
    return {str(f.relative_to(folder)): f.stat().st_mtime_ns for f in sorted(folder.rglob("*")) if f.is_file()}


def _counter(db: Path) -> str:
    with Brain.open(db, read_only=True) as brain:
        counter = brain.store.write_counter()  # type: ignore[attr-defined]
    assert isinstance(counter, str)
    return counter


def test_a_cli_process_reuses_what_a_stopped_server_saved(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    db = copy_kb(demo_db, tmp_path / "kb")
    env = env_with(no_block)
    server = Server(db, env)
    try:
        for question in QUESTIONS:
            assert server.client.post("/v1/ask", json={"question": question}).status_code == 200
        before = server.client.get("/healthz").json()["write_counter"]
        fact = {"subject": "neuron", "predicate": "has_property", "object": "zorkiness"}  # the is_a hierarchy stays
        stored = server.client.post("/v1/facts", json={"facts": [fact], "source": "me"})
        assert stored.status_code == 201, stored.text
        for question in QUESTIONS:
            assert server.client.post("/v1/ask", json={"question": question}).status_code == 200
        written = server.client.get("/healthz").json()["write_counter"]
        # The last write fails inside its transaction and rolls back: the data, so the counter, stay as they were.
        failed = server.client.post("/v1/conflicts/no-such-conflict/resolve", json={"keep": "x", "by": "me"})
        assert failed.status_code == 404, failed.text  # an unknown id (UnknownItem)
        served = server.client.get("/healthz").json()["write_counter"]
    finally:
        server.stop()
    assert _counter(db) == served == written != before
    saved = _saved(db)
    wanted = ("graph.npz", "meta.json", "index.bin", "terms.shards", "link_terms.marshal", "reach/fingerprint.json")
    for name in wanted:
        assert name in saved, sorted(saved)
    stamp = {"writes": int(served.split(":")[0]), "token": int(served.split(":")[1], 16)}
    assert json.loads(Path(f"{db}.reasoning/reach/fingerprint.json").read_text(encoding="utf-8")) == stamp
    for question in QUESTIONS:
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", question],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
    assert _saved(db) == saved  # nothing rebuilt: every index was read back as the server left it
    assert _counter(db) == served
