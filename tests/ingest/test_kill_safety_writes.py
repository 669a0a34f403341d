"""Writes other than a facts load are all-or-nothing too: a real `kgbrain retract` (with the withdrawal of what the
retracted fact supported) and a real `kgbrain load rules.dl` (every materialisation round commits), SIGKILLed at
several moments, leave the knowledge base as it was before or as it is after, and running them again completes it.

Both run inside KuzuStore.atomic: the rounds and the withdrawal commit to a working copy of the database file,
which replaces it only when all of them are done.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.store.kuzu_store import WORK_SUFFIX
from tests.conftest import write_jsonl
from tests.ingest.test_kill_safety import kill_when, normalised_export

CHAIN = 24  # parent links; the ancestor rules derive CHAIN * (CHAIN + 1) / 2 facts in CHAIN rounds
RULES = "[a1] anc(X, Y) :- parent(X, Y).\n[a2] anc(X, Z) :- parent(X, Y), anc(Y, Z).\n"
Trigger = Callable[[Path, float], bool]


def _kgbrain(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "kgbrain", "--db", str(db), *args]


@pytest.fixture(scope="module")
def kbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A KB with the chain only, one with the rules materialised, the fact to retract, and the four exports."""
    root = tmp_path_factory.mktemp("kill-writes")
    chain = root / "chain.kuzu"
    rules = root / "anc.dl"
    rules.write_text(RULES, encoding="utf-8")
    facts = [{"subject": f"p{i}", "predicate": "parent", "object": f"p{i + 1}"} for i in range(CHAIN)]
    with Brain.open(chain) as brain:
        brain.load([write_jsonl(root / "chain.jsonl", facts)])
    derived = root / "derived.kuzu"
    shutil.copy(chain, derived)
    started = time.monotonic()
    subprocess.run(_kgbrain(derived, "load", str(rules)), check=True, capture_output=True)
    rules_seconds = time.monotonic() - started
    middle = CHAIN // 2
    with Brain.open(derived, read_only=True) as brain:
        found = brain.facts(f"p{middle}").facts
        [target] = [f.fact_id for f in found if f.predicate == "parent" and f.subject == f"p{middle}"]
    retracted = root / "retracted.kuzu"
    shutil.copy(derived, retracted)
    started = time.monotonic()
    subprocess.run(_kgbrain(retracted, "retract", target), check=True, capture_output=True)
    retract_seconds = time.monotonic() - started
    exports = {name: normalised_export(db) for name, db in (("chain", chain), ("derived", derived))}
    exports["retracted"] = normalised_export(retracted)
    assert exports["derived"] != exports["chain"]
    assert exports["retracted"] != exports["derived"]
    return {
        "chain": chain,
        "derived": derived,
        "rules": rules,
        "target": target,
        "exports": exports,
        "seconds": {"rules": rules_seconds, "retract": retract_seconds},
    }


def _work_log(db: Path) -> Path:
    return db.with_name(db.name + WORK_SUFFIX + ".wal")


def log_written(db: Path, _: float) -> bool:
    """A transaction on the working copy has written its log (a round committed, or is committing)."""
    log = _work_log(db)
    return log.exists() and log.stat().st_size > 0


class Swapped:
    """The working copy has just replaced the database."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, db: Path, _: float) -> bool:
        exists = db.with_name(db.name + WORK_SUFFIX).exists()
        self.seen |= exists
        return self.seen and not exists


def half_way(seconds: float) -> Trigger:
    return lambda _db, elapsed: elapsed >= seconds / 2


# (what, base KB, arguments, export before, export after)
WRITES = {
    "load rules.dl": ("chain", lambda k: ["load", str(k["rules"])], "chain", "derived"),
    "retract": ("derived", lambda k: ["retract", str(k["target"])], "derived", "retracted"),
}
POINTS: dict[str, Callable[[float], Trigger]] = {
    "once a transaction's log is written": lambda _: log_written,
    "half-way through the run": half_way,
    "right after the swap": lambda _: Swapped(),
}


@pytest.mark.parametrize("point", list(POINTS))
@pytest.mark.parametrize("write", list(WRITES))
def test_a_killed_write_leaves_before_or_after_and_a_rerun_completes(
    kbs: dict[str, object], tmp_path: Path, write: str, point: str
) -> None:
    base, args, before_name, after_name = WRITES[write]
    db = tmp_path / "kb.kuzu"
    shutil.copy(kbs[base], db)  # type: ignore[arg-type]
    exports: dict[str, list[str]] = kbs["exports"]  # type: ignore[assignment]
    seconds: dict[str, float] = kbs["seconds"]  # type: ignore[assignment]
    trigger = POINTS[point](seconds["rules" if write.startswith("load") else "retract"])
    command = _kgbrain(db, *args(kbs))
    kill_when(command, db, trigger)
    state = normalised_export(db)
    assert state in (exports[before_name], exports[after_name]), f"{write} killed {point}: neither before nor after"
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if state == exports[after_name] and write == "retract":  # it had finished: a second retraction is refused
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("Error:"), done.stderr
    else:
        assert done.returncode == 0, done.stderr
    assert normalised_export(db) == exports[after_name]
    assert not list(tmp_path.glob("kb.kuzu" + WORK_SUFFIX + "*"))
