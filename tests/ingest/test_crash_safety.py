"""A load killed half-way leaves the knowledge base exactly as it was (Kùzu's WAL drops the open transaction)."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kgbrain.api import Brain
from tests.conftest import write_jsonl

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

CHILD = textwrap.dedent(
    """
    import sys, time
    from kgbrain.api import Brain

    def stall(brain, report):
        # Everything of the file is written but not committed: the worst moment to die.
        print("written", report.facts_added, flush=True)
        time.sleep(60)

    brain = Brain.open(sys.argv[1])
    brain.load_hooks.append(stall)
    brain.load([sys.argv[2]])
    """
)


def _export(path: Path) -> str:
    out = io.StringIO()
    with Brain.open(path) as brain:
        brain.export(out)
    return out.getvalue()


def test_killed_load_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    base = write_jsonl(
        tmp_path / "base.jsonl", [{"subject": f"c{i}", "predicate": "is_a", "object": "root"} for i in range(50)]
    )
    with Brain.open(db) as brain:
        brain.load([base])
    before = _export(db)
    rows = [
        {"subject": f"n{i}", "predicate": "is_a" if i % 2 else "causes", "object": f"c{i % 50}"} for i in range(20_000)
    ]
    rows += [{"subject": f"n{i}", "predicate": "label", "value": f"N {i}", "lang": "en"} for i in range(100)]
    big = write_jsonl(tmp_path / "big.jsonl", rows)
    with subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(big)], stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        assert child.stdout.readline().split() == ["written", "20000"]
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert _export(db) == before
    with Brain.open(db) as brain:
        assert brain.stats().facts == 50
        [report] = brain.load([big])  # and the knowledge base still takes the file afterwards
        assert report.facts_added == 20_000
