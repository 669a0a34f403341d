"""Record every verdict (with its proof) on fixed claim sets, or compare against a recording.

    python bench/verdict_snapshot.py record DIR   # writes DIR/<set>.jsonl
    python bench/verdict_snapshot.py compare DIR  # verifies again and diffs line by line

A speed change to verification must not change one byte of a verdict. The claim sets: the claim fixtures
of the test suite over the knowledge bases the tests load, every (subject, predicate, object) over the
concepts of each small fixture knowledge base (both polarities, plus unknown names and literal values),
and claims drawn from Gene Ontology and LUBM(1,0) (their facts, hierarchy pairs and random pairs).
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from kgbrain.api import Brain, demo_files

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures"
ONTO = ROOT.parent / "shared" / "data" / "ontologies"
if not ONTO.exists():
    ONTO = Path("/work/shared/data/ontologies")
PREDICATES = ("is_a", "instance_of", "has_property", "can", "part_of", "causes", "prevents", "related_to")


def kbs() -> dict[str, list[Path]]:
    sets = {
        "demo": demo_files(),
        "penguins": [FIX / "reasoning" / "penguins.jsonl"],
        "cycles": [FIX / "reasoning" / "cycles.jsonl"],
        "smoking": [FIX / "reasoning" / "smoking.jsonl"],
        "penguins_kb": [FIX / "claims" / "penguins_kb.jsonl"],
        "zoo": [FIX / "ontology" / "zoo.ttl"],
    }
    for f in sorted((FIX / "conflicts").glob("*.jsonl")):
        sets[f"conflicts_{f.stem}"] = [f]
    return sets


def exhaustive_claims(brain: Brain, limit: int = 30_000) -> Iterator[dict[str, object]]:
    g = brain.reasoner.graph()
    names = sorted(g.names)
    preds = sorted(set(g.pred_names) | set(PREDICATES))
    rng = random.Random(5)
    rows = [(s, p, o) for s in names for p in preds for o in names]
    if len(rows) > limit:
        rows = rng.sample(rows, limit)
    for n, (s, p, o) in enumerate(rows, start=1):
        yield {"id": f"x{n}", "subject": s, "predicate": p, "object": o}
        if n % 3 == 0:
            yield {"id": f"x{n}n", "subject": s, "predicate": p, "object": o, "polarity": False}
    for i, s in enumerate(names[:50]):
        yield {"id": f"u{i}", "subject": s, "predicate": "is_a", "object": f"unknown_thing_{i}"}
        yield {"id": f"v{i}", "subject": f"{s}x", "predicate": "has_property", "object": s}
        yield {"id": f"w{i}", "subject": s, "predicate": "has_property", "value": 42}


def ontology_claims(brain: Brain, count: int, seed: int) -> list[dict[str, object]]:
    g = brain.reasoner.graph()
    h = brain.reasoner.hierarchy()
    rng = random.Random(seed)
    claims: list[dict[str, object]] = []
    n = len(g.subject)
    for i in range(count):
        kind = i % 4
        if kind == 0:  # a stored fact
            k = rng.randrange(n)
            s, p, o = g.names[int(g.subject[k])], g.pred_names[int(g.predicate[k])], g.names[int(g.object[k])]
        elif kind == 1:  # an ancestor through the hierarchy
            s = g.names[int(g.subject[rng.randrange(n)])]
            up = sorted(h.ancestors(s))
            p, o = "is_a", (rng.choice(up) if up else s)
        elif kind == 2:  # a random pair
            s, o = g.names[rng.randrange(len(g.names))], g.names[rng.randrange(len(g.names))]
            p = rng.choice(g.pred_names)
        else:  # an inherited property of a random concept
            k = rng.randrange(n)
            s, p = g.names[int(g.subject[rng.randrange(n)])], g.pred_names[int(g.predicate[k])]
            o = g.names[int(g.object[k])]
        claims.append({"id": f"o{i}", "subject": s, "predicate": p, "object": o, "polarity": rng.random() > 0.1})
    return claims


def write(path: Path, rows: list[dict[str, object]]) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return path


def run(out: Path, work: Path, *, record: bool) -> None:
    # Concept ids are numbered in the order Kùzu returns them, which can differ between two loads of the
    # same files, and shortest chains break ties by that order: so a recording keeps its databases and
    # claims (in DIR/db), and a comparison verifies them again after dropping the persisted mirrors.
    out.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)
    sets: list[tuple[str, list[Path], int]] = [(name, files, 0) for name, files in kbs().items()]
    sets += [
        ("go", [ONTO / "go" / "go_2019-01-29_isa_rel.nt.gz"], 20_000),
        ("lubm", [ONTO / "lubm" / "univ-bench.owl", ONTO / "lubm" / "lubm1_0.nt.gz"], 20_000),
    ]
    for name, files, count in sets:
        db = work / f"{name}.kuzu"
        claims = work / f"{name}-claims.jsonl"
        if record:
            with Brain.open(db) as brain:
                brain.load(files)
        else:
            shutil.rmtree(work / f"{name}.kuzu.reasoning", ignore_errors=True)
        with Brain.open(db, read_only=True) as brain:
            if record:
                write(claims, ontology_claims(brain, count, 3) if count else list(exhaustive_claims(brain)))
            brain.verify_file(claims, out / f"{name}.jsonl")
            if count:
                continue
            brain.verify_file(claims, out / f"{name}-cwa.jsonl", closed_world=True, min_confidence=0.7)
            for fixture in sorted((FIX / "claims").glob("*")):
                if fixture.suffix in (".csv", ".tsv") or fixture.name in ("mixed.jsonl",):
                    brain.verify_file(fixture, out / f"{name}-{fixture.name}.jsonl")
        print(name, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("dir", type=Path)
    args = ap.parse_args()
    if args.action == "record":
        run(args.dir, args.dir / "db", record=True)
        return
    with tempfile.TemporaryDirectory(prefix="kgbrain-snapshot-") as tmp:
        fresh = Path(tmp)
        run(fresh, args.dir / "db", record=False)
        bad = 0
        for old in sorted(args.dir.glob("*.jsonl")):
            new = fresh / old.name
            a, b = old.read_text(encoding="utf-8"), new.read_text(encoding="utf-8")
            if a != b:
                bad += 1
                diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), lineterm="", n=0))
                print(f"DIFFERS: {old.name} ({len(diff)} diff lines)")
                print("\n".join(diff[:12]))
            else:
                print(f"same: {old.name} ({a.count(chr(10))} verdicts)")
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
