# ruff: noqa: E501  (literal test inputs: XML and Turtle documents on one line each)
"""Fault and bad-input campaign (issue 13): real `kgbrain` processes, killed, starved and fed bad bytes.

Prints two tables. Faults: SIGKILLs of every write command at observed phases (tests/ingest/kill_points.py: as
Kùzu opens the file, once the working copy is open, as its log is written, right after it is complete, right
after the swap, as the swapped file is reopened) and of `verify` half-way through its output; a full disk (a
tmpfs mounted in a private namespace with `unshare -rm`, sized from "no room for the copy" to "just enough");
read-only media, a read-only database file, `/dev/full` as output, a corrupt `<db>.reasoning/` cache, bad
environment variables. A fault is survived when the knowledge base's export is what it was before the command
or what the command gives undisturbed, running the command again completes it (or refuses it as already done
with one `Error:` line), no working copy is left, and every failure is one `Error:` line with exit 1 or 2.

Inputs: malformed files in every format (seeds mutated with a fixed random seed, plus hand-made breakages),
injection attempts, huge, deep and entity-bomb inputs, long questions. An input is handled cleanly when the
command exits 0, or 2 (1 for a resource limit) with one `Error:` line, within the time budget, and a refused
load leaves the export unchanged.

    python bench/faults.py [--reps 2] [--mutations 12] [--only faults|inputs] [--timeout 120]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import faults_service  # noqa: E402  (bench/ is on the path when this runs as a script)

from kgbrain.api import Brain  # noqa: E402
from kgbrain.store.kuzu_store import WORK_SUFFIX  # noqa: E402
from tests.ingest.kill_points import PHASES, kill_at, normalised, normalised_export  # noqa: E402

PY = sys.executable


def kg(db: Path, *args: str) -> list[str]:
    return [PY, "-m", "kgbrain", "--db", str(db), *args]


@dataclass
class Tally:
    group: str
    case: str
    tried: int = 0
    ok: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, ok: bool, what: str) -> None:
        self.tried += 1
        self.ok += ok
        if not ok:
            self.failures.append(what)


@dataclass
class Run:
    code: int
    out: str
    err: str
    seconds: float


def run(command: list[str], timeout: float, **kw: object) -> Run:
    started = time.monotonic()
    pipes: dict[str, object] = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kw}
    try:
        done = subprocess.run(command, text=True, errors="replace", timeout=timeout, check=False, **pipes)  # type: ignore[call-overload]
    except subprocess.TimeoutExpired:
        return Run(-999, "", f"timed out after {timeout:g} s", time.monotonic() - started)
    return Run(done.returncode, done.stdout or "", done.stderr or "", time.monotonic() - started)


def one_error(r: Run, codes: tuple[int, ...] = (1, 2)) -> bool:
    lines = r.err.splitlines()
    return r.code in codes and len(lines) == 1 and lines[0].startswith("Error: ")


def clean(r: Run, codes: tuple[int, ...] = (1, 2)) -> bool:
    """Exit 0 (stderr may hold notes, never a traceback), or one `Error:` line with an expected code."""
    return (r.code == 0 and "Traceback" not in r.err) or one_error(r, codes)


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def fresh(path: Path) -> None:
    for old in path.parent.glob(path.name + "*"):
        shutil.rmtree(old) if old.is_dir() else old.unlink()


# -- the knowledge bases the faults work on ---------------------------------------------------------------------


@dataclass
class Write:
    """A write command, the KB it starts from, and the exports before it and after it (run undisturbed)."""

    name: str
    base: Path
    args: list[str]
    before: list[str]
    after: list[str]
    refused_again: bool = False  # a second run is refused once it has happened (retract)


def build_writes(root: Path, timeout: float) -> list[Write]:
    base = [{"subject": f"b{i}", "predicate": "is_a", "object": f"k{i % 300}"} for i in range(2_000)]
    base += [{"subject": f"k{i}", "predicate": "label", "value": f"K {i}", "lang": "en"} for i in range(300)]
    base += [{"subject": "b1", "predicate": "mass", "value": 3, "unit": "kg", "source": "s1"}]
    new = [
        {"subject": f"n{i}", "predicate": "is_a" if i % 3 else "part_of", "object": f"k{i % 700}"}
        for i in range(25_000)
    ]
    new += [{"subject": f"n{i}", "predicate": "label", "value": f"N {i}", "lang": "en"} for i in range(0, 8_000, 10)]
    new += [{"subject": "b1", "predicate": "is_a", "object": "k1", "polarity": False, "source": "other"}]
    new += [{"subject": "b1", "predicate": "mass", "value": 5, "unit": "kg", "source": "s2"}]
    kb = root / "base.kuzu"
    with Brain.open(kb) as brain:
        brain.load([write_jsonl(root / "base.jsonl", base)])
    facts = write_jsonl(root / "new.jsonl", new)
    onto = root / "new.ttl"
    onto.write_text(
        "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
        + "".join(f'ex:C{i} rdfs:subClassOf ex:C{i // 3} ; rdfs:label "C {i}"@en .\n' for i in range(1, 6_000)),
        encoding="utf-8",
    )
    chain = root / "chain.kuzu"
    rules = root / "anc.dl"
    rules.write_text("[a1] anc(X, Y) :- parent(X, Y).\n[a2] anc(X, Z) :- parent(X, Y), anc(Y, Z).\n", encoding="utf-8")
    with Brain.open(chain) as brain:
        brain.load(
            [
                write_jsonl(
                    root / "chain.jsonl",
                    [{"subject": f"p{i}", "predicate": "parent", "object": f"p{i + 1}"} for i in range(40)],
                )
            ]
        )

    def after(name: str, start: Path, args: list[str]) -> tuple[Path, list[str]]:
        db = root / f"{name}.kuzu"
        shutil.copy(start, db)
        r = run(kg(db, *args), timeout)
        if r.code != 0:
            raise SystemExit(f"{name}: {r.err}")
        return db, normalised_export(db)

    loaded, loaded_export = after("loaded", kb, ["load", str(facts)])
    writes = [
        Write("load facts (25k into 2k)", kb, ["load", str(facts)], normalised_export(kb), loaded_export),
        Write(
            "load ontology (.ttl, 6k classes)",
            kb,
            ["load", str(onto)],
            normalised_export(kb),
            after("onto", kb, ["load", str(onto)])[1],
        ),
    ]
    derived, derived_export = after("derived", chain, ["load", str(rules)])
    writes.append(
        Write("load rules.dl (40-link chain)", chain, ["load", str(rules)], normalised_export(chain), derived_export)
    )
    with Brain.open(derived, read_only=True) as brain:
        [target] = [f.fact_id for f in brain.facts("p20").facts if f.predicate == "parent" and f.subject == "p20"]
    writes.append(
        Write(
            "retract (with withdrawals)",
            derived,
            ["retract", target],
            derived_export,
            after("retracted", derived, ["retract", target])[1],
            True,
        )
    )
    listing = json.loads(run(kg(loaded, "conflicts", "--json"), timeout).out)
    conflict = listing[0] if isinstance(listing, list) else listing["conflicts"][0]
    keep = conflict["facts"][0]["fact_id"] if isinstance(conflict["facts"][0], dict) else conflict["facts"][0]
    resolve = ["resolve", conflict["conflict_id"] if "conflict_id" in conflict else conflict["id"], "--keep", keep]
    # the same decision again is a no-op (exit 0, the KB unchanged): a user who cannot tell whether a killed resolve
    # happened just runs it again
    writes.append(Write("resolve", loaded, resolve, loaded_export, after("resolved", loaded, resolve)[1]))
    writes.append(
        Write(
            "conflicts --scan",
            loaded,
            ["conflicts", "--scan"],
            loaded_export,
            after("scanned", loaded, ["conflicts", "--scan"])[1],
        )
    )
    return writes


# -- faults ------------------------------------------------------------------------------------------------------


def kills(writes: list[Write], root: Path, reps: int, timeout: float) -> list[Tally]:
    tallies = []
    for write in writes:
        tally = Tally("SIGKILL", write.name)
        for phase in PHASES:
            for rep in range(reps):
                db = root / "k" / "kb.kuzu"
                db.parent.mkdir(exist_ok=True)
                fresh(db)
                shutil.copy(write.base, db)
                command = kg(db, *write.args)
                kill = kill_at(command, db, phase)
                if kill.ended_first:
                    continue  # a phase this write does not have (or too short to see): not a kill
                what = f"{kill} rep {rep}"
                try:
                    state = normalised_export(db)
                except Exception as exc:  # the campaign records whatever goes wrong
                    tally.add(False, f"{what}: export failed: {exc}")
                    continue
                if state not in (write.before, write.after):
                    tally.add(False, f"{what}: neither before nor after")
                    continue
                again = run(command, timeout)
                # (once it has happened, a retract run again is refused in one line)
                rerun_ok = one_error(again, (2,)) if state == write.after and write.refused_again else again.code == 0
                if not rerun_ok:
                    tally.add(False, f"{what}: rerun exit {again.code}: {again.err.strip()[:200]}")
                elif normalised_export(db) != write.after:
                    tally.add(False, f"{what}: rerun did not give the KB after")
                elif list(db.parent.glob(db.name + WORK_SUFFIX + "*")):
                    tally.add(False, f"{what}: working copy left")
                else:
                    tally.add(True, what)
        tallies.append(tally)
    return tallies


def verify_kills(root: Path, reps: int, timeout: float) -> Tally:
    """`verify -o` killed as its output grows; `--resume` completes it to the verdicts of an undisturbed run."""
    tally = Tally("SIGKILL", "verify -o (then --resume)")
    db = root / "loaded.kuzu"
    claims = write_jsonl(
        root / "claims.jsonl",
        [
            {"id": f"c{i}", "subject": f"n{i}", "predicate": "is_a", "object": f"k{(i + i % 2) % 700}"}
            for i in range(20_000)
        ],
    )
    reference = root / "reference.jsonl"
    r = run(kg(db, "verify", str(claims), "-o", str(reference)), timeout)
    assert r.code == 0, r.err
    before = normalised_export(db)
    for fraction in (0.0, 0.1, 0.5, 0.9):
        for _ in range(reps):
            out = root / "verdicts.jsonl"
            for old in root.glob("verdicts.jsonl*"):
                old.unlink()
            partial = root / "verdicts.jsonl.partial"  # the run writes here; only a finished run renames it to out
            want = fraction * reference.stat().st_size
            with subprocess.Popen(
                kg(db, "verify", str(claims), "-o", str(out), "--batch-size", "64"),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ) as child:
                while child.poll() is None and not (partial.exists() and partial.stat().st_size > want):
                    time.sleep(0.001)
                ended = child.poll() is not None
                child.kill()
                child.wait()
            if ended:
                continue
            untorn = not out.exists()  # a killed run never leaves a (torn) output file
            resumed = run(kg(db, "verify", str(claims), "-o", str(out), "--resume"), timeout)
            what = f"killed at {fraction:.0%} of the output"
            same = resumed.code == 0 and out.read_bytes() == reference.read_bytes()
            ok = untorn and same and normalised_export(db) == before
            tally.add(ok, f"{what}: output left {not untorn}, resume exit {resumed.code} {resumed.err.strip()[:120]}")
    return tally


def in_namespace(script: str, timeout: float) -> Run:
    """Run a shell script as root of a private user and mount namespace (tmpfs and remounts without privileges)."""
    return run(["unshare", "-rm", "sh", "-c", script], timeout)


def full_disk(writes: list[Write], root: Path, timeout: float) -> Tally:
    """Each write on a KB in a tmpfs with no room left at all, and with room for 1.05 to 3.5 times the KB."""
    tally = Tally("full disk", "writes on a small tmpfs")
    mount = root / "small"
    mount.mkdir(exist_ok=True)
    for write in writes:
        size = write.base.stat().st_size
        for room in (0.0, 1.05, 1.5, 2.0, 2.5, 3.5):
            fs = int(size * (room or 2.0)) + 64 * 1024
            out = root / "disk-export.jsonl"
            out.unlink(missing_ok=True)
            args = " ".join(f"'{a}'" for a in write.args)
            kdb = f"{PY} -m kgbrain --db {mount}/kb.kuzu"
            fill = f"head -c {fs} /dev/zero > {mount}/filler 2>/dev/null; " if not room else ""
            script = (
                f"mount -t tmpfs -o size={fs} tmpfs {mount} && cp {write.base} {mount}/kb.kuzu && {fill}"
                f"{kdb} {args} > {root}/disk.out 2> {root}/disk.err; echo $? > {root}/disk.code; "
                f"ls -a {mount} > {root}/disk.ls; rm -f {mount}/filler; {kdb} export -o {out}"
            )
            r = in_namespace(script, timeout)
            room_text = "no room left" if not room else f"room for {room:g}x the KB"
            what = f"{write.name}, {room_text} ({size / 2**20:.1f} MB KB)"
            try:
                code = int((root / "disk.code").read_text())
                err = (root / "disk.err").read_text()
            except (OSError, ValueError):
                tally.add(False, f"{what}: the namespace script failed: {r.err.strip()[:200]}")
                continue
            finally:
                (root / "disk.code").unlink(missing_ok=True)
            outcome = Run(code, "", err, 0)
            leftovers = [n for n in (root / "disk.ls").read_text().split() if WORK_SUFFIX in n]
            state = normalised(out.read_text(encoding="utf-8")) if out.exists() else None
            expected = write.after if code == 0 else write.before
            ok = clean(outcome, (1,)) and state == expected and not leftovers
            tally.add(
                ok,
                f"{what}: exit {code} {err.strip()[:160]}; export {'ok' if state == expected else 'DIFFERS'}; "
                f"leftovers {leftovers}",
            )
    return tally


def read_only(writes: list[Write], root: Path, timeout: float) -> list[Tally]:
    """A read-only mount and a read-only database file (bind-mounted): writes refused in one line, reads work."""
    media, file_ro = (
        Tally("read-only", "KB on a read-only mount"),
        Tally("read-only", "read-only KB file, writable folder"),
    )
    mount = root / "ro"
    mount.mkdir(exist_ok=True)
    loaded = root / "loaded.kuzu"
    claims = write_jsonl(root / "c3.jsonl", [{"id": "c", "subject": "n1", "predicate": "is_a", "object": "k1"}])
    reads = [
        ["stats"],
        ["facts", "b1"],
        ["ask", "What is b1?"],
        ["export", "-o", str(root / "ro-export.jsonl")],
        ["verify", str(claims), "-o", str(root / "ro-v.jsonl")],
        ["conflicts"],
    ]
    for tally, setup in (
        (media, f"mount -t tmpfs tmpfs {mount} && cp {loaded} {mount}/kb.kuzu && mount -o remount,ro {mount}"),
        (
            file_ro,
            f"mount -t tmpfs tmpfs {mount} && cp {loaded} {mount}/kb.kuzu && touch {mount}/kb.kuzu.lock && mount --bind {mount}/kb.kuzu {mount}/kb.kuzu && mount -o remount,ro,bind {mount}/kb.kuzu",
        ),
    ):
        commands = [(w.name, w.args, True) for w in writes] + [(" ".join(a[:1]), a, False) for a in reads]
        for name, args, is_write in commands:
            quoted = " ".join(f"'{a}'" for a in args)
            script = f"{setup} && {PY} -m kgbrain --db {mount}/kb.kuzu {quoted} > /dev/null 2> {root}/ro.err; echo $? > {root}/ro.code; ls -a {mount} > {root}/ro.ls"
            r = in_namespace(script, timeout)
            try:
                code = int((root / "ro.code").read_text())
            except (OSError, ValueError):
                tally.add(False, f"{name}: namespace failed {r.err[:200]}")
                continue
            finally:
                (root / "ro.code").unlink(missing_ok=True)
            outcome = Run(code, "", (root / "ro.err").read_text(), 0)
            leftovers = [n for n in (root / "ro.ls").read_text().split() if WORK_SUFFIX in n]
            if is_write:
                ok = one_error(outcome, (1, 2)) and not leftovers
            else:
                ok = code == 0 and "Traceback" not in outcome.err
            tally.add(ok, f"{name}: exit {code} {outcome.err.strip()[:160]} leftovers {leftovers}")
    return [media, file_ro]


def dev_full(root: Path, timeout: float) -> Tally:
    tally = Tally("/dev/full", "outputs to a full device")
    db = root / "loaded.kuzu"
    claims = write_jsonl(root / "c3.jsonl", [{"id": "c", "subject": "n1", "predicate": "is_a", "object": "k1"}])
    before = normalised_export(db)
    cases = [
        (["export", "-o", "/dev/full"], False),
        (["verify", str(claims), "-o", "/dev/full"], False),
        (["export"], True),
        (["stats"], True),
        (["stats", "--json"], True),
        (["facts", "b1"], True),
        (["ask", "What is b1?"], True),
        (["conflicts"], True),
        (["verify", str(claims)], True),
        (["rules"], True),
        (["why", "b1"], True),
        (["load", str(root / "base.jsonl")], True),
    ]
    for args, stdout_full in cases:
        with Path("/dev/full").open("w") as full:
            r = run(kg(db, *args), timeout, stdout=full) if stdout_full else run(kg(db, *args), timeout)
        ok = one_error(r, (1,)) and "No space left" in r.err and normalised_export(db) == before
        tally.add(
            ok, f"{' '.join(args[:2])}{' > /dev/full' if stdout_full else ''}: exit {r.code} {r.err.strip()[:160]}"
        )
    return tally


def corrupt_cache(root: Path, timeout: float) -> Tally:
    tally = Tally("corrupt cache", "<db>.reasoning/ damaged, then ask/verify")
    db = root / "cache.kuzu"
    shutil.copy(root / "loaded.kuzu", db)
    cache = db.with_name(db.name + ".reasoning")
    question = "Is n3 a k3?"
    first = run(kg(db, "ask", question), timeout)
    assert first.code == 0, first.err
    answer = first.out.split(" Sources:")[0]
    files = sorted(p.name for p in cache.iterdir() if p.is_file())
    damages: list[tuple[str, Callable[[Path], None]]] = [
        ("garbage", lambda p: p.write_bytes(b"garbage" * 10)),
        ("empty", lambda p: p.write_bytes(b"")),
        ("half", lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])),
        (
            "bit flips",
            lambda p: p.write_bytes(bytes(b ^ 0x55 if i % 97 == 0 else b for i, b in enumerate(p.read_bytes()))),
        ),
        ("a folder", lambda p: (p.unlink(), p.mkdir())),
        ("deleted", lambda p: p.unlink()),
    ]
    for name in files:
        for how, damage in damages:
            run(kg(db, "ask", question), timeout)  # rebuild a sound cache first
            target = cache / name
            if target.is_dir():
                shutil.rmtree(target)
                run(kg(db, "ask", question), timeout)
            if not target.is_file():
                continue
            damage(target)
            r = run(kg(db, "ask", question), timeout)
            tally.add(
                r.code == 0 and r.out.split(" Sources:")[0] == answer,
                f"{name} {how}: exit {r.code} {r.err.strip()[:160]}",
            )
            if target.is_dir():
                shutil.rmtree(target)
    for how in ("cache is a file", "cache unreadable json"):
        shutil.rmtree(cache, ignore_errors=True)
        if how == "cache is a file":
            cache.write_text("x")
        else:
            cache.mkdir()
            (cache / "meta.json").write_text("{")
        r = run(kg(db, "ask", question), timeout)
        tally.add(
            clean(r) and (r.code != 0 or r.out.split(" Sources:")[0] == answer),
            f"{how}: exit {r.code} {r.err.strip()[:160]}",
        )
        if cache.is_file():
            cache.unlink()
    return tally


def environment(root: Path, timeout: float) -> Tally:
    tally = Tally("environment", "bad variables")
    db = root / "loaded.kuzu"
    config_garbage = root / "garbage.toml"
    config_garbage.write_text("[[[ not toml", encoding="utf-8")
    config_bad_value = root / "bad.toml"
    config_bad_value.write_text("[reasoning]\nmax_depth = 'deep'\n", encoding="utf-8")
    cases = (
        [{"KGBRAIN_BUFFER_POOL_MB": v} for v in ("abc", "0", "-5", "1e30", "nan", "inf", "16k", "0x40", "١٠٠")]
        + [{"KGBRAIN_LOCK_TIMEOUT": v} for v in ("abc", "-1", "nan", "inf", "1e400", "5s")]
        + [
            {"KGBRAIN_CONFIG": str(p)}
            for p in (root / "missing.toml", config_garbage, config_bad_value, root, Path("/dev/full"))
        ]
        + [
            {"KGBRAIN_DB": v}
            for v in ("/proc/kgbrain/kb.kuzu", str(root / "base.jsonl") + "/x.kuzu", "/dev/null", str(root))
        ]
    )
    before = normalised_export(db)
    for env in cases:
        command = [PY, "-m", "kgbrain", "stats"] if "KGBRAIN_DB" in env else kg(db, "stats")
        r = run(command, timeout, env={**os.environ, **env})
        tally.add(clean(r), f"{env}: exit {r.code} {r.err.strip()[:160]}")
    tally.add(normalised_export(db) == before, "the KB after all of them")
    return tally


# -- inputs ------------------------------------------------------------------------------------------------------

SEEDS = {
    "ttl": "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n"
    'ex:Neuron rdfs:subClassOf ex:Cell ; rdfs:label "Neuron"@en, "нейрон"@ru .\n'
    'ex:Cell ex:mass "3"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
    "nt": "<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/Cell> .\n"
    '<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#label> "Neuron"@en .\n',
    "nq": "<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/Cell> <http://example.org/g> .\n",
    "n3": "@prefix ex: <http://example.org/> .\nex:Neuron <http://www.w3.org/2000/01/rdf-schema#subClassOf> ex:Cell .\n",
    "trig": "@prefix ex: <http://example.org/> .\nex:g { ex:Neuron <http://www.w3.org/2000/01/rdf-schema#subClassOf> ex:Cell . }\n",
    "rdf": '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n <rdf:Description rdf:about="http://example.org/Neuron">'
    '<rdfs:subClassOf rdf:resource="http://example.org/Cell"/><rdfs:label xml:lang="en">Neuron</rdfs:label>'
    "</rdf:Description>\n</rdf:RDF>\n",
    "owl": '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
    'xmlns:owl="http://www.w3.org/2002/07/owl#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">\n'
    ' <owl:Class rdf:about="http://example.org/Neuron"><rdfs:subClassOf rdf:resource="http://example.org/Cell"/></owl:Class>\n'
    ' <owl:ObjectProperty rdf:about="http://example.org/partOf"><rdf:type rdf:resource="http://www.w3.org/2002/07/owl#TransitiveProperty"/></owl:ObjectProperty>\n'
    "</rdf:RDF>\n",
    "jsonld": json.dumps(
        {
            "@context": {"rdfs": "http://www.w3.org/2000/01/rdf-schema#", "ex": "http://example.org/"},
            "@id": "ex:Neuron",
            "rdfs:subClassOf": {"@id": "ex:Cell"},
            "rdfs:label": {"@value": "Neuron", "@language": "en"},
        }
    ),
    "jsonl": '{"subject": "neuron", "predicate": "is_a", "object": "cell"}\n{"subject": "neuron", "predicate": "mass", "value": 3, "unit": "ng"}\n'
    '{"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"}\n',
    "csv": "subject,predicate,object,value,confidence\nneuron,is_a,cell,,0.9\nneuron,mass,,3,\n",
    "tsv": "subject\tpredicate\tobject\nneuron\tis_a\tcell\nglia\tpart_of\tbrain\n",
    "dl": "[gp] grandparent(X, Z) :- parent(X, Y), parent(Y, Z).\n[fly] flies(X) :~ bird(X), not abnormal(X).\n"
    "[nfly] ~flies(X) :~ penguin(X).\nnfly > fly.\n[adult] adult(X) :- age(X, A), A >= 18.\n",
}
PIECES = [
    "<",
    ">",
    '"',
    "'",
    "@",
    ".",
    ";",
    ",",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "&",
    "\\u",
    "\\uD800",
    "^^",
    "\x00",
    "\ufeff",
    "\u202e",
    "é",
    "\n",
    "\r",
    "\t",
    ":-",
    "not ",
    "~",
    "#",
    "%",
    "<!ENTITY a '&a;&a;'>",
    "\xff",
    "",
]


def mutate(seed: str, rnd: random.Random) -> bytes:
    data = bytearray(seed.encode("utf-8"))
    for _ in range(rnd.randint(1, 6)):
        at = rnd.randint(0, len(data))
        cut = rnd.randint(0, 10)
        kind = rnd.random()
        if kind < 0.6:
            piece = rnd.choice(PIECES).encode("utf-8", "surrogatepass")
        elif kind < 0.8:
            piece = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 6)))
        else:
            piece = data[rnd.randint(0, max(0, len(data) - 20)) :][: rnd.randint(1, 20)]
        data[at : at + cut] = piece
    if rnd.random() < 0.1:
        data = data[: rnd.randint(0, len(data))]  # truncated
    return bytes(data)


def handmade(root: Path) -> list[tuple[str, str, bytes]]:
    """(group, what, file content with its suffix as `what`'s extension) for breakages a mutation rarely finds."""
    lols = "".join(
        f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' if i else '<!ENTITY l0 "lol">' for i in range(10)
    )
    rdf_head = '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">'
    big_entity = '<!ENTITY big "' + "x" * 100_000 + '">'
    cases = [
        ("empty and near-empty", "empty.jsonl", b""),
        ("empty and near-empty", "empty.ttl", b""),
        ("empty and near-empty", "empty.rdf", b""),
        ("empty and near-empty", "empty.jsonld", b""),
        ("empty and near-empty", "empty.csv", b""),
        ("empty and near-empty", "header.csv", b"subject,predicate,object\n"),
        ("empty and near-empty", "header.tsv", b"subject\tpredicate\tobject\n"),
        ("empty and near-empty", "empty.dl", b""),
        ("empty and near-empty", "comments.dl", b"% nothing\n"),
        ("empty and near-empty", "blank.nt", b"\n\n   \n"),
        ("empty and near-empty", "bom.jsonl", b"\xef\xbb\xbf"),
        (
            "empty and near-empty",
            "labels.jsonl",
            b'{"subject": "g", "predicate": "label", "value": "G", "lang": "en"}\n',
        ),
        ("empty and near-empty", "nul.jsonl", b"\x00" * 100),
        ("bad values", "digits.jsonl", b'{"subject": "x", "predicate": "m", "value": ' + b"9" * 5000 + b"}\n"),
        ("bad values", "abc-int.jsonl", b'{"subject": "x", "predicate": "m", "value": "abc", "datatype": "integer"}\n'),
        ("bad values", "nan.jsonl", b'{"subject": "x", "predicate": "m", "value": NaN}\n'),
        ("bad values", "inf.csv", b"subject,predicate,value\nx,m,inf\n"),
        ("bad values", "empty-label.jsonl", b'{"subject": "x", "predicate": "label", "value": "", "lang": "en"}\n'),
        ("bad values", "empty-label.nt", b'<http://x/a> <http://www.w3.org/2000/01/rdf-schema#label> "" .\n'),
        ("bad values", "surrogate.jsonl", b'{"subject": "x\\ud800", "predicate": "is_a", "object": "y"}\n'),
        ("bad values", "surrogate.nt", b'<http://x/a> <http://www.w3.org/2000/01/rdf-schema#label> "a\\uD800" .\n'),
        ("bad values", "latin1.csv", "subject,predicate,object\nn\xe9,is_a,x\n".encode("latin-1")),
        ("bad values", "confidence.jsonl", b'{"subject": "x", "predicate": "is_a", "object": "y", "confidence": 7}\n'),
        (
            "bad values",
            "date.jsonl",
            b'{"subject": "x", "predicate": "born", "value": "2020-13-45", "datatype": "date"}\n',
        ),
        (
            "bad values",
            "bad-int.ttl",
            b'@prefix ex: <http://x/> . ex:a ex:m "abc"^^<http://www.w3.org/2001/XMLSchema#integer> .\n',
        ),
        ("huge and deep", "deep.jsonl", b'{"subject": ' + b"[" * 100_000 + b"\n"),
        ("huge and deep", "deep.jsonld", b"[" * 100_000),
        ("huge and deep", "deep-obj.jsonld", b'{"a": ' * 50_000),
        ("huge and deep", "deep.ttl", b"@prefix ex: <http://x/> . ex:a ex:p " + b"( " * 50_000 + b"\n"),
        ("huge and deep", "deep-bnode.ttl", b"@prefix ex: <http://x/> . ex:a ex:p " + b"[ ex:p " * 50_000 + b"\n"),
        ("huge and deep", "deep.rdf", (rdf_head + "<rdf:Description>" * 50_000).encode()),
        ("huge and deep", "deep.dl", b"p(X) :- " + b"(" * 100_000 + b".\n"),
        ("huge and deep", "long-body.dl", b"[r] p(X) :- " + b", ".join(b"q%d(X)" % i for i in range(20_000)) + b".\n"),
        (
            "huge and deep",
            "long-line.jsonl",
            b'{"subject": "x", "predicate": "label", "value": "' + b"a" * 20_000_000 + b'", "lang": "en"}\n',
        ),
        (
            "huge and deep",
            "long-literal.nt",
            b'<http://x/a> <http://www.w3.org/2000/01/rdf-schema#label> "' + b"a" * 20_000_000 + b'" .\n',
        ),
        ("huge and deep", "wide.csv", b",".join(b"c%d" % i for i in range(100_000)) + b"\n"),
        ("huge and deep", "many-columns.jsonl", json.dumps({f"k{i}": i for i in range(100_000)}).encode() + b"\n"),
        ("huge and deep", "no-newline.nt", b"<http://x/a> " * 2_000_000),
        (
            "entity bombs",
            "lol.rdf",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [{lols}]>{rdf_head}<rdf:Description rdf:about="http://x/a"><rdfs:label>&l9;</rdfs:label></rdf:Description></rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "lol.owl",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [{lols}]>{rdf_head}<rdf:Description rdf:about="http://x/a"><rdfs:label>&l9;</rdfs:label></rdf:Description></rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "quadratic.rdf",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [{big_entity}]>{rdf_head}<rdf:Description rdf:about="http://x/a"><rdfs:label>{"&big;" * 1000}</rdfs:label></rdf:Description></rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "xxe.rdf",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY x SYSTEM "file:///etc/passwd">]>{rdf_head}<rdf:Description rdf:about="http://x/a"><rdfs:label>&x;</rdfs:label></rdf:Description></rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "xxe-param.rdf",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>{rdf_head}</rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "dtd.rdf",
            f'<?xml version="1.0"?><!DOCTYPE rdf:RDF SYSTEM "http://127.0.0.1:9/x.dtd">{rdf_head}</rdf:RDF>'.encode(),
        ),
        (
            "entity bombs",
            "xinclude.rdf",
            f'<?xml version="1.0"?>{rdf_head}<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="file:///etc/passwd"/></rdf:RDF>'.encode(),
        ),
        (
            "network",
            "remote-ctx.jsonld",
            json.dumps({"@context": "http://127.0.0.1:9/ctx", "@id": "http://x/a"}).encode(),
        ),
        (
            "network",
            "import.jsonld",
            json.dumps({"@context": {"@import": "https://example.org/c"}, "@id": "http://x/a"}).encode(),
        ),
        ("network", "local-missing.jsonld", json.dumps({"@context": "nope.jsonld", "@id": "http://x/a"}).encode()),
        ("network", "ctx-loop.jsonld", json.dumps({"@context": "remote-ctx.jsonld", "@id": "http://x/a"}).encode()),
        (
            "network",
            "owl-import.ttl",
            b"@prefix owl: <http://www.w3.org/2002/07/owl#> . <http://x/o> owl:imports <http://127.0.0.1:9/o.owl> .\n",
        ),
        ("network", "base.ttl", b"@base <http://127.0.0.1:9/> . <a> <b> <c> .\n"),
        ("binary", "random.jsonl", bytes(random.Random(1).randrange(256) for _ in range(5000))),
        ("binary", "random.ttl", bytes(random.Random(2).randrange(256) for _ in range(5000))),
        ("binary", "random.rdf", bytes(random.Random(3).randrange(256) for _ in range(5000))),
        ("binary", "random.csv", bytes(random.Random(4).randrange(256) for _ in range(5000))),
        ("binary", "random.dl", bytes(random.Random(5).randrange(256) for _ in range(5000))),
        ("binary", "truncated.nt.gz", b"\x1f\x8b\x08\x00" + b"\x00" * 20),
        ("binary", "utf16.jsonl", '{"subject": "x", "predicate": "is_a", "object": "y"}\n'.encode("utf-16")),
    ]
    return [(g, w, c) for g, w, c in cases]


INJECTIONS = [
    "x' OR '1'='1",
    'x"}) MATCH (n) DETACH DELETE n //',
    "x`) DETACH DELETE n; //",
    "$subjects",
    "x'; DROP TABLE Concept; --",
    "CALL show_tables() RETURN *",
    "} ; DELETE WHERE { ?s ?p ?o }",
    "../../../../etc/passwd",
    "{{7*7}}${7*7}",
    "<script>alert(1)</script>",
    "\u202egnp.exe",
    "x\\' OR 1=1 //",
    "\x1b[2J\x1b[31mred",
    "a" * 5000,
]


def inputs(root: Path, mutations: int, timeout: float) -> list[Tally]:
    template = root / "inputs-template.kuzu"
    with Brain.open(template) as brain:
        brain.load(
            [
                write_jsonl(
                    root / "t.jsonl",
                    [
                        {"subject": "neuron", "predicate": "is_a", "object": "cell"},
                        {"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"},
                    ],
                )
            ]
        )
    db = root / "in" / "kb.kuzu"
    db.parent.mkdir(exist_ok=True)
    rnd = random.Random(13)
    tallies: dict[str, Tally] = {}

    def load_case(group: str, name: str, content: bytes, *, codes: tuple[int, ...] = (2,)) -> None:
        tally = tallies.setdefault(group, Tally("inputs", group))
        fresh(db)
        shutil.copy(template, db)
        path = db.parent / name
        path.write_bytes(content)
        before = normalised_export(db)
        r = run(kg(db, "load", str(path)), timeout)
        ok = clean(r, codes) and (r.code == 0 or normalised_export(db) == before)
        tally.add(ok, f"{name} ({len(content):,} bytes): exit {r.code} in {r.seconds:.1f} s: {r.err.strip()[:160]}")

    for suffix, seed in SEEDS.items():
        for i in range(mutations):
            load_case(f"mutated .{suffix}", f"m{i}.{suffix}", mutate(seed, rnd))
    for group, name, content in handmade(root):
        load_case(group, name, content, codes=(1, 2) if group == "huge and deep" else (2,))

    # claims: malformed files, verify must not write
    tally = tallies.setdefault("claims files", Tally("inputs", "claims files"))
    fresh(db)
    shutil.copy(template, db)
    before = normalised_export(db)
    claim_seed = '{"id": "c1", "subject": "neuron", "predicate": "is_a", "object": "cell"}\n{"id": "c2", "text": "A neuron is a cell."}\n'
    claim_files = [(f"c{i}.jsonl", mutate(claim_seed, rnd)) for i in range(mutations)]
    claim_files += [
        (f"c{i}.csv", mutate("id,subject,predicate,object\nc1,neuron,is_a,cell\n", rnd)) for i in range(mutations // 2)
    ]
    claim_files += [
        ("deep.jsonl", b'{"id": ' + b"[" * 100_000 + b"\n"),
        ("empty.jsonl", b""),
        ("text-huge.jsonl", json.dumps({"id": "c", "text": "A neuron is a cell. " * 50_000}).encode()),
        ("no-id.jsonl", b'{"subject": "neuron"}\n'),
        ("dup-ids.jsonl", b'{"id": "c", "subject": "a", "predicate": "is_a", "object": "b"}\n' * 2),
        ("binary.tsv", bytes(rnd.randrange(256) for _ in range(3000))),
    ]
    for name, content in claim_files:
        path = db.parent / name
        path.write_bytes(content)
        r = run(kg(db, "verify", str(path), "-o", str(db.parent / "v.jsonl")), timeout)
        tally.add(clean(r, (2,)), f"{name}: exit {r.code} in {r.seconds:.1f} s: {r.err.strip()[:160]}")
    tally.add(normalised_export(db) == before, "the KB after every verify")

    # questions
    tally = tallies.setdefault("questions", Tally("inputs", "questions (ask)"))
    questions = [
        "",
        " ",
        "?",
        "\x00",
        "\udcff?",
        "Что такое нейрон?" * 50,
        "Is a neuron a cell? " * 50,
        "x" * 999,
        "x" * 1001,
        "a " * 8_000,
        "Is " + "very " * 3_200 + "big a cell?",
        "y" * 120_000,
        "(" * 5000,
        "нейрон " * 2_000,
    ]
    questions += [mutate("Is a neuron a cell?", rnd).decode("utf-8", "replace") for _ in range(mutations)]
    for q in questions:
        r = run(kg(db, "ask", q.replace("\x00", "")), timeout)  # (argv cannot hold a NUL)
        tally.add(
            clean(r, (2,)) and r.seconds < 30,
            f"{len(q):,} chars: exit {r.code} in {r.seconds:.1f} s: {r.err.strip()[:120]}",
        )
    tally.add(normalised_export(db) == before, "the KB after every question")

    # injection attempts: as data they load and come back verbatim; as arguments they are names, never code
    tally = tallies.setdefault("injection", Tally("inputs", "injection attempts"))
    for text in INJECTIONS:
        fresh(db)
        shutil.copy(template, db)
        row = {"subject": "neuron", "predicate": "label", "value": text, "lang": "en", "source": text[:200]}
        path = write_jsonl(
            db.parent / "inj.jsonl", [row, {"subject": text[:500], "predicate": "is_a", "object": "cell"}]
        )
        r = run(kg(db, "load", str(path)), timeout)
        kept = r.code == 0 and any(json.dumps(text, ensure_ascii=False)[1:-1] in line for line in normalised_export(db))
        survived = "neuron" in " ".join(normalised_export(db))
        tally.add((kept or one_error(r, (2,))) and survived, f"load {text[:40]!r}: exit {r.code} {r.err.strip()[:120]}")
        for args in (
            ["facts", text],
            ["ask", f"What is {text}?"],
            ["why", text],
            ["path", text, "cell"],
            ["like", text],
            ["explain", text],
            ["query", text],
            ["retract", text],
            ["resolve", text, "--keep", text],
        ):
            before_cmd = normalised_export(db)
            r = run(kg(db, *args), timeout)
            ok = clean(r, (1, 2)) and r.code != 1 and normalised_export(db) == before_cmd
            tally.add(ok, f"{args[0]} {text[:40]!r}: exit {r.code} {r.err.strip()[:120]}")

    # the attack kit's arguments, paths and sizes (issue #22): argv bytes that are not UTF-8, a device, a
    # legitimate .nt.gz far past the memory there is (here: KGBRAIN_MEMORY_MB=16, 512 KB of text at most)
    tally = tallies.setdefault("attack kit", Tally("inputs", "argv not UTF-8, a device, past the memory budget"))
    fresh(db)
    shutil.copy(template, db)
    before = normalised_export(db)
    bad = "a\udcff"  # (subprocess passes it as the byte 0xff)
    for args in (
        ["facts", bad],
        ["why", bad],
        ["path", bad, "cell"],
        ["like", bad],
        ["explain", bad],
        ["retract", bad],
        ["resolve", bad, "--keep", bad],
        ["correct", bad, "no"],
        ["ask", f"Is {bad} a cell?"],
        ["load", "/dev/zero"],
    ):
        r = run(kg(db, *args), timeout)
        ok = clean(r, (2,)) and "cast" not in r.err and "no such file" not in r.err
        tally.add(ok, f"{args[0]} {args[1]!r}: exit {r.code} in {r.seconds:.1f} s: {r.err.strip()[:120]}")
    import gzip

    text = "".join(f"<http://ex.org/e{i}> <http://ex.org/p> <http://ex.org/o{i % 97}> .\n" for i in range(50_000))
    big = db.parent / "big.nt.gz"
    big.write_bytes(gzip.compress(text.encode()))
    r = run(kg(db, "load", str(big)), timeout, env={**os.environ, "KGBRAIN_MEMORY_MB": "16"})
    tally.add(
        one_error(r, (2,)) and "Split it into parts" in r.err,
        f"{big.name} ({big.stat().st_size:,} bytes, {len(text):,} of text): exit {r.code} in {r.seconds:.1f} s: {r.err.strip()[:120]}",
    )
    tally.add(normalised_export(db) == before, "the KB after all of them")

    # rules files with hostile names and a generated grammar soup
    return list(tallies.values())


# -- report ------------------------------------------------------------------------------------------------------


def table(title: str, head: str, tallies: list[Tally]) -> None:
    print(f"\n{title}\n")
    print(f"| group | case | tried | {head} |")
    print("|---|---|---:|---:|")
    for t in tallies:
        print(f"| {t.group} | {t.case} | {t.tried} | {t.ok} |")
    print(f"| **all** | | **{sum(t.tried for t in tallies)}** | **{sum(t.ok for t in tallies)}** |")
    failed = [(t, f) for t in tallies for f in t.failures]
    if failed:
        print(f"\nnot {head}:")
        for t, f in failed:
            print(f"- {t.case}: {f}")


def progress(tallies: list[Tally]) -> list[Tally]:
    """Say how each group went as it ends (a campaign runs for many minutes)."""
    for t in tallies:
        print(f"{t.group} / {t.case}: {t.ok} of {t.tried}", file=sys.stderr, flush=True)
        for f in t.failures:
            print(f"  not ok: {f}", file=sys.stderr, flush=True)
    return tallies


FAULT_GROUPS = ("kills", "verify", "disk", "read-only", "dev-full", "cache", "env", "service")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2, help="kills per write and phase")
    parser.add_argument("--mutations", type=int, default=12, help="mutated files per format")
    parser.add_argument("--only", choices=["faults", "inputs"])
    parser.add_argument("--groups", default=",".join(FAULT_GROUPS), help="fault groups to run (comma-separated)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds before a command counts as hung")
    args = parser.parse_args()
    groups = set(args.groups.split(","))
    started, cpu = time.monotonic(), os.times()
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        root = Path(tmp)
        results: dict[str, list[Tally]] = {"faults": [], "inputs": []}
        if args.only != "inputs":
            writes = build_writes(root, args.timeout)
            steps: list[tuple[str, Callable[[], list[Tally]]]] = [
                ("kills", lambda: kills(writes, root, args.reps, args.timeout)),
                ("verify", lambda: [verify_kills(root, args.reps, args.timeout)]),
                ("disk", lambda: [full_disk(writes, root, args.timeout)]),
                ("read-only", lambda: read_only(writes, root, args.timeout)),
                ("dev-full", lambda: [dev_full(root, args.timeout)]),
                ("cache", lambda: [corrupt_cache(root, args.timeout)]),
                ("env", lambda: [environment(root, args.timeout)]),
            ]
            for name, step in steps:
                if name in groups:
                    results["faults"] += progress(step())
        if args.only != "faults":
            results["inputs"] = progress(inputs(root, args.mutations, args.timeout))
        service = faults_service.run_all(root, args.timeout) if "service" in groups and args.only != "inputs" else []
    end = os.times()
    if service:
        print("\nService (bench/faults_service.py: a real `kgbrain serve` and stdio `kgbrain mcp`)")
        faults_service.table(service)
    if results["faults"]:
        table("Faults", "survived", results["faults"])
    if results["inputs"]:
        table("Inputs", "clean", results["inputs"])
    children = end.children_user + end.children_system - cpu.children_user - cpu.children_system
    print(
        f"\n{time.monotonic() - started:.0f} s wall, {children:.0f} CPU s in kgbrain processes, "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
