"""Many small loads into a big knowledge base: CPU per load and the file's size as they pile up (issue #25: 1k facts
into 1M in at most 0.3 CPU s of store work, file size stable over 100 small loads).

It loads bench/load.py's generated facts file (--facts, default its 1,000,000) into a KB once (kept under --dir),
copies it, then loads --loads files of --each new facts (default 100 × 1,000) into the copy, one `Brain.load` each
in this process, and prints CPU and wall seconds per load and the file size every tenth load. A load's CPU here is
the whole write: parse, look-ups, the working copy, the commit and its checkpoint, the swap; the deltas are merged
when they pass KGBRAIN_DELTA_MERGE_ROWS (a merge shows as one slower load).

    python bench/small_loads.py [--dir /tmp/kgbrain-load-bench] [--facts 1000000] [--loads 100] [--each 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import generate

from kgbrain.api import Brain


def cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def batch(path: Path, n: int, seed: int, n_concepts: int) -> Path:
    rng = random.Random(seed)
    with path.open("w") as out:
        for i in range(n):
            s, o = f"c{rng.randrange(n_concepts)}", f"c{rng.randrange(n_concepts)}"
            out.write(json.dumps({"subject": s, "predicate": "related_to", "object": o, "source": f"small-{seed}-{i}"}))
            out.write("\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "kgbrain-load-bench")
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--loads", type=int, default=100)
    parser.add_argument("--each", type=int, default=1_000)
    args = parser.parse_args()
    base = args.dir / f"small-loads-base-{args.facts}.kuzu"
    if not base.exists():
        data = generate(args.facts, args.dir / str(args.facts))["jsonl"]
        t = time.perf_counter()
        with Brain.open(base.with_suffix(".building")) as brain:
            brain.load([data])
        base.with_suffix(".building").replace(base)
        print(f"base KB of {args.facts:,} facts built in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    started = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        work = Path(tmp) / "kb.kuzu"
        shutil.copy(base, work)
        size0 = work.stat().st_size / 2**20
        cpus: list[float] = []
        print(f"{args.loads} loads of {args.each:,} facts into a KB of {args.facts:,} ({size0:.0f} MB)\n")
        print("| loads | CPU s, last 10 (median) | wall s, last 10 (median) | file MB |")
        print("|---:|---:|---:|---:|")
        walls: list[float] = []
        with Brain.open(work) as brain:
            for i in range(args.loads):
                path = batch(Path(tmp) / f"b{i}.jsonl", args.each, i, max(10, args.facts // 5))
                c, t = cpu(), time.perf_counter()
                brain.load([path])
                cpus.append(cpu() - c)
                walls.append(time.perf_counter() - t)
                if (i + 1) % 10 == 0:
                    mb = work.stat().st_size / 2**20
                    last, wall = statistics.median(cpus[-10:]), statistics.median(walls[-10:])
                    print(f"| {i + 1} | {last:.2f} (max {max(cpus[-10:]):.2f}) | {wall:.2f} | {mb:.0f} |", flush=True)
        print(
            f"\nall loads: median {statistics.median(cpus):.2f} CPU s, max {max(cpus):.2f}; file {size0:.0f} MB → ",
            end="",
        )
        print(f"{work.stat().st_size / 2**20:.0f} MB")
    print(f"load average {started:.1f} at the start, {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
