"""A read past its time limit is cancelled, so the reader is free again; /healthz never waits for the reader
(issue #22, item 5: a 60 s timeout answered 503 but the work went on, and later reads and /healthz stalled 75-90 s)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import ReadTimeout
from kgbrain.service.core import Service
from kgbrain.store.protocol import served
from tests.security.conftest import small_kb


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[Service]:
    service = Service(small_kb(tmp_path), read_timeout_s=1.0)
    yield service
    service.close()


def _spin(_brain: Brain) -> None:
    while True:  # pure Python work that never ends (a runaway loop in reasoning)
        pass


def test_a_runaway_read_is_cancelled_and_the_next_read_answers(quick: Service) -> None:
    async def run() -> tuple[float, float, int]:
        started = time.perf_counter()
        with pytest.raises(ReadTimeout, match="longer than 1 s"):
            await quick.read(_spin)
        timed_out = time.perf_counter() - started
        started = time.perf_counter()
        stats = await quick.stats()
        return timed_out, time.perf_counter() - started, stats.facts

    timed_out, next_read, facts = asyncio.run(run())
    assert timed_out < 3
    assert next_read < 10  # a fresh reader: before the fix this read waited forever behind the loop
    assert facts == 3
    assert not [t for t in threading.enumerate() if t.name.startswith("kgbrain-reader") and _busy(quick)]


def _busy(service: Service) -> bool:
    return service._reading


def test_health_answers_while_the_reader_is_busy(quick: Service) -> None:
    async def run() -> float:
        busy = asyncio.ensure_future(quick.read(_spin))
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        health = await quick.health()
        took = time.perf_counter() - started
        assert health.status == "ok"
        with pytest.raises(ReadTimeout):
            await busy
        return took

    assert asyncio.run(run()) < 0.1


def test_health_reports_the_counter_after_a_write(quick: Service) -> None:
    async def run() -> tuple[str | None, str | None]:
        before = (await quick.health()).write_counter
        await quick.add_facts([{"subject": "glorp", "predicate": "is_a", "object": "cell"}], source="t")
        return before, (await quick.health()).write_counter

    before, after = asyncio.run(run())
    assert after is not None
    assert after != before


def test_an_engine_statement_is_interrupted(quick: Service) -> None:
    """A MATCH the engine runs for minutes stops when the read is cancelled (`Connection.interrupt`)."""

    def slow(brain: Brain) -> None:
        store = served(brain.store)
        list(
            store._session.rows(  # type: ignore[attr-defined]
                "MATCH (a:Concept), (b:Concept), (c:Concept), (d:Concept), (e:Concept), (f:Concept) "
                "WHERE a.id + b.id + c.id + d.id + e.id + f.id = 'never' RETURN count(*)",
                {},
                what="a slow scan",
            )
        )

    async def run() -> float:
        # A few thousand concepts make the six-way product run for hours.
        await quick.add_facts([{"subject": f"c{n}", "predicate": "is_a", "object": "cell"} for n in range(300)])
        started = time.perf_counter()
        with pytest.raises(ReadTimeout):
            await quick.read(slow)
        await quick.stats()
        return time.perf_counter() - started

    assert asyncio.run(run()) < 15
