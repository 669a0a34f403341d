"""The in-memory walks answer what their Cypher definitions answer, on random graphs with negative and inactive facts.

`Hierarchy.ancestors` vs queries/ded_ancestors_shortest.cypher and `causal.reachable` vs
queries/cau_shortest.cypher (both: active, positive edges only).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.reasoning.modes.causal import CausalGraph, reachable
from tests.conftest import write_jsonl

NODES = [f"n{i}" for i in range(7)]
STATUSES = ["active", "active", "active", "outdated", "retracted"]


def _facts(predicates: list[str]) -> st.SearchStrategy[list[dict[str, object]]]:
    fact = st.fixed_dictionaries(
        {
            "subject": st.sampled_from(NODES),
            "predicate": st.sampled_from(predicates),
            "object": st.sampled_from(NODES),
            "polarity": st.sampled_from([True, True, True, False]),
            "status": st.sampled_from(STATUSES),
            "source": st.sampled_from(["a", "b"]),
        }
    )
    return st.lists(fact, min_size=1, max_size=16)


@contextmanager
def _brain(rows: list[dict[str, object]]) -> Iterator[Brain]:
    with tempfile.TemporaryDirectory() as tmp, Brain.open(None) as brain:
        facts = [r for r in rows if r["subject"] != r["object"]]
        if facts:
            brain.load([write_jsonl(Path(tmp) / "g.jsonl", facts)])
        yield brain


@settings(max_examples=15)
@given(_facts(["is_a", "instance_of", "part_of"]))
def test_hierarchy_ancestors_match_the_cypher_bfs(rows: list[dict[str, object]]) -> None:
    with _brain(rows) as brain:
        hierarchy = brain.reasoner.hierarchy()
        for node in NODES:
            assert set(hierarchy.ancestors(node)) - {node} == brain.reasoner.ancestors_cypher(node) - {node}, node


@settings(max_examples=15)
@given(_facts(["causes", "enables", "leads_to", "prevents", "related_to"]))
def test_causal_reachable_matches_the_cypher_shortest_path(rows: list[dict[str, object]]) -> None:
    with _brain(rows) as brain:
        graph = CausalGraph(brain.reasoner.graph())
        for source in NODES:
            for target in NODES:
                if source == target:
                    continue
                found = reachable(graph, source, target)
                paths = brain.store.run("cau_shortest", source=source, target=target)
                assert found is not None
                assert found == bool(paths), (source, target)
