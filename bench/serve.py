"""Service mode on loopback: `kgbrain serve` under 1, 8 and 32 concurrent clients beside a CLI process per question.

    python bench/serve.py [--requests 400] [--claims 2000] [--cli-runs 5] [--workdir DIR] [--db PATH]

Bounded: a fixed number of requests per level, loopback only, stops by itself. It copies the demo knowledge
base (or uses `--db`, e.g. a 1M-fact base, read-only), starts `kgbrain serve --port 0` on it and measures

- ask: p50/p99 latency and requests/s at 1, 8 and 32 concurrent clients (questions cycled, RU and EN);
- batch verify: claims/s of one `POST /v1/verify` (NDJSON streamed back);
- reads during a write: ask latency at 8 clients while another client stores facts (POST /v1/facts), and that
  every read saw the fact count from before or after the write;
- the peer: `kgbrain ask` as one process per question (what a script calling the CLI pays), cold (first run
  after the persisted indexes are removed) and warm.

Every request must succeed; errors are counted and printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from kgbrain.api import Brain, demo_files

QUESTIONS = [
    "Does a neuron have DNA?",
    "Почему нейроны важны для мышления?",
    "What is a neuron?",
    "Можно ли использовать СИЗ с истёкшим сертификатом?",
    "Is a neuron a cell?",
    "Что такое синапс?",
    "Why is sleep important for memory?",
    "Является ли нейрон клеткой?",
]
CLAIMS: list[dict[str, Any] | str] = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "neuron", "predicate": "has_property", "object": "dna"},
    {"subject": "neuron", "predicate": "is_a", "object": "cell", "polarity": False},
    "Neurons cause thinking",
    {"subject": "synapse", "predicate": "part_of", "object": "neuron"},
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


class Server:
    def __init__(self, db: Path, *args: str) -> None:
        command = [sys.executable, "-m", "kgbrain", "--db", str(db), "serve", "--port", "0", *args]
        self.process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if "kgbrain serving" not in line:
            self.process.kill()
            raise SystemExit(f"server did not start: {line}{self.process.stderr.read()}")
        self.url = line.rsplit(" at ", 1)[1].split()[0]

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=60)


async def ask_load(url: str, clients: int, requests: int) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    todo = iter(range(requests))

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        for n in todo:
            started = time.perf_counter()
            r = await client.post("/v1/ask", json={"question": QUESTIONS[n % len(QUESTIONS)]})
            latencies.append(time.perf_counter() - started)
            errors += r.status_code != 200

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(clients)))
        elapsed = time.perf_counter() - started
    return {
        "p50_ms": pct(latencies, 50) * 1000,
        "p99_ms": pct(latencies, 99) * 1000,
        "rps": len(latencies) / elapsed,
        "errors": errors,
        "n": len(latencies),
    }


async def verify_batch(url: str, claims: int) -> dict[str, float]:
    batch = [CLAIMS[n % len(CLAIMS)] for n in range(claims)]
    async with httpx.AsyncClient(base_url=url, timeout=600) as client:
        started = time.perf_counter()
        lines = 0
        async with client.stream("POST", "/v1/verify", json={"claims": batch}) as r:
            async for line in r.aiter_lines():
                lines += bool(line)
        elapsed = time.perf_counter() - started
    return {"claims_per_s": lines / elapsed, "lines": lines, "errors": int(lines != claims)}


async def reads_during_write(url: str, clients: int, requests: int, facts: int) -> dict[str, float]:
    rows = [{"subject": f"bench{i}", "predicate": "is_a", "object": "neuron"} for i in range(facts)]
    async with httpx.AsyncClient(base_url=url, timeout=600) as client:
        before = (await client.get("/v1/stats")).json()["facts"]
        started = time.perf_counter()
        write = asyncio.create_task(client.post("/v1/facts", json={"facts": rows, "source": "bench"}))
        counts: list[int] = []

        async def watch() -> None:
            while not write.done():
                counts.append((await client.get("/v1/stats")).json()["facts"])
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        load = await ask_load(url, clients, requests)
        response = await write
        write_s = time.perf_counter() - started
        await watcher
        after = (await client.get("/v1/stats")).json()["facts"]
    torn = sum(c not in (before, after) for c in counts)
    load.update(
        write_s=write_s,
        write_ok=float(response.status_code == 201 and after == before + facts),
        torn_reads=torn,
        reads_checked=len(counts),
    )
    return load


def cli_asks(db: Path, runs: int, cold: bool) -> dict[str, float]:
    times = []
    for n in range(runs):
        if cold:
            shutil.rmtree(Path(f"{db}.reasoning"), ignore_errors=True)
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", QUESTIONS[n % len(QUESTIONS)]],
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - started)
        if done.returncode != 0:
            raise SystemExit(f"kgbrain ask failed: {done.stderr}")
    return {"p50_ms": statistics.median(times) * 1000, "rps": runs / sum(times), "n": runs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="asks per concurrency level")
    parser.add_argument("--claims", type=int, default=2000, help="claims in the batch verify")
    parser.add_argument("--write-facts", type=int, default=2000, help="facts stored during the read load")
    parser.add_argument("--cli-runs", type=int, default=5, help="CLI processes per row")
    parser.add_argument("--db", type=Path, help="serve this knowledge base read-only instead of a demo copy")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    folder = Path(args.workdir or tempfile.mkdtemp(prefix="kgbrain-bench-serve-"))
    folder.mkdir(parents=True, exist_ok=True)
    if args.db is None:
        db = folder / "demo.kuzu"
        if not db.exists():
            with Brain.open(db) as brain:
                brain.load(demo_files())
    else:
        db = args.db
    print(f"knowledge base: {db}; {os.cpu_count()} cores; requests per level: {args.requests}", file=sys.stderr)

    rows: list[tuple[str, str, str, str, str]] = []
    server = Server(db, *(["--read-only"] if args.db else []))
    try:
        asyncio.run(ask_load(server.url, 4, 2 * len(QUESTIONS)))  # warm the reader's caches
        for clients in (1, 8, 32):
            r = asyncio.run(ask_load(server.url, clients, args.requests))
            rows.append(
                (
                    f"HTTP ask, {clients} client(s)",
                    f"{r['p50_ms']:.1f}",
                    f"{r['p99_ms']:.1f}",
                    f"{r['rps']:.0f} asks/s",
                    f"{r['errors']:.0f} of {r['n']:.0f}",
                )
            )
        v = asyncio.run(verify_batch(server.url, args.claims))
        rows.append(
            (
                f"HTTP verify, {args.claims} claims, 1 request",
                "",
                "",
                f"{v['claims_per_s']:.0f} claims/s",
                f"{v['errors']:.0f}",
            )
        )
        if args.db is None:
            w = asyncio.run(reads_during_write(server.url, 8, args.requests // 2, args.write_facts))
            rows.append(
                (
                    f"HTTP ask, 8 clients, while storing {args.write_facts} facts ({w['write_s']:.1f} s)",
                    f"{w['p50_ms']:.1f}",
                    f"{w['p99_ms']:.1f}",
                    f"{w['rps']:.0f} asks/s",
                    f"{w['errors']:.0f} of {w['n']:.0f}; torn reads {w['torn_reads']:.0f} of {w['reads_checked']:.0f};"
                    f" write {'ok' if w['write_ok'] else 'FAILED'}",
                )
            )
    finally:
        server.stop()
    for cold in (True, False):
        c = cli_asks(db, args.cli_runs, cold)
        label = "cold (persisted indexes removed)" if cold else "warm"
        rows.append(
            (
                f"CLI `kgbrain ask`, a process per question, {label}",
                f"{c['p50_ms']:.0f}",
                "",
                f"{c['rps']:.1f} asks/s",
                "0",
            )
        )

    widths = [max(len(r[i]) for r in [*rows, ("what", "p50 ms", "p99 ms", "throughput", "errors")]) for i in range(5)]
    header = ("what", "p50 ms", "p99 ms", "throughput", "errors")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")


if __name__ == "__main__":
    main()
