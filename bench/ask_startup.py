"""CLI `ask` wall time on the bundled demo KB, this tree against a peer tree (e.g. an older checkout), interleaved.

    python bench/ask_startup.py --peer /path/to/other/checkout [--runs 9]

Each run is a fresh `python -m kgbrain ask QUESTION` process (start-up, opening the KB, one cycle, the answer),
alternating between the trees so both see the same machine load. Prints the median and the spread per tree and
question; without --peer only this tree is timed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = {
    "en": "Is a neuron a cell?",
    "ru": "Может ли нейрон делиться?",
}


def once(tree: Path, question: str, db: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", question],
        env=env,
        check=True,
        capture_output=True,
        cwd=tree,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another checkout of kgbrain to compare with")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    trees = {"this tree": ROOT, **({"peer": args.peer.resolve()} if args.peer else {})}
    dbs = {}
    for name, tree in trees.items():
        db = Path(os.environ.get("TMPDIR", "/tmp")) / f"kgbrain-ask-startup-{abs(hash(str(tree)))}.kuzu"
        if not db.exists():
            files = sorted((tree / "data" / "demo").glob("*.jsonl"))
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, "-m", "kgbrain", "--db", str(db), "load", *map(str, files)]
            subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=tree)
        dbs[name] = db
    times: dict[tuple[str, str], list[float]] = {}
    for lang, question in QUESTIONS.items():
        for name, tree in trees.items():
            once(tree, question, dbs[name])  # warm the file cache and any persisted indexes
        for _ in range(args.runs):
            for name, tree in trees.items():
                times.setdefault((name, lang), []).append(once(tree, question, dbs[name]))
    print(f"{'tree':<12}{'lang':<6}{'median ms':>10}{'min ms':>9}{'max ms':>9}")
    for (name, lang), xs in times.items():
        print(f"{name:<12}{lang:<6}{statistics.median(xs) * 1000:>10.0f}{min(xs) * 1000:>9.0f}{max(xs) * 1000:>9.0f}")


if __name__ == "__main__":
    main()
