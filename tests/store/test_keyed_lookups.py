"""A load's look-ups keyed by the subjects it touches (issue #25) answer what the whole-table forms answer.

`facts_by_key_concept` / `facts_by_key_value` (the stored facts a load's new facts may conflict with) and
`fact_ids_of` (its duplicate check) reach the facts through the subjects' key lookup, so their cost follows the
load; the references are the plain forms in queries/ that join against every fact (`conflict_facts_of`,
`facts_existing`, `export_facts`). Checked on random knowledge bases with facts in the main tables, in the
deltas and retracted, and end to end on the load's de-duplication and conflicts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.store.schema import ATTR_TABLE, CORE_TABLES, GENERIC_TABLE

CONCEPTS = ["a", "b", "c", "d", "e"]
PREDICATES = ["is_a", "part_of", "causes", "prevents", "related_to", "likes", "weight"]
SOURCES = ["s1", "s2"]

_fact = st.fixed_dictionaries(
    {
        "subject": st.sampled_from(CONCEPTS),
        "predicate": st.sampled_from(PREDICATES),
        "object": st.sampled_from(CONCEPTS),
        "polarity": st.booleans(),
        "source": st.sampled_from(SOURCES),
        "value": st.integers(0, 2),
    }
)


def _row(fact: dict[str, Any]) -> dict[str, Any]:
    row = {k: fact[k] for k in ("subject", "predicate", "polarity", "source")}
    if fact["predicate"] == "weight":
        return {**row, "value": fact["value"], "unit": "kg"}
    return {**row, "object": fact["object"]}


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _build(tmp: Path, first: list[dict[str, Any]], second: list[dict[str, Any]], retract: list[int]) -> Brain:
    """A KB with `first` merged into the main tables, `second` waiting in the deltas, some facts retracted."""
    brain = Brain.open(None)
    brain.load([_write(tmp / "first.jsonl", [_row(f) for f in first])])
    brain.compact()
    if second:
        brain.load([_write(tmp / "second.jsonl", [_row(f) for f in second])])
    ids = sorted(r["fact_id"] for r in _all_facts(brain))
    for pick in sorted({i % len(ids) for i in retract}) if ids else ():
        brain.retract(ids[pick])
    return brain


def _all_facts(brain: Brain) -> list[dict[str, Any]]:
    return brain.store.run("export_facts", first="", last="\uffff")


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((k, str(v)) for k, v in row.items() if k != "object_table"))


@settings(max_examples=10, deadline=None)
@given(
    st.lists(_fact, min_size=1, max_size=12),
    st.lists(_fact, max_size=8),
    st.lists(st.integers(0, 50), max_size=3),
    st.sets(st.sampled_from([*CONCEPTS, "nobody"]), min_size=1),
    st.sets(st.sampled_from(PREDICATES), min_size=1),
)
def test_facts_by_key_match_the_whole_table_form(
    tmp_path_factory: Any,
    first: list[dict[str, Any]],
    second: list[dict[str, Any]],
    retract: list[int],
    subjects: set[str],
    predicates: set[str],
) -> None:
    with _build(tmp_path_factory.mktemp("kb"), first, second, retract) as brain:
        wanted = sorted(subjects)
        reference = [
            r
            for r in brain.store.run("conflict_facts_of", ids=wanted)
            if r["predicate"] in predicates and r["status"] != "retracted"
        ]
        got: list[dict[str, Any]] = []
        for table in sorted({ATTR_TABLE, GENERIC_TABLE, *CORE_TABLES.values()}):
            template = "facts_by_key_value" if table == ATTR_TABLE else "facts_by_key_concept"
            got += brain.store.arrow_table(template, table, subjects=wanted, predicates=sorted(predicates)).to_pylist()
        assert sorted(map(_key, got)) == sorted(map(_key, reference))


@settings(max_examples=10, deadline=None)
@given(
    st.lists(_fact, min_size=1, max_size=12),
    st.lists(_fact, max_size=8),
    st.sets(st.sampled_from([*CONCEPTS, "nobody"]), min_size=1),
)
def test_fact_ids_of_subjects_are_the_stored_ids_of_their_facts(
    tmp_path_factory: Any, first: list[dict[str, Any]], second: list[dict[str, Any]], subjects: set[str]
) -> None:
    with _build(tmp_path_factory.mktemp("kb"), first, second, []) as brain:
        stored = _all_facts(brain)
        got = {r["fact_id"] for r in brain.store.run("fact_ids_of", subjects=sorted(subjects))} - {None}
        assert got == {r["fact_id"] for r in stored if r["subject"] in subjects}
        ids = [*sorted(got), "f_not_stored"]
        assert got == {r["fact_id"] for r in brain.store.run("facts_existing", ids=ids)}


@settings(max_examples=8, deadline=None)
@given(st.lists(_fact, min_size=1, max_size=10), st.lists(_fact, min_size=1, max_size=10))
def test_a_load_skips_exactly_the_stored_facts(
    tmp_path_factory: Any, first: list[dict[str, Any]], second: list[dict[str, Any]]
) -> None:
    """The second load holds new facts and facts stored already (in the main tables or the deltas): only the
    new ones are added, and the conflicts found are those of the same facts loaded into a fresh KB."""
    tmp = tmp_path_factory.mktemp("kb")
    with Brain.open(None) as brain:
        brain.load([_write(tmp / "first.jsonl", [_row(f) for f in first[: len(first) // 2]])])
        brain.compact()
        brain.load([_write(tmp / "mid.jsonl", [_row(f) for f in first[len(first) // 2 :]])])
        stored = {r["fact_id"] for r in _all_facts(brain)}
        report = brain.load([_write(tmp / "second.jsonl", [_row(f) for f in second])])[0]
        after = {r["fact_id"] for r in _all_facts(brain)}
        found = sorted(c.id for c in brain.conflicts())
    with Brain.open(None) as fresh:
        fresh.load([_write(tmp / "fresh.jsonl", [_row(f) for f in first])])
        fresh.load([_write(tmp / "fresh2.jsonl", [_row(f) for f in second])])
        expected = {r["fact_id"] for r in _all_facts(fresh)}
        conflicts = sorted(c.id for c in fresh.conflicts())
    assert after == expected
    assert report.facts_added == len(expected - stored)
    assert found == conflicts
