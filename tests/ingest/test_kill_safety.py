"""A real `kgbrain load` killed at any moment leaves the KB as it was before or as it is after, never a mix;
loading the file again then completes it.

Kùzu 0.11.3's own recovery did not give this: a 300k-fact load into a 20k-fact KB killed after its write-ahead
log was complete came back with concepts missing and facts half there. Loads now write to a copy that replaces
the database only when complete (KuzuStore.atomic), and these kills check that at the risky moments.
"""

from __future__ import annotations

import io
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.store.kuzu_store import WORK_SUFFIX
from tests.conftest import write_jsonl

Trigger = Callable[[Path, float], bool]
N = 8_000  # new facts: a write-ahead log of a few MB


def normalised_export(db: Path) -> list[str]:
    """The export with the load times taken out (a rerun loads the same facts at another time)."""
    out = io.StringIO()
    with Brain.open(db, read_only=True) as brain:
        brain.export(out)
    # (in conflict records too: when confidences were adjusted)
    return sorted(_STAMP.sub("<time>", line) for line in out.getvalue().splitlines())


_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)?")


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
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(done), "load", str(big)], check=True, capture_output=True
    )
    return {
        "db": db,
        "file": big,
        "before": normalised_export(db),
        "after": normalised_export(done),
        "seconds": time.monotonic() - started,
    }


def _work(db: Path) -> Path:
    return db.with_name(db.name + WORK_SUFFIX)


def wal_started(db: Path, _: float) -> bool:
    wal = _work(db).with_name(_work(db).name + ".wal")
    return wal.exists() and wal.stat().st_size > 0


class WalComplete:
    """The working copy's write-ahead log has stopped growing: the commit is written, the checkpoint runs."""

    def __init__(self) -> None:
        self.size = -1
        self.since = 0.0

    def __call__(self, db: Path, _: float) -> bool:
        wal = _work(db).with_name(_work(db).name + ".wal")
        size = wal.stat().st_size if wal.exists() else -1
        now = time.monotonic()
        if size != self.size:
            self.size, self.since = size, now
            return False
        return size > 2**20 and now - self.since > 0.02


class Swapped:
    """The working copy has just replaced the database (the process is reopening it)."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, db: Path, _: float) -> bool:
        exists = _work(db).exists()
        self.seen |= exists
        return self.seen and not exists


def at_fraction(fraction: float) -> Callable[[dict[str, object]], Trigger]:
    def make(states: dict[str, object]) -> Trigger:
        seconds = float(states["seconds"])  # type: ignore[arg-type]
        return lambda _db, elapsed: elapsed >= fraction * seconds

    return make


KILL_POINTS: dict[str, Callable[[dict[str, object]], Trigger]] = {
    "as the log is written": lambda _: wal_started,
    "right after the log is complete": lambda _: WalComplete(),
    "right after the swap": lambda _: Swapped(),
    "half-way through the run": at_fraction(0.5),
}


def kill_when(command: list[str], db: Path, trigger: Trigger) -> None:
    """Run a kgbrain write and SIGKILL it the moment `trigger(db, seconds since start)` holds (or it ended)."""
    started = time.monotonic()
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as child:
        while child.poll() is None and not trigger(db, time.monotonic() - started):
            time.sleep(0.001)
        child.send_signal(signal.SIGKILL)
        child.wait()


@pytest.mark.parametrize("point", list(KILL_POINTS))
def test_a_killed_load_leaves_before_or_after_and_a_rerun_completes(
    states: dict[str, object], tmp_path: Path, point: str
) -> None:
    db = tmp_path / "kb.kuzu"
    shutil.copy(states["db"], db)  # type: ignore[arg-type]
    trigger = KILL_POINTS[point](states)
    command = [sys.executable, "-m", "kgbrain", "--db", str(db), "load", str(states["file"])]
    kill_when(command, db, trigger)
    state = normalised_export(db)
    assert state in (states["before"], states["after"]), f"killed {point}: the KB is neither before nor after"
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert normalised_export(db) == states["after"]
    assert not list(tmp_path.glob("kb.kuzu" + WORK_SUFFIX + "*"))
