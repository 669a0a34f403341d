"""A contradiction scan on Spark finds the conflicts `conflicts --scan` finds: same ids, types, facts, trust."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.reasoning.tms.contradictions import Contradiction, scan
from kgbrain.scale.conflicts import pairwise_on_spark
from kgbrain.scale.session import SparkSpec
from tests.conftest import FIXTURES

pytestmark = pytest.mark.spark


def _record(c: Contradiction) -> tuple[object, ...]:
    return (c.id, c.type, c.key, c.fact_ids, c.doubted, c.concept, c.axiom, dict(c.trust), c.facts)


def test_spark_scan_finds_the_embedded_conflicts() -> None:
    files = sorted((FIXTURES / "conflicts").glob("*.jsonl"))
    with Brain.open(None) as brain:
        brain.load(files)
        embedded = scan(brain.store)
        spark = scan(brain.store, lambda store, vocab: pairwise_on_spark(SparkSpec("local[2]"), store, vocab))
        assert len(embedded) >= len(files)  # every fixture holds a conflict
        assert [_record(c) for c in spark] == [_record(c) for c in embedded]
        # recording through the Brain: nothing new after the loads recorded them, and the same count found
        result = brain.scan_conflicts(engine="spark", master="local[1]")
        assert result.found == len(embedded)
        assert result.recorded == []


def test_unknown_engine_is_refused() -> None:
    with Brain.open(None) as brain, pytest.raises(InputError, match="unknown engine 'flink': choose embedded or spark"):
        brain.scan_conflicts(engine="flink")


def test_spark_verify_needs_a_read_only_file(tmp_path: Path) -> None:
    claims = tmp_path / "c.jsonl"
    claims.write_text('{"id": "a", "subject": "x", "predicate": "is_a", "object": "y"}\n', encoding="utf-8")
    with Brain.open(None) as brain, pytest.raises(InputError, match="knowledge base file opened read-only"):
        brain.verify_file(claims, tmp_path / "out.jsonl", engine="spark")
