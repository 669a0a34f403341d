"""Load benchmark: facts/s and peak RSS for JSONL and CSV facts files through kgbrain's bulk path, first loads and
loads into a knowledge base that holds facts already, with the peers in the same run.

For each size N (default 200,000 and 1,000,000) it generates N facts over N/5 concepts (kept under --dir and
reused), then runs, each in its own subprocess so RSS is per engine: kgbrain load of the JSONL file into a new
KB, kgbrain load of the CSV file into a new KB, pyoxigraph (bulk_load of the same facts as N-Triples) and
rdflib (parse of the N-Triples). `--into` adds the non-empty case, side by side with the empty one for kgbrain
and pyoxigraph: a tenth of N new facts (over the same concepts) loaded into a new store and into the store of N
facts (a copy of the first run's), and the Gene Ontology loaded alone and after pizza.owl (from
../shared/data/ontologies, or --ontologies). Issue #13 wants the non-empty load within 2x of the empty one.

    python bench/load.py [--sizes 200000 1000000] [--dir /tmp/kgbrain-load] [--skip-rdflib] [--into]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PREDICATES = ["is_a", "part_of", "has_property", "causes", "enables", "related_to", "contains", "located_in"]


def generate(n_facts: int, folder: Path, *, seed: int = 7, prefix: str = "") -> dict[str, Path]:
    """JSONL, CSV and N-Triples files of the same `n_facts` facts (reused when already there)."""
    paths = {"jsonl": folder / "facts.jsonl", "csv": folder / "facts.csv", "nt": folder / "facts.nt"}
    done = folder / "complete"
    if done.exists():
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    n_concepts = max(10, n_facts // 5)
    sources = [(f"{prefix}source-{i}", round(0.3 + 0.03 * i, 2)) for i in range(20)]
    fields = [
        "subject",
        "predicate",
        "object",
        "value",
        "unit",
        "polarity",
        "confidence",
        "source",
        "trust",
        "observed_at",
    ]
    with paths["jsonl"].open("w") as jf, paths["csv"].open("w", newline="") as cf, paths["nt"].open("w") as nf:
        writer = csv.DictWriter(cf, fieldnames=fields)
        writer.writeheader()
        for i in range(n_facts):
            s = f"c{rng.randrange(n_concepts)}"
            source, trust = sources[i % len(sources)]
            row: dict[str, object] = {
                "subject": s,
                "source": source,
                "trust": trust,
                "confidence": round(rng.random(), 3),
            }
            if i % 10 == 9:
                row.update(predicate="weight", value=rng.randrange(1, 1000), unit="g")
                nf.write(f'<urn:{s}> <urn:weight> "{row["value"]}"^^<http://www.w3.org/2001/XMLSchema#integer> .\n')
            else:
                row.update(predicate=PREDICATES[i % len(PREDICATES)], object=f"c{rng.randrange(n_concepts)}")
                nf.write(f"<urn:{s}> <urn:{row['predicate']}> <urn:{row['object']}> .\n")
            if i % 20 == 0:
                row["polarity"] = False
            if i % 7 == 0:
                row["observed_at"] = f"20{10 + i % 15:02d}-0{1 + i % 9}-1{i % 9}T00:00:00Z"
            jf.write(json.dumps(row) + "\n")
            writer.writerow(row)
    done.touch()
    return paths


# Peak RSS (ru_maxrss) rather than the RSS at the end: a load's high-water mark is what needs the memory. CPU
# seconds (every thread of the process) next to wall seconds: on a shared machine they vary much less.
RUNNERS = {
    "kgbrain": """
import resource, sys, time
from kgbrain.api import Brain
u = resource.getrusage(resource.RUSAGE_SELF)
cpu, t = u.ru_utime + u.ru_stime, time.perf_counter()
with Brain.open(sys.argv[2]) as b:
    [r] = b.load([sys.argv[1]])
u = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - t, r.facts_added, u.ru_maxrss * 1024, u.ru_utime + u.ru_stime - cpu)
""",
    "pyoxigraph": """
import resource, sys, time, pyoxigraph
u = resource.getrusage(resource.RUSAGE_SELF)
cpu, t = u.ru_utime + u.ru_stime, time.perf_counter()
store = pyoxigraph.Store(sys.argv[2])
before = len(store)
fmt = pyoxigraph.RdfFormat.RDF_XML if sys.argv[1].endswith(".owl") else pyoxigraph.RdfFormat.N_TRIPLES
store.bulk_load(path=sys.argv[1], format=fmt)
n = len(store) - before  # the triples this load added (a store may hold some already)
u = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - t, n, u.ru_maxrss * 1024, u.ru_utime + u.ru_stime - cpu)
""",
    "rdflib": """
import resource, sys, time, rdflib
u = resource.getrusage(resource.RUSAGE_SELF)
cpu, t = u.ru_utime + u.ru_stime, time.perf_counter()
g = rdflib.Graph()
g.parse(sys.argv[1], format="nt")
u = resource.getrusage(resource.RUSAGE_SELF)
print(time.perf_counter() - t, len(g), u.ru_maxrss * 1024, u.ru_utime + u.ru_stime - cpu)
""",
}


def run(engine: str, data: Path, out: Path) -> tuple[float, int, int, float]:
    done = subprocess.run(
        [sys.executable, "-c", RUNNERS[engine], str(data), str(out)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{engine} on {data} failed:\n{done.stderr[-2000:]}")
    seconds, count, rss, cpu = done.stdout.split()
    return float(seconds), int(count), int(rss), float(cpu)


ONTOLOGIES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ontologies"


def into_rows(n: int, work: Path, folder: Path) -> list[tuple[str, str, Path, Path]]:
    """A tenth of N new facts into a new store and into the store of N (copies of the first runs' stores)."""
    extra = generate(n // 10, folder / f"{n}-extra", seed=11, prefix="extra-")
    shutil.copy(work / f"kb{n}", work / f"full{n}")
    shutil.copytree(work / f"ox{n}", work / f"oxfull{n}")
    return [
        (f"kgbrain {n // 10:,} into a new KB", "kgbrain", extra["jsonl"], work / f"new{n}"),
        (f"  … into the KB of {n:,}", "kgbrain", extra["jsonl"], work / f"full{n}"),
        (f"pyoxigraph {n // 10:,} into a new store", "pyoxigraph", extra["nt"], work / f"oxnew{n}"),
        (f"  … into the store of {n:,}", "pyoxigraph", extra["nt"], work / f"oxfull{n}"),
    ]


def ontology_rows(ontologies: Path, work: Path) -> list[tuple[str, str, Path, Path]]:
    """The Gene Ontology into a new store and into one holding pizza.owl (loaded first, not timed here)."""
    pizza = ontologies / "pizza" / "pizza.owl"
    go = work / "go.nt"  # pyoxigraph reads no gzip
    with gzip.open(ontologies / "go" / "go_2019-01-29_isa_rel.nt.gz", "rb") as src, go.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    for engine, out in (("kgbrain", work / "pizza"), ("pyoxigraph", work / "oxpizza")):
        run(engine, pizza, out)
    return [
        ("kgbrain GO into a new KB", "kgbrain", go, work / "go"),
        ("  … into the KB of pizza.owl", "kgbrain", go, work / "pizza"),
        ("pyoxigraph GO into a new store", "pyoxigraph", go, work / "oxgo"),
        ("  … into the store of pizza.owl", "pyoxigraph", go, work / "oxpizza"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[200_000, 1_000_000])
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "kgbrain-load-bench")
    parser.add_argument("--skip-rdflib", action="store_true", help="rdflib takes ~30 s per million triples")
    parser.add_argument("--skip-csv", action="store_true")
    parser.add_argument("--into", action="store_true", help="also load N/10 new facts into the KB of N facts")
    parser.add_argument("--ontologies", type=Path, default=ONTOLOGIES, help="folder with pizza/ and go/ (--into)")
    args = parser.parse_args()
    rows = []
    started = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(dir=args.dir.parent if args.dir.parent.exists() else None) as tmp:
        work = Path(tmp)
        for n in args.sizes:
            t = time.perf_counter()
            paths = generate(n, args.dir / str(n))
            print(f"{n:,} facts ready in {time.perf_counter() - t:.1f} s", file=sys.stderr)
            plan = [(f"kgbrain (JSONL), new KB, {n:,}", "kgbrain", paths["jsonl"], work / f"kb{n}")]
            if not args.skip_csv:
                plan.append((f"kgbrain (CSV), new KB, {n:,}", "kgbrain", paths["csv"], work / f"csv{n}"))
            plan.append((f"pyoxigraph bulk_load (N-Triples), {n:,}", "pyoxigraph", paths["nt"], work / f"ox{n}"))
            if not args.skip_rdflib:
                plan.append((f"rdflib parse, in memory (N-Triples), {n:,}", "rdflib", paths["nt"], work / "none"))
            for label, engine, data, out in plan:
                seconds, count, rss, cpu = run(engine, data, out)
                rows.append((label, seconds, cpu, count, count / cpu, rss / 2**20))
                print(f"  {label}: {seconds:.1f} s", file=sys.stderr)
            if args.into:
                for label, engine, data, out in into_rows(n, work, args.dir):
                    seconds, count, rss, cpu = run(engine, data, out)
                    rows.append((label, seconds, cpu, count, count / cpu, rss / 2**20))
                    print(f"  {label}: {seconds:.1f} s", file=sys.stderr)
        if args.into and not args.ontologies.exists():
            print(f"no {args.ontologies}: the Gene Ontology rows are left out (--ontologies)", file=sys.stderr)
        elif args.into:
            for label, engine, data, out in ontology_rows(args.ontologies, work):
                seconds, count, rss, cpu = run(engine, data, out)
                rows.append((label, seconds, cpu, count, count / cpu, rss / 2**20))
                print(f"  {label}: {seconds:.1f} s", file=sys.stderr)
    ended = os.getloadavg()[0]
    print(f"load average {started:.1f} at the start, {ended:.1f} at the end ({os.cpu_count()} cores)\n")
    print(
        f"| {'engine':<44} | {'wall s':>7} | {'CPU s':>7} | {'facts/triples':>13} | {'per CPU s':>9} "
        f"| {'peak RSS MB':>11} |"
    )
    print(f"|{'-' * 46}|{'-' * 8}:|{'-' * 8}:|{'-' * 14}:|{'-' * 10}:|{'-' * 12}:|")
    for label, seconds, cpu, count, rate, rss in rows:
        print(f"| {label:<44} | {seconds:>7.1f} | {cpu:>7.1f} | {count:>13,} | {rate:>9,.0f} | {rss:>11,.0f} |")
    # Each non-empty load (a row starting "  …") against the empty one above it: CPU seconds, then wall.
    for (first, wall, cpu, *_), (label, into_wall, into_cpu, *_) in itertools.pairwise(rows):
        if label.startswith("  …") and not first.startswith("  …"):
            print(f"{first} {label.strip()}: {into_cpu / cpu:.1f}x the CPU s, {into_wall / wall:.1f}x the wall s")


if __name__ == "__main__":
    main()
