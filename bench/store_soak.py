"""The store's kill -9 soak (tests/store/test_soak.py) for longer than CI runs it.

    python bench/store_soak.py [SECONDS]     # default 600

A writer process loads, retracts and writes in place in a loop while kill -9 lands at random moments; after every
kill the reopened file must hold whole cycles, export the same twice, and take the next cycle. Prints the kills
survived and the cycles completed, or the failing check.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    seconds = sys.argv[1] if len(sys.argv) > 1 else "600"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/store/test_soak.py", "-q", "-s", "-n", "0", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env={**os.environ, "KGBRAIN_SOAK_SECONDS": seconds},
        capture_output=True,
        text=True,
        check=False,
    )
    summary = [line for line in done.stdout.splitlines() if line.startswith("soak:")]
    print("| engine | result |")
    print("|---|---|")
    engine = os.environ.get("KGBRAIN_BACKEND", "ladybug")
    print(f"| {engine} | {summary[0] if summary else 'FAILED'} |")
    if done.returncode != 0:
        print(done.stdout[-4000:])
    return done.returncode


if __name__ == "__main__":
    raise SystemExit(main())
