"""A long key list runs in parts (store/batches.py): the rows are the rows of one query over the whole list.

The GO probe's load asked `facts_by_key_concept` about 100,000 subjects with some twenty types each, and the
engine's buffer pool filled up; the store now runs such a list a part at a time. Checked with caps small enough
that the lists here are split, and shrunk by the row cap, against the same reads run whole.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.store import batches

SUBJECTS = [f"s{i}" for i in range(23)]


def _facts(tmp: Path) -> Path:
    rows = [{"subject": s, "predicate": "instance_of", "object": f"c{j}"} for i, s in enumerate(SUBJECTS) for j in
            range(i % 4)]  # fmt: skip
    rows += [{"subject": s, "predicate": "weight", "value": i} for i, s in enumerate(SUBJECTS)]
    path = tmp / "facts.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _reads(brain: Brain) -> dict[str, Any]:
    keys = ["nobody", *SUBJECTS]
    asked = {"subjects": keys, "predicates": ["instance_of", "weight"]}
    concept = brain.store.arrow_table("facts_by_key_concept", "INSTANCE_OF", **asked)
    return {
        "concept": sorted(map(str, concept.to_pylist())),
        "value": sorted(map(str, brain.store.iterate_table("facts_by_key_value", "ATTR", **asked))),
        "named": sorted(map(str, brain.store.run("concepts_existing", ids=keys))),
    }


def test_a_list_longer_than_the_cap_gives_the_rows_of_one_query(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Brain.open(None) as brain:
        brain.load([_facts(tmp_path)])
        whole = _reads(brain)
        assert len(whole["concept"]) == sum(i % 4 for i in range(len(SUBJECTS)))
        calls: list[int] = []
        run = brain.store._session.arrow  # type: ignore[attr-defined]

        def counted(text: str, params: dict[str, Any], *, what: str) -> Any:
            calls.append(len(params.get("subjects", ())))
            return run(text, params, what=what)

        monkeypatch.setattr(brain.store._session, "arrow", counted)  # type: ignore[attr-defined]
        monkeypatch.setattr(batches, "KEY_BATCH", 5)
        monkeypatch.setattr(batches, "ROW_BATCH", 4)
        assert _reads(brain) == whole
        assert sum(calls) == len(SUBJECTS) + 1
        assert max(calls) == 5
        assert min(calls) < 5  # a part over the row cap made the next one smaller


def test_a_read_whose_rows_cross_keys_runs_whole() -> None:
    keys = list(range(batches.KEY_BATCH + 1))
    assert batches.batched_key("// x\nUNWIND $ids AS i MATCH (c {id: i}) RETURN c.id", {"ids": keys}) == "ids"
    for text in (
        "UNWIND $ids AS i MATCH (c {id: i}) RETURN DISTINCT c.kind",
        "UNWIND $ids AS i MATCH (c {id: i}) RETURN count(*) AS n",
        "UNWIND $ids AS i MATCH (c {id: i}) RETURN c.id ORDER BY c.id LIMIT 3",
        "UNWIND $ids AS i MATCH (c {id: i}) WHERE list_contains($ids, c.id) RETURN c.id",
        "UNWIND $ids AS i MATCH (c {id: i}) SET c.kind = 'x'",
        "MATCH (c) WHERE c.id IN $ids RETURN c.id",
    ):
        assert batches.batched_key(text, {"ids": keys}) is None, text
    assert batches.batched_key("UNWIND $ids AS i RETURN i", {"ids": keys[:-1]}) is None  # short enough
