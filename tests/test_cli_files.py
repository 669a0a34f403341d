"""What a command leaves on disk: only `init` and `load` create a knowledge base, a failing command creates nothing,
and a load of several files is all of them or none."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.cli import cli
from tests.conftest import write_jsonl

GOOD = [{"subject": "neuron", "predicate": "is_a", "object": "cell", "source": "docs"}]
BAD = [{"subject": "glia", "predicate": "is_a", "object": "cell", "confidence": 2}]

WRITES = [
    ["conflicts", "--scan"],
    ["check-conflicts"],
    ["resolve", "c1", "--keep", "f1"],
    ["materialise"],
    ["retract", "f1"],
    ["ask", "--record", "Is a neuron a cell?"],
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("args", WRITES, ids=lambda a: a[0])
def test_a_write_to_a_missing_database_fails_and_creates_nothing(tmp_path: Path, args: list[str]) -> None:
    db = tmp_path / "kb.kuzu"
    code, _, err = run("--db", str(db), *args)
    assert code == 2
    assert err.startswith(f"Error: no knowledge base at {str(db)!r}: `kgbrain init`")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("args", WRITES[:3], ids=lambda a: a[0])
def test_a_write_without_db_never_hides_the_demo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KGBRAIN_DB", raising=False)
    code, _, err = run(*args)
    assert code == 2
    assert "no knowledge base at 'kgbrain.kuzu'" in err
    assert listing(tmp_path) == []


def test_a_load_of_a_missing_file_leaves_no_database(tmp_path: Path) -> None:
    db = tmp_path / "new" / "deeper" / "kb.kuzu"
    code, _, err = run("--db", str(db), "load", str(tmp_path / "missing.jsonl"))
    assert code == 2
    assert "missing.jsonl': no such file" in err
    assert "Created" not in err
    assert listing(tmp_path) == []


def test_a_failed_load_into_a_new_database_leaves_nothing(tmp_path: Path) -> None:
    bad = write_jsonl(tmp_path / "bad.jsonl", BAD)
    code, _, err = run("--db", str(tmp_path / "kb.kuzu"), "load", str(bad))
    assert code == 2
    assert "bad.jsonl:1: field 'confidence'" in err
    assert listing(tmp_path) == ["bad.jsonl"]


def test_a_load_says_it_created_the_database(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    good = write_jsonl(tmp_path / "good.jsonl", GOOD)
    code, _, err = run("--db", str(db), "load", str(good))
    assert code == 0
    assert f"Created a new knowledge base at {db}." in err
    code, _, err = run("--db", str(db), "load", str(good))
    assert code == 0
    assert "Created" not in err


def test_a_failing_write_on_an_existing_database_keeps_it(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    run("--db", str(db), "load", str(write_jsonl(tmp_path / "good.jsonl", GOOD)))
    before = run("--db", str(db), "export")[1]
    code, _, _ = run("--db", str(db), "resolve", "c9", "--keep", "f1")
    assert code == 2
    assert db.exists()
    assert run("--db", str(db), "export")[1] == before


@pytest.mark.parametrize("order", ["good-bad", "bad-good", "good-missing"])
def test_several_files_load_all_or_none(tmp_path: Path, order: str) -> None:
    db = tmp_path / "kb.kuzu"
    run("--db", str(db), "load", str(write_jsonl(tmp_path / "seed.jsonl", [{**GOOD[0], "object": "thing"}])))
    before = run("--db", str(db), "export")[1]
    good = write_jsonl(tmp_path / "good.jsonl", GOOD)
    bad = write_jsonl(tmp_path / "bad.jsonl", BAD)
    files = {
        "good-bad": [good, bad],
        "bad-good": [bad, good],
        "good-missing": [good, tmp_path / "missing.jsonl"],
    }[order]
    code, out, err = run("--db", str(db), "load", *map(str, files))
    assert code == 2
    assert out == ""
    if order != "good-missing":
        assert err.startswith("Error: bad.jsonl:1: field 'confidence'")
        assert err.rstrip().endswith("none of the 2 files was loaded (a load is all of them or none)")
    assert run("--db", str(db), "export")[1] == before


def test_several_good_files_all_load(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    one = write_jsonl(tmp_path / "one.jsonl", GOOD)
    two = write_jsonl(tmp_path / "two.jsonl", [{"subject": "glia", "predicate": "is_a", "object": "cell"}])
    code, out, _ = run("--db", str(db), "load", str(one), str(two))
    assert code == 0
    assert "one.jsonl: 1 facts added" in out
    assert "two.jsonl: 1 facts added" in out
    assert '"glia"' in run("--db", str(db), "export")[1]


def test_load_help_states_the_rule() -> None:
    assert "all of FILES or none of them" in run("load", "--help")[1]


def test_an_unknown_concept_in_an_empty_database_says_so(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    run("--db", str(db), "init")
    code, out, err = run("--db", str(db), "ask", "Is a neuron a cell?")
    assert code == 0
    assert "neuron" in out
    assert f"the knowledge base {str(db)!r} holds no facts" in err
    assert "bundled demo" in err


def test_an_unknown_concept_in_a_users_database_names_it(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    run("--db", str(db), "load", str(write_jsonl(tmp_path / "g.jsonl", [{**GOOD[0], "subject": "glia"}])))
    code, _, err = run("--db", str(db), "ask", "Is a neuron a cell?")
    assert code == 0
    assert f"Note: asked of {str(db)!r} (1 facts), not the bundled demo." in err
    code, _, err = run("--db", str(db), "ask", "Is a glia a cell?")
    assert "Note:" not in err


def loaded(tmp_path: Path) -> Path:
    db = tmp_path / "kb.kuzu"
    run("--db", str(db), "load", str(write_jsonl(tmp_path / "good.jsonl", GOOD)))
    return db


@pytest.mark.parametrize("target", ["kb.kuzu", "kb.kuzu.lock", "other.kuzu"])
def test_export_never_overwrites_a_database(tmp_path: Path, target: str) -> None:
    db = loaded(tmp_path)
    (tmp_path / "other.kuzu").write_bytes(db.read_bytes())
    before, files = run("--db", str(db), "export")[1], {p: p.read_bytes() for p in tmp_path.iterdir()}
    code, _, err = run("--db", str(db), "export", "-o", str(tmp_path / target))
    assert code == 2
    assert err.startswith(f"Error: -o {str(tmp_path / target)!r} is ")
    assert {p: p.read_bytes() for p in tmp_path.iterdir()} == files
    assert run("--db", str(db), "export")[1] == before


@pytest.mark.parametrize("link", [False, True])
def test_verify_never_writes_over_its_claims(tmp_path: Path, link: bool) -> None:
    db = loaded(tmp_path)
    claims = write_jsonl(
        tmp_path / "claims.jsonl", [{"id": "1", "subject": "neuron", "predicate": "is_a", "object": "cell"}]
    )
    text = claims.read_text(encoding="utf-8")
    out = claims
    if link:
        out = tmp_path / "out.jsonl"
        out.symlink_to(claims)
    code, _, err = run("--db", str(db), "verify", str(claims), "-o", str(out))
    assert code == 2
    assert "is the command's input" in err
    assert claims.read_text(encoding="utf-8") == text
    code, _, err = run("--db", str(db), "verify", str(claims), "-o", str(db))
    assert code == 2
    assert "knowledge base's own file" in err


def test_verify_workers_are_capped_at_the_cores(tmp_path: Path) -> None:
    import os

    db = loaded(tmp_path)
    claims = write_jsonl(
        tmp_path / "claims.jsonl", [{"id": "1", "subject": "neuron", "predicate": "is_a", "object": "cell"}]
    )
    cores = len(os.sched_getaffinity(0))
    code, out, err = run(
        "--db", str(db), "verify", str(claims), "-o", str(tmp_path / "v.jsonl"), "--workers", "64", "--json"
    )
    assert code == 0, err
    assert f"--workers 64: using {cores}" in err
    import json

    assert json.loads(out)["workers"] <= cores
