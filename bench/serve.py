"""Service mode on loopback: `kgbrain serve` under 1, 8 and 32 concurrent clients beside a CLI process per question.

    python bench/serve.py [--requests 400] [--claims 2000] [--write-facts 2000] [--cli-runs 5]
                          [--big-facts 1000000 | --big-facts 0] [--workdir DIR]

Bounded: a fixed number of requests per row, loopback only, stops by itself. Two knowledge bases: the demo
(built into the work folder) and a generated one with `--big-facts` facts (bench/load.py's generator; built once
and cached under /tmp/kgbrain-bench-serve-<N>/, which takes minutes, then copied). On each it starts
`kgbrain serve --port 0` and measures

- ask, repeated questions: p50/p99 latency and requests/s at 1, 8 and 32 concurrent clients (a fixed set of RU/EN
  questions cycled, so after the first round the server answers from its hot caches), and how many answers
  differ from the answer the same question got alone (must be 0);
- ask, distinct questions: each question asked once (the QA set on the demo, generated questions on the big KB),
  so the server's read cache does not help;
- batch verify: claims/s of one `POST /v1/verify` (NDJSON streamed back);
- reads during a write: ask latency at 8 clients while another client stores facts (POST /v1/facts), and that
  every read saw the fact count from before or after the write;
- the peer: `kgbrain ask` as one process per question (what a script calling the CLI pays), cold (first run
  after the persisted indexes are removed; demo only) and warm.

Every request must succeed; errors are counted and printed. Prints the load average with the table: on a shared
machine compare rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

ROOT = Path(__file__).resolve().parents[1]
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
BIG_QUESTIONS = ["Is c1 a c2?", "What is c10?", "Does c3 cause c4?", "Is c5 part of c6?", "Что такое c7?"]
CLAIMS: list[dict[str, Any] | str] = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "neuron", "predicate": "has_property", "object": "dna"},
    {"subject": "neuron", "predicate": "is_a", "object": "cell", "polarity": False},
    "Neurons cause thinking",
    {"subject": "synapse", "predicate": "part_of", "object": "neuron"},
]
BIG_CLAIMS: list[dict[str, Any] | str] = [
    {"subject": f"c{i}", "predicate": ("is_a", "part_of", "causes")[i % 3], "object": f"c{i * 7 % 1000}"}
    for i in range(1, 200)
]
Row = tuple[str, str, str, str, str]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))] if ordered else float("nan")


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
        self.process.wait(timeout=300)


async def ask_load(url: str, clients: int, questions: list[str], requests: int) -> dict[str, Any]:
    latencies: list[float] = []
    answers: dict[str, set[str]] = {}
    errors = 0
    todo = iter(range(requests))

    async def worker(client: httpx.AsyncClient) -> None:
        nonlocal errors
        for n in todo:
            question = questions[n % len(questions)]
            started = time.perf_counter()
            r = await client.post("/v1/ask", json={"question": question})
            latencies.append(time.perf_counter() - started)
            if r.status_code != 200:
                errors += 1
            else:
                answers.setdefault(question, set()).add(r.json()["answer"])

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
        started = time.perf_counter()
        await asyncio.gather(*(worker(client) for _ in range(clients)))
        elapsed = time.perf_counter() - started
    return {
        "p50_ms": pct(latencies, 50) * 1000,
        "p99_ms": pct(latencies, 99) * 1000,
        "rps": len(latencies) / elapsed,
        "errors": errors,
        "n": len(latencies),
        "answers": answers,
    }


async def verify_batch(url: str, claims: list[dict[str, Any] | str], n: int) -> dict[str, float]:
    batch = [claims[k % len(claims)] for k in range(n)]
    async with httpx.AsyncClient(base_url=url, timeout=900) as client:
        started = time.perf_counter()
        lines = errors = 0
        async with client.stream("POST", "/v1/verify", json={"claims": batch}) as r:
            async for line in r.aiter_lines():
                if line:
                    lines += 1
                    errors += json.loads(line)["verdict"] == "ERROR"
        elapsed = time.perf_counter() - started
    return {"claims_per_s": lines / elapsed, "lines": lines, "errors": errors + abs(lines - n)}


async def reads_during_write(
    url: str, clients: int, questions: list[str], requests: int, facts: int, anchor: str
) -> dict[str, Any]:
    rows = [{"subject": f"bench{i}", "predicate": "is_a", "object": anchor} for i in range(facts)]
    async with httpx.AsyncClient(base_url=url, timeout=900) as client:
        before = (await client.get("/v1/stats")).json()["facts"]
        started = time.perf_counter()
        write = asyncio.create_task(client.post("/v1/facts", json={"facts": rows, "source": "bench"}))
        counts: list[int] = []

        async def watch() -> None:
            while not write.done():
                counts.append((await client.get("/v1/stats")).json()["facts"])
                await asyncio.sleep(0.01)

        watcher = asyncio.create_task(watch())
        load = await ask_load(url, clients, questions, requests)
        response = await write
        write_s = time.perf_counter() - started
        await watcher
        after = (await client.get("/v1/stats")).json()["facts"]
        # The first question after the write: the mirror was refreshed at the commit, not on this read.
        started = time.perf_counter()
        first = await client.post("/v1/ask", json={"question": f"Is bench{facts - 1} a {anchor}?"})
        first_ms = (time.perf_counter() - started) * 1000
    torn = sum(c not in (before, after) for c in counts)
    load.update(
        write_s=write_s,
        write_ok=response.status_code == 201 and after == before + facts,
        torn_reads=torn,
        reads_checked=len(counts),
        first_ms=first_ms,
        first_yes=first.status_code == 200 and first.json()["answer"].startswith("Yes"),
    )
    return load


def cli_asks(db: Path, questions: list[str], runs: int, cold: bool) -> dict[str, float]:
    times = []
    cpu = []
    for n in range(runs):
        if cold:
            shutil.rmtree(Path(f"{db}.reasoning"), ignore_errors=True)
        before = os.times()
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", questions[n % len(questions)]],
            capture_output=True,
            text=True,
            check=False,
        )
        times.append(time.perf_counter() - started)
        after = os.times()
        cpu.append(after.children_user - before.children_user + after.children_system - before.children_system)
        if done.returncode != 0:
            raise SystemExit(f"kgbrain ask failed: {done.stderr}")
    return {"p50_ms": statistics.median(times) * 1000, "cpu_s": statistics.median(cpu), "rps": runs / sum(times)}


def qa_questions() -> list[str]:
    found = []
    for path in sorted((ROOT / "tests" / "qa").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if row.get("kb") == "demo":
                    found.append(row["q"])
    return sorted(set(found))


def big_questions(n: int, concepts: int) -> list[str]:
    forms = ("Is c{a} a c{b}?", "What is c{a}?", "Does c{a} cause c{b}?", "Является ли c{a} частью c{b}?")
    return [forms[k % len(forms)].format(a=(k * 7919) % concepts, b=(k * 104729) % concepts) for k in range(n)]


def build_big(n_facts: int) -> Path:
    """The generated knowledge base, built once under /tmp (loading and the first ask take minutes)."""
    folder = Path(tempfile.gettempdir()) / f"kgbrain-bench-serve-{n_facts}"
    db = folder / "kb.kuzu"
    done = folder / "built"
    if done.exists():
        return db
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from load import generate  # bench/load.py

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    print(f"building the {n_facts:,}-fact knowledge base in {folder} (cached for later runs)", file=sys.stderr)
    paths = generate(n_facts, folder)
    for kind in ("csv", "nt"):
        paths[kind].unlink()
    with Brain.open(db) as brain:
        brain.load([paths["jsonl"]])
        brain.ask(BIG_QUESTIONS[0])  # builds and persists the mirror, term and analogy indexes
    paths["jsonl"].unlink()
    done.write_text("ok\n")
    return db


def copy_kb(source: Path, target: Path) -> Path:
    for f in source.parent.iterdir():
        if f.name.startswith(source.name) and not f.name.endswith(".lock"):
            to = target.parent / (target.name + f.name[len(source.name) :])
            if f.is_dir():
                shutil.copytree(f, to, dirs_exist_ok=True)
            else:
                shutil.copy2(f, to)
    return target


def _add(rows: list[Row], row: Row) -> None:
    rows.append(row)
    print(" | ".join(row), file=sys.stderr, flush=True)  # each row as soon as it is measured


def measure(name: str, db: Path, args: argparse.Namespace, big: bool) -> list[Row]:
    rows: list[Row] = []
    repeated = BIG_QUESTIONS if big else QUESTIONS
    distinct = big_questions(args.requests, args.big_facts // 5) if big else qa_questions()
    started = time.perf_counter()
    server = Server(db)
    print(f"{name}: server up in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    try:
        alone = asyncio.run(ask_load(server.url, 1, repeated, len(repeated)))  # also warms the caches
        for clients in (1, 8, 32):
            r = asyncio.run(ask_load(server.url, clients, repeated, args.requests))
            differ = sum(len(r["answers"].get(q, set()) | alone["answers"][q]) > 1 for q in repeated)
            _add(
                rows,
                (
                    f"{name}: HTTP ask, repeated questions, {clients} client(s)",
                    f"{r['p50_ms']:.1f}",
                    f"{r['p99_ms']:.1f}",
                    f"{r['rps']:.0f} asks/s",
                    f"{r['errors']} of {r['n']}; answers differing from the question asked alone: {differ}",
                ),
            )
        for clients in (1, 8):
            part = distinct[clients - 1 :: 2][: args.requests // 2]
            r = asyncio.run(ask_load(server.url, clients, part, len(part)))
            _add(
                rows,
                (
                    f"{name}: HTTP ask, distinct questions ({len(part)}), {clients} client(s)",
                    f"{r['p50_ms']:.1f}",
                    f"{r['p99_ms']:.1f}",
                    f"{r['rps']:.0f} asks/s",
                    f"{r['errors']} of {r['n']}",
                ),
            )
        v = asyncio.run(verify_batch(server.url, BIG_CLAIMS if big else CLAIMS, args.claims))
        _add(
            rows,
            (
                f"{name}: HTTP verify, {args.claims} claims in 1 request",
                "",
                "",
                f"{v['claims_per_s']:.0f} claims/s",
                f"{v['errors']:.0f}",
            ),
        )
        w = asyncio.run(
            reads_during_write(server.url, 8, repeated, args.requests // 2, args.write_facts, "c1" if big else "neuron")
        )
        _add(
            rows,
            (
                f"{name}: HTTP ask, 8 clients, while storing {args.write_facts} facts ({w['write_s']:.1f} s)",
                f"{w['p50_ms']:.1f}",
                f"{w['p99_ms']:.1f}",
                f"{w['rps']:.0f} asks/s",
                f"{w['errors']} of {w['n']}; torn reads {w['torn_reads']} of {w['reads_checked']};"
                f" write {'ok' if w['write_ok'] else 'FAILED'}; first ask after it {w['first_ms']:.0f} ms"
                f" ({'sees it' if w['first_yes'] else 'DOES NOT see it'})",
            ),
        )
    finally:
        started = time.perf_counter()
        server.stop()
        print(f"{name}: server stopped in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    for cold in (True, False) if not big else (False,):
        c = cli_asks(db, repeated, args.cli_runs, cold)
        label = "cold (persisted indexes removed)" if cold else "warm"
        _add(
            rows,
            (
                f"{name}: CLI `kgbrain ask`, a process per question, {label}",
                f"{c['p50_ms']:.0f}",
                "",
                f"{c['rps']:.1f} asks/s",
                f"0; {c['cpu_s']:.2f} s CPU per process",
            ),
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400, help="asks per concurrency level")
    parser.add_argument("--claims", type=int, default=2000, help="claims in the batch verify")
    parser.add_argument("--write-facts", type=int, default=2000, help="facts stored during the read load")
    parser.add_argument("--cli-runs", type=int, default=5, help="CLI processes per row")
    parser.add_argument("--big-facts", type=int, default=1_000_000, help="facts in the big KB (0: demo only)")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    folder = Path(args.workdir or tempfile.mkdtemp(prefix="kgbrain-bench-serve-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores; requests per level: {args.requests}; work folder {folder}", file=sys.stderr)
    demo = folder / "demo.kuzu"
    if not demo.exists():
        with Brain.open(demo) as brain:
            brain.load(demo_files())
    loads = [os.getloadavg()[0]]
    rows = measure("demo", demo, args, big=False)
    loads.append(os.getloadavg()[0])
    if args.big_facts:
        big = copy_kb(build_big(args.big_facts), folder / f"big{args.big_facts}.kuzu")
        rows += measure(f"{args.big_facts // 1000}k facts", big, args, big=True)
        loads.append(os.getloadavg()[0])

    header: Row = ("what", "p50 ms", "p99 ms", "throughput", "errors")
    widths = [max(len(r[i]) for r in [*rows, header]) for i in range(5)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    print(
        f"\n1-minute load average at the start, between the KBs and at the end: {', '.join(f'{x:.1f}' for x in loads)}"
    )


if __name__ == "__main__":
    main()
