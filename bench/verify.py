"""Batch verification throughput: `kgbrain verify` with 1 and 2 workers beside pyoxigraph ASK, in one run.

    python bench/verify.py [--concepts 200000] [--isa 1000000] [--causal 200000] [--claims 100000]
                           [--properties 50000] [--oxigraph-sample 3000] [--workdir DIR]

Times are end to end (open, load the reasoner's fact mirror, verify, write). The knowledge base is the
reasoning benchmark's (bench/reasoning.py: a DAG of `is_a` edges with multiple
inheritance plus random causal edges, about 1.2 million edges at the defaults) with a layer of
`has_property` facts on top, so inherited properties can be checked too. The claims are mixed:
is_a through the hierarchy (true), random is_a pairs (mostly unprovable), inherited has_property (true)
and random has_property (mostly unprovable), direct causal claims, English sentences, and bad rows.

kgbrain answers with a verdict, confidence and proof (rule ids, fact ids, sources) per claim, written to a
verdicts file. The peer does the same checks one by one as SPARQL ASK queries with property paths in
pyoxigraph (a yes/no answer, no proof), on a sample: its rate is per claim, like ours.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

import psutil
import pyarrow as pa

from kgbrain.api import Brain

HERE = Path(__file__).resolve().parent
EX = "http://ex.org/"


def _reasoning_bench() -> ModuleType:
    # Reuse the reasoning benchmark's generator and bulk loader, so both benchmarks measure the same KB.
    spec = importlib.util.spec_from_file_location("bench_reasoning", HERE / "reasoning.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def properties_layer(
    n: int, count: int, children: dict[int, list[int]], rng: random.Random
) -> tuple[list[tuple[int, int, float, bool]], list[tuple[int, int]], list[tuple[int, int]]]:
    """`c_i has_property c_j` facts on top of the hierarchy (objects: 1,000 'property' concepts at the end).

    Returns the facts (subject, object, confidence, polarity), the overrides (a sub-class denies what its
    ancestor has: birds fly, penguins do not) and the conflicts (the same subject both has and has not it).
    """
    props = list(range(n - 1000, n))
    facts = {(rng.randrange(n - 1000), rng.choice(props)): True for _ in range(count)}
    overrides: list[tuple[int, int]] = []
    inner = [f for f in sorted(facts) if f[0] in children]
    for holder, prop in rng.sample(inner, min(len(inner), count // 10)):
        overrides.append((rng.choice(children[holder]), prop))
    facts.update(dict.fromkeys(overrides, False))
    conflicts = [(rng.randrange(n - 1000), rng.choice(props)) for _ in range(count // 50)]
    conflicts = [c for c in conflicts if c not in facts]
    rows = [(s, o, round(rng.uniform(0.6, 1.0), 3), pol) for (s, o), pol in sorted(facts.items())]
    # A conflict is two statements from two sources, so the second one comes from another source below.
    rows += [(s, o, 0.8, True) for s, o in conflicts] + [(s, o, 0.8, False) for s, o in conflicts]
    return rows, overrides, conflicts


def make_claims(
    n: int,
    isa_edges: list[tuple[int, int, float]],
    causal_edges: list[tuple[int, int, str, float]],
    props: list[tuple[int, int, float, bool]],
    overrides: list[tuple[int, int]],
    conflicts: list[tuple[int, int]],
    count: int,
    rng: random.Random,
) -> list[dict[str, object]]:
    parents: dict[int, list[int]] = {}
    children: dict[int, list[int]] = {}
    for c, p, _ in isa_edges:
        parents.setdefault(c, []).append(p)
        children.setdefault(p, []).append(c)
    holders = [(s, o) for s, o, _, pol in props if pol]

    def descendant(c: int) -> int:
        for _ in range(rng.randint(1, 4)):
            below = children.get(c)
            if not below:
                break
            c = rng.choice(below)
        return c

    def ancestor(c: int) -> int:
        for _ in range(rng.randint(1, 6)):
            up = parents.get(c)
            if not up:
                break
            c = rng.choice(up)
        return c

    claims: list[dict[str, object]] = []
    kinds = ["isa_true", "isa_random", "prop_true", "prop_random", "prop_override", "prop_conflict", "causal"]
    kinds += ["sentence", "bad"]
    weights = [0.22, 0.13, 0.18, 0.09, 0.05, 0.03, 0.15, 0.1, 0.05]
    for i in range(count):
        kind = rng.choices(kinds, weights)[0]
        row: dict[str, object] = {"id": f"q{i}", "kind": kind}
        if kind == "isa_true":
            s = rng.randrange(1, n - 1000)
            row.update(subject=f"c{s}", predicate="is_a", object=f"c{ancestor(s)}")
        elif kind == "isa_random":
            row.update(subject=f"c{rng.randrange(n)}", predicate="is_a", object=f"c{rng.randrange(n)}")
        elif kind == "prop_true":
            holder, prop = rng.choice(holders)
            row.update(subject=f"c{descendant(holder)}", predicate="has_property", object=f"c{prop}")
        elif kind == "prop_random":
            obj = f"c{rng.randrange(n - 1000, n)}"
            row.update(subject=f"c{rng.randrange(n)}", predicate="has_property", object=obj)
        elif kind == "prop_override":
            below, prop = rng.choice(overrides)
            row.update(subject=f"c{descendant(below)}", predicate="has_property", object=f"c{prop}")
        elif kind == "prop_conflict":
            holder, prop = rng.choice(conflicts)
            row.update(subject=f"c{holder}", predicate="has_property", object=f"c{prop}")
        elif kind == "causal":
            a, b, pred, _ = rng.choice(causal_edges)
            row.update(subject=f"c{a}", predicate=pred, object=f"c{b}")
        elif kind == "sentence":
            s = rng.randrange(1, n - 1000)
            row.update(text=f"c{s} is a c{ancestor(s)}")
        else:
            row.update(subject=f"c{rng.randrange(n)}", predicate="Not A Predicate", object="x")
        claims.append(row)
    return claims


Edges = tuple[list[tuple[int, int, float]], list[tuple[int, int, str, float]], list[tuple[int, int, float]]]


def build(args: argparse.Namespace, path: Path) -> tuple[list[dict[str, object]], Edges]:
    bench = _reasoning_bench()
    rng = random.Random(11)
    t = time.perf_counter()
    isa_edges, causal_edges = bench.generate(args.concepts, args.isa, args.causal)
    children: dict[int, list[int]] = {}
    for c, p, _ in isa_edges:
        children.setdefault(p, []).append(c)
    props, overrides, conflicts = properties_layer(args.concepts, args.properties, children, rng)
    brain = bench.build_kb(path, args.concepts, isa_edges, causal_edges)
    table = bench.fact_table([(f"c{s}", f"c{o}") for s, o, _, _ in props], "has_property", [p[2] for p in props], "hp")
    table = table.set_column(table.schema.get_field_index("polarity"), "polarity", pa.array([p[3] for p in props]))
    sources = ["bench"] * (len(props) - len(conflicts)) + ["bench-rival"] * len(conflicts)
    table = table.set_column(table.schema.get_field_index("source"), "source", pa.array(sources))
    with brain.store.transaction():
        brain.store.copy("HAS_PROPERTY", table)
    brain.close()
    edges = len(isa_edges) + len(causal_edges) + len(props)
    print(
        f"KB: {args.concepts:,} concepts, {edges:,} edges ({len(isa_edges):,} is_a, {len(causal_edges):,} causal, "
        f"{len(props):,} has_property of which {len(overrides):,} overriding negations and {len(conflicts):,} "
        f"conflicting pairs); generated and bulk-loaded in {time.perf_counter() - t:.1f} s"
    )
    claims = make_claims(args.concepts, isa_edges, causal_edges, props, overrides, conflicts, args.claims, rng)
    return claims, (isa_edges, causal_edges, [(s, o, c) for s, o, c, pol in props if pol])


def run_kgbrain(path: Path, claims_file: Path, out: Path, workers: int) -> tuple[float, dict[str, int], float]:
    t = time.perf_counter()
    with Brain.open(path, read_only=True) as brain:
        summary = brain.verify_file(claims_file, out, workers=workers)
    seconds = time.perf_counter() - t
    return seconds, summary.counts, psutil.Process().memory_info().rss / 2**20


def run_oxigraph(claims: list[dict[str, object]], edges: Edges, sample: int) -> tuple[float, int, float, int]:
    import pyoxigraph as ox

    isa_edges, causal_edges, props = edges
    t = time.perf_counter()
    store = ox.Store()
    isa, hp = ox.NamedNode(f"{EX}is_a"), ox.NamedNode(f"{EX}has_property")
    quads = [ox.Quad(ox.NamedNode(f"{EX}c{c}"), isa, ox.NamedNode(f"{EX}c{p}")) for c, p, _ in isa_edges]
    quads += [ox.Quad(ox.NamedNode(f"{EX}c{s}"), hp, ox.NamedNode(f"{EX}c{o}")) for s, o, _ in props]
    quads += [
        ox.Quad(ox.NamedNode(f"{EX}c{a}"), ox.NamedNode(f"{EX}{k}"), ox.NamedNode(f"{EX}c{b}"))
        for a, b, k, _ in causal_edges
    ]
    store.bulk_extend(quads)
    del quads
    build_s = time.perf_counter() - t
    queries = []
    for row in claims[:sample]:
        if row["kind"] == "bad":
            continue
        if "text" in row:
            s, o = str(row["text"]).split(" is a ")
            row = {"subject": s, "predicate": "is_a", "object": o}
        s, p, o = f"<{EX}{row['subject']}>", row["predicate"], f"<{EX}{row['object']}>"
        if p == "is_a":
            queries.append(f"ASK {{ {s} <{EX}is_a>+ {o} }}")
        elif p == "has_property":
            queries.append(f"ASK {{ {s} <{EX}is_a>* ?c . ?c <{EX}has_property> {o} }}")
        else:
            queries.append(f"ASK {{ {s} <{EX}{p}> {o} }}")
    t = time.perf_counter()
    yes = sum(1 for q in queries if store.query(q))
    seconds = time.perf_counter() - t
    return seconds, len(queries), build_s, yes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--concepts", type=int, default=200_000)
    ap.add_argument("--isa", type=int, default=1_000_000)
    ap.add_argument("--causal", type=int, default=200_000)
    ap.add_argument("--properties", type=int, default=50_000)
    ap.add_argument("--claims", type=int, default=100_000)
    ap.add_argument("--oxigraph-sample", type=int, default=3_000)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--workdir", type=Path, help="Keep the KB, claims and verdicts here (default: a temp dir).")
    args = ap.parse_args()
    work = args.workdir or Path(tempfile.mkdtemp(prefix="kgbrain-verify-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    path = work / "kb.kuzu"
    if path.exists():
        sys.exit(f"{path} exists; give an empty --workdir")
    claims, edges = build(args, path)
    claims_file = work / "claims.jsonl"
    with claims_file.open("w", encoding="utf-8") as fh:
        for row in claims:
            fh.write(json.dumps(row) + "\n")
    kinds = Counter(str(r["kind"]) for r in claims)
    print(f"claims: {len(claims):,} ({', '.join(f'{k} {v:,}' for k, v in sorted(kinds.items()))})")
    results = []
    outputs = []
    # The first process to reason over a knowledge base builds the reasoner's fact mirror and saves it beside
    # the database; later processes load it. The cold run is shown apart from the warm ones.
    runs = [(1, "cold: builds the fact mirror")] + [(int(w), "warm") for w in args.workers.split(",")]
    for n, (workers, state) in enumerate(runs):
        out = work / f"verdicts-{n}-{workers}.jsonl"
        seconds, counts, rss = run_kgbrain(path, claims_file, out, workers)
        outputs.append(out)
        name = f"kgbrain verify, {workers} worker(s), {state}"
        results.append((name, len(claims), seconds, "verdict+confidence+proof"))
        print(
            f"  {name}: {len(claims) / seconds:,.0f} claims/s ({seconds:.1f} s), verdicts {counts}, "
            f"parent RSS {rss:.0f} MB"
        )
    same = len({o.read_bytes() for o in outputs}) == 1
    print(f"  verdict files identical across runs: {same}")
    ox_s, ox_n, ox_build, ox_yes = run_oxigraph(claims, edges, args.oxigraph_sample)
    peer = f"pyoxigraph ASK one by one (sample, build {ox_build:.0f} s)"
    results.append((peer, ox_n, ox_s, f"yes/no ({ox_yes} yes)"))
    print()
    print(f"{'engine':<52} {'claims':>8} {'seconds':>9} {'claims/s':>10}  answer")
    for name, n, seconds, what in results:
        print(f"{name:<52} {n:>8,} {seconds:>9.2f} {n / seconds:>10,.0f}  {what}")


if __name__ == "__main__":
    main()
