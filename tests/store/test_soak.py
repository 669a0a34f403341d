"""Soak: a writer process loads, retracts, merges and writes in place over and over while kill -9 lands at random
moments (mid-load, mid-merge, mid-swap, mid-checkpoint, mid-close); after every kill the reopened file must hold a
whole number of cycles, export the same twice, and take the next cycle. About a minute here; `bench/store_soak.py`
runs it longer (KGBRAIN_SOAK_SECONDS)."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kgbrain.api import Brain

BATCH = 10
MERGE_ROWS = 25  # a load merges the delta tables every third cycle or so: kills land in merges too

# One cycle i: load batch i (s<i>_0..9 is_a c<i % 3>) in one all-or-nothing write, retract s<i>_0's fact (another),
# then write the cycle number in place (log, then checkpoint at close); now and then it merges the delta tables
# (besides the loads' own merges past MERGE_ROWS). It reopens the file between cycles now and then, so kills land
# in opens and closes too; where it starts (and a cycle to finish) is read back from the file.
WRITER = textwrap.dedent(
    """
    import json, random, sys
    from pathlib import Path
    from kgbrain.api import Brain
    db, folder, seed = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    brain = Brain.open(db)

    def finish(i):  # the rest of cycle i once its batch is in
        fact = next(r for r in brain.store.run("concept_facts_out", id=f"s{i}_0"))
        if fact["status"] == "active":
            brain.retract(fact["fact_id"], reason="soak")
        brain.store.run("meta_set", key="soak", value=str(i))

    i, mark = int(sys.argv[4]), int(sys.argv[5])
    if mark < i - 1:  # the previous writer was killed after cycle i - 1's load
        finish(i - 1)
    while True:
        batch = folder / f"batch_{i}.jsonl"
        batch.write_text("".join(
            json.dumps({"subject": f"s{i}_{j}", "predicate": "is_a", "object": f"c{i % 3}"}) + "\\n"
            for j in range(@BATCH@)
        ))
        brain.load([batch])
        finish(i)
        print(i, flush=True)
        i += 1
        if rng.random() < 0.2:  # an explicit merge (`kgbrain compact`) besides the loads' own past the threshold
            brain.compact()
        if rng.random() < 0.4:
            brain.close()
            brain = Brain.open(db)
    """
).replace("@BATCH@", str(BATCH))


def _state(db: Path) -> tuple[list[str], int, int]:
    """The export (loaded_at dropped: it is the clock), the cycles whose batch is there, the last in-place mark."""
    with Brain.open(db, read_only=True) as brain:
        out = io.StringIO()
        brain.export(out)
        mark = brain.store.run("meta_get", key="soak")
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    for row in rows:
        row.pop("loaded_at", None)
        row.pop("retracted_at", None)
    facts = {(r["subject"], r.get("status")) for r in rows if r.get("predicate") == "is_a" and "object" in r}
    cycles = 0
    while (f"s{cycles}_1", "active") in facts:
        cycles += 1
    for i in range(cycles):  # each batch whole, its first fact retracted unless it is the last cycle, cut short
        assert all((f"s{i}_{j}", "active") in facts for j in range(1, BATCH)), i
        if i < cycles - 1:  # (a writer finishes the cycle its predecessor was killed in)
            assert (f"s{i}_0", "retracted") in facts, i
        else:
            assert (f"s{i}_0", "retracted") in facts or (f"s{i}_0", "active") in facts, i
    assert not any(s.startswith(f"s{cycles}_") for s, _ in facts), "a batch came back in part"
    return sorted(json.dumps(r, sort_keys=True) for r in rows), cycles, int(mark[0]["value"]) if mark else -1


@pytest.mark.slow
def test_random_kills_leave_whole_cycles_and_a_file_that_takes_the_next(tmp_path: Path) -> None:
    seconds = float(os.environ.get("KGBRAIN_SOAK_SECONDS", "60"))
    db = tmp_path / "kb.kuzu"
    Brain.open(db).close()  # (a kill while the schema is created is not what this test is about)
    rng = random.Random(25)
    reported = -1  # the last cycle the writer said was complete
    kills = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _, cycles, mark = _state(db)
        with subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(tmp_path), str(kills), str(cycles), str(mark)],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "KGBRAIN_DELTA_MERGE_ROWS": str(MERGE_ROWS)},
        ) as writer:
            assert writer.stdout is not None
            os.set_blocking(writer.stdout.fileno(), False)
            time.sleep(rng.uniform(0.5, 12.0))  # a cycle takes 3-5 s on a busy 2-core machine
            writer.kill()
            writer.wait()
            assert writer.returncode == -9, "the writer stopped by itself"
            said = [int(line) for line in (writer.stdout.read() or "").split()]
        kills += 1
        reported = max([reported, *said])
        export, cycles, mark = _state(db)
        # Every cycle the writer reported is there (what was acknowledged is kept). More may be: a cycle can land
        # and the kill come before its line is read (seen on Kùzu in CI: 85 cycles on disk, 82 reported); the
        # batches themselves are checked whole by _state.
        assert reported + 1 <= cycles, (reported, cycles)
        assert mark in (cycles - 1, cycles - 2), (mark, cycles)
        assert _state(db)[0] == export  # a second open reads the same
    print(f"soak: {seconds:g} s, {kills} kills, {reported + 1} cycles complete")  # (bench/store_soak.py shows it)
    assert kills >= 4
    assert reported >= 2, "the writer never got through enough cycles to test anything"
