"""The conflict commands: conflicts, check-conflicts, resolve, retract (exit codes, --json shape, errors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from tests.conftest import FIXTURES


@pytest.fixture
def kb(db_path: Path) -> Path:
    with Brain.open(db_path) as brain:
        brain.load(
            [FIXTURES / "conflicts" / "source_conflict.jsonl", FIXTURES / "conflicts" / "opposite_polarity.jsonl"]
        )
    return db_path


def run(kb: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--db", str(kb), *args])
    return result.exit_code, result.stdout, result.stderr


def test_conflicts_json_lists_type_facts_status_and_resolution(kb: Path) -> None:
    code, out, _ = run(kb, "conflicts", "--json")
    assert code == 0
    data = json.loads(out)
    assert {d["type"] for d in data} == {"source_conflict", "opposite_polarity"}
    for d in data:
        assert {"id", "type", "facts", "status", "resolution", "explanation", "history"} <= d.keys()
        assert len(d["facts"]) == 2
        assert {"fact_id", "subject", "predicate", "polarity", "source", "status", "confidence"} <= d["facts"][0].keys()
        assert d["resolution"]["strategy"] in {"source_trust", "deferred"}


def test_conflicts_text_filters_by_type_and_status(kb: Path) -> None:
    code, out, _ = run(kb, "conflicts", "--status", "open")
    assert code == 0
    assert "opposite_polarity  open (deferred)" in out
    assert "source_conflict" not in out
    code, out, _ = run(kb, "conflicts", "--type", "source_conflict")
    assert "trust gap 0.65 > 0.3" in out
    assert "<- kept" in out


def test_conflicts_rejects_an_unknown_type(kb: Path) -> None:
    code, _, err = run(kb, "conflicts", "--type", "bogus")
    assert code == 2
    assert "Invalid value for '--type'" in err


def test_check_conflicts_scans_and_is_idempotent(kb: Path) -> None:
    code, out, _ = run(kb, "check-conflicts")
    assert (code, out) == (0, "2 conflicts in the knowledge base, 0 newly recorded.\n")


def test_resolve_and_its_errors(kb: Path) -> None:
    data = json.loads(run(kb, "conflicts", "--json", "--type", "opposite_polarity")[1])[0]
    keep = data["facts"][0]["fact_id"]
    code, out, _ = run(kb, "resolve", data["id"], "--keep", keep, "--by", "alice")
    assert (code, out) == (0, f"{data['id']} resolved by alice: kept {keep}.\n")
    code, _, err = run(kb, "resolve", "c_nope", "--keep", keep)
    assert code == 2
    assert err == "Error: Unknown conflict 'c_nope'; `kgbrain conflicts` lists them.\n"
    code, _, err = run(kb, "resolve", data["id"], "--keep", "f_nope")
    assert code == 2
    assert err.startswith("Error: Fact 'f_nope' is not part of conflict")
    resolved = json.loads(run(kb, "conflicts", "--json", "--type", "opposite_polarity")[1])[0]
    assert resolved["resolution"] | {"resolved_at": None} == {
        "strategy": "human_override",
        "kept_fact": keep,
        "resolved_by": "alice",
        "resolved_at": None,
    }


def test_the_same_resolve_again_changes_nothing(kb: Path) -> None:
    # after a kill a user cannot tell whether the resolve happened: running it again must be safe (trust not raised
    # twice, no second adjustment)
    data = json.loads(run(kb, "conflicts", "--json", "--type", "opposite_polarity")[1])[0]
    keep = data["facts"][0]["fact_id"]
    assert run(kb, "resolve", data["id"], "--keep", keep, "--by", "alice")[0] == 0
    once = run(kb, "export")[1]
    code, out, _ = run(kb, "resolve", data["id"], "--keep", keep, "--by", "alice")
    assert (code, out) == (0, f"{data['id']} resolved by alice: kept {keep}.\n")
    assert run(kb, "export")[1] == once


def test_retract_and_its_errors(kb: Path) -> None:
    data = json.loads(run(kb, "conflicts", "--json", "--type", "opposite_polarity")[1])[0]
    fact = data["facts"][1]["fact_id"]
    code, out, _ = run(kb, "retract", fact, "--reason", "typo")
    assert (code, out) == (0, f"{fact} retracted (was active); closed 1 open conflict(s).\n")
    code, _, err = run(kb, "retract", fact)
    assert (code, err) == (2, f"Error: Fact {fact!r} is retracted already.\n")
    code, _, err = run(kb, "retract", "f_nope")
    assert code == 2
    assert err.startswith("Error: Unknown fact 'f_nope'")
    code, out, _ = run(kb, "stats", "--json")
    assert json.loads(out)["facts"] == 4  # retracted, not removed
