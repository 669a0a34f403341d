"""Latency of a full `ask` (cognitive loop + output layer) for Ring-1-only and Ring-2 questions.

    python bench/ask.py [--repeat 30] [--concepts 200000] [--isa 1000000] [--causal 200000] [--skip-generated]

Two knowledge bases: the bundled demo KB, and the reasoning benchmark's generated KB (bench/reasoning.py's
generator: a DAG with multiple inheritance plus random causal edges; concept ids get Term rows so questions
can name them). Each question is asked `--repeat` times after one warm-up; p50/p95 are of Brain.think
(loop + responder + validator + trace + proposals), split into loop and output time, side by side with the
reasoner alone (Reasoner.ask + dialogue.render, no loop) on the same questions.

The resource monitor is given a fixed idle reading so that every Ring-2 question really runs Ring 2 (the
point is to time the rings, not this machine's load); the success history is kept in memory (read-only
open). Targets (issue 7): p50 < 50 ms for Ring 1, < 200 ms for Ring 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reasoning import build_kb, generate

from kgbrain.api import Brain, demo_path
from kgbrain.output.dialogue import render
from kgbrain.reasoning.cognition.monitor import ResourceMonitor

DEMO_RING1 = [
    "Что такое нейрон?",
    "What is a synapse?",
    "Что такое клетка?",
    "What is myelin?",
    "Что такое аксон?",
    "What is a transistor?",
]
DEMO_RING2 = [
    "Почему нейроны важны для мышления?",
    "Why are neurons important for thinking?",
    "Does a neuron have DNA?",
    "Является ли нейрон клеткой?",
    "Нейрон похож на что?",
    "What causes thinking?",
]


def pct(times: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.95) - 1)]


def measure(brain: Brain, questions: Sequence[str], repeat: int) -> dict[str, object]:
    total, loop, out, rings = [], [], [], set()
    for q in questions:
        brain.think(q)  # warm
        for _ in range(repeat):
            t = time.perf_counter()
            o = brain.think(q)
            total.append((time.perf_counter() - t) * 1000)
            loop.append(o.result.duration_ms)
            out.append(total[-1] - o.result.duration_ms)
            rings.add(o.result.ring)
    return {"total": pct(total), "loop": pct(loop), "output": pct(out), "rings": sorted(rings)}


def measure_reasoner(brain: Brain, questions: Sequence[str], repeat: int) -> tuple[float, float]:
    def one(q: str) -> None:
        a = brain.reasoner.ask(q)
        dataclasses.replace(a, text=render(a))

    times = []
    for q in questions:
        one(q)
        for _ in range(repeat):
            t = time.perf_counter()
            one(q)
            times.append((time.perf_counter() - t) * 1000)
    return pct(times)


def idle(brain: Brain) -> Brain:
    brain.cognition.loop.monitor = ResourceMonitor(brain.config.resources, sampler=lambda: (10.0, 20.0))
    return brain


def add_id_terms(brain: Brain, n: int) -> None:
    """Term rows for the generated concept ids, as the loader writes for named concepts."""
    ids = [f"c{i}" for i in range(n)]
    with brain.store.transaction():
        brain.store.copy("Term", pa.table({"key": pa.array(ids, pa.string())}))
        names = {
            "from": pa.array(ids, pa.string()),
            "to": pa.array(ids, pa.string()),
            "text": pa.array(ids, pa.string()),
            "lang": pa.array([None] * n, pa.string()),
            "kind": pa.array(["id"] * n, pa.string()),
        }
        brain.store.copy("NAMES", pa.table(names))


def report(
    title: str, rows: list[tuple[str, dict[str, object], tuple[float, float]]], targets: dict[str, float]
) -> None:
    print(f"\n{title}")
    print(f"{'questions':<12} {'rings':<6} {'ask p50':>8} {'ask p95':>8} {'loop p50':>9} {'output p50':>11} "
          f"{'reasoner-only p50':>18} {'target p50':>11}")  # fmt: skip
    for name, m, base in rows:
        total, loop, out = m["total"], m["loop"], m["output"]
        assert isinstance(total, tuple)
        assert isinstance(loop, tuple)
        assert isinstance(out, tuple)
        ok = "ok" if total[0] < targets[name] else "MISSED"
        print(
            f"{name:<12} {','.join(map(str, m['rings'])):<6} {total[0]:>8.1f} {total[1]:>8.1f} {loop[0]:>9.1f} "  # type: ignore[arg-type]
            f"{out[0]:>11.1f} {base[0]:>18.1f} {targets[name]:>8.0f} {ok}"
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--concepts", type=int, default=200_000)
    ap.add_argument("--isa", type=int, default=1_000_000)
    ap.add_argument("--causal", type=int, default=200_000)
    ap.add_argument("--questions", type=int, default=6, help="generated-KB questions per ring")
    ap.add_argument("--skip-generated", action="store_true")
    ap.add_argument("--kb", type=Path, help="reuse the generated KB at this path (built there when absent)")
    args = ap.parse_args()
    targets = {"ring 1": 50.0, "ring 2": 200.0}

    with Brain.open(demo_path(), read_only=True) as demo:
        idle(demo)
        rows = [
            ("ring 1", measure(demo, DEMO_RING1, args.repeat), measure_reasoner(demo, DEMO_RING1, args.repeat)),
            ("ring 2", measure(demo, DEMO_RING2, args.repeat), measure_reasoner(demo, DEMO_RING2, args.repeat)),
        ]
        report("demo KB (ms)", rows, targets)

    if args.skip_generated:
        return
    t = time.perf_counter()
    isa_edges, causal_edges = generate(args.concepts, args.isa, args.causal)
    path = args.kb or Path(tempfile.mkdtemp(prefix="kgbrain-ask-bench-")) / "kb.kuzu"
    if path.exists():
        brain = Brain.open(path, read_only=True)
    else:
        brain = build_kb(path, args.concepts, isa_edges, causal_edges)
        add_id_terms(brain, args.concepts)
    took = time.perf_counter() - t
    size = f"{args.concepts} concepts, {len(isa_edges)} is_a, {len(causal_edges)} causal"
    print(f"\ngenerated KB: {size}, built in {took:.1f}s")
    idle(brain)
    t = time.perf_counter()
    brain.think("What is c1?")  # builds the term index and hierarchy mirror once
    brain.reasoner.like("c1")  # and loads (or builds) the analogy index
    print(f"first ask (caches: terms, hierarchy, analogy index): {time.perf_counter() - t:.1f}s")
    rng = random.Random(5)
    n, k = args.concepts, args.questions
    parents = {c: p for c, p, _ in isa_edges}
    causes = [b for _, b, _, _ in causal_edges]
    ring1 = [f"What is c{rng.randrange(n // 2, n)}?" for _ in range(k)]
    subjects = [rng.randrange(n // 2, n) for _ in range(k // 2)]
    ring2 = [f"Is c{s} a c{parents.get(s, 0)}?" for s in subjects]
    ring2 += [f"What causes c{rng.choice(causes)}?" for _ in range(k - len(subjects))]
    repeat = max(3, args.repeat // 3)
    rows = [
        ("ring 1", measure(brain, ring1, repeat), measure_reasoner(brain, ring1, repeat)),
        ("ring 2", measure(brain, ring2, repeat), measure_reasoner(brain, ring2, repeat)),
    ]
    report(f"generated KB, {args.concepts} concepts (ms)", rows, targets)
    brain.close()


if __name__ == "__main__":
    main()
