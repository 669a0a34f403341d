"""`export --format parquet DIR` and `load DIR`: a lossless round trip of every bundled fixture (the JSONL export's
rows, as Parquet), a manifest of the files, program and write counter, and a folder whose files are not the ones
exported (changed, missing, swapped) refused with the knowledge base left as it was."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError
from kgbrain.ingest.parquet import FACTS, MANIFEST, RECORDS, read_manifest
from tests.conftest import FIXTURES, write_jsonl
from tests.ingest.test_export_round_trip import CASES, RULES

FAMILY = [
    {"subject": "alice", "predicate": "parent", "object": "bob", "confidence": 0.8, "source": "census"},
    {"subject": "bob", "predicate": "parent", "object": "carol", "valid_from": "1990", "valid_to": "2001-05"},
    {"subject": "carol", "predicate": "height_cm", "value": 170},
    {"subject": "carol", "predicate": "weight", "value": "61.5", "datatype": "decimal", "unit": "kg"},
    {"subject": "carol", "predicate": "nickname", "value": "Кэрол", "lang": "ru"},
    {"subject": "carol", "predicate": "is_vegan", "value": True},
    {"subject": "tweety", "predicate": "instance_of", "object": "penguin"},
    {"subject": "penguin", "predicate": "is_a", "object": "bird"},
]


def _export(brain: Brain) -> list[dict[str, object]]:
    out = io.StringIO()
    brain.export(out)
    return [{k: v for k, v in json.loads(line).items() if k != "loaded_at"} for line in out.getvalue().splitlines()]


def _family(tmp_path: Path) -> list[Path]:
    rules = tmp_path / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    return [write_jsonl(tmp_path / "family.jsonl", FAMILY), rules]


@pytest.mark.parametrize("case", sorted(CASES))
def test_parquet_export_loads_back_losslessly(case: str, tmp_path: Path) -> None:
    with Brain.open(tmp_path / "first.kuzu") as first:
        first.load(CASES[case])
        exported = _export(first)
        first.export_parquet(tmp_path / "dump")
    with Brain.open(tmp_path / "second.kuzu") as second:
        second.load([tmp_path / "dump"])
        assert _export(second) == exported


def test_the_manifest_names_the_files_program_and_write_counter(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load(_family(tmp_path))
        manifest = brain.export_parquet(tmp_path / "dump")
        assert manifest == read_manifest(tmp_path / "dump")
        assert manifest["write_counter"] == brain.store.write_counter()
        assert manifest["schema_version"] == brain.store.schema_version
        rows = _export(brain)
        facts = [r for r in rows if "fact_id" in r]
        assert manifest["files"][FACTS]["rows"] == len(facts) == pq.read_table(tmp_path / "dump" / FACTS).num_rows
        assert manifest["files"][RECORDS]["rows"] == len(rows) - len(facts)
        assert manifest["sources"]["census"] == 1
        assert sum(manifest["sources"].values()) == len(facts)
        table = pq.read_table(tmp_path / "dump" / FACTS)
        assert table.column("fact_id").to_pylist() == [r["fact_id"] for r in facts]  # one row per fact, a table
        # a new rule changes the program digest and the write counter; the same data exported again does not
        rules = tmp_path / "more.dl"
        rules.write_text("[sib] sibling(X, Y) :- parent(Z, X), parent(Z, Y).\n", encoding="utf-8")
        brain.load([rules])
        again = brain.export_parquet(tmp_path / "dump")
    assert again["program"] != manifest["program"]
    assert again["write_counter"] != manifest["write_counter"]
    with Brain.open(tmp_path / "kb.kuzu", read_only=True) as brain:
        assert brain.export_parquet(tmp_path / "other")["program"] == again["program"]


def test_an_export_that_is_not_the_one_written_is_refused_and_nothing_loaded(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load(_family(tmp_path))
        brain.export_parquet(tmp_path / "dump")
    with Brain.open(tmp_path / "other.kuzu") as other:
        other.load([FIXTURES / "claims" / "penguins_kb.jsonl"])
        other.export_parquet(tmp_path / "penguins")
        before = _export(other)
        changed = tmp_path / "changed"
        shutil.copytree(tmp_path / "dump", changed)
        with (changed / FACTS).open("ab") as fh:
            fh.write(b"\0")
        swapped = tmp_path / "swapped"
        shutil.copytree(tmp_path / "dump", swapped)
        shutil.copy2(tmp_path / "penguins" / RECORDS, swapped / RECORDS)
        missing = tmp_path / "missing"
        shutil.copytree(tmp_path / "dump", missing)
        (missing / RECORDS).unlink()
        bare = tmp_path / "bare"
        bare.mkdir()
        shutil.copy2(tmp_path / "dump" / FACTS, bare / FACTS)
        cases = {
            changed: "facts.parquet' is not the file exported with .* it changed since the export; export again",
            swapped: "records.parquet' is not the file exported with",
            missing: "records.parquet' is missing; the export is incomplete, export again",
            bare: "is a folder without manifest.json: not a kgbrain Parquet export",
        }
        for folder, message in cases.items():
            with pytest.raises(InputError, match=message):
                other.load([folder])
            with pytest.raises(InputError, match=message):  # with a good file beside it: none of them loads
                other.load([tmp_path / "dump", folder])
            assert _export(other) == before


def test_export_refuses_a_folder_of_other_files(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me\n", encoding="utf-8")
    with Brain.open(None) as brain, pytest.raises(InputError, match="holds other files, not a kgbrain export"):
        brain.export_parquet(folder)
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_cli_export_and_load_a_parquet_folder(tmp_path: Path) -> None:
    runner = CliRunner()
    first, second, dump = tmp_path / "a.kuzu", tmp_path / "b.kuzu", tmp_path / "dump"
    assert runner.invoke(cli, ["--db", str(first), "load", *map(str, _family(tmp_path))]).exit_code == 0
    done = runner.invoke(cli, ["--db", str(first), "export", "--format", "parquet", str(dump)])
    assert done.exit_code == 0, done.output
    assert "rows written to" in done.stderr
    assert sorted(p.name for p in dump.iterdir()) == sorted([FACTS, RECORDS, MANIFEST])
    assert runner.invoke(cli, ["--db", str(second), "load", str(dump)]).exit_code == 0
    a = runner.invoke(cli, ["--db", str(first), "export"]).stdout
    b = runner.invoke(cli, ["--db", str(second), "export"]).stdout
    assert [json.loads(x) | {"loaded_at": None} for x in b.splitlines()] == [
        json.loads(x) | {"loaded_at": None} for x in a.splitlines()
    ]
    refused = runner.invoke(cli, ["--db", str(first), "export", "--format", "parquet"])
    assert refused.exit_code == 2
    assert "--format parquet writes a folder" in refused.stderr
