"""Load benchmark: facts/s and RSS for JSONL and CSV facts files through kgbrain's bulk path.

Generates a knowledge base of N facts (default 1,000,000) over N/5 concepts, then runs, each in its own
subprocess so RSS is per engine: kgbrain load of the JSONL file, kgbrain load of the CSV file, and the
peers pyoxigraph (bulk_load of the same facts as N-Triples) and rdflib (parse of the N-Triples).

    python bench/load.py [--facts 1000000] [--skip-rdflib]
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PREDICATES = ["is_a", "part_of", "has_property", "causes", "enables", "related_to", "contains", "located_in"]


def generate(n_facts: int, folder: Path) -> dict[str, Path]:
    rng = random.Random(7)
    n_concepts = max(10, n_facts // 5)
    sources = [(f"source-{i}", round(0.3 + 0.03 * i, 2)) for i in range(20)]
    paths = {"jsonl": folder / "facts.jsonl", "csv": folder / "facts.csv", "nt": folder / "facts.nt"}
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
    return paths


RUNNERS = {
    "kgbrain-jsonl": """
import sys, time, psutil
from kgbrain.api import Brain
t = time.perf_counter()
with Brain.open(sys.argv[2]) as b:
    [r] = b.load([sys.argv[1]])
print(time.perf_counter() - t, r.facts_added, psutil.Process().memory_info().rss)
""",
    "pyoxigraph": """
import sys, time, psutil, pyoxigraph
t = time.perf_counter()
store = pyoxigraph.Store(sys.argv[2])
store.bulk_load(path=sys.argv[1], format=pyoxigraph.RdfFormat.N_TRIPLES)
n = len(store)
print(time.perf_counter() - t, n, psutil.Process().memory_info().rss)
""",
    "rdflib": """
import sys, time, psutil, rdflib
t = time.perf_counter()
g = rdflib.Graph()
g.parse(sys.argv[1], format="nt")
print(time.perf_counter() - t, len(g), psutil.Process().memory_info().rss)
""",
}


def run(engine: str, data: Path, out: Path) -> tuple[float, int, int]:
    code = RUNNERS["kgbrain-jsonl" if engine.startswith("kgbrain") else engine]
    done = subprocess.run([sys.executable, "-c", code, str(data), str(out)], capture_output=True, text=True, check=True)
    seconds, count, rss = done.stdout.split()
    return float(seconds), int(count), int(rss)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--skip-rdflib", action="store_true", help="rdflib takes ~30 s per million triples")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t = time.perf_counter()
        paths = generate(args.facts, folder)
        print(f"generated {args.facts:,} facts in {time.perf_counter() - t:.1f} s\n")
        rows = []
        plan = [
            ("kgbrain (JSONL)", "kgbrain", paths["jsonl"]),
            ("kgbrain (CSV)", "kgbrain", paths["csv"]),
            ("pyoxigraph bulk_load (N-Triples)", "pyoxigraph", paths["nt"]),
        ]
        if not args.skip_rdflib:
            plan.append(("rdflib parse, in memory (N-Triples)", "rdflib", paths["nt"]))
        for i, (label, engine, data) in enumerate(plan):
            seconds, count, rss = run(engine, data, folder / f"db{i}")
            rows.append((label, seconds, count, count / seconds, rss / 2**20))
        print(f"| {'engine':<36} | {'seconds':>8} | {'facts/triples':>13} | {'per second':>10} | {'RSS MB':>7} |")
        print(f"|{'-' * 38}|{'-' * 10}:|{'-' * 15}:|{'-' * 12}:|{'-' * 9}:|")
        for label, seconds, count, rate, rss in rows:
            print(f"| {label:<36} | {seconds:>8.1f} | {count:>13,} | {rate:>10,.0f} | {rss:>7.0f} |")


if __name__ == "__main__":
    main()
