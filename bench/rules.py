"""Rules and queries against named peers, one run, side by side (issue #11, item 8).

    python bench/rules.py [--lubm DIR] [--layers 15] [--width 100] [--skip-owlrl] [--tms-facts 400] [--cypher-lubm]
    python bench/rules.py --only-tms --tms-facts 100000 --tms-rule two-hop --tms-sample 20

1. LUBM(1,0) (univ-bench.owl + University0, 100,573 triples): load + OWL 2 RL materialisation and the 14
   LUBM queries. kgbrain: `Brain.load` of the data, the ontology's OWL 2 RL rules (ingest/owl_rules.py)
   run in memory (reasoning/rules/executor.py, every derivation recorded) and the queries on that closure
   (the engine `Brain.query` uses). `kgbrain load (CLI, stored)`: the command a user runs, in a fresh
   process on a fresh database, storing the rules, derived facts and derivation records (the wired path:
   in-memory closure, one write); its `triples` column is the number of stored derived facts.
   `--cypher-lubm` also times `Brain.load` of both files with the Cypher engine (the definition; minutes).
   Peers: `reasonable` (Rust OWL 2 RL) with the
   queries in pyoxigraph (rdflib's SPARQL took 1,731 s for Q2 alone on this machine, so it is not run),
   and `owlrl` (pure Python OWL-RL closure of an rdflib graph; about two minutes; `--skip-owlrl`).
   Counts are checked against the published LUBM(1,0) answers.
2. Transitive closure of a layered DAG (`--layers` x `--width` nodes, 3 edges to the next layer; about
   1M closure tuples at the defaults): memory.py (which also records every derivation) vs `nemo-python`.
3. Truth maintenance: a transitive `part_of` rule over a random forest stored in Kùzu (the Cypher engine,
   derivations stored); retracting 1% of the stored premises (DRed over the derivation records), one by
   one (`Brain.retract`) and at once (`Brain.retract_many`), vs recomputing from scratch (a fresh
   knowledge base without them, loaded and materialised by the same engine). The three must end
   with the same number of active facts.

The LUBM data (Lehigh University Benchmark, http://swat.cse.lehigh.edu/projects/lubm/, generator output
and ontology distributed by the Lehigh SWAT lab for benchmarking) is read from --lubm, never shipped.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kgbrain.api import Brain
from kgbrain.errors import StoreError
from kgbrain.ingest.export import stored_fact_rows
from kgbrain.reasoning.rules.executor import Closure, FactRow, read_facts
from kgbrain.ruleset import Atom, Program, Rule, Var

HERE = Path(__file__).resolve().parent
QUERIES = HERE.parent / "tests" / "fixtures" / "lubm" / "queries.rq"
# Published answer counts for LUBM(1,0) (the benchmark's reference answers, complete reasoning).
PUBLISHED = {
    "Q1": 4, "Q2": 0, "Q3": 6, "Q4": 34, "Q5": 719, "Q6": 7790, "Q7": 67,
    "Q8": 7790, "Q9": 208, "Q10": 4, "Q11": 224, "Q12": 15, "Q13": 1, "Q14": 5916,
}  # fmt: skip


def lubm_queries() -> dict[str, str]:
    """The 14 LUBM queries by name (Q1..Q14)."""
    blocks = re.split(r"^# (Q\d+)\n", QUERIES.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]
    return dict(zip(blocks[::2], blocks[1::2], strict=True))


def timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


# -- 1. LUBM ---------------------------------------------------------------------------------------


def lubm_kgbrain(lubm: Path, work: Path) -> dict[str, Any]:
    """Load the data, then the OWL 2 RL closure in memory (memory.py) and the 14 queries on it.

    The ontology's rules are read from univ-bench.owl by the ontology mapper (ingest/owl_rules.py) and run
    by memory.py, not stored: storing them would also run the Cypher engine at load (`--cypher-lubm`).
    """
    from kgbrain.ingest.ontology import load_mapping, read_ontology
    from kgbrain.ingest.rdf_mapping import RdfMapper
    from kgbrain.ingest.sparql import parse_select
    from kgbrain.reasoning.rules.query import QueryEngine

    db = work / "lubm.kuzu"
    with Brain.open(db) as brain:
        _, load_s = timed(lambda: brain.load([lubm / "lubm1_0.nt.gz"]))
    onto, parse_s = timed(lambda: read_ontology(lubm / "univ-bench.owl"))
    program = Program(tuple(onto.rules))
    with Brain.open(db, read_only=True) as brain:
        rows, read_s = timed(lambda: [*read_facts(brain.reasoner.graph(), brain.store), *onto.facts])
        closure = Closure(rows)
        _, closure_s = timed(lambda: closure.run(program))
        derivations, derivations_s = timed(closure.derivations)
    engine = QueryEngine(closure, RdfMapper(load_mapping(), file="", source="", trust=0.0))
    counts: dict[str, int] = {}
    query_s = 0.0
    for name, text in lubm_queries().items():
        result, seconds = timed(lambda text=text: engine.select(parse_select(text)))
        counts[name] = len(result.rows)
        query_s += seconds
    return {
        "load": load_s + parse_s,
        "materialise": read_s + closure_s,
        "closure_only": closure_s,
        "derivations": derivations_s,
        "tuples": closure.size,
        "firings": len(derivations),
        "rules": len(program.rules),
        "queries": query_s,
        "counts": counts,
    }


def lubm_cypher(lubm: Path, work: Path) -> dict[str, Any]:
    """Both files through `Brain.load`, the ontology's rules run by the Cypher engine (the definition)."""
    from kgbrain.reasoning.rules.materialisation import use_engine

    with use_engine("cypher"), Brain.open(work / "cypher.kuzu") as brain:
        _, seconds = timed(lambda: brain.load([lubm / "univ-bench.owl", lubm / "lubm1_0.nt.gz"]))
        counts = {name: len(brain.query(text).rows) for name, text in lubm_queries().items()}
    return {"load+materialise": seconds, "counts": counts}


def lubm_cli(lubm: Path, work: Path) -> dict[str, Any]:
    """`kgbrain load univ-bench.owl lubm1_0.nt.gz` as a user runs it: a fresh process, a fresh database.

    The rules are stored and run by the wired path (in-memory closure, one write); derived facts and
    derivation records end up in the database. Then `kgbrain query` answers the 14 queries.
    """
    import resource
    import subprocess
    import sys

    db = work / "cli.kuzu"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "kgbrain",
            "--db",
            str(db),
            "load",
            str(lubm / "univ-bench.owl"),
            str(lubm / "lubm1_0.nt.gz"),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    with Brain.open(db) as brain:
        derived = sum(
            r["count"]
            for r in brain.store.run_generated(
                "MATCH ()-[r]->() WHERE r.source STARTS WITH $p RETURN count(*) AS count", p="rule:"
            )
        )
        (counts, query_s) = timed(lambda: {n: len(brain.query(t).rows) for n, t in lubm_queries().items()})
    return {"load": seconds, "cpu": cpu, "derived": derived, "queries": query_s, "counts": counts}


def _turtle_copies(lubm: Path, work: Path) -> tuple[Path, Path]:
    import rdflib

    onto = work / "univ-bench.ttl"
    rdflib.Graph().parse(lubm / "univ-bench.owl", format="xml").serialize(onto, format="turtle")
    data = work / "lubm1_0.ttl"  # reasonable reads .ttl/.n3 only; N-Triples is Turtle
    with gzip.open(lubm / "lubm1_0.nt.gz", "rb") as src, data.open("wb") as dst:
        shutil.copyfileobj(src, dst)
    return onto, data


def _oxigraph_counts(triples: Any) -> tuple[dict[str, int], float]:
    import pyoxigraph as ox

    def term(t: Any) -> Any:
        from rdflib import BNode, Literal

        if isinstance(t, BNode):
            return ox.BlankNode(str(t))
        if isinstance(t, Literal):
            if t.language:
                return ox.Literal(str(t), language=t.language)
            return ox.Literal(str(t), datatype=ox.NamedNode(str(t.datatype))) if t.datatype else ox.Literal(str(t))
        return ox.NamedNode(str(t))

    from rdflib import Literal as RdfLiteral
    from rdflib import URIRef

    store = ox.Store()  # owlrl's generalised RDF has literal subjects: not RDF, left out
    store.extend(
        [
            ox.Quad(term(s), term(p), term(o))
            for s, p, o in triples
            if not isinstance(s, RdfLiteral) and isinstance(p, URIRef)
        ]
    )
    counts: dict[str, int] = {}
    start = time.perf_counter()
    for name, text in lubm_queries().items():
        counts[name] = sum(1 for _ in store.query(text))
    return counts, time.perf_counter() - start


def lubm_reasonable(lubm: Path, work: Path) -> dict[str, Any]:
    import reasonable

    onto, data = _turtle_copies(lubm, work)
    reasoner = reasonable.PyReasoner()
    start = time.perf_counter()
    reasoner.load_file(str(onto))
    reasoner.load_file(str(data))
    load_s = time.perf_counter() - start
    triples, reason_s = timed(reasoner.reason)
    counts, query_s = _oxigraph_counts(triples)
    return {"load": load_s, "materialise": reason_s, "tuples": len(triples), "queries": query_s, "counts": counts}


def lubm_owlrl(lubm: Path) -> dict[str, Any]:
    import owlrl
    import rdflib

    graph = rdflib.Graph()
    start = time.perf_counter()
    graph.parse(lubm / "univ-bench.owl", format="xml")
    with gzip.open(lubm / "lubm1_0.nt.gz", "rt", encoding="utf-8") as f:
        graph.parse(data=f.read(), format="nt")
    load_s = time.perf_counter() - start
    _, reason_s = timed(lambda: owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(graph))
    counts, query_s = _oxigraph_counts(graph)
    return {"load": load_s, "materialise": reason_s, "tuples": len(graph), "queries": query_s, "counts": counts}


# -- 2. transitive closure ---------------------------------------------------------------------------


def dag(layers: int, width: int, seed: int = 7) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    edges = set()
    for layer in range(layers - 1):
        for i in range(width):
            for j in rng.sample(range(width), 3):
                edges.add((layer * width + i, (layer + 1) * width + j))
    return sorted(edges)


def closure_memory(edges: list[tuple[int, int]]) -> dict[str, Any]:
    x, y, z = Var("X"), Var("Y"), Var("Z")
    program = Program(
        (
            Rule("tc-base", Atom("tc", (x, y)), (Atom("e", (x, y)),)),
            Rule("tc-step", Atom("tc", (x, z)), (Atom("tc", (x, y)), Atom("e", (y, z)))),
        )
    )
    rows = [FactRow(f"f{i}", f"n{s}", "e", f"n{o}") for i, (s, o) in enumerate(edges)]
    start = time.perf_counter()
    closure = Closure(rows)
    closure.run(program)
    seconds = time.perf_counter() - start
    tc = closure.relation_index[("tc", True)]
    return {"seconds": seconds, "tuples": int((closure._r.view() == tc).sum())}


def closure_nemo(edges: list[tuple[int, int]]) -> dict[str, Any]:
    import nmo_python

    text = "".join(f"e({s},{o}).\n" for s, o in edges)
    text += "tc(?X, ?Y) :- e(?X, ?Y).\ntc(?X, ?Z) :- tc(?X, ?Y), e(?Y, ?Z).\n@output tc .\n"
    start = time.perf_counter()
    engine = nmo_python.NemoEngine(nmo_python.load_string(text))
    engine.reason()
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "tuples": sum(1 for _ in engine.result("tc"))}


# -- 3. truth maintenance ----------------------------------------------------------------------------


def forest_facts(n: int, seed: int = 11) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [
        {"subject": f"p{i}", "predicate": "part_of", "object": f"p{rng.randrange(max(i // 2, 1), i)}", "source": "gen"}
        for i in range(2, n)
    ]


TMS_RULES = {
    "transitive": "[part-trans] part_of(X, Z) :- part_of(X, Y), part_of(Y, Z).\n",
    "two-hop": "[gp] grandpart(X, Z) :- part_of(X, Y), part_of(Y, Z).\n",
}


def tms(n: int, work: Path, rule: str = "transitive", one_by_one: int = 0) -> dict[str, Any]:
    """Build once, copy the database, retract the same 1% one by one and all at once, then recompute.

    `one_by_one` > 0 times only that many single retractions and scales the time to the whole 1%.
    """
    import json

    rules = work / "tc.dl"
    rules.write_text(TMS_RULES[rule], encoding="utf-8")
    facts = forest_facts(n)
    path = work / "forest.jsonl"
    path.write_text("".join(json.dumps(f) + "\n" for f in facts), encoding="utf-8")
    db = work / "tms.kuzu"
    with Brain.open(db) as brain:
        _, build_s = timed(lambda: brain.load([path, rules]))
        stored = [f for f in stored_fact_rows(brain.store) if f["source"] == "gen"]
        derived = sum(1 for f in stored_fact_rows(brain.store) if f["source"].startswith("rule:"))
        derivations = len(brain.store.run_generated("MATCH (d:Derivation) RETURN d.id AS id"))
    rng = random.Random(3)
    victims = rng.sample(stored, max(1, len(stored) // 100))
    ids = [f["fact_id"] for f in victims]
    shutil.copy(db, work / "tms-batch.kuzu")

    def active(brain: Brain) -> int:
        return sum(1 for f in stored_fact_rows(brain.store) if f["status"] == "active")

    sample = ids[:one_by_one] if one_by_one else ids
    with Brain.open(db) as brain:
        _, one_s = timed(lambda: [brain.retract(i, by="bench") for i in sample])
        one_s *= len(ids) / len(sample)
        if len(sample) < len(ids):
            brain.retract_many(ids[len(sample) :], by="bench")
        after_one = active(brain)
    with Brain.open(work / "tms-batch.kuzu") as brain:
        _, batch_s = timed(lambda: brain.retract_many(ids, by="bench"))
        after_batch = active(brain)
    gone = {(f["subject"], f["object"]) for f in victims}
    kept = [f for f in facts if (f["subject"], f["object"]) not in gone]
    path2 = work / "forest2.jsonl"
    path2.write_text("".join(json.dumps(f) + "\n" for f in kept), encoding="utf-8")
    with Brain.open(work / "tms2.kuzu") as brain:
        _, recompute_s = timed(lambda: brain.load([path2, rules]))
        recomputed = active(brain)
    return {
        "facts": len(facts),
        "rule": rule,
        "sampled": len(sample),
        "derived": derived,
        "derivations": derivations,
        "build": build_s,
        "retracted": len(victims),
        "one_by_one": one_s,
        "batch": batch_s,
        "recompute": recompute_s,
        "active": (after_one, after_batch, recomputed),
    }


# -- report ------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lubm", type=Path, default=Path("/work/shared/data/ontologies/lubm"))
    parser.add_argument("--layers", type=int, default=15)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--tms-facts", type=int, default=400)
    parser.add_argument("--tms-rule", choices=sorted(TMS_RULES), default="transitive")
    parser.add_argument("--tms-sample", type=int, default=0, help="time this many single retractions, scale up")
    parser.add_argument("--skip-owlrl", action="store_true")
    parser.add_argument("--skip-lubm", action="store_true")
    parser.add_argument("--only-tms", action="store_true", help="only the truth-maintenance rows")
    parser.add_argument("--cypher-lubm", action="store_true", help="also time Brain.load with the Cypher engine")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if not args.skip_lubm and not args.only_tms:
            cli = lubm_cli(args.lubm, work)
            ours = lubm_kgbrain(args.lubm, work)
            peers = {"reasonable + pyoxigraph": lubm_reasonable(args.lubm, work)}
            if not args.skip_owlrl:
                peers["owlrl + pyoxigraph"] = lubm_owlrl(args.lubm)
            print(f"LUBM(1,0): kgbrain {ours['rules']} rules, {ours['firings']} derivations recorded")
            print(f"{'':28}{'load s':>9}{'materialise s':>15}{'triples':>10}{'14 queries s':>14}  counts = published")
            for name, r in [("kgbrain (memory.py)", ours), *peers.items()]:
                ok = sum(r["counts"][q] == n for q, n in PUBLISHED.items())
                print(
                    f"{name:28}{r['load']:9.2f}{r['materialise']:15.2f}{r['tuples']:10d}{r['queries']:14.2f}  {ok}/14"
                )
            ok = sum(cli["counts"][q] == n for q, n in PUBLISHED.items())
            print(
                f"{'kgbrain load (CLI, stored)':28}{cli['load']:9.2f}{'(in load)':>15}{cli['derived']:10d}"
                f"{cli['queries']:14.2f}  {ok}/14   (whole process, cold; CPU {cli['cpu']:.1f} s)"
            )
            closure_only, listing = ours["closure_only"], ours["derivations"]
            print(f"  kgbrain: closure alone {closure_only:.2f} s, building the derivation list {listing:.2f} s")
            print(f"{'query':6}{'published':>10}" + "".join(f"{n[:14]:>16}" for n in ["kgbrain", *peers]))
            for q, n in PUBLISHED.items():
                cells = [ours["counts"][q], *(p["counts"][q] for p in peers.values())]
                print(f"{q:6}{n:10d}" + "".join(f"{c:16d}" for c in cells))
            if args.cypher_lubm:
                cy = lubm_cypher(args.lubm, work)
                ok = sum(cy["counts"][q] == n for q, n in PUBLISHED.items())
                print(f"  kgbrain Brain.load with the Cypher engine: {cy['load+materialise']:.1f} s, counts {ok}/14")
        if not args.only_tms:
            edges = dag(args.layers, args.width)
            mem, nemo = closure_memory(edges), closure_nemo(edges)
            print(f"\nTransitive closure of a {args.layers}x{args.width} layered DAG ({len(edges)} edges)")
            print(f"{'':28}{'seconds':>9}{'tuples':>10}")
            print(f"{'kgbrain (memory.py)':28}{mem['seconds']:9.2f}{mem['tuples']:10d}")
            print(f"{'nemo-python':28}{nemo['seconds']:9.2f}{nemo['tuples']:10d}")
        try:
            t = tms(args.tms_facts, work, args.tms_rule, args.tms_sample)
        except StoreError as exc:  # the Cypher engine's derivation writes can exhaust Kùzu's buffer pool
            print(f"\nTruth maintenance: not measured, the rule engine failed: {exc}")
            return
        print(f"\nTruth maintenance: {t['facts']} part_of facts + the {t['rule']} rule (Kùzu)")
        print(
            f"  build (load + materialise) {t['build']:.2f} s: {t['derived']} derived, {t['derivations']} derivations"
        )
        r = t["recompute"]
        print(f"  {'':46}{'seconds':>9}{'vs recompute':>14}")
        rows = [
            ("recompute without the 1% (fresh load + rules)", r),
            (f"retract 1% one by one (Brain.retract; {t['sampled']} timed)", t["one_by_one"]),
            ("retract 1% at once (Brain.retract_many)", t["batch"]),
        ]
        for name, seconds in rows:
            print(f"  {name:46}{seconds:9.2f}{r / seconds:13.1f}x")
        one, batch, again = t["active"]
        print(
            f"  active facts after: {one} one by one, {batch} at once, {again} recomputed ({t['retracted']} retracted)"
        )


if __name__ == "__main__":
    main()
