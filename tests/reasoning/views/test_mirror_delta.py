"""A mirror refreshed after each write (only the touched subjects re-read) equals one rebuilt from every fact.

Random writes through Brain on a real Kùzu file: loads (positive and negative facts from several sources, so
contradictions are detected and facts become disputed), retractions and resolutions of recorded conflicts; a
second connection's reasoner refreshes its mirror from the subjects each write names.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest.loader import LoadReport
from kgbrain.reasoning.answering.reasoner import Reasoner
from kgbrain.reasoning.views.graph import FactGraph

CONCEPTS = ["ant", "bee", "cat", "dog", "eel", "fox"]
PREDICATES = ["is_a", "part_of", "causes", "has_property", "likes", "hates"]
# Declared opposite: facts with both between two concepts lose confidence and stay active.
DECLARATIONS = '{"subject": "likes", "predicate": "opposite_of", "object": "hates"}\n'
SOURCES = [("lab", 0.9), ("blog", 0.3), ("wiki", 0.6)]

fact = st.tuples(
    st.sampled_from(CONCEPTS),
    st.sampled_from(PREDICATES),
    st.sampled_from(CONCEPTS),
    st.booleans(),
    st.sampled_from(range(len(SOURCES))),
)
operation = st.one_of(
    st.tuples(st.just("load"), st.lists(fact, min_size=1, max_size=6)),
    st.tuples(st.just("retract"), st.integers(0, 10_000)),
    st.tuples(st.just("resolve"), st.integers(0, 10_000), st.integers(0, 1)),
)


def canonical(g: FactGraph) -> dict[str, Any]:
    """What a mirror says, independent of its integer ids: facts, per-concept order, known concepts, inactive."""
    names, preds, sources = g.names, g.pred_names, g.source_names
    rows = sorted(
        (
            names[int(g.subject[i])],
            preds[int(g.predicate[i])],
            names[int(g.object[i])],
            bool(g.polarity[i]),
            float(g.confidence[i]),
            g.fact_id[i].decode(),
            sources[int(g.source[i])],
        )
        for i in range(g.facts)
    )
    return {
        "facts": rows,
        "known": sorted(g.index),
        "out": {c: [e.fact_id for e in g.out(c)] for c in sorted(g.index)},
        "into": {c: sorted(e.fact_id for e in g.into(c)) for c in sorted(g.index)},
        "inactive": sorted(g.inactive),
    }


def apply(brain: Brain, op: tuple[Any, ...], folder: Path, n: int) -> None:
    if op[0] == "load":
        path = folder / f"w{n}.jsonl"
        lines = []
        for s, p, o, polarity, k in op[1]:
            source, trust = SOURCES[k]
            row = {"subject": s, "predicate": p, "object": o, "polarity": polarity, "source": source, "trust": trust}
            lines.append(json.dumps(row))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        brain.load([path])
    elif op[0] == "retract":
        active = [r["fact_id"] for r in brain.store.run("graph_facts") if r["status"] == "active"]
        if active:
            brain.retract(sorted(active)[op[1] % len(active)], by="tester")
    else:
        open_ = [c for c in brain.conflicts() if c.status.value == "open"]
        if open_:
            conflict = open_[op[1] % len(open_)]
            keep = conflict.facts[op[2] % len(conflict.facts)].fact_id
            with contextlib.suppress(InputError):  # the kept fact is no longer active: refused, nothing written
                brain.resolve_conflict(conflict.id, keep=keep, by="tester")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=6))
def test_refreshed_mirror_equals_rebuilt(tmp_path_factory: Any, ops: list[tuple[Any, ...]]) -> None:
    folder = tmp_path_factory.mktemp("delta")
    with Brain.open(folder / "kb.kuzu") as writer:
        store: Any = writer.store
        store.track_facts()
        reader_store = store.connect()
        try:
            (folder / "declare.jsonl").write_text(DECLARATIONS, encoding="utf-8")
            writer.load([folder / "declare.jsonl"])
            store.take_delta()
            reader = Reasoner(reader_store)
            reader.graph()
            for n, op in enumerate(ops):
                apply(writer, op, folder, n)
                delta = store.take_delta()
                assert delta is not None
                assert not delta.unknown  # every write here is recorded
                reader.refresh(delta, LoadReport(file="test"))
                assert canonical(reader.graph()) == canonical(FactGraph.load(reader_store)), op
        finally:
            reader_store.close()


def test_retraction_is_applied_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    path.write_text(
        '{"subject": "ant", "predicate": "is_a", "object": "bee", "source": "lab"}\n'
        '{"subject": "cat", "predicate": "is_a", "object": "dog", "source": "lab"}\n',
        encoding="utf-8",
    )
    with Brain.open(tmp_path / "kb.kuzu") as writer:
        store: Any = writer.store
        writer.load([path])
        store.track_facts()
        reader_store = store.connect()
        try:
            reader = Reasoner(reader_store)
            before = reader.graph()
            [fact_id] = [r["fact_id"] for r in store.run("graph_facts") if r["subject"] == "cat"]
            writer.retract(fact_id, by="tester")
            delta = store.take_delta()
            assert delta is not None
            assert delta.updated == {fact_id: ("retracted", 1.0)}
            assert not delta.added
            assert not delta.reread
            reader.refresh(delta, LoadReport(file="test"))
            after = reader.graph()
            assert after is not before
            assert "cat" not in after.index  # its only fact went: a rebuilt mirror does not know it either
            assert "cat" in after.inactive
            assert [e.object for e in after.out("ant")] == ["bee"]
        finally:
            reader_store.close()


def test_confidence_lowered_by_a_conflict_is_applied(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(DECLARATIONS + '{"subject": "ant", "predicate": "likes", "object": "bee"}\n', encoding="utf-8")
    second.write_text('{"subject": "ant", "predicate": "hates", "object": "bee", "source": "blog"}\n', encoding="utf-8")
    with Brain.open(tmp_path / "kb.kuzu") as writer:
        store: Any = writer.store
        writer.load([first])
        store.track_facts()
        reader_store = store.connect()
        try:
            reader = Reasoner(reader_store)
            before = {e.fact_id: e.confidence for e in reader.graph().out("ant")}
            writer.load([second])
            delta = store.take_delta()
            assert delta is not None
            lowered = {f for f, (status, conf) in delta.updated.items() if status == "active" and f in before}
            assert lowered  # the earlier fact stays active with less confidence
            reader.refresh(delta, LoadReport(file="test"))
            after = {e.fact_id: e.confidence for e in reader.graph().out("ant")}
            assert all(after[f] < before[f] for f in lowered)
            assert canonical(reader.graph()) == canonical(FactGraph.load(reader_store))
        finally:
            reader_store.close()
