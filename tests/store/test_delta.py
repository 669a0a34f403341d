"""The delta layout (schema version 8): new facts go to a delta table beside each fact table, every query reads
both, and `merge_deltas` moves the delta into the main table, all or nothing, with every answer unchanged."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError
from kgbrain.store import KuzuStore, engine, schema
from kgbrain.store.queries import load_template

# Kùzu 0.11.3 keeps new facts in the main tables (see engine.writes_to_deltas); there the deltas stay empty.
on_deltas = pytest.mark.skipif(not engine.writes_to_deltas(), reason="Kùzu writes no deltas")


def _facts(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _batch(folder: Path, name: str, n: int) -> Path:
    """n facts over every kind of table: core, generic, literal, with a negation and a retractable one."""
    rows: list[dict[str, object]] = []
    for i in range(n):
        rows.append({"subject": f"{name}_{i}", "predicate": "is_a", "object": f"kind_{i % 4}"})
        rows.append({"subject": f"kind_{i % 4}", "predicate": "part_of", "object": "whole", "confidence": 0.8})
        rows.append({"subject": f"{name}_{i}", "predicate": "located_in", "object": f"place_{i % 3}"})
        rows.append({"subject": f"{name}_{i}", "predicate": "weight", "value": i + 0.5, "unit": "kg"})
        rows.append({"subject": f"{name}_{i}", "predicate": "has_property", "object": "red", "polarity": i % 2 == 0})
    return _facts(folder / f"{name}.jsonl", rows)


def _export(brain: Brain) -> list[str]:
    out = io.StringIO()
    brain.export(out)
    return sorted(out.getvalue().splitlines())


def _answers(brain: Brain) -> tuple[object, ...]:
    """What the layers above read: counts, one concept's facts, a question, a verification, a rule-free query."""
    stats = brain.stats()
    facts = sorted((f.predicate, f.target, f.status.value) for f in brain.facts("a_1").facts)
    answer = brain.ask("Is a_1 a kind_1?")
    rows = sorted(map(repr, brain.query("is_a(X, kind_1), weight(X, W)").rows))
    return stats.facts, stats.active_facts, stats.predicates, facts, answer.text, answer.confidence, rows


def _main_and_delta(store: KuzuStore) -> tuple[int, int]:
    count = "MATCH ()-[r:{}]->() RETURN count(*) AS n"
    main = sum(int(store.run_generated(count.format(t))[0]["n"]) for t in schema.FACT_TABLES)
    return main, sum(store.delta_rows().values())


@on_deltas
def test_new_facts_go_to_the_delta_and_a_merge_moves_them_with_every_answer_unchanged(tmp_path: Path) -> None:
    for db in (tmp_path / "kb.kuzu", None):  # on a file (COPY on the working copy) and in memory (row by row)
        with Brain.open(db) as brain:
            brain.load([_batch(tmp_path, "a", 12)])
            brain.retract(brain.facts("a_2").facts[0].fact_id, reason="test")
            store = brain.store
            assert isinstance(store, KuzuStore)
            main, delta = _main_and_delta(store)
            assert delta > 0
            assert set(store.delta_rows()) >= {"IS_A", "PART_OF", "REL", "ATTR", "HAS_PROPERTY"}
            before, export = _answers(brain), _export(brain)
            assert brain.compact() == delta
            assert _main_and_delta(store) == (main + delta, 0)
            assert _answers(brain) == before
            assert _export(brain) == export
            assert brain.compact() == 0  # nothing left to move
            brain.load([_batch(tmp_path, "b", 3)])  # the next load goes to the emptied delta, read with the rest
            assert sum(store.delta_rows().values()) > 0
            assert brain.stats().facts > before[0]  # type: ignore[operator]


@on_deltas
def test_a_load_merges_the_delta_once_it_passes_the_threshold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGBRAIN_DELTA_MERGE_ROWS", "25")
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        store = brain.store
        assert isinstance(store, KuzuStore)
        brain.load([_batch(tmp_path, "a", 2)])  # 10 facts: below the threshold, they wait
        waiting = sum(store.delta_rows().values())
        assert 0 < waiting < 25
        brain.load([_batch(tmp_path, "b", 4)])  # 20 more: past it, the load's own block merges them
        assert store.delta_rows() == {}
        assert _main_and_delta(store)[0] == brain.stats().facts


def test_a_bad_threshold_is_a_message_before_anything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        before = brain.stats()
        monkeypatch.setenv("KGBRAIN_DELTA_MERGE_ROWS", "many")
        with pytest.raises(InputError, match="KGBRAIN_DELTA_MERGE_ROWS='many' must be a number"):
            brain.load([_batch(tmp_path, "a", 1)])
        assert brain.stats() == before


def test_the_merge_templates_carry_every_fact_column_in_order() -> None:
    copy = re.sub(r"\s+", " ", load_template("delta_merge_copy"))
    assert "RETURN a.id, b.id, " + ", ".join(f"r.{c}" for c in schema.FACT_COLUMNS) + " )" in copy
    create = re.sub(r"\s+", " ", load_template("delta_merge_create"))
    assert "{" + ", ".join(f"{c}: r.{c}" for c in schema.FACT_COLUMNS) + "}" in create


def test_a_version_7_database_migrates_and_keeps_its_facts(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([_batch(tmp_path, "a", 5)])
        brain.compact()
        before, facts = _export(brain), brain.stats().facts
    with KuzuStore(db) as store, store.transaction():  # make it what kgbrain before the delta layout wrote
        for delta in schema.DELTA_TABLES.values():
            store.ddl(f"DROP TABLE {delta}", what="test")
        store.run("meta_set", key="schema_version", value="7")
    with pytest.raises(Exception, match="run `kgbrain init`"):
        Brain.open(db, read_only=True)
    with Brain.open(db) as brain:
        assert brain.store.schema_version == schema.latest_version() == 8
        assert _export(brain) == before
        brain.load([_batch(tmp_path, "b", 2)])
        assert brain.stats().facts == facts + 10


@on_deltas
def test_kgbrain_compact_merges_and_says_how_many(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    runner = CliRunner()
    assert runner.invoke(cli, ["--db", str(db), "load", str(_batch(tmp_path, "a", 3))]).exit_code == 0
    done = runner.invoke(cli, ["--db", str(db), "compact"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == "15 facts merged into the main tables."
    again = runner.invoke(cli, ["--db", str(db), "compact"])
    assert again.output.strip() == "Nothing to merge."


def test_facts_stay_in_the_main_tables_where_the_engine_writes_no_deltas(tmp_path: Path) -> None:
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load([_batch(tmp_path, "a", 2)])
        store = brain.store
        assert isinstance(store, KuzuStore)
        main, delta = _main_and_delta(store)
        assert (main, delta) == ((0, 10) if engine.writes_to_deltas() else (10, 0))
        assert brain.stats().facts == 10


# Loads a batch into the delta (no merge: the threshold is high), says so, then merges; the test kills it.
MERGER = textwrap.dedent(
    """
    import sys
    from kgbrain.api import Brain
    with Brain.open(sys.argv[1]) as brain:
        print("merging", flush=True)
        brain.compact()
        print("merged", flush=True)
    """
)


@on_deltas
@pytest.mark.slow
def test_a_merge_killed_at_any_moment_leaves_all_or_nothing_and_a_rerun_completes(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    rng = random.Random(8)
    for round_ in range(5):
        with Brain.open(db) as brain:
            brain.load([_batch(tmp_path, f"r{round_}", 400)])
            store = brain.store
            assert isinstance(store, KuzuStore)
            counts, export = _main_and_delta(store), _export(brain)
        with subprocess.Popen([sys.executable, "-c", MERGER, str(db)], stdout=subprocess.PIPE, text=True) as merger:
            assert merger.stdout is not None
            assert merger.stdout.readline().strip() == "merging"
            time.sleep(rng.uniform(0.0, 1.5))  # a merge of these 2,000 facts takes about a second here
            merger.kill()
            merger.wait()
        with Brain.open(db) as brain:
            store = brain.store
            assert isinstance(store, KuzuStore)
            after = _main_and_delta(store)
            assert after in (counts, (sum(counts), 0)), (counts, after)  # the old file or the merged one
            assert _export(brain) == export
            brain.compact()  # a re-run completes
            assert _main_and_delta(store) == (sum(counts), 0)
            assert _export(brain) == export
