"""A Spark Python worker opens the knowledge base once for all its tasks, though each task brings its own copy of
the opener (cloudpickle ships `Brain.open` by value: never identical, nor equal); a different knowledge base closes
the one opened before. Reopening per task made a 200k-claim run on Spark several times slower than embedded, its
worker's memory growing by the reasoner's caches each time until an open failed (bench/scale.py)."""

from __future__ import annotations

import gc
import pickle
import weakref
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from pyspark import cloudpickle

from kgbrain.api import Brain
from kgbrain.reasoning.answering.verify import VerifyOptions
from kgbrain.scale import verify as spark_verify
from kgbrain.scale.verify import KbLocation
from tests.conftest import FIXTURES


class Opened:
    """A knowledge base an executor opened, and whether it was closed."""

    log: ClassVar[list[Opened]] = []

    def __init__(self, path: Path, *, read_only: bool) -> None:
        self.brain = Brain.open(path, read_only=read_only)
        self.closed = False
        Opened.log.append(self)

    def close(self) -> None:
        self.closed = True
        self.brain.close()


def test_a_worker_opens_the_knowledge_base_once_across_tasks(tmp_path: Path, monkeypatch: Any) -> None:
    paths = [tmp_path / "a.kuzu", tmp_path / "b.kuzu"]
    for db in paths:
        with Brain.open(db) as brain:
            brain.load([FIXTURES / "claims" / "penguins_kb.jsonl"])
    monkeypatch.setattr(spark_verify, "_EXECUTOR", spark_verify._Executor())
    monkeypatch.setattr(Opened, "log", [])
    options = VerifyOptions(closed_world=True)
    shipped = cloudpickle.dumps(partial(Brain.open, read_only=True))  # what api.py gives each task
    first = spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[0])), options)
    try:
        for _ in range(3):
            assert spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[0])), options) is first
    finally:
        first.checker.close()  # type: ignore[attr-defined]
    monkeypatch.setattr(spark_verify, "_EXECUTOR", spark_verify._Executor())
    shipped = cloudpickle.dumps(partial(Opened, read_only=True))
    try:
        first = spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[0])), options)
        for _ in range(3):
            assert spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[0])), options) is first
        assert len(Opened.log) == 1
        other = spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[1])), options)
        assert other is not first
        assert [o.closed for o in Opened.log] == [True, False]
    finally:
        for opened in Opened.log:
            opened.close()


def test_a_worker_lets_go_of_the_knowledge_base_it_leaves(tmp_path: Path, monkeypatch: Any) -> None:
    # its views (hundreds of MB on a large knowledge base) must be freed, not kept by an exit hook or a freeze
    paths = [tmp_path / "a.kuzu", tmp_path / "b.kuzu"]
    for db in paths:
        with Brain.open(db) as brain:
            brain.load([FIXTURES / "claims" / "penguins_kb.jsonl"])
    monkeypatch.setattr(spark_verify, "_EXECUTOR", spark_verify._Executor())
    shipped = cloudpickle.dumps(partial(Brain.open, read_only=True))
    options = VerifyOptions()
    verifier = spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[0])), options)
    gone = weakref.ref(verifier.checker)
    del verifier
    other = spark_verify._verifier(pickle.loads(shipped), KbLocation(str(paths[1])), options)
    try:
        gc.collect()
        assert gone() is None
    finally:
        other.checker.close()  # type: ignore[attr-defined]
