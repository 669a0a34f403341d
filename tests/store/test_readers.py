"""Readers beside a writer: on Ladybug, ask/stats/facts/verify/query read the file (the snapshot before a load)
while another process loads into its working copy, and wait only for a write that changes the file in place."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import DatabaseLocked
from kgbrain.store import KuzuStore, engine

pytestmark = pytest.mark.skipif(
    not engine.readers_beside_writer(), reason="Kùzu refuses a read-only open beside a read-write one"
)

BASE = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "cell", "predicate": "has_property", "object": "dna"},
]
MORE = [{"subject": f"glia_{i}", "predicate": "is_a", "object": "cell"} for i in range(40)]

# A `kgbrain load` caught half-way: the load has run inside one all-or-nothing write that is not finished yet.
WRITER = textwrap.dedent(
    """
    import sys
    from kgbrain.api import Brain
    with Brain.open(sys.argv[1]) as brain:
        with brain.store.atomic():
            brain.load([sys.argv[2]])
            print("loaded", flush=True)
            sys.stdin.readline()
    print("done", flush=True)
    """
)


def _jsonl(path: Path, rows: list[dict[str, str]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _cli(db: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"KGBRAIN_LOCK_TIMEOUT": "1"}).invoke(cli, ["--db", str(db), *args])
    return result.exit_code, result.stdout, result.stderr


def _facts(db: Path) -> int:
    code, out, err = _cli(db, "stats", "--json")
    assert code == 0, err
    return int(json.loads(out)["facts"])


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([_jsonl(tmp_path / "base.jsonl", BASE)])
    return db


def test_readers_answer_from_the_snapshot_before_a_load_that_is_under_way(kb: Path, tmp_path: Path) -> None:
    before = _facts(kb)
    more = _jsonl(tmp_path / "more.jsonl", MORE)
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, str(kb), str(more)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as writer:
        assert writer.stdin is not None
        assert writer.stdout is not None
        try:
            assert writer.stdout.readline().strip() == "loaded"
            assert _facts(kb) == before
            code, out, err = _cli(kb, "facts", "glia_3")
            assert code != 0 or "glia_3" not in out, (out, err)  # not there yet
            code, out, err = _cli(kb, "ask", "Does a neuron have DNA?")
            assert code == 0, err
            assert out.strip()
            with KuzuStore(kb, read_only=True, lock_timeout_s=1) as store:
                assert not store.run("concept_get", id="glia_3")
            assert _verdict(kb, tmp_path) != "SUPPORTED"
            code, out, err = _cli(kb, "query", "is_a(glia_3, X)", "--json")
            assert code != 0 or not json.loads(out)["rows"], (out, err)
            writer.stdin.write("go\n")
            writer.stdin.flush()
            assert writer.stdout.readline().strip() == "done"
            assert writer.wait(timeout=60) == 0
        except BaseException:
            writer.kill()
            raise
    assert _facts(kb) == before + len(MORE)
    code, out, _ = _cli(kb, "facts", "glia_3")
    assert code == 0
    assert "cell" in out
    assert _verdict(kb, tmp_path) == "SUPPORTED"
    code, out, err = _cli(kb, "query", "is_a(glia_3, X)", "--json")
    assert code == 0, err
    assert {"X": "cell"} in json.loads(out)["rows"]


def _verdict(db: Path, folder: Path) -> str:
    claims = _jsonl(folder / "claims.jsonl", [{"id": "1", "subject": "glia_3", "predicate": "is_a", "object": "cell"}])
    out = folder / "verdicts.jsonl"
    out.unlink(missing_ok=True)
    code, _, err = _cli(db, "verify", str(claims), "-o", str(out))
    assert code == 0, err
    return str(json.loads(out.read_text(encoding="utf-8").splitlines()[0])["verdict"])


IN_PLACE = textwrap.dedent(
    """
    import sys
    from kgbrain.errors import DatabaseLocked
    from kgbrain.store import KuzuStore
    with KuzuStore(sys.argv[1], lock_timeout_s=0.3) as store:
        try:
            store.run("meta_set", key="probe", value="written")
        except DatabaseLocked as exc:
            print(exc, flush=True)
            sys.exit(3)
    """
)


def test_a_write_in_place_waits_for_the_readers_and_says_so(kb: Path) -> None:
    with KuzuStore(kb, read_only=True) as reader:
        done = subprocess.run([sys.executable, "-c", IN_PLACE, str(kb)], capture_output=True, text=True, check=False)
        assert reader.run("meta_get", key="probe") == []
    assert done.returncode == 3, done.stderr
    assert done.stdout.strip() == (
        f"database {str(kb)!r} is in use by another process reading it; waited 0.3 s. Try again when it has finished."
    )
    # Once the reader has gone, the same write goes through.
    assert subprocess.run([sys.executable, "-c", IN_PLACE, str(kb)], check=False).returncode == 0
    with KuzuStore(kb, read_only=True) as store:
        assert store.run("meta_get", key="probe") == [{"value": "written"}]


def test_a_reader_waits_for_a_write_in_place_and_then_reads_it(kb: Path) -> None:
    with KuzuStore(kb) as writer:
        writer.run("meta_set", key="probe", value="in place")
        with pytest.raises(DatabaseLocked, match="in use by another process"):
            KuzuStore(kb, read_only=True, lock_timeout_s=0.2)
    with KuzuStore(kb, read_only=True, lock_timeout_s=0.2) as store:
        assert store.run("meta_get", key="probe") == [{"value": "in place"}]


def test_a_reader_of_a_served_database_is_refused_at_once_with_the_servers_address(kb: Path) -> None:
    with KuzuStore(kb) as server:
        server.announce("http://127.0.0.1:9999")
        with pytest.raises(DatabaseLocked, match=r"is served by http://127.0.0.1:9999; send requests there"):
            KuzuStore(kb, read_only=True, lock_timeout_s=3600)
