"""A served write has a time limit too (`kgbrain serve --write-timeout`): past it, a write that has committed
nothing is answered 503 in the JSON error shape and rolled back (or never started, if it was still queued); a
write already committing is answered with its result. Issue #22: reads were bounded, writes were not."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kgbrain.errors import UnknownConcept, WriteTimeout
from kgbrain.service.core import Service
from kgbrain.store.protocol import served
from tests.security.conftest import client, small_kb

GLORP = [{"subject": "glorp", "predicate": "is_a", "object": "cell"}]


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Service]:
    service = Service(small_kb(tmp_path), write_timeout_s=1.0)
    yield service
    service.close()


class Gate:
    """A hook that holds the writer where it runs until released (at most 60 s: a test never hangs on it)."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, *_: Any) -> None:
        self.reached.set()
        self.release.wait(60)


def _facts_of(service: Service, subject: str) -> int:
    async def run() -> int:
        return (await service.facts(subject)).total_facts

    try:
        return asyncio.run(run())
    except UnknownConcept:  # never stored: no facts
        return 0


def test_a_write_past_its_limit_is_rolled_back_and_a_queued_one_never_starts(quick: Service) -> None:
    gate = Gate()
    assert quick.writer is not None
    quick.writer.load_hooks.append(gate)  # run inside the load's transaction, before its commit

    async def run() -> tuple[str, str, str]:
        first = asyncio.ensure_future(quick.add_facts(GLORP, source="slow"))
        second = asyncio.ensure_future(quick.add_facts([{"subject": "blip", "predicate": "is_a", "object": "cell"}]))
        with pytest.raises(WriteTimeout) as one:
            await first
        with pytest.raises(WriteTimeout) as two:
            await second
        health = (await quick.health()).status  # the server answers while the writer is held
        return str(one.value), str(two.value), health

    one, two, health = asyncio.run(run())
    assert "longer than 1 s and was rolled back; nothing of it was stored" in one
    assert "rolled back" in two
    assert health == "ok"
    assert gate.reached.is_set()
    gate.release.set()
    quick.writer.load_hooks.remove(gate)
    quick.write_timeout_s = 120.0  # the abandoned write still finishes its work (and is refused at its commit)

    async def after() -> tuple[int, int]:
        await quick.add_facts([{"subject": "neuron", "predicate": "part_of", "object": "brain"}])
        return (await quick.stats()).facts, (await quick.facts("neuron")).total_facts

    total, neuron = asyncio.run(after())
    assert total == 4  # the three facts of the KB and the write after; nothing of the two timed-out writes
    assert _facts_of(quick, "glorp") == 0
    assert _facts_of(quick, "blip") == 0
    assert neuron == 3


def test_a_write_that_has_committed_is_answered_with_its_result(quick: Service) -> None:
    gate = Gate()
    store = served(quick.writer.store) if quick.writer is not None else None
    assert store is not None
    once = [gate]

    def after_commit() -> None:  # holds the writer just after the load's COMMIT, past the time limit
        if once:
            once.pop()(None)

    store.on_commit.append(after_commit)
    threading.Timer(2.5, gate.release.set).start()  # well past the 1 s limit

    async def run() -> int:
        report = await quick.add_facts(GLORP, source="slow")
        return report.facts_added

    assert asyncio.run(run()) == 1
    store.on_commit.remove(after_commit)
    assert _facts_of(quick, "glorp") == 1


def test_an_upload_past_the_limit_is_a_json_503_and_stores_nothing(tmp_path: Path) -> None:
    service = Service(small_kb(tmp_path), write_timeout_s=0.1)
    try:
        app = client(service)
        rows = "".join(
            json.dumps({"subject": f"s{i}", "predicate": "is_a", "object": f"k{i % 40}"}) + "\n" for i in range(50_000)
        )
        r = app.post("/v1/load?name=big.jsonl", content=rows, headers={"content-type": "application/x-ndjson"})
        assert r.status_code == 503
        assert r.headers["content-type"].startswith("application/json")
        assert set(r.json()) == {"error"}
        assert "rolled back" in r.json()["error"]
        service.write_timeout_s = 120.0
        r = app.post("/v1/facts", json={"facts": GLORP})  # queued behind the abandoned upload, then stored
        assert r.status_code == 201, r.text
        assert app.get("/v1/stats").json()["facts"] == 4
        assert app.get("/healthz").json()["status"] == "ok"
    finally:
        service.close()
