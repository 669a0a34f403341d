"""Question-answering accuracy on the QA set (tests/qa): per set, intent and language, and confident errors.

Each set is reported separately: `seed` (written with the code) and every blind set (tests/qa/blind_*.jsonl,
written by someone who never saw the code), so a blind score is never hidden inside the seed set's.

Run: `python bench/qa.py [--blocked] [--peer DIR ...]`. A case is right when its answer passes
tests/qa/judge.py; a wrong answer given with confidence >= 0.7 is counted separately (target: none).
`--blocked` forces the resource monitor to its hard block, which must change nothing. `--peer DIR` answers
the same questions with another checkout's kgbrain (e.g. a worktree of an older commit, with its own demo
data) in a subprocess and prints its columns beside this tree's.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TREE = Path(os.environ.get("KGBRAIN_QA_TREE", ROOT))  # whose kgbrain answers (the QA set is always ROOT's)
sys.path.insert(0, str(TREE))

from kgbrain.api import Brain  # noqa: E402
from kgbrain.reasoning.cognition.monitor import ResourceMonitor  # noqa: E402


def _judge() -> Any:
    # By path: a peer tree's own `tests` package (first on sys.path) has no QA set.
    spec = importlib.util.spec_from_file_location("qa_judge", ROOT / "tests" / "qa" / "judge.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["qa_judge"] = module  # dataclasses look their module up while the class is created
    spec.loader.exec_module(module)
    return module


judge = _judge()
KB_FILES, is_confident, load_cases, problems = judge.KB_FILES, judge.is_confident, judge.load_cases, judge.problems

Totals = dict[tuple[str, str, str], list[int]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blocked", action="store_true", help="force the resource monitor's hard block")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every wrong answer")
    parser.add_argument("--peer", action="append", default=[], help="another checkout to compare (repeatable)")
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)  # one tree's totals as JSON
    args = parser.parse_args()
    started = time.perf_counter()
    mine = evaluate(args.blocked, args.verbose)
    if args.raw:
        print(json.dumps([[k[0], k[1], k[2], *v] for k, v in mine.items()]))
        return
    columns = {"kgbrain": mine}
    for peer in args.peer:
        env = {**os.environ, "KGBRAIN_QA_TREE": str(Path(peer).resolve())}
        cmd = [sys.executable, __file__, "--raw", *(["--blocked"] if args.blocked else [])]
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
        columns[Path(peer).name] = {(r[0], r[1], r[2]): r[3:] for r in json.loads(out.splitlines()[-1])}
    report(columns)
    mode = "blocked" if args.blocked else "free"
    asked = sum(v[0] for v in mine.values())
    print(
        f"{asked} questions per tree, {len(columns)} tree(s), {time.perf_counter() - started:.1f} s ({mode} resources)"
    )


def evaluate(blocked: bool, verbose: bool) -> Totals:
    """Ask every question of the QA set; (set, intent, lang) -> [asked, right, wrong with confidence >= 0.7]."""
    brains = {"demo": Brain.demo(read_only=True)}
    for name, files in KB_FILES.items():
        brains[name] = Brain.open(None)
        brains[name].load(list(files))
    for b in brains.values():
        resources = dataclasses.replace(b.config.resources, hard_on=0.0 if blocked else 101.0)
        b.cognition.loop.monitor = ResourceMonitor(resources, sampler=lambda: (50.0, 50.0))
    totals: Totals = defaultdict(lambda: [0, 0, 0])
    for case in load_cases():
        answer = brains[case.kb].ask(case.q)
        wrong = problems(case, answer)
        row = totals[(case.set, case.intent, case.lang)]
        row[0] += 1
        row[1] += not wrong
        row[2] += bool(wrong) and is_confident(answer)
        if wrong and verbose:
            print(f"{case.id} {case.q!r}: {'; '.join(wrong)}\n    -> {answer.text[:200]!r}", file=sys.stderr)
    return dict(totals)


def report(columns: dict[str, Totals]) -> None:
    """Per set: one row per intent and language, accuracy and wrong answers at confidence >= 0.7, every tree."""
    names = list(columns)
    head = "".join(f" | {n[:16]:>16}  acc >=0.7" for n in names)
    keys = sorted({k for c in columns.values() for k in c}, key=lambda k: (k[0] != "seed", k))
    for qa_set in dict.fromkeys(k[0] for k in keys):
        print(f"\n{qa_set}")
        print(f"{'intent':<12} {'lang':<4} {'n':>4}{head}")
        sums = {n: [0, 0, 0] for n in names}
        for key in (k for k in keys if k[0] == qa_set):
            n = next(c[key][0] for c in columns.values() if key in c)
            cells = ""
            for name in names:
                asked, good, bad = columns[name].get(key, [n, 0, 0])
                sums[name] = [a + b for a, b in zip(sums[name], (asked, good, bad), strict=True)]
                cells += f" | {good / asked:>21.0%} {bad:>5}"
            print(f"{key[1]:<12} {key[2]:<4} {n:>4}{cells}")
        for lang in ("en", "ru"):
            cells = ""
            for name in names:
                rows = [v for k, v in columns[name].items() if k[0] == qa_set and k[2] == lang]
                asked, good, bad = (sum(r[i] for r in rows) for i in range(3))
                cells += f" | {good / max(asked, 1):>21.0%} {bad:>5}"
            n_lang = sum(v[0] for k, v in columns[names[0]].items() if k[0] == qa_set and k[2] == lang)
            print(f"{'all':<12} {lang:<4} {n_lang:>4}{cells}")
        total = sums[names[0]][0]
        cells = "".join(f" | {s[1] / s[0]:>21.0%} {s[2]:>5}" for s in sums.values())
        print(f"{'all':<12} {'':<4} {total:>4}{cells}")


if __name__ == "__main__":
    main()
