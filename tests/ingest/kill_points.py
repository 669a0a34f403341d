"""Kill a real kgbrain write at an observed phase, and compare knowledge bases by their export.

The phases are read off the files a write leaves beside the database, in the order they happen (see
`KuzuStore.atomic`): Kùzu opens the file (a log and shadow pages appear beside it for a moment), the working copy
`<db>.writing` is made and opened (its own log appears), the write's transactions grow that log, closing the copy
checkpoints it (shadow pages appear), the copy replaces the database, and Kùzu opens that again. A kill is asked
for at a phase and fires as soon as that phase or a later one is seen, never on a clock: on a loaded machine
the phases stretch, they do not change order. (The tests in this folder and bench/faults.py share this.)
"""

from __future__ import annotations

import io
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from kgbrain.api import Brain
from kgbrain.store.kuzu_store import WORK_SUFFIX

PHASES = (
    "as Kùzu opens the database",
    "as the working copy is made",
    "once the working copy is open",
    "as the write-ahead log is written",
    "right after the write-ahead log is complete",
    "right after the swap",
    "as Kùzu reopens the swapped database",
)


def normalised_export(db: Path) -> list[str]:
    """The export with the load times taken out (a rerun loads the same facts at another time)."""
    out = io.StringIO()
    with Brain.open(db, read_only=True) as brain:
        brain.export(out)
    return normalised(out.getvalue())


def normalised(export: str) -> list[str]:
    """An export's lines, sorted, with the times taken out (in conflict records too: confidences adjusted)."""
    return sorted(_STAMP.sub("<time>", line) for line in export.splitlines())


_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)?")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


@dataclass
class Progress:
    """How far a write on `db` has got, as the latest phase its files have shown (an index into PHASES)."""

    db: Path
    reached: int = -1
    opened_log: int = -1  # the working copy's log size when first seen (what Kùzu writes as it opens the copy)
    seen: list[str] = field(default_factory=list)

    def poll(self) -> int:
        db, work = self.db, self.db.with_name(self.db.name + WORK_SUFFIX)
        work_log = _size(work.with_name(work.name + ".wal"))
        phase = -1
        if self.reached < 1 and _size(db.with_name(db.name + ".wal")) >= 0:
            phase = 0
        if work.exists():
            phase = 1
        if work_log >= 0:
            phase = 2
            if self.opened_log < 0:
                self.opened_log = work_log
            elif work_log > self.opened_log:
                phase = 3
        if _size(work.with_name(work.name + ".shadow")) >= 0:
            phase = 4
        if self.reached >= 1 and not work.exists():
            phase = 6 if self.reached >= 5 and _size(db.with_name(db.name + ".wal")) >= 0 else 5
        if phase > self.reached:
            self.reached = phase
            self.seen.append(PHASES[phase])
        return self.reached


@dataclass
class Kill:
    """What a kill hit: the phase asked for, the phases seen, and whether the process had ended first."""

    asked: str
    seen: list[str]
    ended_first: bool

    def __str__(self) -> str:
        ended = "; the process ended before the kill" if self.ended_first else ""
        return f"killed {self.asked!r} (phases seen: {', '.join(self.seen) or 'none'}{ended})"


def kill_at(command: list[str], db: Path, phase: str) -> Kill:
    """Run a kgbrain write on `db` and SIGKILL it once `phase` (or a later one) shows in the files."""
    target = PHASES.index(phase)
    progress = Progress(db)
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as child:
        while child.poll() is None and progress.poll() < target:
            time.sleep(0.0005)
        ended = child.poll() is not None
        child.send_signal(signal.SIGKILL)
        child.wait()
    return Kill(phase, progress.seen, ended)
