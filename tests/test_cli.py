"""The command line: exit codes, `Error:` lines, --json shapes, the demo fallback, help on every command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.cli import cli
from tests.conftest import write_jsonl

ROWS = [
    {"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"},
    {"subject": "neuron", "predicate": "is_a", "object": "cell", "source": "docs", "trust": 0.9},
    {"subject": "neuron", "predicate": "is_a", "object": "glia", "polarity": False},
]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def invoke(runner: CliRunner, db: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli, ["--db", str(db), *args])
    return result.exit_code, result.stdout, result.stderr


def test_every_command_has_help(runner: CliRunner) -> None:
    for name, command in cli.commands.items():
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        summary = " ".join((command.help or "").split("\n")[0].split())
        assert summary, name
        assert summary[:40] in " ".join(result.stdout.split()), name


def test_init_load_stats_facts(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    code, out, _ = invoke(runner, db, "init")
    assert code == 0
    assert "schema version" in out
    facts_file = write_jsonl(tmp_path / "f.jsonl", ROWS)
    code, out, _ = invoke(runner, db, "load", str(facts_file), "--json")
    assert code == 0
    [report] = json.loads(out)
    assert (report["facts_added"], report["duplicates_skipped"], report["concepts_created"]) == (2, 0, 3)
    assert report["per_predicate"] == {"is_a": 2}
    code, out, _ = invoke(runner, db, "stats", "--json")
    stats = json.loads(out)
    assert (stats["concepts"], stats["facts"], stats["predicates"]) == (3, 2, {"is_a": 2})
    code, out, _ = invoke(runner, db, "facts", "нейрон")
    assert code == 0
    assert "neuron is_a cell" in out
    assert "neuron NOT is_a glia" in out
    assert "docs trust 0.90" in out
    code, out, _ = invoke(runner, db, "facts", "neuron", "--json")
    data = json.loads(out)
    assert data["id"] == "neuron"
    assert len(data["facts"]) == 2
    assert {"status", "source", "trust"} <= data["facts"][0].keys()


def test_bad_row_is_one_error_line_with_exit_2_and_changes_nothing(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    invoke(runner, db, "load", str(write_jsonl(tmp_path / "f.jsonl", ROWS)))
    bad = write_jsonl(tmp_path / "bad.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b", "confidence": 2}])
    code, _out, err = invoke(runner, db, "load", str(bad))
    assert code == 2
    assert err == "Error: bad.jsonl:1: field 'confidence': 2 is outside 0..1\n"
    assert json.loads(invoke(runner, db, "stats", "--json")[1])["facts"] == 2


def test_unknown_concept_suggests_close_names(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    invoke(runner, db, "load", str(write_jsonl(tmp_path / "f.jsonl", ROWS)))
    code, _, err = invoke(runner, db, "facts", "nueron")
    assert code == 2
    assert err == "Error: Unknown concept 'nueron'. Did you mean 'neuron'?\n"


def test_path_names_which_of_its_two_concepts_is_unknown(runner: CliRunner, tmp_path: Path) -> None:
    db = str(tmp_path / "kb.kuzu")
    rows = [{"subject": "smoking", "predicate": "causes", "object": "cancer"}]
    assert runner.invoke(cli, ["--db", db, "load", str(write_jsonl(tmp_path / "f.jsonl", rows))]).exit_code == 0
    for args, field in ((["smokin", "cancer"], "source"), (["smoking", "cancr"], "target")):
        result = runner.invoke(cli, ["--db", db, "path", *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.startswith(f"Error: field '{field}': Unknown concept"), result.stderr
    assert runner.invoke(cli, ["--db", db, "path", "smoking", "cancer"]).exit_code == 0


def test_export_round_trips_through_the_cli(runner: CliRunner, tmp_path: Path) -> None:
    db, copy = tmp_path / "kb.kuzu", tmp_path / "copy.kuzu"
    invoke(runner, db, "load", str(write_jsonl(tmp_path / "f.jsonl", ROWS)))
    code, first, _ = invoke(runner, db, "export")
    assert code == 0
    (tmp_path / "dump.jsonl").write_text(first, encoding="utf-8")
    invoke(runner, copy, "load", str(tmp_path / "dump.jsonl"))
    assert invoke(runner, copy, "export")[1] == first


def test_store_errors_exit_1(runner: CliRunner, tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    invoke(runner, db, "init")
    from kgbrain.store import KuzuStore

    with KuzuStore(db) as store:
        store.run("meta_set", key="schema_version", value="999")
    code, _, err = invoke(runner, db, "stats")
    assert code == 1
    assert err.startswith("Error: database ")
    assert "schema version 999" in err
    assert err.count("\n") == 1


def test_without_a_database_the_bundled_demo_is_used_and_said(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONIOENCODING": "utf-8"}
    env.pop("KGBRAIN_DB", None)
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", "stats", "--json"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "bundled demo knowledge base" in done.stderr
    assert json.loads(done.stdout)["facts"] >= 300
    assert not (tmp_path / "kgbrain.kuzu").exists()


def test_explain_json_is_the_body_http_and_mcp_return(runner: CliRunner, tmp_path: Path) -> None:
    from kgbrain.models import ExplanationOut

    db = tmp_path / "kb.kuzu"
    invoke(runner, db, "load", str(write_jsonl(tmp_path / "f.jsonl", ROWS)))
    _, out, _ = invoke(runner, db, "facts", "neuron", "--json")
    fact_id = json.loads(out)["facts"][0]["fact_id"]
    code, out, _ = invoke(runner, db, "explain", fact_id, "--json")
    assert code == 0
    explained = json.loads(out)
    assert ExplanationOut.model_validate(explained).model_dump() == explained
    assert explained["fact"]["fact_id"] == explained["proof"]["fact_id"] == fact_id
    assert explained["conflicts"] == []
