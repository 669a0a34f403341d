"""Inside the transaction that created a concept, Kùzu 0.11.3 returns that concept's new relationship once per
relationship table through a label-free pattern (`(s:Concept)-[r]->()`: 12 rows for one fact). Every query that
can run inside a write (load hooks, truth maintenance, rule rounds, counts) de-duplicates; these would see the
copies otherwise. Ladybug 0.22 fixed the trap (each fact comes back once); the guards stay for the Kùzu backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.ingest.loader import load_batch
from kgbrain.ingest.tabular import read_facts_file
from kgbrain.store import engine
from tests.conftest import write_jsonl


class _Abort(Exception):
    pass


@pytest.mark.parametrize("on_disk", [False, True])
def test_queries_see_each_new_fact_once_inside_the_load_transaction(tmp_path: Path, on_disk: bool) -> None:
    old = [
        {"subject": "a", "predicate": "is_a", "object": "b"},
        {"subject": "a", "predicate": "part_of", "object": "c"},
        {"subject": "a", "predicate": "weight", "value": 3},
    ]
    # `x` is a new concept: its relationship is the one the label-free scan repeats; `a` is stored already.
    new = [
        {"subject": "x", "predicate": "is_a", "object": "b"},
        {"subject": "x", "predicate": "weight", "value": 4},
        {"subject": "a", "predicate": "causes", "object": "c"},
    ]
    with Brain.open(tmp_path / "kb.kuzu" if on_disk else None) as brain:
        brain.load([write_jsonl(tmp_path / "old.jsonl", old)])
        store = brain.store
        batch = read_facts_file(write_jsonl(tmp_path / "new.jsonl", new))

        def inside_the_load() -> None:
            with store.transaction():
                added = load_batch(store, batch).added
                ids = list(added.column("fact_id"))
                subjects = sorted(set(added.column("subject")))
                # The trap itself, per engine, so this test notices when an engine changes its behaviour.
                raw = store._session.execute("MATCH (s:Concept {id: 'x'})-[r]->() RETURN count(*)", {}, what="probe")
                seen = raw.get_next()[0]  # x has two facts
                raw.close()
                assert seen > 2 if engine.backend() == "kuzu" else seen == 2

                got = [r["fact_id"] for r in store.run("tms_facts_get", ids=ids)]
                assert sorted(got) == sorted(ids)
                existing = store.run("rules_facts_existing", subjects=subjects, ids=ids)
                assert sorted(r["fact_id"] for r in existing) == sorted(ids)
                assert sorted(r["fact_id"] for r in store.run("facts_existing", ids=ids)) == sorted(ids)
                active = store.run("rules_subject_facts", subjects=["x"], active="active")
                assert len(active) == 2
                counts = {(r["tbl"], r["predicate"]): r["facts"] for r in store.run("fact_counts")}
                assert counts == {
                    ("IS_A", "is_a"): 2,
                    ("PART_OF", "part_of"): 1,
                    ("CAUSES", "causes"): 1,
                    ("ATTR", "weight"): 2,
                }
                assert store.run("fact_status_counts") == [{"status": "active", "facts": 6}]
                assert store.run("graph_fingerprint")[0]["facts"] == 6
                updated = store.run(
                    "tms_facts_update_fresh",
                    subjects=["x"],
                    ids=[ids[0]],
                    statuses=["disputed"],
                    confidences=[0.25],
                )
                assert updated == []
                assert [r["status"] for r in store.run("tms_facts_get", ids=[ids[0]])] == ["disputed"]
                raise _Abort

        with pytest.raises(_Abort):  # rolled back: nothing of it stays
            inside_the_load()
