"""CLI `ask` wall time on the bundled demo KB, this tree against a peer tree (e.g. an older checkout), interleaved.

    python bench/ask_startup.py --peer /path/to/other/checkout [--tree /path/to/checkout] [--runs 9]
                                [--big /tmp/kgbrain-bench-serve-1000000/kb.kuzu]

Each run is a fresh `python -m kgbrain ask QUESTION` process (start-up, opening the KB, one cycle, the answer),
alternating between the trees so both see the same machine load. Prints the median wall time and the median and
spread of the process's CPU time (user + system, which a busy machine distorts far less) per tree and question;
without --peer only one tree is timed. `--big` also times questions on a large knowledge base (bench/serve.py
builds a 1M-fact one), copied once per tree so neither reads the other's persisted indexes. The children may write
bytecode caches (PYTHONDONTWRITEBYTECODE is dropped): an installed kgbrain has them, so start-up is timed with them.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
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
BIG_QUESTIONS = {"big en": "Is c1 a c2?", "big ru": "Что такое c7?"}


def once(tree: Path, question: str, db: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one `ask` process; CPU time is what a busy machine distorts least."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
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


def copy_big(source: Path, name: str) -> Path:
    """A private copy of a large knowledge base and its persisted indexes for one tree (made once)."""
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"kgbrain-ask-startup-big-{name}"
    target = folder / source.name
    if not target.exists():
        folder.mkdir(parents=True, exist_ok=True)
        for f in source.parent.iterdir():
            if f.name.startswith(source.name) and not f.name.endswith(".lock"):
                if f.is_dir():
                    shutil.copytree(f, folder / f.name)
                else:
                    shutil.copy2(f, folder / f.name)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", type=Path, help="another checkout of kgbrain to compare with")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to time (default: this one)")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--big", type=Path, help="a large knowledge base to time too (copied per tree)")
    args = parser.parse_args()
    trees = {"tree": args.tree.resolve(), **({"peer": args.peer.resolve()} if args.peer else {})}
    dbs = {}
    for name, tree in trees.items():
        tag = hashlib.blake2b(str(tree).encode(), digest_size=6).hexdigest()
        db = Path(os.environ.get("TMPDIR", "/tmp")) / f"kgbrain-ask-startup-{tag}.kuzu"
        if not db.exists():
            files = sorted((tree / "data" / "demo").glob("*.jsonl"))
            env = {**os.environ, "PYTHONPATH": str(tree)}
            cmd = [sys.executable, "-m", "kgbrain", "--db", str(db), "load", *map(str, files)]
            subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=tree)
        dbs[name] = db
    bigs = {name: copy_big(args.big, name) for name in trees} if args.big else {}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    cases = [(lang, q, dbs) for lang, q in QUESTIONS.items()] + [(lang, q, bigs) for lang, q in BIG_QUESTIONS.items()]
    for lang, question, where in cases:
        if not where:
            continue
        for name, tree in trees.items():
            once(tree, question, where[name])  # warm the file cache and any persisted indexes
        for _ in range(args.runs):
            for name, tree in trees.items():
                times.setdefault((name, lang), []).append(once(tree, question, where[name]))
    print(f"{'tree':<8}{'lang':<8}{'wall median ms':>15}{'CPU median ms':>15}{'CPU min ms':>12}{'CPU max ms':>12}")
    for (name, lang), xs in times.items():
        wall, cpu = [w for w, _ in xs], [c for _, c in xs]
        print(
            f"{name:<8}{lang:<8}{statistics.median(wall) * 1000:>15.0f}{statistics.median(cpu) * 1000:>15.0f}"
            f"{min(cpu) * 1000:>12.0f}{max(cpu) * 1000:>12.0f}"
        )


if __name__ == "__main__":
    main()
