"""Ontology load benchmark: triples/s for LUBM (100k) and the Gene Ontology (230k) beside rdflib's bare parse.

For each file, each step in its own subprocess (so RSS is per step):
  rdflib parse        rdflib.Graph().parse of the file: the reference time (target: kgbrain load <= 1.5x it)
  pyoxigraph parse    a Rust N-Triples parser, for scale
  kgbrain read        parse (ingest/ntriples.py) + mapping onto kgbrain's model, no store
  kgbrain load        read + write into an on-disk Kùzu KB (ingest/loader.py), as `Brain.load` without hooks
  kgbrain load+hooks  `Brain.load` as `kgbrain load` runs it, with the load hooks (contradiction scan, ...)
and checks the mapped counts against rdflib's (named-class rdfs:subClassOf = is_a, rdf:type = instance_of).

    python bench/ontology_load.py [--skip-hooks]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ONTOLOGIES = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "ontologies"
FILES = [ONTOLOGIES / "lubm" / "lubm1_0.nt.gz", ONTOLOGIES / "go" / "go_2019-01-29_isa_rel.nt.gz"]

RUNNERS = {
    "rdflib parse": """
import gzip, json, sys, time, psutil, rdflib
from rdflib import RDF, RDFS, URIRef
t = time.perf_counter()
g = rdflib.Graph()
with gzip.open(sys.argv[1], "rb") as fh:
    g.parse(fh, format="nt")
seconds = time.perf_counter() - t
is_a = sum(1 for s, o in g.subject_objects(RDFS.subClassOf) if isinstance(s, URIRef) and isinstance(o, URIRef))
builtin = (str(RDF), str(RDFS), "http://www.w3.org/2002/07/owl#")
types = sum(1 for o in g.objects(None, RDF.type) if isinstance(o, URIRef) and not str(o).startswith(builtin))
print(json.dumps({"seconds": seconds, "triples": len(g), "is_a": is_a, "instance_of": types,
                  "rss": psutil.Process().memory_info().rss}))
""",
    "pyoxigraph parse": """
import gzip, json, sys, time, psutil, pyoxigraph
t = time.perf_counter()
with gzip.open(sys.argv[1], "rb") as fh:
    n = sum(1 for _ in pyoxigraph.parse(fh, format=pyoxigraph.RdfFormat.N_TRIPLES))
print(json.dumps({"seconds": time.perf_counter() - t, "triples": n, "rss": psutil.Process().memory_info().rss}))
""",
    "kgbrain read": """
import json, sys, time, psutil
from pathlib import Path
from kgbrain.ingest.ontology import read_ontology
t = time.perf_counter()
batch = read_ontology(Path(sys.argv[1]))
print(json.dumps({"seconds": time.perf_counter() - t, "triples": batch.extra["triples_read"],
                  "rss": psutil.Process().memory_info().rss}))
""",
    "kgbrain load": """
import json, sys, time, psutil
from pathlib import Path
from kgbrain.api import Brain
with Brain.open(sys.argv[2]) as b:
    b.load_hooks.clear()
    t = time.perf_counter()
    [r] = b.load([Path(sys.argv[1])])
    seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "triples": r.extra["triples_read"], "is_a": r.per_predicate.get("is_a", 0),
                  "instance_of": r.per_predicate.get("instance_of", 0), "rss": psutil.Process().memory_info().rss}))
""",
    "kgbrain load+hooks": """
import json, sys, time, psutil
from pathlib import Path
from kgbrain.api import Brain
with Brain.open(sys.argv[2]) as b:
    t = time.perf_counter()
    [r] = b.load([Path(sys.argv[1])])
    seconds = time.perf_counter() - t
print(json.dumps({"seconds": seconds, "triples": r.extra["triples_read"], "rss": psutil.Process().memory_info().rss}))
""",
}


def run(step: str, data: Path, db: Path) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", RUNNERS[step], str(data), str(db)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{step} failed on {data.name}:\n{done.stderr}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-hooks", action="store_true", help="leave out the load with hooks (the slowest step)")
    args = parser.parse_args()
    steps = [s for s in RUNNERS if not (args.skip_hooks and s.endswith("hooks"))]
    head = ("file", "step", "seconds", "triples", "triples/s", "x rdflib", "RSS MB")
    print("| {:<28} | {:<18} | {:>7} | {:>8} | {:>9} | {:>8} | {:>6} |".format(*head))
    print(f"|{'-' * 30}|{'-' * 20}|{'-' * 8}:|{'-' * 9}:|{'-' * 10}:|{'-' * 9}:|{'-' * 7}:|")
    checks = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, data in enumerate(FILES):
            results = {step: run(step, data, Path(tmp) / f"kb{n}-{i}.kuzu") for i, step in enumerate(steps)}
            reference = results["rdflib parse"]["seconds"]
            for step, r in results.items():
                print(
                    f"| {data.name:<28} | {step:<18} | {r['seconds']:>7.2f} | {int(r['triples']):>8,} "
                    f"| {r['triples'] / r['seconds']:>9,.0f} | {r['seconds'] / reference:>8.2f} "
                    f"| {r['rss'] / 2**20:>6.0f} |"
                )
            for key in ("is_a", "instance_of"):
                ours, theirs = results["kgbrain load"][key], results["rdflib parse"][key]
                verdict = "ok" if ours == theirs else "MISMATCH"
                checks.append(f"{data.name}: {key} facts {int(ours):,} vs rdflib {int(theirs):,} {verdict}")
    print()
    print("\n".join(checks))


if __name__ == "__main__":
    main()
