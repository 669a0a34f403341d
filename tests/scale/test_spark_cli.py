"""`kgbrain verify --engine spark`: the Spark context the command starts as it begins is the one it verifies on.

A module of its own: no other test's session may be running here (an early start leaves a running one alone).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgbrain.scale.session import SparkSpec
from tests.scale.test_spark_verify import _claims, kb

pytestmark = pytest.mark.spark
__all__ = ["kb"]  # the knowledge base fixture, shared with the identity tests


def test_the_command_starts_spark_as_it_opens_the_knowledge_base(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kgbrain verify --engine spark`: the context the command starts early is the one the verification runs on."""
    from click.testing import CliRunner

    from kgbrain.cli import cli
    from kgbrain.scale import session

    taken: list[SparkSpec] = []
    take = session._take_early

    def recorded(spec: SparkSpec) -> Any:
        found = take(spec)
        if found is not None:
            taken.append(spec)
        return found

    monkeypatch.setattr(session, "_take_early", recorded)
    claims = _claims(tmp_path / "claims.jsonl", ["penguin", "bird", "alice", "carol"])
    embedded, spark = tmp_path / "embedded.jsonl", tmp_path / "spark.jsonl"
    runner = CliRunner()
    common = ["--db", str(kb), "verify", str(claims), "--closed-world"]
    assert runner.invoke(cli, [*common, "-o", str(embedded)]).exit_code == 0
    done = runner.invoke(cli, [*common, "-o", str(spark), "--engine", "spark", "--master", "local[1]"])
    assert done.exit_code == 0, done.output
    assert taken == [SparkSpec("local[1]")]
    assert spark.read_bytes() == embedded.read_bytes()
