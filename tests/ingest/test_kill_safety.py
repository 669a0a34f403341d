"""A real `kgbrain load` killed at any moment leaves the KB as it was before or as it is after, never a mix;
loading the file again then completes it.

Kùzu 0.11.3's own recovery did not give this: a 300k-fact load into a 20k-fact KB killed after its write-ahead
log was complete came back with concepts missing and facts half there. Loads now write to a copy that replaces
the database only when complete (KuzuStore.atomic), and these kills check that at the risky moments.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.store.kuzu_store import WORK_SUFFIX
from tests.conftest import write_jsonl
from tests.ingest.kill_points import Kill, kill_at, normalised_export

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

N = 8_000  # new facts: a write-ahead log of a few MB


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A base KB, a big file, and the exports before and after loading it (loaded once, undisturbed)."""
    root = tmp_path_factory.mktemp("kill")
    base = [{"subject": f"b{i}", "predicate": "is_a", "object": f"k{i % 300}"} for i in range(2_000)]
    base += [{"subject": f"k{i}", "predicate": "label", "value": f"K {i}", "lang": "en"} for i in range(300)]
    new = [
        {"subject": f"n{i}", "predicate": "is_a" if i % 3 else "part_of", "object": f"k{i % 700}"}
        for i in range(25_000)
    ]
    new += [{"subject": f"n{i}", "predicate": "label", "value": f"N {i}", "lang": "en"} for i in range(0, N, 10)]
    new += [{"subject": "b1", "predicate": "is_a", "object": "k1", "polarity": False, "source": "other"}]
    db = root / "base.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(root / "base.jsonl", base)])
    big = write_jsonl(root / "new.jsonl", new)
    done = root / "done.kuzu"
    shutil.copy(db, done)
    subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(done), "load", str(big)], check=True, capture_output=True
    )
    return {
        "db": db,
        "file": big,
        "before": normalised_export(db),
        "after": normalised_export(done),
    }


KILL_POINTS = [
    "as Kùzu opens the database",
    "once the working copy is open",
    "as the write-ahead log is written",
    "right after the write-ahead log is complete",
    "right after the swap",
    "as Kùzu reopens the swapped database",
]


def kill_until_it_hits(command: list[str], db: Path, base: Path, point: str, tries: int = 3) -> Kill:
    """Kill the write at `point`; if it ended before the kill (a short phase missed), start again from `base`."""
    for _ in range(tries):
        for old in db.parent.glob(db.name + "*"):
            old.unlink()
        shutil.copy(base, db)
        kill = kill_at(command, db, point)
        if not kill.ended_first:
            break
    return kill


@pytest.mark.parametrize("point", KILL_POINTS)
def test_a_killed_load_leaves_before_or_after_and_a_rerun_completes(
    states: dict[str, object], tmp_path: Path, point: str
) -> None:
    db = tmp_path / "kb.kuzu"
    command = [sys.executable, "-m", "kgbrain", "--db", str(db), "load", str(states["file"])]
    kill = kill_until_it_hits(command, db, states["db"], point)  # type: ignore[arg-type]
    assert not kill.ended_first, f"{kill}: never caught it running"
    state = normalised_export(db)
    assert state in (states["before"], states["after"]), f"{kill}: the KB is neither before nor after"
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{kill}: the rerun failed: {done.stderr}"
    assert normalised_export(db) == states["after"], f"{kill}: the rerun did not give the KB after the load"
    assert not list(tmp_path.glob("kb.kuzu" + WORK_SUFFIX + "*")), f"{kill}: the rerun left the working copy"
