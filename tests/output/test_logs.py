"""Logs: brain.jsonl, errors.jsonl, daily digests; rotation by size, retention by days."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from kgbrain.config import LogConfig
from kgbrain.output.logs import BrainLogger


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 19, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def test_records_errors_and_digests(tmp_path: Path) -> None:
    clock = Clock()
    log = BrainLogger(tmp_path, LogConfig(), clock)
    log.log({"event": "response_generated", "level": "INFO", "query": "Что такое нейрон?"})
    log.error("validation_failed", "empty answer", cycle_id="cycle_0001")
    path = log.digest("Cycle 1\n  Query: ...")
    lines = (tmp_path / "brain.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["level"] for x in lines] == ["INFO", "ERROR"]
    assert json.loads(lines[0])["query"] == "Что такое нейрон?"
    [error] = (tmp_path / "errors.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(error)["error"] == "empty answer"
    assert path == tmp_path / "digests" / "2026-03-19.txt"
    assert path.read_text(encoding="utf-8").startswith("Cycle 1")


def test_rotation_by_size_keeps_every_record(tmp_path: Path) -> None:
    clock = Clock()
    log = BrainLogger(tmp_path, LogConfig(max_bytes=200), clock)
    for n in range(10):
        log.log({"n": n, "pad": "x" * 40})
    archives = sorted((tmp_path / "archive").glob("brain_2026-03-19*.jsonl.gz"))
    assert len(archives) >= 3
    seen = []
    for a in [*archives]:
        with gzip.open(a, "rt", encoding="utf-8") as f:
            seen += [json.loads(x)["n"] for x in f]
    seen += [json.loads(x)["n"] for x in (tmp_path / "brain.jsonl").read_text(encoding="utf-8").splitlines()]
    assert sorted(seen) == list(range(10))
    assert (tmp_path / "brain.jsonl").stat().st_size <= 200


def test_retention_deletes_old_archives_and_digests(tmp_path: Path) -> None:
    clock = Clock()
    log = BrainLogger(tmp_path, LogConfig(max_bytes=10, retention_days=30), clock)
    log.log({"a": 1})
    log.log({"a": 2})  # rotates the first file into archive/brain_2026-03-19.jsonl.gz
    log.digest("old")
    clock.now += timedelta(days=31)
    BrainLogger(tmp_path, LogConfig(max_bytes=10, retention_days=30), clock)
    assert list((tmp_path / "archive").iterdir()) == []
    assert list((tmp_path / "digests").iterdir()) == []
    clock.now -= timedelta(days=2)  # within 30 days of a fresh digest: kept
    fresh = BrainLogger(tmp_path, LogConfig(retention_days=30), clock)
    fresh.digest("new")
    clock.now += timedelta(days=29)
    BrainLogger(tmp_path, LogConfig(retention_days=30), clock)
    assert len(list((tmp_path / "digests").iterdir())) == 1


def test_ask_writes_logs_when_a_directory_is_configured(tmp_path: Path, demo_db: Path) -> None:
    import dataclasses

    from kgbrain.api import Brain
    from kgbrain.reasoning.cognition.monitor import ResourceMonitor

    with Brain.open(demo_db, read_only=True) as brain:
        brain.config = dataclasses.replace(brain.config, logs=LogConfig(directory=str(tmp_path / "logs")))
        brain.cognition.loop.monitor = ResourceMonitor(sampler=lambda: (10.0, 10.0))
        brain.ask("Что такое нейрон?")
    [line] = (tmp_path / "logs" / "brain.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["decision"]["action"] == "respond_direct"
    assert len(list((tmp_path / "logs" / "digests").glob("*.txt"))) == 1
