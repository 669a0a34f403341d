"""The driver JVM starts with the fast-start options: C1 and the serial GC, its warnings on stderr, and class data
sharing from a per-user archive that the first run writes (whole, before it returns) and later runs map."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.scale import jvm
from kgbrain.scale.session import ACCUMULATORS_STOP, SparkSpec, spark_context, started_early
from tests.scale.conftest import stop_jvm


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    found = jvm.cds_cache()
    assert found == tmp_path / "xdg" / "kgbrain" / "spark-cds"
    return found


def test_first_start_dumps_under_a_name_of_its_own_and_keeps_the_user_options_last(cache: Path) -> None:
    start = jvm.driver_start("-Xmx2g -XX:TieredStopAtLevel=4", cache)
    words = start.options.split()
    assert words[:2] == list(jvm.FAST_START)
    assert words[-2:] == ["-Xmx2g", "-XX:TieredStopAtLevel=4"]  # later options win in HotSpot
    assert start.dump is not None
    assert start.archive is not None
    assert f"-XX:ArchiveClassesAtExit={start.dump}" in words
    assert start.dump.parent == cache
    assert start.dump != start.archive
    assert str(os.getpid()) in start.dump.name
    assert not any(w.startswith("-XX:SharedArchiveFile") for w in words)


def test_a_whole_archive_is_mapped_and_a_torn_dump_is_dropped(cache: Path) -> None:
    start = jvm.driver_start(None, cache)
    assert start.dump is not None
    assert start.archive is not None
    start.dump.write_bytes(b"\0" * 64)  # the JVM writes the header last: a killed dump has none
    jvm.finish_dump(start, None)  # no gateway: nothing to stop, the dump is left alone
    assert start.dump.exists()
    assert not start.archive.exists()
    start.dump.write_bytes(b"\0" * 64)
    jvm.finish_dump(start, _Stopped())
    assert not start.dump.exists()
    assert not start.archive.exists()
    again = jvm.driver_start(None, cache)
    assert again.dump is not None
    again.dump.write_bytes(jvm.DYNAMIC_MAGIC + b"\0" * 60)
    jvm.finish_dump(again, _Stopped())
    assert again.archive is not None
    assert again.archive.is_file()
    assert not again.dump.exists()
    mapped = jvm.driver_start(None, cache)
    assert mapped.dump is None
    assert f"-XX:SharedArchiveFile={again.archive}" in mapped.options.split()


def test_the_off_switch_leaves_the_jvm_defaults(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(jvm.OFF_SWITCH, "0")
    assert jvm.driver_start("-Xmx2g", cache) == jvm.DriverStart("-Xmx2g")
    assert jvm.driver_start(None, cache).options == ""


class _Stopped:
    """A gateway whose JVM has exited already (the one `finish_dump` is handed after a real run is tested below)."""

    proc = None

    def shutdown(self) -> None:
        return None


@pytest.fixture
def fresh_jvm() -> Iterator[None]:
    stop_jvm()  # another module's JVM would be reused, started with its own options
    yield
    stop_jvm()


@pytest.mark.spark
@pytest.mark.usefixtures("fresh_jvm")
def test_the_first_run_writes_the_archive_and_the_next_one_loads_spark_classes_from_it(
    cache: Path, tmp_path: Path
) -> None:
    with spark_context(SparkSpec("local[1]")) as sc:
        assert sc.parallelize(range(10), 2).map(lambda x: x * x).sum() == 285
    archives = sorted(cache.iterdir())
    assert [a.suffix for a in archives] == [".jsa"]  # renamed into place once the JVM had written it
    assert archives[0].read_bytes()[:4] == jvm.DYNAMIC_MAGIC
    loaded = tmp_path / "classes.log"
    spec = SparkSpec("local[1]", {"spark.driver.extraJavaOptions": f"-Xlog:class+load=info:file={loaded}"})
    with spark_context(spec) as sc:
        assert sc.parallelize(range(10), 2).map(lambda x: x + 1).sum() == 55
    # "(top)" is the dynamic archive's layer, over the JDK's own base archive
    spark_shared = [ln for ln in loaded.read_text().splitlines() if "org.apache.spark" in ln and "(top)" in ln]
    assert len(spark_shared) > 100


@pytest.mark.spark
def test_a_stop_shuts_the_accumulator_server_down_on_a_thread_of_its_own() -> None:
    """Its handler polls for a shutdown once a second: waited on in the stop, that was most of a stop's time."""
    with spark_context(SparkSpec("local[1]")) as sc:
        server = sc._accumulatorServer
        shut_down_on: list[str] = []
        original = server.shutdown

        def recorded() -> None:
            shut_down_on.append(threading.current_thread().name)
            original()

        server.shutdown = recorded
        assert sc.parallelize(range(4), 2).sum() == 6
    assert sc._jsc is None  # the JVM's side stopped, with the executors' Python workers
    for thread in threading.enumerate():
        if thread.name == ACCUMULATORS_STOP:
            thread.join(timeout=30)
    assert shut_down_on == [ACCUMULATORS_STOP]
    assert server.socket.fileno() == -1  # closed


@pytest.mark.spark
def test_a_context_started_early_is_the_one_the_block_takes_over_and_stops() -> None:
    from pyspark import SparkContext

    spec = SparkSpec("local[1]")
    with started_early(spec):
        with spark_context(spec) as sc:
            assert sc.parallelize(range(4), 2).sum() == 6
            assert SparkContext._active_spark_context is sc
        assert sc._jsc is None  # stopped where it was taken
        with spark_context(spec) as again:  # taken once: a later block starts its own
            assert again is not sc
    assert SparkContext._active_spark_context is None


@pytest.mark.spark
def test_a_context_started_early_that_nothing_takes_is_stopped() -> None:
    from pyspark import SparkContext

    with started_early(SparkSpec("local[1]")):
        pass
    assert SparkContext._active_spark_context is None
