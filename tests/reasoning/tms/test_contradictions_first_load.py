"""The first load into an empty store compares new facts among themselves only: it must find what a load
into a non-empty store finds, and what a full scan finds."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from kgbrain.api import Brain
from tests.conftest import write_jsonl


def _rows() -> list[dict[str, Any]]:
    rng = random.Random(3)
    rows: list[dict[str, Any]] = [{"subject": "weight", "predicate": "property_type", "value": "functional"}]
    for i in range(400):  # background: compatible facts, many sharing subject and predicate
        rows.append(
            {
                "subject": f"c{rng.randrange(60)}",
                "predicate": rng.choice(["contains", "causes", "related_to"]),
                "object": f"c{rng.randrange(60)}",
                "source": f"s{i % 3}",
                "trust": 0.5,
            }
        )
    rows += [
        {"subject": "x1", "predicate": "contains", "object": "y1", "source": "a", "trust": 0.9},
        {"subject": "x1", "predicate": "contains", "object": "y1", "polarity": False, "source": "b", "trust": 0.4},
        {"subject": "x2", "predicate": "weight", "value": 5, "source": "a", "trust": 0.9},
        {"subject": "x2", "predicate": "weight", "value": 7, "source": "b", "trust": 0.9},
        {"subject": "x3", "predicate": "causes", "object": "y3", "source": "a", "trust": 0.8},
        {"subject": "x3", "predicate": "prevents", "object": "y3", "source": "b", "trust": 0.8},
        {"subject": "x4", "predicate": "related_to", "object": "y4", "source": "a", "trust": 0.8},
        {"subject": "y4", "predicate": "related_to", "object": "x4", "polarity": False, "source": "b", "trust": 0.8},
        {"subject": "animal", "predicate": "disjoint_with", "object": "plant"},
        {"subject": "fungus", "predicate": "is_a", "object": "animal"},
        {"subject": "fungus", "predicate": "is_a", "object": "plant"},
    ]
    rng.shuffle(rows)
    return rows


def _conflicts(brain: Brain) -> set[tuple[str, tuple[str, ...]]]:
    return {(c.type.value, tuple(sorted(c.fact_ids))) for c in brain.conflicts()}


def test_first_load_finds_what_a_later_load_and_a_scan_find(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "facts.jsonl", _rows())
    seed = write_jsonl(tmp_path / "seed.jsonl", [{"subject": "unrelated", "predicate": "contains", "object": "thing"}])
    with Brain.open(None) as first, Brain.open(None) as later, Brain.open(None) as scanned:
        [report] = first.load([path])
        assert report.first_facts
        later.load([seed])
        [report] = later.load([path])
        assert not report.first_facts
        scanned.load_hooks.clear()
        scanned.load([path])
        scanned.scan_conflicts()
        found = _conflicts(first)
        assert sorted(t for t, _ in found) == [
            "conflicting_value",
            "opposite_polarity",
            "opposite_polarity",
            "relation_conflict",
            "relation_conflict",
        ]
        assert found == _conflicts(later) == _conflicts(scanned)
