"""Question-answering accuracy on the QA set (tests/qa): per intent and language, and confident errors.

Run: `python bench/qa.py [--blocked]`. A case is right when its answer passes tests/qa/judge.py; a wrong answer
given with confidence >= 0.7 is counted separately (target: none). `--blocked` forces the resource monitor to
its hard block, which must change nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kgbrain.api import Brain
from kgbrain.reasoning.resources import ResourceMonitor
from tests.qa.judge import KB_FILES, is_confident, load_cases, problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--blocked", action="store_true", help="force the resource monitor's hard block")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every wrong answer")
    args = parser.parse_args()
    brains = {"demo": Brain.demo(read_only=True)}
    for name, files in KB_FILES.items():
        brains[name] = Brain.open(None)
        brains[name].load(list(files))
    for b in brains.values():
        resources = dataclasses.replace(b.config.resources, hard_on=0.0 if args.blocked else 101.0)
        b.cognition.loop.monitor = ResourceMonitor(resources, sampler=lambda: (50.0, 50.0))
    totals: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    started = time.perf_counter()
    for case in load_cases():
        answer = brains[case.kb].ask(case.q)
        wrong = problems(case, answer)
        row = totals[(case.intent, case.lang)]
        row[0] += 1
        row[1] += not wrong
        row[2] += bool(wrong) and is_confident(answer)
        if wrong and args.verbose:
            print(f"{case.id} {case.q!r}: {'; '.join(wrong)}\n    -> {answer.text[:200]!r}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    print(f"{'intent':<12} {'lang':<4} {'n':>4} {'right':>6} {'acc':>6} {'wrong>=0.7':>10}")
    n = right = confident = 0
    for (intent, lang), (count, good, bad) in sorted(totals.items()):
        print(f"{intent:<12} {lang:<4} {count:>4} {good:>6} {good / count:>6.0%} {bad:>10}")
        n, right, confident = n + count, right + good, confident + bad
    print(f"{'all':<12} {'':<4} {n:>4} {right:>6} {right / n:>6.0%} {confident:>10}")
    print(f"{n} questions in {elapsed:.1f} s ({'blocked' if args.blocked else 'free'} resources)")


if __name__ == "__main__":
    main()
