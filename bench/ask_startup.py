"""CLI `ask` wall time on the bundled demo KB, this tree against a peer tree (e.g. an older checkout), interleaved.

    python bench/ask_startup.py --peer /path/to/other/checkout [--tree /path/to/checkout] [--runs 9]

Each run is a fresh `python -m kgbrain ask QUESTION` process (start-up, opening the KB, one cycle, the answer),
alternating between the trees so both see the same machine load. Prints the median wall time and the median and
spread of the process's CPU time (user + system, which a busy machine distorts far less) per tree and question;
without --peer only one tree is timed.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def once(tree: Path, question: str, db: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `ask` process; CPU time is what a busy machine distorts least."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", question],
        env=env,
        check=True,
        capture_output=True,
        cwd=tree,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another checkout of kgbrain to compare with")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to time (default: this one)")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    trees = {"tree": args.tree.resolve(), **({"peer": args.peer.resolve()} if args.peer else {})}
    dbs = {}
    for name, tree in trees.items():
        db = Path(os.environ.get("TMPDIR", "/tmp")) / f"kgbrain-ask-startup-{abs(hash(str(tree)))}.kuzu"
        if not db.exists():
            files = sorted((tree / "data" / "demo").glob("*.jsonl"))
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, "-m", "kgbrain", "--db", str(db), "load", *map(str, files)]
            subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=tree)
        dbs[name] = db
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for lang, question in QUESTIONS.items():
        for name, tree in trees.items():
            once(tree, question, dbs[name])  # warm the file cache and any persisted indexes
        for _ in range(args.runs):
            for name, tree in trees.items():
                times.setdefault((name, lang), []).append(once(tree, question, dbs[name]))
    print(f"{'tree':<8}{'lang':<6}{'wall median ms':>15}{'CPU median ms':>15}{'CPU min ms':>12}{'CPU max ms':>12}")
    for (name, lang), xs in times.items():
        wall, cpu = [w for w, _ in xs], [c for _, c in xs]
        print(
            f"{name:<8}{lang:<6}{statistics.median(wall) * 1000:>15.0f}{statistics.median(cpu) * 1000:>15.0f}"
            f"{min(cpu) * 1000:>12.0f}{max(cpu) * 1000:>12.0f}"
        )


if __name__ == "__main__":
    main()
