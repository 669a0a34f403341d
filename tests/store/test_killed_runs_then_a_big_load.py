"""A knowledge base that went through a series of killed write runs still takes a write of 10,000+ facts.

Issue #22 item 8: on Kùzu, a KB after several kill -9'd runs made every later write of >= 10,000 facts segfault
(5,000 went in; a fresh KB of the same size was fine). Here real `kgbrain load` processes are killed at seeded
fractions of a load's measured time (start-up, mid-load, mid-merge, mid-swap), then CLI loads of 10,000 and
12,000 facts must exit 0 with every fact there, and every killed batch is there whole or not at all.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KILLED_RUNS = 6
BIG = 10_000
MERGE_ROWS = "5000"  # the killed loads merge their deltas into the fact tables: kills land in merges too


def kg(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "kgbrain", "--db", str(db), *args]


def env(merge_rows: str | None) -> dict[str, str]:
    out = {**os.environ, "PYTHONPATH": str(ROOT)}
    out.pop("KGBRAIN_DELTA_MERGE_ROWS", None)
    if merge_rows is not None:
        out["KGBRAIN_DELTA_MERGE_ROWS"] = merge_rows
    return out


def batch(path: Path, prefix: str, n: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for j in range(n):
            fh.write(json.dumps({"subject": f"{prefix}_{j}", "predicate": "is_a", "object": f"k{j % 97}"}) + "\n")
    return path


def run(args: list[str], merge_rows: str | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, env=env(merge_rows), timeout=timeout)


def killed(args: list[str], after: float) -> int:
    """Run `args`, SIGKILL it `after` seconds in (unless it ended first); its exit status."""
    proc = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(MERGE_ROWS), start_new_session=True
    )
    try:
        try:
            return proc.wait(timeout=after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            return proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)


def subjects(db: Path) -> set[str]:
    r = run(kg(db, "export"))
    assert r.returncode == 0, r.stderr
    return {row["subject"] for row in map(json.loads, r.stdout.splitlines()) if row.get("predicate") == "is_a"}


@pytest.mark.slow
def test_after_killed_write_runs_a_load_of_10000_facts_goes_in_whole(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    base = batch(tmp_path / "base.jsonl", "base", 200)
    assert run(kg(db, "load", str(base))).returncode == 0
    # How long a load takes here (start-up included): the kills land at seeded fractions of it.
    warm = batch(tmp_path / "warm.jsonl", "warm", BIG)
    started = time.monotonic()
    assert run(kg(db, "load", str(warm)), merge_rows=MERGE_ROWS).returncode == 0
    took = time.monotonic() - started
    rng = random.Random(22)
    batches: dict[str, int] = {}
    kills = 0
    for k in range(KILLED_RUNS):
        name = f"killed{k}"
        batches[name] = BIG + 500 * k
        args = kg(db, "load", str(batch(tmp_path / f"{name}.jsonl", name, batches[name])))
        kills += killed(args, after=took * rng.uniform(0.3, 1.2)) == -signal.SIGKILL
    assert kills >= 2, "too few runs were killed mid-way to test anything"
    have = subjects(db)
    for name, n in batches.items():  # a killed load is all or nothing
        there = sum(f"{name}_{j}" in have for j in range(n))
        assert there in (0, n), (name, there, n)

    first = batch(tmp_path / "first.jsonl", "first", BIG)
    r = run(kg(db, "load", str(first)))
    assert r.returncode == 0, r.stderr
    second = batch(tmp_path / "second.jsonl", "second", BIG + 2_000)
    r = run(kg(db, "load", str(second)), merge_rows=MERGE_ROWS)  # this one merges into the fact tables as well
    assert r.returncode == 0, r.stderr

    have_now = subjects(db)
    assert {f"first_{j}" for j in range(BIG)} <= have_now
    assert {f"second_{j}" for j in range(BIG + 2_000)} <= have_now
    assert have <= have_now  # nothing that was there before is lost
    assert {f"base_{j}" for j in range(200)} <= have_now
    stats = run(kg(db, "stats", "--json"))
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout)["facts"] == len(have_now)
