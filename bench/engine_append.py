"""What the store engine does when relationships are appended to a table that holds some: the engine alone.

The engine is the one kgbrain runs on (Ladybug 0.22.0, or Kùzu 0.11.3 with KGBRAIN_BACKEND=kuzu; only
`kgbrain.store.engine_package` picks it), so runs on the two engines compare. Keep one --dir per engine: neither
opens the other's files.

A table of 1,000,000 relationships (kgbrain's fact columns) over 200,000 nodes is built once (kept under --dir);
each case then appends --new relationships (default 100,000) in one transaction, in a process of its own, and
prints CPU and wall seconds per step. Cases are `base:how:sources[:options]`:

- base: `empty` (schema and nodes only), `one` (one table of 1M), `eight` (1M over eight tables), `onefwd` (one
  table stored forward only, `WITH (storage_direction = 'fwd')`), `delta` (the table of 1M with an empty delta
  table R_D beside it, which takes the new rows: kgbrain's layout since schema version 8), `delta50k`,
  `delta100k` (the same with 50k or 100k rows in R_D already: the delta before it is merged);
- how: `copy` (COPY FROM an Arrow table) or `create` (LOAD FROM + MATCH + CREATE);
- sources: `spread` (from and to any existing node), `clustered` (from the first 20k nodes), `newsrc` (from
  20k new nodes, to existing ones), `allnew` (from and to 20k new nodes);
- options: `noauto` (auto_checkpoint off), `thr1g` (checkpoint_threshold 1 GiB), `nockpt` (no CHECKPOINT
  statement: the close checkpoints).

    python bench/engine_append.py [--dir /tmp/<engine>-append] [--new 100000] [CASE ...]
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util  # noqa: F401  kuzu 0.11.3 uses importlib.util without importing it
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa

from kgbrain.store import engine_package

kuzu = engine_package.load()  # the engine package (ladybug or kuzu): same Database / Connection API

N_NODES, N_RELS = 200_000, 1_000_000
PROPS = (
    "fact_id STRING, predicate STRING, polarity BOOLEAN, confidence DOUBLE, source STRING, trust DOUBLE, "
    "authority STRING, observed_at TIMESTAMP, loaded_at TIMESTAMP, status STRING, lang STRING"
)
ONE, EIGHT = ["R"], [f"R{i}" for i in range(8)]
DEFAULT_CASES = [
    "empty:copy:spread",
    "one:copy:spread",
    "delta:copy:spread",
    "delta:create:spread",
    "one:copy:spread:noauto",
    "one:copy:spread:thr1g",
    "one:create:spread",
    "one:create:spread:noauto",
    "one:copy:clustered",
    "one:copy:newsrc",
    "one:copy:allnew",
    "eight:copy:spread",
    "onefwd:copy:spread",
    "onefwd:copy:newsrc",
]


def cpu() -> float:
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime


def nodes(first: int, last: int) -> list[str]:
    return [f"c{i}" for i in range(first, last)]


def rels(n: int, seed: int, src: list[str], dst: list[str]) -> pa.Table:
    rng = random.Random(seed)
    now = datetime.datetime(2026, 1, 1)
    return pa.table(
        {
            "from": pa.array([src[rng.randrange(len(src))] for _ in range(n)]),
            "to": pa.array([dst[rng.randrange(len(dst))] for _ in range(n)]),
            "fact_id": pa.array([f"f_{seed}_{i:012x}" for i in range(n)]),
            "predicate": pa.array(["is_a"] * n),
            "polarity": pa.array([True] * n),
            "confidence": pa.array([rng.random() for _ in range(n)]),
            "source": pa.array([f"source-{i % 20}" for i in range(n)]),
            "trust": pa.array([0.5] * n),
            "authority": pa.nulls(n, pa.string()),
            "observed_at": pa.nulls(n, pa.timestamp("us")),
            "loaded_at": pa.array([now] * n, pa.timestamp("us")),
            "status": pa.array(["active"] * n),
            "lang": pa.nulls(n, pa.string()),
        }
    )


def schema(conn: Any, tables: list[str], direction: str | None = None) -> None:
    conn.execute("CREATE NODE TABLE N(id STRING, PRIMARY KEY(id))")
    for t in tables:
        with_ = f" WITH (storage_direction = '{direction}')" if direction else ""
        conn.execute(f"CREATE REL TABLE {t}(FROM N TO N, {PROPS}){with_}")


def build(folder: Path) -> None:
    for name, tables, direction in (("one", ONE, None), ("eight", EIGHT, None), ("onefwd", ONE, "fwd")):
        path = folder / name
        if path.exists():
            continue
        db = kuzu.Database(str(path), buffer_pool_size=1024 * 2**20)
        conn = kuzu.Connection(db)
        schema(conn, tables, direction)
        conn.execute("COPY N FROM $t", {"t": pa.table({"id": pa.array(nodes(0, N_NODES))})})
        base = rels(N_RELS, 1, nodes(0, N_NODES), nodes(0, N_NODES))
        per = N_RELS // len(tables)
        for i, t in enumerate(tables):
            conn.execute(f"COPY {t} FROM $t", {"t": base.slice(i * per, per)})
        conn.close()
        db.close()


def case(folder: Path, name: str, n_new: int) -> str:
    base, how, sources, *rest = name.split(":")
    opts = set(rest)
    tables = EIGHT if base == "eight" else ["R_D"] if base.startswith("delta") else ONE
    work = Path(tempfile.mkdtemp(dir=folder)) / "db"
    if base != "empty":
        shutil.copy(folder / ("one" if base.startswith("delta") else base), work)
    kw: dict[str, object] = {}
    if "noauto" in opts:
        kw["auto_checkpoint"] = False
    if "thr1g" in opts:
        kw["checkpoint_threshold"] = 2**30
    out: list[tuple[str, float, float]] = []

    def step(label: str, fn: Callable[[], object]) -> None:
        c, t = cpu(), time.perf_counter()
        fn()
        out.append((label, cpu() - c, time.perf_counter() - t))

    db = kuzu.Database(str(work), buffer_pool_size=1024 * 2**20, **kw)  # type: ignore[arg-type]
    conn = kuzu.Connection(db)
    if base == "empty":
        schema(conn, tables)
        conn.execute("COPY N FROM $t", {"t": pa.table({"id": pa.array(nodes(0, N_NODES))})})
        conn.execute("CHECKPOINT")
    if base.startswith("delta"):
        conn.execute(f"CREATE REL TABLE R_D(FROM N TO N, {PROPS})")
        waiting = int(base.removeprefix("delta").removesuffix("k") or 0) * 1000
        if waiting:
            conn.execute("COPY R_D FROM $t", {"t": rels(waiting, 3, nodes(0, N_NODES), nodes(0, N_NODES))})
        conn.execute("CHECKPOINT")
    c0, t0 = cpu(), time.perf_counter()
    new_nodes: list[str] = []
    if sources == "spread":
        src = dst = nodes(0, N_NODES)
    elif sources == "clustered":
        src, dst = nodes(0, 20_000), nodes(0, N_NODES)
    elif sources == "newsrc":
        src = new_nodes = nodes(N_NODES, N_NODES + 20_000)
        dst = nodes(0, N_NODES)
    else:  # allnew
        src = dst = new_nodes = nodes(N_NODES, N_NODES + 20_000)
    new = rels(n_new, 2, src, dst)
    conn.execute("BEGIN TRANSACTION")
    if new_nodes:
        step("COPY nodes", lambda: conn.execute("COPY N FROM $t", {"t": pa.table({"id": pa.array(new_nodes)})}))
    per = n_new // len(tables)

    def write() -> None:
        for i, t in enumerate(tables):
            part = new.slice(i * per, per)
            if how == "copy":
                conn.execute(f"COPY {t} FROM $t", {"t": part})
            else:
                props = ", ".join(f"{p}: {p}" for p in part.column_names[2:])
                conn.execute(
                    f"LOAD FROM $t MATCH (a:N {{id: from}}) MATCH (b:N {{id: to}}) CREATE (a)-[:{t} {{{props}}}]->(b)",
                    {"t": part},
                )

    step(how.upper(), write)
    step("COMMIT", lambda: conn.execute("COMMIT"))
    wal = work.with_name("db.wal")
    wal_mb = wal.stat().st_size / 2**20 if wal.exists() else 0.0
    if "nockpt" not in opts:
        step("CHECKPOINT", lambda: conn.execute("CHECKPOINT"))

    def close() -> None:
        conn.close()
        db.close()

    step("close", close)
    total_c, total_w = cpu() - c0, time.perf_counter() - t0
    size = work.stat().st_size / 2**20
    shutil.rmtree(work.parent)
    steps = "; ".join(f"{label} {c:.2f}/{w:.2f}" for label, c, w in out)
    return (
        f"| {name:<26} | {total_c:6.2f} | {total_w:6.2f} | {steps} | WAL after COMMIT {wal_mb:.0f} MB, "
        f"file {size:.0f} MB |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_dir = Path(tempfile.gettempdir()) / f"{engine_package.backend_name()}-append"
    parser.add_argument("--dir", type=Path, default=default_dir)
    parser.add_argument("--new", type=int, default=100_000)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a single case, in this process
    parser.add_argument("cases", nargs="*", default=DEFAULT_CASES)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.one:
        print(case(args.dir, args.one, args.new))
        return
    build(args.dir)
    started = os.getloadavg()[0]
    print(f"{args.new:,} relationships appended; CPU s/wall s per step (COPY or CREATE, COMMIT, CHECKPOINT, close)\n")
    print(f"| {'case':<26} | {'CPU s':>6} | {'wall s':>6} | steps | files |")
    print(f"|{'-' * 28}|{'-' * 7}:|{'-' * 7}:|---|---|")
    for name in args.cases:
        done = subprocess.run(
            [sys.executable, __file__, "--dir", str(args.dir), "--new", str(args.new), "--one", name],
            capture_output=True,
            text=True,
            check=True,
        )
        print(done.stdout.strip(), flush=True)
    print(f"\nload average {started:.1f} at the start, {os.getloadavg()[0]:.1f} at the end ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
