"""Contradiction benchmark: full-scan time on a large KB with injected conflicts, and per-load overhead.

Builds (on disk, detection off) a knowledge base of N facts (default 1,000,000) that is consistent by
construction: an is_a tree with disjoint sibling branches, additive `likes` and `tag` facts, one value per
concept of the functional attribute `size`, and `causes`/`prevents` on different pairs. Then 1% of the
facts are injected so that each makes exactly one conflict: opposite polarity, source conflict (trust gap),
conflicting value, stale value (later observation), opposite relation, disjointness violation through is_a.
It times the full scan (detection, then recording with resolution), checks found against injected (every
injected conflict found, nothing else), and times loads of fresh files with and without the load hook.

    python bench/conflicts.py [--facts 1000000] [--rate 0.01]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kgbrain.api import Brain  # noqa: E402
from kgbrain.knowledge import Fact, Literal  # noqa: E402
from kgbrain.reasoning.tms import contradictions  # noqa: E402
from kgbrain.reasoning.tms import resolution as truth  # noqa: E402

BRANCHES = 10  # is_a tree fan-out; the children of the root are paired as disjoint classes
BASE_TRUST = 0.9


def fid(row: dict[str, Any]) -> str:
    """The fact id kgbrain gives a row (concept names here are their ids)."""
    target: dict[str, Any] = (
        {"object": row["object"]} if "object" in row else {"value": Literal.from_python(row["value"])}
    )
    return Fact(
        row["subject"], row["predicate"], polarity=row.get("polarity", True), source=row["source"], **target
    ).fact_id


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    return path


class Generator:
    """The consistent base and the injected conflicts, with the fact keys each injection must produce."""

    def __init__(self, n_facts: int, rate: float, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.n_inject = int(n_facts * rate)
        self.n_base = n_facts - self.n_inject
        self.n_concepts = max(1000, self.n_base // 10)
        self.expected: Counter[str] = Counter()
        self.keys: set[str] = set()  # the key of every conflict the injections must produce

    def parent(self, i: int) -> int:
        return (i - 1) // BRANCHES

    def top(self, i: int) -> int:
        while i > BRANCHES:
            i = self.parent(i)
        return i

    def base(self) -> tuple[list[dict[str, Any]], dict[str, list[Any]]]:
        rng, n = self.rng, self.n_concepts
        rows: list[dict[str, Any]] = [{"subject": "size", "predicate": "property_type", "value": "functional"}]

        def fact(s: str, p: str, **kw: Any) -> None:
            rows.append({"subject": s, "predicate": p, "source": "bench/base", "trust": BASE_TRUST, **kw})

        for i in range(1, n):
            fact(f"c{i}", "is_a", object=f"c{self.parent(i)}")
        for k in range(1, BRANCHES, 2):
            fact(f"c{k}", "disjoint_with", object=f"c{k + 1}")
        for i in range(n):
            fact(f"c{i}", "size", value=i % 1000, observed_at="2020-01-01")
        budget = self.n_base - len(rows) + 1
        likes: set[tuple[int, int]] = set()
        causes: set[tuple[int, int]] = set()
        prevents: set[tuple[int, int]] = set()
        shares = {"likes": 0.4, "tag": 0.2, "causes": 0.2}
        while len(likes) < budget * shares["likes"]:
            likes.add((rng.randrange(n), rng.randrange(n)))
        while len(causes) < budget * shares["causes"]:
            causes.add((rng.randrange(n), rng.randrange(n)))
        n_prevents = budget - len(likes) - len(causes) - int(budget * shares["tag"])
        while len(prevents) < n_prevents:
            pair = (rng.randrange(n), rng.randrange(n))
            if pair not in causes:
                prevents.add(pair)
        for s, o in sorted(likes):
            fact(f"c{s}", "likes", object=f"c{o}")
        for s, o in sorted(causes):
            fact(f"c{s}", "causes", object=f"c{o}")
        for s, o in sorted(prevents):
            fact(f"c{s}", "prevents", object=f"c{o}")
        for j in range(budget - len(likes) - len(causes) - len(prevents)):
            fact(f"c{j % n}", "tag", value=f"t{j}")
        return rows, {"likes": sorted(likes), "causes": sorted(causes)}

    def inject(self, pools: dict[str, list[Any]], count: int, tag: str) -> list[dict[str, Any]]:
        """`count` facts, each making exactly one conflict with the base."""
        rng = self.rng
        shares = [
            ("opposite_polarity", 0.30),
            ("source_conflict", 0.20),
            ("conflicting_value", 0.20),
            ("stale_evidence", 0.20),
            ("relation_conflict", 0.09),
        ]
        plan = {k: int(count * s) for k, s in shares}
        plan["disjoint"] = count - sum(plan.values())
        likes = rng.sample(pools["likes"], plan["opposite_polarity"] + plan["source_conflict"])
        causes = rng.sample(pools["causes"], plan["relation_conflict"])
        subjects = rng.sample(range(self.n_concepts), plan["conflicting_value"] + plan["stale_evidence"])
        rows: list[dict[str, Any]] = []
        src = f"bench/{tag}"

        def add(row: dict[str, Any], partner: dict[str, Any]) -> None:
            rows.append(row)
            self.keys.add(",".join(sorted((fid(row), fid(partner)))))

        def base(subject: str, predicate: str, **target: Any) -> dict[str, Any]:
            return {"subject": subject, "predicate": predicate, "source": "bench/base", **target}

        for k, (s, o) in enumerate(likes):
            weak = k >= plan["opposite_polarity"]  # the rest are negations from a much less trusted source
            row = {"subject": f"c{s}", "predicate": "likes", "object": f"c{o}", "polarity": False}
            row |= {"source": f"{src}-forum", "trust": 0.2} if weak else {"source": src, "trust": 0.8}
            add(row, base(f"c{s}", "likes", object=f"c{o}"))
        for k, s in enumerate(subjects):
            stale = k >= plan["conflicting_value"]  # a later observation rather than a rival one
            row = {"subject": f"c{s}", "predicate": "size", "value": s % 1000 + 1 + stale, "source": src, "trust": 0.85}
            row["observed_at"] = "2024-01-01" if stale else "2020-01-01"
            add(row, base(f"c{s}", "size", value=s % 1000))
        for s, o in causes:
            row = {"subject": f"c{s}", "predicate": "prevents", "object": f"c{o}", "source": src, "trust": 0.8}
            add(row, base(f"c{s}", "causes", object=f"c{o}"))
        leaves = [i for i in range(self.n_concepts // BRANCHES + 1, self.n_concepts) if self.top(i) % 2 == 1]
        for x in rng.sample(leaves, plan["disjoint"]):
            top = self.top(x)
            rows.append({"subject": f"c{x}", "predicate": "is_a", "object": f"c{top + 1}", "source": src, "trust": 0.8})
            self.keys.add(f"{fid(base(f'c{top}', 'disjoint_with', object=f'c{top + 1}'))}@c{x}")
        self.expected.update({k: v for k, v in plan.items() if k != "disjoint"})
        self.expected["relation_conflict"] += plan["disjoint"]
        return rows

    def fresh(self, count: int, tag: str) -> list[dict[str, Any]]:
        """New additive facts for a load-overhead run (no conflicts)."""
        n = self.n_concepts
        return [
            {
                "subject": f"c{self.rng.randrange(n)}",
                "predicate": "knows",
                "object": f"c{self.rng.randrange(n)}",
                "source": f"bench/{tag}",
                "trust": 0.7,
            }
            for _ in range(count)
        ]


CPU: dict[str, float] = {}


def _record_only(brain: Brain, report: Any) -> None:
    """The contradiction hook without its report of deactivated facts (this bench times detection alone)."""
    truth.record_on_load(brain.store, report.added)


def timed(fn: Any, label: str = "") -> tuple[float, Any]:
    """Wall time of `fn()` (and its CPU time under `label`: the machine may be shared)."""
    start, cpu = time.perf_counter(), time.process_time()
    out = fn()
    CPU[label] = time.process_time() - cpu
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--facts", type=int, default=1_000_000)
    parser.add_argument("--rate", type=float, default=0.01, help="share of injected conflicting facts")
    args = parser.parse_args()
    gen = Generator(args.facts, args.rate)
    with tempfile.TemporaryDirectory(prefix="kgbrain-conflicts-") as tmp:
        folder = Path(tmp)
        base, pools = gen.base()
        injected = gen.inject(pools, gen.n_inject, "inject")
        # One file per value type: at this size, kgbrain's Arrow fast path stored the integers of a JSONL
        # file whose `value` column also holds text as text (measured; reported), which would hide every
        # functional-value conflict. Declarations first, text-valued facts apart.
        declarations = [r for r in base if r["predicate"] == "property_type"]
        texts = [r for r in base if isinstance(r.get("value"), str) and r["predicate"] != "property_type"]
        rest = [r for r in base if r["predicate"] != "property_type" and not isinstance(r.get("value"), str)]
        base_files = [
            write(folder / "declarations.jsonl", declarations),
            write(folder / "base.jsonl", rest),
            write(folder / "texts.jsonl", texts),
        ]
        inject_file = write(folder / "inject.jsonl", injected)
        with Brain.open(folder / "kb.kuzu") as brain:
            brain.load_hooks.clear()  # build without detection: the full scan must find everything
            t_build, _ = timed(lambda: brain.load([*base_files, inject_file]), "build")
            total = brain.stats().facts
            t_detect, found = timed(lambda: contradictions.scan(brain.store), "detect")
            t_scan, result = timed(lambda: truth.scan_and_record(brain.store), "scan")
            t_rescan, again = timed(lambda: truth.scan_and_record(brain.store), "rescan")
            by_type = Counter(c.type.value for c in found)
            rows = [
                ("build (load, detection off)", t_build, "build", f"{total:,} facts"),
                ("full scan: detect", t_detect, "detect", f"{len(found):,} conflicts"),
                ("full scan: detect + record + resolve", t_scan, "scan", f"{len(result.recorded):,} recorded"),
                ("re-scan (idempotent)", t_rescan, "rescan", f"{len(again.recorded):,} new"),
            ]
            print(f"\nkgbrain contradiction benchmark: {total:,} facts, {len(injected):,} injected conflicting facts\n")
            print(f"{'step':<40} {'wall':>8} {'cpu':>8}  result")
            for name, t, label, res in rows:
                print(f"{name:<40} {t:>7.1f}s {CPU[label]:>7.1f}s  {res}")
            print(f"\n{'conflict type':<22} {'injected':>9} {'found':>9}")
            for kind in sorted(set(gen.expected) | set(by_type)):
                print(f"{kind:<22} {gen.expected[kind]:>9,} {by_type[kind]:>9,}")
            keys = {c.key for c in found}
            missed, spurious = len(gen.keys - keys), len(keys - gen.keys)  # by the exact facts involved
            injected_total = sum(gen.expected.values())
            print(f"{'total':<22} {injected_total:>9,} {len(found):>9,}   missed {missed}, spurious {spurious}")

            print(f"\n{'load into the KB':<40} {'hook off':>10} {'hook on':>10} {'overhead':>10}")
            hook = brain.load_hooks
            for size in (1_000, 10_000, 100_000):
                off = write(folder / f"off{size}.jsonl", gen.fresh(size, f"off{size}"))
                on = write(
                    folder / f"on{size}.jsonl",
                    gen.fresh(size, f"on{size}") + gen.inject(pools, size // 100, f"on{size}"),
                )
                hook.clear()
                t_off, _ = timed(lambda off=off: brain.load([off]))
                hook.append(_record_only)
                t_on, _ = timed(lambda on=on: brain.load([on]))
                hook.clear()
                label = f"{size:,} facts (1% conflicting when on)"
                print(f"{label:<40} {t_off:>9.2f}s {t_on:>9.2f}s {t_on - t_off:>+9.2f}s")


if __name__ == "__main__":
    main()
