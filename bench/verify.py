"""Batch verification throughput: `kgbrain verify` beside pyoxigraph and networkx, whole processes, one run.

    python bench/verify.py [--sizes 10k,100k,1m] [--claims 10000,100000,1000000] [--ontologies]
                           [--ontology-claims 20000] [--oxigraph-sample 3000] [--workdir DIR]

Each knowledge base (and its claims and the peers' copies) is built once under --workdir and reused by
later runs, so a run measures verification only.

Knowledge bases: the reasoning benchmark's generated DAG of `is_a` edges with multiple inheritance plus
random causal edges (bench/reasoning.py) with a layer of `has_property` facts (overriding negations and
conflicting pairs included), at about 10k, 100k and 1M facts; with `--ontologies`, LUBM(1,0) and Gene
Ontology too (from /work/shared/data/ontologies). Claims are mixed: is_a through the hierarchy, random
is_a pairs, inherited has_property, random has_property, overrides, conflicts, causal facts, English
sentences and bad rows (for the ontologies: their facts, hierarchy pairs, random pairs and inherited facts).

Every kgbrain time is a whole process, run as a user runs it: the `kgbrain --db KB verify CLAIMS -o OUT
[--workers 2]` command in a new process (interpreter start, imports, open, verify, write the verdicts file
with proofs), on a knowledge base loaded beforehand. "first" builds the reasoner's persisted mirror and
labels (on a tenth of the claims: also the memory check, since peak RSS must not grow with the claims),
"cold" is a new process reusing them, "warm" is the second of two `Brain.verify_file` calls in one library
process (up to 100,000 claims). Notes give each process's CPU seconds (its workers included, from wait4) and
the load average, since the machine may be shared. Every process gets compiled modules cached under the work
folder (PYTHONPYCACHEPREFIX), as an installed package has them, even where PYTHONDONTWRITEBYTECODE is set.
The peers answer the same claims (sentences and bad rows skipped) yes/no, without a
proof, from the same active facts: pyoxigraph with one SPARQL ASK per claim (property paths over is_a)
in memory (its process start includes loading the triples: it keeps nothing between processes) and on
disk (bulk-loaded beforehand; the process opens it), and networkx (a DiGraph built in the process;
`has_path` and `descendants`) as the in-RAM floor. A peer's per-claim rate is measured on a sample and its
process time for all the claims is start-up + claims / rate. Verdict files of all kgbrain runs on one
knowledge base must be byte-identical (checked).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import itertools
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
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
    import pyarrow as pa

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


SIZES = {  # name -> (concepts, is_a, causal, has_property): about 10k, 100k and 1M facts
    "10k": (2_000, 7_000, 2_000, 1_000),
    "100k": (20_000, 70_000, 20_000, 10_000),
    "1m": (200_000, 700_000, 200_000, 100_000),
}
HIERARCHY = ("is_a", "instance_of")


def iri(name: str) -> str:
    return f"<{EX}{quote(name, safe='')}>"


def export_triples(db: Path, nt: Path) -> list[tuple[str, str, str]]:
    """The active positive concept-to-concept facts of the knowledge base, as the peers get them."""
    from kgbrain.api import Brain

    with Brain.open(db, read_only=True) as brain:
        g = brain.reasoner.graph()
        names, preds = g.names, g.pred_names
        rows = [
            (names[s], preds[p], names[o])
            for s, p, o, pol in zip(
                g.subject.tolist(), g.predicate.tolist(), g.object.tolist(), g.polarity.tolist(), strict=True
            )
            if pol
        ]
    with nt.open("w", encoding="utf-8") as fh:
        for s, p, o in rows:
            fh.write(f"{iri(s)} {iri(p)} {iri(o)} .\n")
    return rows


def peer_claims(claims_file: Path, sample: int) -> list[tuple[str, str, str]]:
    out = []
    with claims_file.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if "text" in row:
                s, _, o = str(row["text"]).partition(" is a ")
                row = {"subject": s, "predicate": "is_a", "object": o}
            if row.get("predicate", "") != row.get("predicate", "").lower() or " " in str(row.get("predicate")):
                continue  # a bad row: kgbrain answers it with an ERROR verdict, the peers skip it
            out.append((str(row["subject"]), str(row["predicate"]), str(row["object"])))
            if len(out) >= sample:
                break
    return out


def peer_main(kind: str, work: Path, sample: int) -> None:
    """One peer process: start up (load or open), answer a sample of claims, print timings as JSON."""
    t0 = time.perf_counter()
    claims = peer_claims(work / "claims.jsonl", sample)
    yes = 0
    if kind == "networkx":
        import networkx as nx

        up: Any = nx.DiGraph()
        holders: dict[tuple[str, str], set[str]] = {}
        with (work / "facts.tsv").open(encoding="utf-8") as fh:
            for line in fh:
                s, p, o = line.rstrip("\n").split("\t")
                if p in HIERARCHY:
                    up.add_edge(s, o)
                else:
                    holders.setdefault((p, o), set()).add(s)
        start = time.perf_counter() - t0
        t, c = time.perf_counter(), time.process_time()
        for s, p, o in claims:
            if p in HIERARCHY:
                yes += bool(s in up and o in up and s != o and nx.has_path(up, s, o))
            else:
                found = holders.get((p, o), set())
                yes += bool(found and (s in found or (s in up and found & nx.descendants(up, s))))
    else:
        import pyoxigraph as ox

        if kind == "oxigraph-mem":
            store = ox.Store()
            store.bulk_load(path=str(work / "facts.nt"), format=ox.RdfFormat.N_TRIPLES)
        else:
            store = ox.Store(str(work / "oxigraph"))
        start = time.perf_counter() - t0
        up_path = f"({iri('is_a')}|{iri('instance_of')})"
        t, c = time.perf_counter(), time.process_time()
        for s, p, o in claims:
            if p in HIERARCHY:
                q = f"ASK {{ {iri(s)} {up_path}+ {iri(o)} }}"
            else:
                q = f"ASK {{ {iri(s)} {up_path}* ?c . ?c {iri(p)} {iri(o)} }}"
            yes += bool(store.query(q))
    seconds, cpu = time.perf_counter() - t, time.process_time() - c
    rate, cpu_rate = len(claims) / max(seconds, 1e-9), len(claims) / max(cpu, 1e-9)
    out = {"start": start, "rate": rate, "yes": yes, "n": len(claims), "cpu_rate": cpu_rate}
    print(json.dumps(out))


def kgbrain_main(db: Path, claims: Path, out: Path, workers: int) -> None:
    """The warm run: a process verifies the file once (not timed), then again (timed), as a library user would."""
    from kgbrain.api import Brain

    with Brain.open(db, read_only=True) as brain:
        brain.verify_file(claims, out.with_suffix(".once.jsonl"), workers=workers)
        t = time.perf_counter()
        cpu = time.process_time()
        children = _children_cpu()
        summary = brain.verify_file(claims, out, workers=workers)
        warm = time.perf_counter() - t
        warm_cpu = time.process_time() - cpu + _children_cpu() - children
    out.with_suffix(".once.jsonl").unlink()
    print(json.dumps({"seconds": warm, "cpu": warm_cpu, "counts": summary.counts, "load": os.getloadavg()[0]}))


def cli_run(db: Path, claims: Path, out: Path, workers: int) -> tuple[float, dict[str, Any]]:
    """`kgbrain --db DB verify CLAIMS -o OUT --workers N` in a new process, as a user runs it: wall time, and the
    process's CPU seconds and peak RSS (its workers included) from wait4, verdict counts from its summary."""
    args = ["-m", "kgbrain", "--db", str(db), "verify", str(claims), "-o", str(out), "--workers", str(workers)]
    wall, cpu, rss, text = run_process(args)
    counts = {}
    for line in text.splitlines():
        kind, _, n = line.partition(" ")
        if kind.isupper() and n.strip().replace(",", "").isdigit():
            counts[kind] = int(n.strip().replace(",", ""))
    return wall, {"counts": counts, "cpu": cpu, "rss": rss, "load": os.getloadavg()[0]}


def run_process(args: list[str]) -> tuple[float, float, float, str]:
    """Run this Python with `args`: wall seconds, CPU seconds and peak RSS in MB (from wait4: the process itself and
    the children it waited for), and its standard output; a failure stops the bench with its error output."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        t = time.perf_counter()
        # Started outside any source tree: `python -m` puts the working folder first on the module path, and a
        # kgbrain checkout there would be measured instead of the one installed (or on PYTHONPATH).
        proc = subprocess.Popen([sys.executable, *args], stdout=stdout, stderr=stderr, cwd=tempfile.gettempdir())
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        text, errors = stdout.read().decode(), stderr.read().decode()
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed:\n{errors}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text  # Linux reports KiB


def _children_cpu() -> float:
    # Worker processes, once they have exited (the pool joins them before verify_file returns).
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _note(res: dict[str, Any]) -> str:
    return f"RSS {res['rss']:.0f} MB, CPU {res['cpu']:.2f} s, load {res['load']:.1f}"


def subprocess_json(args: list[str]) -> tuple[float, dict[str, Any]]:
    """Run this Python with `args`: wall seconds and the JSON it prints last, with its CPU seconds (`process_cpu`)."""
    wall, cpu, _, text = run_process(args)
    return wall, {**json.loads(text.strip().splitlines()[-1]), "process_cpu": cpu}


def show(row: Row) -> None:
    kb, engine, n, seconds, note = row
    print(f"{kb:<16} {engine:<44} {n:>8,} {seconds:>8.2f} {n / seconds:>9,.0f}  {note}", flush=True)


def export_peers(work: Path) -> None:
    """The peers' copies of the knowledge base: N-Triples, a TSV for networkx, an on-disk pyoxigraph store."""
    triples = export_triples(work / "kb.kuzu", work / "facts.nt")
    with (work / "facts.tsv").open("w", encoding="utf-8") as fh:
        fh.writelines(f"{s}\t{p}\t{o}\n" for s, p, o in triples)
    import pyoxigraph as ox

    disk = ox.Store(str(work / "oxigraph"))
    disk.bulk_load(path=str(work / "facts.nt"), format=ox.RdfFormat.N_TRIPLES)
    disk.flush()
    del disk


WARM_MAX = 100_000  # above this many claims the warm runs are skipped: they only repeat the cold ones


def bench_kb(name: str, work: Path, claims: int, sample: int, rows: list[Row]) -> None:
    db, claims_file = work / "kb.kuzu", work / "claims.jsonl"
    # The first process (it builds and persists the mirror and labels) verifies a tenth of the claims: that
    # is also the memory check, since peak RSS must not grow with the number of claims.
    tenth = work / "claims-tenth.jsonl"
    with claims_file.open(encoding="utf-8") as fh:
        tenth.write_text("".join(itertools.islice(fh, max(claims // 10, 1))), encoding="utf-8")
    shutil.rmtree(work / "kb.kuzu.reasoning", ignore_errors=True)
    wall, small = cli_run(db, tenth, work / "tenth.jsonl", 1)
    rows.append((name, "kgbrain, 1 worker, first (builds the mirror)", claims // 10, wall, _note(small)))
    show(rows[-1])
    outputs = []
    rss_all = 0.0
    for workers in (1, 2):
        out = work / f"verdicts-{workers}.jsonl"
        wall, res = cli_run(db, claims_file, out, workers)
        rss_all = max(rss_all, res["rss"])
        outputs.append(out)
        label = f"kgbrain, {workers} worker{'s' if workers > 1 else ''}"
        rows.append((name, f"{label}, cold process", claims, wall, _note(res)))
        show(rows[-1])
        if claims <= WARM_MAX:
            warm_out = out.with_suffix(".warm.jsonl")
            _, warm = subprocess_json([__file__, "--kgbrain", str(db), str(claims_file), str(warm_out), str(workers)])
            outputs.append(warm_out)
            note = f"same process, again; CPU {warm['cpu']:.2f} s, load {warm['load']:.1f}"
            rows.append((name, f"{label}, warm", claims, warm["seconds"], note))
            show(rows[-1])
    # Compared by digest, streamed: reading a million-claim verdict file whole would make this process ~1 GB, and
    # Linux hands a process's peak RSS down to the children it starts, so the next runs would report it as theirs.
    same = len({_digest(o) for o in outputs}) == 1
    head = (work / "tenth.jsonl").stat().st_size
    same = same and _digest(outputs[0], head) == _digest(work / "tenth.jsonl")
    print(f"  {name}: verdicts {res['counts']}; verdict files identical across runs: {same}")
    print(f"  {name}: peak RSS {small['rss']:.0f} MB on {claims // 10:,} claims, {rss_all:.0f} MB on {claims:,}")
    for kind, label in (
        ("oxigraph-mem", "pyoxigraph in memory, ASK"),
        ("oxigraph-disk", "pyoxigraph on disk, ASK"),
        ("networkx", "networkx (in-RAM floor)"),
    ):
        wall, res = subprocess_json([__file__, "--peer", kind, str(work), str(sample)])
        start = wall - res["n"] / res["rate"]  # the whole process but its sampled claims
        total = start + claims / res["rate"]  # process start-up and load + every claim at the sampled rate
        # The same estimate in CPU seconds: the whole process but its sampled claims, + every claim at the CPU rate.
        cpu = res["process_cpu"] - res["n"] / res["cpu_rate"] + claims / res["cpu_rate"]
        load = os.getloadavg()[0]
        note = f"start {start:.2f} s, {res['rate']:,.0f}/s on {res['n']:,}, {res['yes']:,} yes, CPU {cpu:.2f} s, "
        note += f"load {load:.1f}"
        rows.append((name, label, claims, total, note))
        show(rows[-1])


Row = tuple[str, str, int, float, str]


def _digest(path: Path, size: int | None = None) -> str:
    # The SHA-256 of the file's first `size` bytes (all of it by default), read in blocks.
    h = hashlib.sha256()
    left = path.stat().st_size if size is None else size
    with path.open("rb") as fh:
        while left > 0:
            block = fh.read(min(left, 1 << 20))
            if not block:
                break
            h.update(block)
            left -= len(block)
    return h.hexdigest()


def generated(name: str, base: Path, claims: int, sample: int, rows: list[Row]) -> None:
    bench_kb(f"generated {name}", prepare_generated(name, base, claims), claims, sample, rows)


def prepare_generated(name: str, base: Path, claims: int) -> Path:
    concepts, isa, causal, props = SIZES[name]
    work = base / name
    ready = work / f"ready-{claims}"
    if not ready.exists():
        # Built once per size and claim count and kept: later runs measure verification only.
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True, exist_ok=True)
        ns = argparse.Namespace(concepts=concepts, isa=isa, causal=causal, properties=props, claims=claims)
        made, _ = build(ns, work / "kb.kuzu")
        with (work / "claims.jsonl").open("w", encoding="utf-8") as fh:
            for row in made:
                fh.write(json.dumps(row) + "\n")
        export_peers(work)
        ready.touch()
    else:
        print(f"KB generated {name}: reused from {work}")
    return work


def ontology(name: str, files: list[Path], base: Path, claims: int, sample: int, rows: list[Row]) -> None:
    spec = importlib.util.spec_from_file_location("verdict_snapshot", HERE / "verdict_snapshot.py")
    assert spec is not None
    assert spec.loader is not None
    snap = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(snap)
    work = base / name
    ready = work / f"ready-{claims}"
    if not ready.exists():
        from kgbrain.api import Brain

        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True, exist_ok=True)
        with Brain.open(work / "kb.kuzu") as brain:
            brain.load(files)
        with Brain.open(work / "kb.kuzu", read_only=True) as brain:
            snap.write(work / "claims.jsonl", snap.ontology_claims(brain, claims, 3))
        export_peers(work)
        ready.touch()
    else:
        print(f"KB {name}: reused from {work}")
    bench_kb(name, work, claims, sample, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10k,100k,1m")
    ap.add_argument("--claims", default="10000,100000,1000000", help="claims per size, in the order of --sizes")
    ap.add_argument("--ontologies", action="store_true", help="also LUBM(1,0) and Gene Ontology")
    ap.add_argument("--ontology-claims", type=int, default=20_000)
    ap.add_argument("--ontology-sets", default="LUBM(1,0),Gene Ontology", help="which ontologies, comma-separated")
    ap.add_argument("--oxigraph-sample", type=int, default=3_000)
    ap.add_argument(
        "--workdir",
        type=Path,
        help="KBs, claims and verdicts, built once and reused (default: $TMPDIR/kgbrain-verify-bench)",
    )
    ap.add_argument("--kgbrain", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--peer", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.kgbrain:
        db, claims, out, workers = args.kgbrain
        kgbrain_main(Path(db), Path(claims), Path(out), int(workers))
        return
    if args.peer:
        peer_main(args.peer[0], Path(args.peer[1]), int(args.peer[2]))
        return
    base = args.workdir or Path(tempfile.gettempdir()) / "kgbrain-verify-bench"
    base.mkdir(parents=True, exist_ok=True)
    # Inherited by every process this one starts: compiled modules are kept, as an installed package keeps them.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(base / "pycache")
    rows: list[Row] = []
    counts = [int(c) for c in args.claims.split(",") if c]
    sizes = [s for s in args.sizes.split(",") if s]
    for name, claims in zip(sizes, counts[: len(sizes)], strict=True):
        generated(name, base, claims, args.oxigraph_sample, rows)
    if args.ontologies:
        onto = ROOT.parent / "shared" / "data" / "ontologies"
        if not onto.exists():
            onto = Path("/work/shared/data/ontologies")
        sets = {
            "LUBM(1,0)": [onto / "lubm" / "univ-bench.owl", onto / "lubm" / "lubm1_0.nt.gz"],
            "Gene Ontology": [onto / "go" / "go_2019-01-29_isa_rel.nt.gz"],
        }
        for name, files in sets.items():
            if name not in args.ontology_sets.split(","):
                continue
            ontology(name, files, base, args.ontology_claims, args.oxigraph_sample, rows)
    print()
    print(f"{'knowledge base':<16} {'engine':<44} {'claims':>8} {'seconds':>8} {'claims/s':>9}  notes")
    for row in rows:
        show(row)


if __name__ == "__main__":
    main()
