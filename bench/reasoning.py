"""Reasoning latency on a generated KB: kgbrain (Kùzu + in-memory hierarchy mirror) beside networkx,
pyoxigraph (SPARQL property paths) and rdflib, on the same data, in one run.

    python bench/reasoning.py [--concepts 200000] [--isa 1000000] [--causal 200000] [--queries 200]

The KB is a DAG with multiple inheritance (each concept's parents are drawn from lower-numbered concepts)
plus random causal edges, bulk-loaded through KuzuStore.copy. Prints p50/p95 (ms) per task and engine,
RSS after each stage, and the time to answer `c0 is_a c100000` on a 100,000-level chain.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import psutil
import pyarrow as pa

from kgbrain.api import Brain
from kgbrain.store.schema import CONCEPT_COLUMNS

CAUSAL = ("causes", "enables", "leads_to", "prevents")
CAUSAL_WEIGHTS = (0.5, 0.3, 0.15, 0.05)
EX = "http://ex.org/"


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def generate(
    n: int, isa: int, causal: int, seed: int = 7
) -> tuple[list[tuple[int, int, float]], list[tuple[int, int, str, float]]]:
    rng = random.Random(seed)
    edges: set[tuple[int, int]] = set()
    extra = max(0.0, isa / max(n - 1, 1) - 1)
    for child in range(1, n):
        # A taxonomy with branching 8: the primary parent is (child - 1) // 8; the extra parents (multiple
        # inheritance) are siblings of the primary parent, so ancestor sets stay local as in real ontologies.
        primary = (child - 1) // 8
        edges.add((child, primary))
        k = int(extra) + (1 if rng.random() < extra - int(extra) else 0)
        for _ in range(k):
            other = primary + rng.randint(-16, 16)
            if 0 <= other < child and other != primary:
                edges.add((child, other))
    isa_edges = [(c, p, round(rng.uniform(0.6, 1.0), 3)) for c, p in sorted(edges)]
    cause: set[tuple[int, int]] = set()
    while len(cause) < causal:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            cause.add((a, b))
    causal_edges = [
        (a, b, rng.choices(CAUSAL, CAUSAL_WEIGHTS)[0], round(rng.uniform(0.5, 1.0), 3)) for a, b in sorted(cause)
    ]
    return isa_edges, causal_edges


def fact_table(rows: list[tuple[str, str]], predicate: str, confs: list[float], tag: str) -> pa.Table:
    now = datetime(2026, 1, 1)
    n = len(rows)
    return pa.table(
        {
            "from": pa.array([r[0] for r in rows], pa.string()),
            "to": pa.array([r[1] for r in rows], pa.string()),
            "fact_id": pa.array([f"f_{tag}{i}" for i in range(n)], pa.string()),
            "predicate": pa.array([predicate] * n, pa.string()),
            "polarity": pa.array([True] * n, pa.bool_()),
            "confidence": pa.array(confs, pa.float64()),
            "source": pa.array(["bench"] * n, pa.string()),
            "trust": pa.array([0.9] * n, pa.float64()),
            "authority": pa.array([None] * n, pa.string()),
            "observed_at": pa.array([None] * n, pa.timestamp("us")),
            "loaded_at": pa.array([now] * n, pa.timestamp("us")),
            "status": pa.array(["active"] * n, pa.string()),
            "lang": pa.array([None] * n, pa.string()),
            # every fact table has these since schema 5 (the delta tables of schema 8 were made with them)
            "valid_from": pa.array([None] * n, pa.timestamp("us")),
            "valid_to": pa.array([None] * n, pa.timestamp("us")),
        }
    )


def build_kb(
    path: Path, n: int, isa_edges: list[tuple[int, int, float]], causal_edges: list[tuple[int, int, str, float]]
) -> Brain:
    brain = Brain.open(path)
    store = brain.store
    ids = [f"c{i}" for i in range(n)]
    concept = {c: pa.array([None] * n, pa.string()) for c in CONCEPT_COLUMNS}
    concept["id"] = pa.array(ids, pa.string())
    concept["kind"] = pa.array(["class"] * n, pa.string())
    with store.transaction():
        store.copy("Concept", pa.table(concept))
        store.copy(
            "IS_A", fact_table([(ids[c], ids[p]) for c, p, _ in isa_edges], "is_a", [w for *_, w in isa_edges], "i")
        )
        for pred in CAUSAL:
            sel = [e for e in causal_edges if e[2] == pred]
            table = pred.upper()
            store.copy(
                table, fact_table([(ids[a], ids[b]) for a, b, _, _ in sel], pred, [w for *_, w in sel], pred[:2])
            )
    return brain


def build_kb_file(path: Path, n: int, isa: int, causal: int) -> None:
    isa_edges, causal_edges = generate(n, isa, causal)
    build_kb(path, n, isa_edges, causal_edges).close()


def cold_check(path: Path, a: str, b: str) -> tuple[float, float]:
    t = time.perf_counter()
    with Brain.open(path, read_only=True) as brain:
        brain.check(a, "is_a", b)
        first = time.perf_counter() - t
        t = time.perf_counter()
        brain.like(a)
        return first, time.perf_counter() - t


def timed(fn: Callable[[object], object], items: list[object]) -> tuple[float, float]:
    fn(items[0])  # warm
    times = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def reachable_pairs(
    adj: dict[int, list[int]], n: int, count: int, rng: random.Random, hops: int
) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    tries = 0
    while len(pairs) < count and tries < count * 200:
        tries += 1
        a = rng.randrange(n)
        node, steps = a, rng.randint(2, hops)
        for _ in range(steps):
            nxt = adj.get(node)
            if not nxt:
                break
            node = rng.choice(nxt)
        if node != a:
            pairs.append((a, node))
    return pairs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--concepts", type=int, default=200_000)
    ap.add_argument("--isa", type=int, default=1_000_000)
    ap.add_argument("--causal", type=int, default=200_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--chain", type=int, default=100_000)
    ap.add_argument("--peers", default="networkx,pyoxigraph,rdflib")
    args = ap.parse_args()
    rng = random.Random(11)
    started = time.perf_counter()
    isa_edges, causal_edges = generate(args.concepts, args.isa, args.causal)
    print(
        f"generated {args.concepts} concepts, {len(isa_edges)} is_a, {len(causal_edges)} causal edges "
        f"in {time.perf_counter() - started:.1f}s"
    )
    tmp = Path(tempfile.mkdtemp(prefix="kgbrain-bench-"))
    t = time.perf_counter()
    # Built in a child process, as `kgbrain load` would be: the measured process only opens and queries it,
    # so its RSS is that of a reader, not of the bulk loader.
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pool.apply(build_kb_file, (tmp / "kb.kuzu", args.concepts, args.isa, args.causal))
    print(f"kgbrain bulk load (KuzuStore.copy, child process): {time.perf_counter() - t:.1f}s")
    gc.collect()
    base_rss = rss_mb()
    t = time.perf_counter()
    brain = Brain.open(tmp / "kb.kuzu", read_only=True)
    r = brain.reasoner
    r.graph()
    print(f"fact graph mirror build: {time.perf_counter() - t:.1f}s ({r.graph().facts} facts)")
    t = time.perf_counter()
    h = r.hierarchy()
    print(f"hierarchy mirror build: {time.perf_counter() - t:.1f}s ({h.edges} edges)")
    t = time.perf_counter()
    r.analogies.index()
    print(f"analogy index build (hnswlib): {time.perf_counter() - t:.1f}s")
    gc.collect()
    kg_rss = rss_mb()

    n, q = args.concepts, args.queries
    subjects = [rng.randrange(n // 2, n) for _ in range(q)]
    isa_pairs = []
    for s in subjects:
        anc = list(h.ancestors(f"c{s}"))
        target = int(rng.choice(anc)[1:]) if anc and rng.random() < 0.5 else rng.randrange(n)
        isa_pairs.append((s, target))
    cadj: dict[int, list[int]] = {}
    for a, b, _, _ in causal_edges:
        cadj.setdefault(a, []).append(b)
    cpairs = reachable_pairs(cadj, n, q, rng, 5)
    like_subjects = [rng.randrange(n) for _ in range(q)]

    results: dict[str, dict[str, tuple[float, float]]] = {}
    results["ancestors"] = {
        "kgbrain mirror": timed(lambda s: h.ancestors(f"c{s}"), subjects),
        "kuzu SHORTEST 1..30": timed(lambda s: brain.store.run("ded_ancestors_shortest", id=f"c{s}"), subjects),
    }
    results["is-a check (with trace)"] = {
        "kgbrain Brain.check": timed(lambda p: brain.check(f"c{p[0]}", "is_a", f"c{p[1]}"), isa_pairs)
    }
    results["causal paths (top 5)"] = {
        "kgbrain Brain.path": timed(lambda p: brain.path(f"c{p[0]}", f"c{p[1]}"), cpairs)
    }
    results["causal paths (top 5)"]["kuzu SHORTEST 1..12"] = timed(
        lambda p: brain.store.run("cau_shortest", source=f"c{p[0]}", target=f"c{p[1]}"), cpairs
    )
    results["analogies (top 5)"] = {"kgbrain Brain.like": timed(lambda s: brain.like(f"c{s}"), like_subjects)}
    results["check_many (1000 is_a claims)"] = {}
    claims = [(f"c{a}", "is_a", f"c{b}") for a, b in (isa_pairs * 5)[:1000]]
    t = time.perf_counter()
    brain.check_many(claims)
    per = (time.perf_counter() - t) * 1000
    results["check_many (1000 is_a claims)"]["kgbrain (total ms)"] = (per, per)
    after_queries_rss = rss_mb()

    peers = set(args.peers.split(","))
    if "networkx" in peers:
        import networkx as nx

        t = time.perf_counter()
        g = nx.DiGraph()
        g.add_edges_from((c, p) for c, p, _ in isa_edges)
        cg = nx.DiGraph()
        cg.add_edges_from((a, b) for a, b, _, _ in causal_edges)
        print(f"networkx build: {time.perf_counter() - t:.1f}s")
        results["ancestors"]["networkx descendants"] = timed(lambda s: nx.descendants(g, s), subjects)
        results["is-a check (with trace)"]["networkx has_path"] = timed(lambda p: nx.has_path(g, p[0], p[1]), isa_pairs)
        results["causal paths (top 5)"]["networkx shortest_path"] = timed(
            lambda p: nx.shortest_path(cg, p[0], p[1]), cpairs
        )
        del g, cg
    if "pyoxigraph" in peers:
        import pyoxigraph as ox

        t = time.perf_counter()
        st = ox.Store()
        sub = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#subClassOf")
        quads = [ox.Quad(ox.NamedNode(f"{EX}c{c}"), sub, ox.NamedNode(f"{EX}c{p}")) for c, p, _ in isa_edges]
        quads += [
            ox.Quad(ox.NamedNode(f"{EX}c{a}"), ox.NamedNode(f"{EX}{k}"), ox.NamedNode(f"{EX}c{b}"))
            for a, b, k, _ in causal_edges
        ]
        st.bulk_extend(quads)
        del quads
        print(f"pyoxigraph build: {time.perf_counter() - t:.1f}s")
        sc = "<http://www.w3.org/2000/01/rdf-schema#subClassOf>"
        results["ancestors"]["pyoxigraph subClassOf+"] = timed(
            lambda s: list(st.query(f"SELECT DISTINCT ?a WHERE {{ <{EX}c{s}> {sc}+ ?a }}")), subjects
        )
        results["is-a check (with trace)"]["pyoxigraph ASK subClassOf+"] = timed(
            lambda p: st.query(f"ASK {{ <{EX}c{p[0]}> {sc}+ <{EX}c{p[1]}> }}"), isa_pairs
        )
        path = "|".join(f"<{EX}{k}>" for k in CAUSAL)
        results["causal paths (top 5)"]["pyoxigraph ASK (causal)+"] = timed(
            lambda p: st.query(f"ASK {{ <{EX}c{p[0]}> ({path})+ <{EX}c{p[1]}> }}"), cpairs
        )
        del st
    if "rdflib" in peers:
        import rdflib

        t = time.perf_counter()
        g2 = rdflib.Graph()
        sub2 = rdflib.RDFS.subClassOf
        for c, p, _ in isa_edges:
            g2.add((rdflib.URIRef(f"{EX}c{c}"), sub2, rdflib.URIRef(f"{EX}c{p}")))
        print(f"rdflib build: {time.perf_counter() - t:.1f}s")
        few = subjects[: max(10, q // 10)]
        results["ancestors"]["rdflib transitive_objects"] = timed(
            lambda s: set(g2.transitive_objects(rdflib.URIRef(f"{EX}c{s}"), sub2)), few
        )
        results["is-a check (with trace)"]["rdflib transitive_objects"] = timed(
            lambda p: rdflib.URIRef(f"{EX}c{p[1]}") in set(g2.transitive_objects(rdflib.URIRef(f"{EX}c{p[0]}"), sub2)),
            isa_pairs[: len(few)],
        )
        del g2

    print()
    print(f"{'task':<32} {'engine':<30} {'p50 ms':>9} {'p95 ms':>9}")
    for task, engines in results.items():
        for engine, (p50, p95) in engines.items():
            print(f"{task:<32} {engine:<30} {p50:>9.3f} {p95:>9.3f}")
    print()
    print(
        f"RSS: before opening {base_rss:.0f} MB; kgbrain opened + mirror + analogy index {kg_rss:.0f} MB "
        f"(+{kg_rss - base_rss:.0f}); after kgbrain queries {after_queries_rss:.0f} MB "
        f"(+{after_queries_rss - base_rss:.0f}); end, with peers loaded {rss_mb():.0f} MB"
    )
    brain.close()
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        cold = pool.apply(cold_check, (tmp / "kb.kuzu", f"c{isa_pairs[0][0]}", f"c{isa_pairs[0][1]}"))
    print(f"new process, persisted mirror: open + first is_a check {cold[0]:.2f}s, first like {cold[1]:.2f}s")

    # A 100,000-level chain: c0 is_a c1 is_a ... is_a cN, asked cold (fresh open, mirror built on the way).
    chain = args.chain
    chain_brain = Brain.open(tmp / "chain.kuzu")
    ids = [f"c{i}" for i in range(chain + 1)]
    concept = {c: pa.array([None] * len(ids), pa.string()) for c in CONCEPT_COLUMNS}
    concept["id"] = pa.array(ids, pa.string())
    concept["kind"] = pa.array(["class"] * len(ids), pa.string())
    with chain_brain.store.transaction():
        chain_brain.store.copy("Concept", pa.table(concept))
        chain_brain.store.copy(
            "IS_A", fact_table([(ids[i], ids[i + 1]) for i in range(chain)], "is_a", [1.0] * chain, "k")
        )
    chain_brain.close()
    t = time.perf_counter()
    with Brain.open(tmp / "chain.kuzu", read_only=True) as b:
        verdict = b.check("c0", "is_a", f"c{chain}")
    cold = time.perf_counter() - t
    with Brain.open(tmp / "chain.kuzu", read_only=True) as b:
        b.reasoner.hierarchy()
        t = time.perf_counter()
        b.reasoner.hierarchy().chain("c0", f"c{chain}")
        warm_chain = time.perf_counter() - t
    print(
        f"{chain}-level is_a chain: c0 is_a c{chain} -> {verdict.outcome.value} in {cold:.2f}s cold (open + mirror + "
        f"{len(verdict.trace.steps)}-step trace), {warm_chain * 1000:.1f} ms warm walk"
    )


if __name__ == "__main__":
    main()
