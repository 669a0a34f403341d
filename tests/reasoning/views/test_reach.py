"""The reachability labels and pruned walks agree with Cypher's SHORTEST and with the full walk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy
from kgbrain.reasoning.views.reach import Candidates, ReachIndex
from tests.conftest import write_jsonl

NODES = [f"n{i}" for i in range(8)]

edges = st.tuples(
    st.sampled_from(NODES),
    st.sampled_from(NODES),
    st.sampled_from(["is_a", "is_a", "instance_of", "part_of"]),
    st.sampled_from([True, True, True, False]),  # negative facts are never walked
    st.sampled_from(["active", "active", "active", "outdated", "retracted"]),  # nor inactive ones
)


def full_walk(h: Hierarchy, start: int) -> dict[int, int]:
    """The plain breadth-first walk the pruned one must reproduce: node -> packed (previous node, edge)."""
    stride = h.edges + 1
    offsets, targets = h.offsets.tolist(), h.targets.tolist()
    pred = {start: -1}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for k in range(offsets[node], offsets[node + 1]):
                if targets[k] not in pred:
                    pred[targets[k]] = node * stride + k
                    nxt.append(targets[k])
        frontier = nxt
    return pred


def chain_of(h: Hierarchy, pred: dict[int, int], goal: int) -> list[int]:
    edges, node = [], goal
    while pred[node] != -1:
        node, edge = divmod(pred[node], h.edges + 1)
        edges.append(edge)
    return edges[::-1]


@given(st.lists(edges, min_size=1, max_size=18))
def test_labels_and_pruned_walks_agree_with_cypher_shortest(tmp_path_factory: Any, kb: list[tuple[Any, ...]]) -> None:
    rows: list[dict[str, Any]] = [
        {"subject": s, "predicate": p, "object": o, "polarity": pol, "status": status, "source": f"s{i % 2}"}
        for i, (s, o, p, pol, status) in enumerate(kb)
        if s != o
    ]
    rows += [{"subject": n, "predicate": "related_to", "object": "other"} for n in NODES]
    path = write_jsonl(tmp_path_factory.mktemp("reach") / "kb.jsonl", rows)
    with Brain.open(None) as brain:
        brain.load([path])
        h = brain.reasoner.hierarchy()
        for x in NODES:
            # The definition: queries/ded_ancestors_shortest.cypher (active, positive is_a/instance_of).
            expected = brain.reasoner.ancestors_cypher(x) - {x}
            walked = h.ancestors(x)
            assert set(walked) == expected
            assert h.ancestor_depths(x, NODES) == walked
            assert h.ancestor_depths(x, np.asarray([h.index[n] for n in NODES if n in h.index])) == walked
            start = h.index.get(x)
            pred = full_walk(h, start) if start is not None else {}
            for y in NODES:
                assert h.is_above(x, y) == (y in expected)
                links = h.chain(x, y)
                if y not in expected:
                    assert links is None
                    continue
                assert links is not None
                assert [lk.edge for lk in links] == chain_of(h, pred, h.index[y])  # the same shortest chain
                assert len(links) == walked[y]
        # The batched walks of a verification batch (walks.py) give the same answers as the walks above.
        ids = [h.index[n] for n in NODES if n in h.index]
        expected_answers = answers(h, ids)
        h.prefetch([(i, [j]) for i in ids for j in ids] + [(i, ids) for i in ids])
        h._search = no_walk  # type: ignore[method-assign]
        assert answers(h, ids) == expected_answers


def no_walk(start: int, goals: list[int]) -> Any:
    raise AssertionError(f"walked one by one from {start} to {goals} after the batch")


def answers(h: Hierarchy, ids: list[int]) -> list[Any]:
    """Every chain and is_above answer among these nodes."""
    names = [h.names[i] for i in ids]
    return [(h.is_above(x, y), h.chain(x, y)) for x in names for y in names]


many_edges = st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23), st.booleans()), min_size=1, max_size=70)


@given(many_edges, st.lists(st.tuples(st.integers(0, 23), st.lists(st.integers(0, 23), max_size=5)), max_size=40))
def test_batched_walks_give_the_one_by_one_answers(kb: list[tuple[int, int, bool]], asks: list[Any]) -> None:
    # Larger random graphs (cycles, shared ancestors, negative edges) than the Cypher test can afford; the
    # one-by-one walks are held to Cypher's definition there.
    rows = [
        {
            "subject": f"n{s}",
            "predicate": "is_a",
            "object": f"n{o}",
            "polarity": pol,
            "confidence": 0.5 + (s % 5) / 10,
            "fact_id": f"f{i}",
            "source": "s",
        }
        for i, (s, o, pol) in enumerate(kb)
    ]
    h = Hierarchy(FactGraph(rows))
    known = [
        (h.index[f"n{s}"], [h.index[f"n{g}"] for g in goals if f"n{g}" in h.index])
        for s, goals in asks
        if f"n{s}" in h.index
    ]
    ids = sorted(set(h.index.values()))
    holders = [(s, Candidates(h.reach, np.asarray(g, dtype=np.int64))) for s, g in known if g]
    expected = answers(h, ids)
    expected_depths = [list(h.ancestor_depths(h.names[s], c).items()) for s, c in holders]  # order too
    expected_known = [
        (h.is_above(h.names[s], h.names[g]), h.chain(h.names[s], h.names[g])) for s, gs in known for g in gs
    ]
    h.prefetch(known, holders)
    assert answers(h, ids) == expected
    h._search = no_walk  # type: ignore[method-assign]
    assert [list(h.ancestor_depths(h.names[s], c).items()) for s, c in holders] == expected_depths
    assert [
        (h.is_above(h.names[s], h.names[g]), h.chain(h.names[s], h.names[g])) for s, gs in known for g in gs
    ] == expected_known


def test_labels_persist_memory_mapped(tmp_path: Path) -> None:
    offsets = np.asarray([0, 1, 3, 3, 4], dtype=np.int64)  # 0 -> 1; 1 -> 2, 3; 3 -> 1 (a cycle 1 <-> 3)
    targets = np.asarray([1, 2, 3, 1], dtype=np.int32)
    built = ReachIndex.build(offsets, targets)
    stamp = {"facts": 4.0}
    built.save(tmp_path / "reach", stamp)
    assert ReachIndex.open(tmp_path / "reach", {"facts": 5.0}) is None  # other data: rebuilt, not reused
    loaded = ReachIndex.open(tmp_path / "reach", stamp)
    assert loaded is not None
    assert isinstance(loaded.comp.base, np.memmap)  # a plain view of the mapped file, not a copy
    assert loaded.node_labels(whole=True) == built.node_labels(whole=True)
    some = ReachIndex.open(tmp_path / "reach", stamp)
    assert some is not None
    lazy = some.node_labels()  # made node by node as asked for (a CLI question asks for a few)
    assert [lazy[n] for n in (3, 0, 3, 1, 2)] == [built.node_labels(whole=True)[n] for n in (3, 0, 3, 1, 2)]
    assert loaded.comp[1] == loaded.comp[3] != loaded.comp[2]
    everything = np.arange(4)
    assert loaded.may_be_above(0, everything).tolist() == [True, True, True, True]
    assert loaded.may_be_above(2, everything).tolist() == [False, False, True, False]
