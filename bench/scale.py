"""Scale-out: `kgbrain verify` embedded (--workers 1, 2) beside Spark (local[1], local[2]), whole processes, one run;
and rule materialisation of LUBM(1,0) embedded beside Spark.

    nice -n 10 python bench/scale.py [--concepts 200000] [--claims 200000 1000000] [--workdir DIR] [--lubm DIR]
                                     [--skip-verify] [--skip-lubm]

The knowledge base is the taxonomy of research/scaleout.md §4.1: `--concepts` concepts in 16 geometric levels,
each with a primary parent near its position one level up and 0–2 extra parents (98% near the primary, 2%
anywhere above): about 1.87 `is_a` edges per concept (374,696 for 200,000). The claims are `is_a` claims over
random subjects: half a random ancestor (true), a quarter a non-ancestor from an upper level (a near miss), a
quarter a random concept; the gold answer of each is computed here by walking the generated parents (no
kgbrain code). The knowledge base is loaded once with `kgbrain load` (timed, not compared) and reused by later
runs from --workdir.

Every verify row is the command a user runs, in a new process: `kgbrain --db KB verify CLAIMS -o OUT
--closed-world` with `--workers N` or `--engine spark --master local[N]`. Wall time is the whole process (the
Spark rows include starting the JVM and the executors' Python workers); CPU seconds and peak RSS are summed over
the process tree (sampled every 0.2 s: the JVM and Spark's Python workers are descendants of the command), and
CPU is at least what wait4 reports for the command and the children it reaped. The reasoner's persisted mirror
and reachability labels are built first by a short embedded run (the "first" row), so all four rows open the
same caches; a short Spark run then writes the JVM's class archive if this machine has none yet (the first Spark
run anywhere pays that once, kgbrain/scale/jvm.py). Every verdict file must be byte-identical and every verdict
right against the gold answers (checked; the bench stops otherwise). The load average is printed with each row:
the machine may be shared. Each size ends with its 1 -> 2 core wall ratios.

The LUBM rows (`--lubm`, default /work/shared/data/ontologies/lubm; never shipped) load lubm1_0.nt.gz and store
univ-bench.owl's OWL 2 RL rules without running them, then run `kgbrain materialise` (embedded, then
`--engine spark --master local[2]`) on a copy each; the derived facts and derivation records stored must be the
same (checked).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psutil

LEVELS = 16
LUBM = Path("/work/shared/data/ontologies/lubm")
SPARK = {n: ["--engine", "spark", "--master", f"local[{n}]"] for n in (1, 2)}
EXTRA_PARENTS = (0.30, 0.5265, 0.1735)  # P(0, 1, 2 extra parents): mean 0.87, 1.87 edges per concept


# -- data ------------------------------------------------------------------------------------------


def level_sizes(n: int) -> list[int]:
    """Sizes of LEVELS geometric levels summing to n, one root."""
    lo, hi = 1.0, 4.0
    for _ in range(60):  # the ratio whose geometric series of LEVELS terms is n
        r = (lo + hi) / 2
        if (r**LEVELS - 1) / (r - 1) < n:
            lo = r
        else:
            hi = r
    sizes = [max(1, round(r**k)) for k in range(LEVELS)]
    sizes[0] = 1
    sizes[-1] += n - sum(sizes)
    return sizes


def taxonomy(n: int, seed: int = 23) -> list[list[int]]:
    """Each concept's parents (concept 0 is the root)."""
    rng = random.Random(seed)
    sizes = level_sizes(n)
    starts = [sum(sizes[:k]) for k in range(LEVELS)]
    parents: list[list[int]] = [[]]
    for k in range(1, LEVELS):
        up, size, up_start = sizes[k - 1], sizes[k], starts[k - 1]
        for j in range(size):
            pos = min(up - 1, j * up // size)
            mine = [up_start + pos]
            extra = rng.choices((0, 1, 2), EXTRA_PARENTS)[0]
            for _ in range(extra):
                if rng.random() < 0.98:
                    other = up_start + min(up - 1, max(0, pos + rng.randint(-8, 8)))
                else:
                    other = rng.randrange(starts[k])  # anywhere above
                if other not in mine:
                    mine.append(other)
            parents.append(mine)
    return parents


def ancestors(parents: list[list[int]], node: int) -> set[int]:
    seen: set[int] = set()
    todo = list(parents[node])
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(parents[p])
    return seen


def make_claims(parents: list[list[int]], count: int, seed: int = 5) -> list[tuple[int, int, bool]]:
    """(subject, object, gold) per claim: half a random ancestor, a quarter a near miss, a quarter random."""
    rng = random.Random(seed)
    n = len(parents)
    sizes = level_sizes(n)
    starts = [sum(sizes[:k]) for k in range(LEVELS)]
    level = [k for k in range(LEVELS) for _ in range(sizes[k])]
    subjects = [rng.randrange(1, n) for _ in range(count)]
    by_subject: dict[int, list[int]] = {}
    for i, s in enumerate(subjects):
        by_subject.setdefault(s, []).append(i)
    out: list[tuple[int, int, bool]] = [(0, 0, False)] * count
    for s, claims in by_subject.items():
        up = ancestors(parents, s)
        ordered = sorted(up)
        for i in claims:
            kind = i % 4
            if kind < 2:
                o = rng.choice(ordered)
            elif kind == 2:  # a near miss: a concept of an upper level that is not an ancestor
                o = rng.randrange(starts[level[s]])
                for _ in range(20):
                    if o not in up:
                        break
                    o = rng.randrange(starts[level[s]])
            else:
                o = rng.randrange(n)
                while o == s:
                    o = rng.randrange(n)
            out[i] = (s, o, o in up)
    return out


def prepare(work: Path, n: int, count: int) -> tuple[Path, Path, list[bool], dict[str, Any]]:
    """The knowledge base, the claims file and the gold answers under `work` (made once, then reused)."""
    work.mkdir(parents=True, exist_ok=True)
    tag = f"{n}_{count}"
    db, claims, gold_file = work / f"tax{n}.kuzu", work / f"claims{tag}.jsonl", work / f"gold{tag}.json"
    facts = work / f"tax{n}.jsonl"
    info: dict[str, Any] = {}
    if not db.exists():
        t = time.perf_counter()
        parents = taxonomy(n)
        rng = random.Random(1)
        with facts.open("w", encoding="utf-8") as fh:
            for child, ps in enumerate(parents):
                for p in ps:
                    row = {"subject": f"c{child}", "predicate": "is_a", "object": f"c{p}"}
                    fh.write(json.dumps({**row, "confidence": round(rng.uniform(0.6, 1.0), 3)}) + "\n")
        edges = sum(len(ps) for ps in parents)
        print(f"generated {n:,} concepts, {edges:,} is_a edges in {time.perf_counter() - t:.1f} s", flush=True)
        wall, cpu, rss, _ = run(["--db", str(db), "load", str(facts), "--source", "taxonomy", "--trust", "0.9"])
        info["load"] = (edges, wall, cpu, rss)
    if not claims.exists() or not gold_file.exists():
        parents = taxonomy(n)
        t = time.perf_counter()
        made = make_claims(parents, count)
        with claims.open("w", encoding="utf-8") as fh:
            for i, (s, o, _) in enumerate(made):
                fh.write(json.dumps({"id": f"k{i}", "subject": f"c{s}", "predicate": "is_a", "object": f"c{o}"}) + "\n")
        gold_file.write_text(json.dumps([g for *_, g in made]), encoding="utf-8")
        distinct = len({s for s, _, _ in made})
        mean = sum(len(ancestors(parents, s)) for s, _, _ in made[:2000]) / min(2000, len(made))
        print(
            f"claims: {count:,} over {distinct:,} subjects, {sum(g for *_, g in made):,} true, "
            f"mean {mean:.1f} ancestors per subject (first 2,000); gold in {time.perf_counter() - t:.1f} s",
            flush=True,
        )
    return db, claims, json.loads(gold_file.read_text(encoding="utf-8")), info


# -- processes -------------------------------------------------------------------------------------


def run(args: Sequence[str]) -> tuple[float, float, float, str]:
    """`python -m kgbrain ARGS` in a new process: wall s, CPU s and peak RSS MB of its process tree, stdout."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        t = time.perf_counter()
        # Outside any source tree: `python -m` puts the working folder first on the module path.
        proc = subprocess.Popen(
            [sys.executable, "-m", "kgbrain", *args], stdout=stdout, stderr=stderr, cwd=tempfile.gettempdir()
        )
        root = psutil.Process(proc.pid)
        cpu: dict[int, float] = {}
        role: dict[int, str] = {}
        peak = 0.0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            rss = 0.0
            for p in [root, *root.children(recursive=True)]:
                try:
                    times = p.cpu_times()
                    cpu[p.pid] = times.user + times.system
                    # the latest name: spark-submit is a shell script that exec's the JVM
                    role[p.pid] = "command" if p.pid == proc.pid else "jvm" if p.name() == "java" else "workers"
                    rss += p.memory_info().rss
                except psutil.NoSuchProcess:
                    continue
            peak = max(peak, rss / 2**20)
            time.sleep(0.2)
        wall = time.perf_counter() - t
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        text, errors = stdout.read().decode(), stderr.read().decode()
    if code != 0:
        sys.exit(f"kgbrain {' '.join(args)} failed ({code}):\n{errors[-4000:]}")
    reaped = usage.ru_utime + usage.ru_stime
    SPLIT.clear()
    for pid, seconds in cpu.items():
        SPLIT[role[pid]] = SPLIT.get(role[pid], 0.0) + seconds
    return wall, max(sum(cpu.values()), reaped), max(peak, usage.ru_maxrss / 1024), text


SPLIT: dict[str, float] = {}  # the last run's CPU seconds by process: the command, the JVM, worker processes


def split() -> str:
    return ", ".join(f"{k} {v:.1f}" for k, v in sorted(SPLIT.items()))


def digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=12)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def correct(out: Path, gold: list[bool]) -> int:
    right = 0
    with out.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            verdict = json.loads(line)["verdict"]
            right += verdict == ("SUPPORTED" if gold[i] else "REFUTED")
    return right


def load_average() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def show(task: str, engine: str, n: int, wall: float, cpu: float, rss: float, note: str) -> None:
    print(f"| {task} | {engine} | {n:,} | {wall:.1f} | {cpu:.1f} | {rss:,.0f} | {n / wall:,.0f} | {note} |", flush=True)


HEADER = (
    "| task | engine | items | wall s | CPU s | peak RSS MB | items/s (wall) | notes |\n"
    "|---|---|---:|---:|---:|---:|---:|---|"
)


# -- verify ----------------------------------------------------------------------------------------


def bench_verify(work: Path, n: int, count: int) -> None:
    db, claims, gold, info = prepare(work, n, count)
    print(HEADER, flush=True)
    if "load" in info:
        edges, wall, cpu, rss = info["load"]
        show("load", "`kgbrain load` (embedded)", edges, wall, cpu, rss, f"load {load_average()}")
    head = work / "claims_head.jsonl"
    with claims.open(encoding="utf-8") as src:
        head.write_text("".join(line for _, line in zip(range(2000), src, strict=False)), encoding="utf-8")
    out = work / "first.jsonl"
    wall, cpu, rss, _ = run(["--db", str(db), "verify", str(head), "-o", str(out), "--closed-world"])
    show("verify (first: builds the mirror and labels)", "embedded", 2000, wall, cpu, rss, f"load {load_average()}")
    # The first Spark run on a machine writes the JVM's class archive as it exits (kgbrain/scale/jvm.py).
    wall, cpu, rss, _ = run(["--db", str(db), "verify", str(head), "-o", str(out), "--closed-world", *SPARK[1]])
    show("verify (first on Spark: class archive)", "Spark `local[1]`", 2000, wall, cpu, rss, f"load {load_average()}")
    caches = sum(f.stat().st_size for f in db.with_name(db.name + ".reasoning").rglob("*") if f.is_file())
    print(f"reasoner caches on disk (what every executor opens): {caches / 2**20:.0f} MB", flush=True)
    runs = [
        ("embedded `--workers 1`", ["--workers", "1"]),
        ("embedded `--workers 2`", ["--workers", "2"]),
        ("Spark `local[1]`", SPARK[1]),
        ("Spark `local[2]`", SPARK[2]),
    ]
    digests: dict[str, str] = {}
    walls: dict[str, float] = {}
    for name, extra in runs:
        out = work / f"verdicts_{len(digests)}.jsonl"
        before = load_average()
        wall, cpu, rss, _ = run(["--db", str(db), "verify", str(claims), "-o", str(out), "--closed-world", *extra])
        right = correct(out, gold)
        digests[name] = digest(out)
        note = f"{right:,}/{count:,} right; CPU s: {split()}; load {before} → {load_average()}"
        show("verify, proofs", name, count, wall, cpu, rss, note)
        walls[name] = wall
        if right != count:
            sys.exit(f"{name}: {count - right} verdicts disagree with the gold answers")
    if len(set(digests.values())) != 1:
        sys.exit(f"the verdict files differ: {digests}")
    print(f"all {len(digests)} verdict files byte-identical ({next(iter(digests.values()))})", flush=True)
    one, two = [name for name, _ in runs[:2]], [name for name, _ in runs[2:]]
    print(
        f"{count:,} claims, 1 -> 2 cores (wall ratio, 2.0 is linear): embedded {walls[one[0]] / walls[one[1]]:.2f}, "
        f"Spark {walls[two[0]] / walls[two[1]]:.2f}; Spark local[2] / embedded --workers 2: "
        f"{walls[two[1]] / walls[one[1]]:.2f}",
        flush=True,
    )


# -- LUBM materialisation --------------------------------------------------------------------------


def stored_digest(db: Path) -> str:
    """A digest of the derived facts and derivation records stored in `db` (read in a new process)."""
    code = (
        "import hashlib,sys\n"
        "from kgbrain.api import Brain\n"
        "from kgbrain.ingest.export import stored_fact_rows\n"
        "with Brain.open(sys.argv[1], read_only=True) as b:\n"
        "    facts = sorted(repr((r['fact_id'], r['subject'], r['predicate'], r['object'], r['lexical'],"
        " r['polarity'], r['status'], round(r['confidence'], 9), r['trust'])) for r in stored_fact_rows(b.store))\n"
        "    rows = b.store.run_generated('MATCH (d:Derivation) RETURN d.id AS id, d.rule AS rule,"
        " d.fact_id AS fact, d.premises AS premises')\n"
        "    der = sorted(repr((r['id'], r['rule'], r['fact'], tuple(r['premises']))) for r in rows)\n"
        "print(len(facts), len(der), hashlib.blake2b('\\n'.join(facts + der).encode(), digest_size=12).hexdigest())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True, cwd=tempfile.gettempdir()
    )
    return done.stdout.strip()


def bench_lubm(work: Path, lubm: Path) -> None:
    base = work / "lubm_base.kuzu"
    if not base.exists():
        code = (
            "import sys\n"
            "from kgbrain.api import Brain\n"
            "from kgbrain.ingest.ontology import read_ontology\n"
            "from kgbrain.reasoning.rules.rulebase import save_program\n"
            "from kgbrain.ruleset import Program\n"
            "from pathlib import Path\n"
            "with Brain.open(sys.argv[1]) as b:\n"
            "    b.load([Path(sys.argv[2]) / 'lubm1_0.nt.gz'])\n"
            "    save_program(b.store, Program(tuple(read_ontology(Path(sys.argv[2]) / 'univ-bench.owl').rules)))\n"
        )
        building = work / "lubm_building.kuzu"
        for stale in work.glob("lubm_building.kuzu*"):
            stale.unlink()
        subprocess.run([sys.executable, "-c", code, str(building), str(lubm)], check=True, cwd=tempfile.gettempdir())
        building.replace(base)  # only a finished knowledge base is reused by later runs
    print(HEADER, flush=True)
    found = {}
    for name, extra in (("embedded", []), ("Spark `local[2]`", SPARK[2])):
        db = work / "lubm_run.kuzu"
        for stale in work.glob("lubm_run.kuzu*"):
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink()
        shutil.copy2(base, db)  # the database file (a closed Ladybug database is one file)
        before = load_average()
        wall, cpu, rss, text = run(["--db", str(db), "materialise", *extra])
        found[name] = stored_digest(db)
        derived = int(found[name].split()[0])
        show(
            "materialise LUBM(1,0)", name, derived, wall, cpu, rss, f"{text.strip()}; load {before} → {load_average()}"
        )
    if len(set(found.values())) != 1:
        sys.exit(f"the stored closures differ: {found}")
    print(f"stored facts and derivation records identical ({next(iter(found.values()))})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concepts", type=int, default=200_000)
    parser.add_argument("--claims", type=int, nargs="+", default=[200_000], help="claim set sizes, each run in turn")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "kgbrain-bench-scale")
    parser.add_argument("--lubm", type=Path, default=LUBM)
    parser.add_argument("--skip-verify", action="store_true")
    parser.add_argument("--skip-lubm", action="store_true")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {load_average()}, nice {os.nice(0)}", flush=True)
    if not args.skip_verify:
        for count in args.claims:
            bench_verify(args.workdir, args.concepts, count)
    if not args.skip_lubm:
        bench_lubm(args.workdir, args.lubm)


if __name__ == "__main__":
    main()
