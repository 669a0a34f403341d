"""The store contract on the real engine (ladybug; kuzu with KGBRAIN_BACKEND=kuzu): named queries, parameters,
transactions, schema versions, locking."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import pyarrow as pa
import pytest

from kgbrain.errors import DatabaseLocked, QueryError, SchemaVersionError, StoreError
from kgbrain.store import KuzuStore, engine, engine_package, kuzu_store, schema
from kgbrain.store.queries import Query, all_query_names, load_query, queries_dir

ROOT = Path(__file__).resolve().parents[2]

# Queries whose UNWIND $rows needs typed sample rows for EXPLAIN to bind (NULL rows cannot be unwound).
SAMPLE_PARAMS = {
    "meta_set_many": {"rows": [{"key": "k", "value": "v"}]},
    "concept_update_annotations": {
        "rows": [
            {
                "id": "a",
                "kind": "class",
                "label_en": "a",
                "label_ru": "а",
                "description_en": "d",
                "description_ru": "д",
                "description": "d",
            }
        ]
    },
    "predicate_add": {"rows": [{"name": "p", "inheritable": True, "source": "s"}]},
    "predicate_declare": {
        "rows": [
            {
                "name": "p",
                "transitive": True,
                "symmetric": False,
                "functional": False,
                "inheritable": True,
                "inverse_of": "q",
                "opposite_of": "r",
                "domain": "d",
                "range": "r",
                "sub_property_of": ["x"],
            }
        ]
    },
    "source_add": {"rows": [{"name": "s", "trust": 0.5, "authority": "NORM"}]},
}


def _arrow(**cols: list[object]) -> object:
    import pyarrow as pa

    return pa.table(cols)


# Rule storage statements read `LOAD FROM $rows`, which takes only Arrow tables.
SAMPLE_PARAMS.update(
    {
        "rules_add": {
            "rows": _arrow(id=["r"], text=["[r] p(a)."], kind=["strict"], origin=["x"], authority=["N"], position=[0])
        },
        "rules_order_add": {"rows": _arrow(id=["a>b"], stronger=["a"], weaker=["b"])},
        "rules_concepts_add": {"rows": _arrow(id=["a"])},
        "rules_factrefs_add": {"rows": _arrow(id=["f"])},
        "rules_derivations_add": {"rows": _arrow(id=["d"], rule=["r"], fact_id=["f"], premises=[["g"]])},
        "derivation_restore": {
            "rows": _arrow(id=["d"], rule=["r"], fact_id=["f"], status=["active"], premises=[["g"]])
        },
        "rules_derives_add": {"rows": _arrow(id=["d"], fact_id=["f"])},
        "rules_uses_add": {"rows": _arrow(id=["d"], fact_id=["f"])},
        "tms_retractions_put": {
            "rows": _arrow(
                fact_id=["f"],
                previous_status=["active"],
                retracted_at=[datetime(2026, 1, 1)],
                retracted_by=["kgbrain:rules"],
                reason=["why"],
            )
        },
        "rules_values_add": {
            "rows": _arrow(id=["v"], lexical=["1"], datatype=["integer"], unit=["kg"], lang=["en"], number=[1.0])
        },
    }
)


def test_new_store_has_latest_schema() -> None:
    with KuzuStore(None) as store:
        assert store.schema_version == schema.latest_version()
        assert store.run("meta_get", key="schema_version") == [{"value": str(schema.latest_version())}]


def test_run_rejects_missing_and_extra_parameters() -> None:
    with KuzuStore(None) as store:
        with pytest.raises(QueryError, match=r"meta_get: expected params \['key'\], got \[\]"):
            store.run("meta_get")
        with pytest.raises(QueryError, match="got \\['key', 'other'\\]"):
            store.run("meta_get", key="x", other=1)


def test_null_list_parameter_is_refused_before_it_reaches_kuzu(monkeypatch: pytest.MonkeyPatch) -> None:
    query = Query("ids_in", "MATCH (c:Concept) WHERE c.id IN $ids RETURN c.id", frozenset({"ids"}), frozenset({"ids"}))
    original = kuzu_store.load_query
    monkeypatch.setattr(kuzu_store, "load_query", lambda name: query if name == "ids_in" else original(name))
    with KuzuStore(None) as store:
        with pytest.raises(QueryError, match="used with IN and must be lists"):
            store.run("ids_in", ids=None)
        assert store.run("ids_in", ids=["nope"]) == []


def test_unknown_query_name_is_a_query_error() -> None:
    with KuzuStore(None) as store, pytest.raises(QueryError, match="no query named 'no_such_query'"):
        store.run("no_such_query")


def test_engine_errors_become_store_errors() -> None:
    with KuzuStore(None) as store, pytest.raises(StoreError, match="COPY into Concept failed"):
        store.copy("Concept", pa.table({"id": ["a"], "nope": ["x"]}))


def test_every_query_file_parses_and_binds_against_the_schema() -> None:
    names = all_query_names()
    assert len(names) >= 20
    failures = {}
    with KuzuStore(None) as store:
        for name in names:
            query = load_query(name)
            nulls = {p: ([] if p in query.list_params else None) for p in query.params}  # NULL lists crash Kùzu
            example = _example(name)
            attempts = [example] if example is not None else [_guess(query.params), nulls]
            for params in attempts:
                try:
                    store._session.execute("EXPLAIN " + query.text, params, what=name).close()
                    failures.pop(name, None)
                    break
                except StoreError as exc:
                    failures[name] = str(exc)
    assert failures == {}


def _example(name: str) -> dict[str, object] | None:
    """Sample parameters a query file documents in a `// example: {...}` comment line (or SAMPLE_PARAMS)."""
    if name in SAMPLE_PARAMS:
        return SAMPLE_PARAMS[name]
    for line in (queries_dir() / f"{name}.cypher").read_text(encoding="utf-8").splitlines():
        if line.startswith("// example:"):
            return json.loads(line.removeprefix("// example:"))  # type: ignore[no-any-return]
    return None


def _guess(params: frozenset[str]) -> dict[str, object]:
    """Plausible values for EXPLAIN: lists for plural names, small ints for limits and depths, else text."""
    out: dict[str, object] = {}
    for p in params:
        if p.endswith("s") and p not in ("status",):
            out[p] = ["x"]
        elif p in ("limit", "k", "n", "depth", "top", "hops") or p.startswith(("max_", "min_")):
            out[p] = 1
        else:
            out[p] = "x"
    return out


def test_every_query_file_is_used_by_the_package() -> None:
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "kgbrain").rglob("*.py"))
    unused = [n for n in all_query_names() if not re.search(rf"[\"']{n}[\"']", source)]
    assert unused == []


def test_transaction_rolls_back_everything_on_error() -> None:
    with KuzuStore(None) as store:

        def fail_half_way() -> None:
            with store.transaction():
                store.run("meta_set", key="k", value="v")
                store.copy("Term", pa.table({"key": ["t1", "t2"]}))
                raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            fail_half_way()
        assert store.run("meta_get", key="k") == []
        assert store.run("terms_existing", keys=["t1", "t2"]) == []


def test_transaction_commits() -> None:
    with KuzuStore(None) as store:
        with store.transaction():
            store.run("meta_set", key="k", value="v")
        assert store.run("meta_get", key="k") == [{"value": "v"}]


def test_read_only_store_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    KuzuStore(path).close()
    with KuzuStore(path, read_only=True) as store:
        with pytest.raises(StoreError, match="read-only"), store.transaction():
            pass
        assert store.run("meta_get", key="schema_version")


def test_read_only_open_of_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        KuzuStore(tmp_path / "missing.kuzu", read_only=True)


def test_newer_schema_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    with KuzuStore(path) as store:
        store.run("meta_set", key="schema_version", value="999")
    with pytest.raises(SchemaVersionError, match="schema version 999, but this kgbrain knows only up to"):
        KuzuStore(path)
    assert not Path(str(path) + ".lock").exists() or _lock_is_free(path)


def _lock_is_free(path: Path) -> bool:
    try:
        KuzuStore(path, lock_timeout_s=0.1)
    except SchemaVersionError:
        return True  # it got past the lock
    return False


def test_older_database_is_migrated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "kb.kuzu"
    KuzuStore(path).close()
    newer = tmp_path / "queries"
    shutil.copytree(queries_dir(), newer)
    (newer / "migrations").mkdir(exist_ok=True)
    (newer / "migrations" / "900_test.cypher").write_text(
        "// test migration\nCREATE NODE TABLE MigratedT(id STRING, PRIMARY KEY(id));\n", encoding="utf-8"
    )
    monkeypatch.setattr(schema, "queries_dir", lambda: newer)
    with KuzuStore(path) as store:
        assert store.schema_version == 900
        assert "MigratedT" in store.tables()
        assert store.run("meta_get", key="schema_version") == [{"value": "900"}]


HOLDER = textwrap.dedent(
    """
    import sys, time
    from kgbrain.store import KuzuStore
    store = KuzuStore(sys.argv[1])
    print("ready", flush=True)
    time.sleep(float(sys.argv[2]))
    store.close()
    """
)


def test_second_writer_waits_then_gets_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(path), "30"], stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout is not None
            assert holder.stdout.readline().strip() == "ready"
            with pytest.raises(DatabaseLocked, match=rf"in use by another process \(pid {holder.pid}\)"):
                KuzuStore(path, lock_timeout_s=0.3)
        finally:
            holder.kill()


def test_second_writer_waits_for_the_first_to_finish(tmp_path: Path) -> None:
    path = tmp_path / "kb.kuzu"
    with subprocess.Popen([sys.executable, "-c", HOLDER, str(path), "1"], stdout=subprocess.PIPE, text=True) as holder:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "ready"
        with KuzuStore(path, lock_timeout_s=30) as store:
            assert store.schema_version == schema.latest_version()


OPENER = textwrap.dedent(
    """
    import sys
    from kgbrain.store import engine_package
    package = engine_package.load()
    while True:  # what every kgbrain writer does first: open the file read-write (Kùzu writes a log as it opens)
        package.Database(sys.argv[1]).close()
    """
)


@pytest.mark.slow
def test_a_reader_replays_the_log_of_a_writer_killed_as_it_opened(tmp_path: Path) -> None:
    """Kùzu refuses a read-only open while a killed writer's log is beside the file; the store replays it first.

    Ladybug writes no log while it opens, but the opener's close checkpoints, and a kill inside that checkpoint
    leaves "recovery is pending" (seen at load ~15): either way the store's read-only open must replay and read.
    """
    on_kuzu = engine.backend() == "kuzu"
    path = tmp_path / "kb.kuzu"
    with KuzuStore(path) as store:
        store.run("meta_set", key="probe", value="kept")
    log = path.with_name(path.name + ".wal")
    # The opener shares one core with this loop at the lowest priority: the loop runs whenever it can, so it sees
    # the log as soon as the opener writes it, however busy the machine is.
    cpu = {min(os.sched_getaffinity(0))}
    mine = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpu)
    try:
        for _ in range(100 if on_kuzu else 10):
            with subprocess.Popen(
                [sys.executable, "-c", OPENER, str(path)],
                preexec_fn=lambda: (os.sched_setaffinity(0, cpu), os.nice(19)),  # type: ignore[func-returns-value]
            ) as opener:
                deadline = time.monotonic() + (60 if on_kuzu else 1.5)
                while not (log.exists() and _size(path.with_name(path.name + ".shadow")) > 0) and opener.poll() is None:
                    if time.monotonic() > deadline:
                        break
                    # (Kùzu writes its shadow pages, then the log: an empty shadow file does not stop a reader)
                opener.kill()
            if _refused_read_only(path):
                break
        else:
            if on_kuzu:
                pytest.fail("never caught Kùzu with its log open in 100 tries")
    finally:
        os.sched_setaffinity(0, mine)
    with KuzuStore(path, read_only=True) as store:
        assert store.run("meta_get", key="probe") == [{"value": "kept"}]
    assert not _refused_read_only(path)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return -1


def _refused_read_only(path: Path) -> bool:
    try:
        engine_package.load().Database(str(path), read_only=True).close()
    except RuntimeError as exc:
        return engine.needs_replay(StoreError(str(exc)))
    return False
