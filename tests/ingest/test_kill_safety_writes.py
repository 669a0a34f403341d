"""Writes other than a facts load are all-or-nothing too: a real `kgbrain retract` (with the withdrawal of what the
retracted fact supported) and a real `kgbrain load rules.dl` (every materialisation round commits), SIGKILLed at
observed phases (tests/ingest/kill_points.py), leave the knowledge base as it was before or as it is after, and
running them again completes it.

Both run inside KuzuStore.atomic: the rounds and the withdrawal commit to a working copy of the database file,
which replaces it only when all of them are done.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.store.kuzu_store import WORK_SUFFIX
from tests.conftest import write_jsonl
from tests.ingest.kill_points import normalised_export
from tests.ingest.test_kill_safety import kill_until_it_hits

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

CHAIN = 24  # parent links; the ancestor rules derive CHAIN * (CHAIN + 1) / 2 facts in CHAIN rounds
RULES = "[a1] anc(X, Y) :- parent(X, Y).\n[a2] anc(X, Z) :- parent(X, Y), anc(Y, Z).\n"


def _kgbrain(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "kgbrain", "--db", str(db), *args]


@pytest.fixture(scope="module")
def kbs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """A KB with the chain only, one with the rules materialised, the fact to retract, the conflict to resolve,
    and the exports before and after each write."""
    root = tmp_path_factory.mktemp("kill-writes")
    chain = root / "chain.kuzu"
    rules = root / "anc.dl"
    rules.write_text(RULES, encoding="utf-8")
    facts = [{"subject": f"p{i}", "predicate": "parent", "object": f"p{i + 1}"} for i in range(CHAIN)]
    facts += [  # a conflict to resolve
        {"subject": "q", "predicate": "is_a", "object": "r", "source": "one"},
        {"subject": "q", "predicate": "is_a", "object": "r", "polarity": False, "source": "two"},
    ]
    with Brain.open(chain) as brain:
        brain.load([write_jsonl(root / "chain.jsonl", facts)])
    derived = root / "derived.kuzu"
    shutil.copy(chain, derived)
    subprocess.run(_kgbrain(derived, "load", str(rules)), check=True, capture_output=True)
    middle = CHAIN // 2
    with Brain.open(derived, read_only=True) as brain:
        found = brain.facts(f"p{middle}").facts
        [target] = [f.fact_id for f in found if f.predicate == "parent" and f.subject == f"p{middle}"]
    retracted = root / "retracted.kuzu"
    shutil.copy(derived, retracted)
    subprocess.run(_kgbrain(retracted, "retract", target), check=True, capture_output=True)
    with Brain.open(derived, read_only=True) as brain:
        [conflict] = brain.conflicts()
    resolve = ["resolve", conflict.id, "--keep", conflict.fact_ids[0]]
    resolved = root / "resolved.kuzu"
    shutil.copy(derived, resolved)
    subprocess.run(_kgbrain(resolved, *resolve), check=True, capture_output=True)
    dbs = {"chain": chain, "derived": derived, "retracted": retracted, "resolved": resolved}
    exports = {name: normalised_export(db) for name, db in dbs.items()}
    assert len({tuple(e) for e in exports.values()}) == len(exports)
    return {**dbs, "rules": rules, "target": target, "resolve": resolve, "exports": exports}


# (what, base KB, arguments, export before, export after)
WRITES: dict[str, tuple[str, Callable[[dict[str, object]], list[str]], str, str]] = {
    "load rules.dl": ("chain", lambda k: ["load", str(k["rules"])], "chain", "derived"),
    "retract": ("derived", lambda k: ["retract", str(k["target"])], "derived", "retracted"),
    "resolve": ("derived", lambda k: list(k["resolve"]), "derived", "resolved"),  # type: ignore[call-overload]
}
# Kùzu opening the file and the reopen after the swap are short; a kill there once left a log that read-only opens
# could not replay (the retract kill test failed now and then until KuzuStore replayed it).
POINTS = {
    "load rules.dl": [
        "as the write-ahead log is written",
        "right after the write-ahead log is complete",
        "right after the swap",
    ],
    "retract": [
        "as Kùzu opens the database",
        "as the write-ahead log is written",
        "right after the write-ahead log is complete",
        "right after the swap",
        "as Kùzu reopens the swapped database",
    ],
    # (before the swap only: a resolve run again after it had finished raises the person's trust a second time)
    "resolve": ["as the write-ahead log is written", "right after the write-ahead log is complete"],
}


@pytest.mark.parametrize(("write", "point"), [(w, p) for w, points in POINTS.items() for p in points])
def test_a_killed_write_leaves_before_or_after_and_a_rerun_completes(
    kbs: dict[str, object], tmp_path: Path, write: str, point: str
) -> None:
    base, args, before_name, after_name = WRITES[write]
    db = tmp_path / "kb.kuzu"
    exports: dict[str, list[str]] = kbs["exports"]  # type: ignore[assignment]
    command = _kgbrain(db, *args(kbs))
    kill = kill_until_it_hits(command, db, kbs[base], point)  # type: ignore[arg-type]
    assert not kill.ended_first, f"{write} {kill}: never caught it running"
    state = normalised_export(db)
    assert state in (exports[before_name], exports[after_name]), f"{write} {kill}: neither before nor after"
    if state == exports[after_name] and write == "resolve":
        return  # the kill landed after the swap on a busy machine; a second resolve would raise the trust again
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if state == exports[after_name] and write == "retract":  # it had finished: a second retraction is refused
        assert (done.returncode, done.stderr[:7]) == (2, "Error: "), f"{write} {kill}: rerun gave {done.stderr}"
    else:
        assert done.returncode == 0, f"{write} {kill}: the rerun failed: {done.stderr}"
    assert normalised_export(db) == exports[after_name], f"{write} {kill}: the rerun did not give the KB after it"
    assert not list(tmp_path.glob("kb.kuzu" + WORK_SUFFIX + "*")), f"{write} {kill}: the rerun left the working copy"
