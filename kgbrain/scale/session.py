"""A Spark session for one kgbrain run: started from a master URL, stopped when the run ends.

`local[*]` (the default) runs the executors in this machine's JVM; `spark://host:7077`, `yarn`, `k8s://...`
run them on a cluster, whose executors must have kgbrain installed for the same Python version. A local
session binds the driver to 127.0.0.1 and turns the UI off, so a run opens no port another machine can reach.
Settings for a cluster come from Spark's usual places (spark-defaults.conf, SPARK_* variables) and from
`SparkSpec.conf`.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kgbrain.errors import EngineError, InputError, KgbrainError
from kgbrain.scale import jvm

DRIVER_OPTIONS = "spark.driver.extraJavaOptions"

DEFAULT_MASTER = "local[*]"
# Shuffles over kgbrain's rule and conflict plans are small per round: Spark's default 200 partitions would
# bury a small cluster in empty tasks (research scaleout.md §4).
SHUFFLE_PARTITIONS = 8
ACCUMULATORS_STOP = "kgbrain-spark-accumulators-stop"


@dataclass(frozen=True, slots=True)
class SparkSpec:
    """Where and how to run: the master URL and extra Spark settings."""

    master: str = DEFAULT_MASTER
    conf: Mapping[str, str] = field(default_factory=dict)
    app_name: str = "kgbrain"

    @property
    def local(self) -> bool:
        """Executors run in this process's JVM (`local`, `local[n]`, `local[*]`)."""
        return self.master == "local" or self.master.startswith("local[")


def require_pyspark() -> Any:
    """The pyspark module.

    Raises:
        InputError: pyspark or Java is not installed.
    """
    try:
        import pyspark
    except ImportError as exc:
        raise InputError("--engine spark needs pyspark: pip install 'kgbrain[spark]' (and a Java 17+ runtime)") from exc
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise InputError("--engine spark needs a Java 17+ runtime: install one or set JAVA_HOME")
    return pyspark


def _settings(spec: SparkSpec) -> dict[str, str]:
    settings = {
        "spark.ui.enabled": "false",
        "spark.ui.showConsoleProgress": "false",
        "spark.sql.shuffle.partitions": str(SHUFFLE_PARTITIONS),
        "spark.sql.adaptive.enabled": "true",
        # Executors run kgbrain with this interpreter (a cluster's own must have kgbrain for the same Python).
        "spark.pyspark.python": os.environ.get("PYSPARK_PYTHON", sys.executable),
        "spark.pyspark.driver.python": sys.executable,
        # Workers forked from a daemon that has imported kgbrain already (kgbrain/scale/daemon.py).
        "spark.python.daemon.module": "kgbrain.scale.daemon",
    }
    if spec.local:
        settings |= {"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"}
    return settings | dict(spec.conf)


@contextmanager
def spark_session(spec: SparkSpec) -> Iterator[Any]:
    """A SparkSession for `spec` (DataFrame work: materialisation), stopped (with its JVM's executors) when the
    block ends; when this thread has an active session already, that one (left running).

    Raises:
        InputError: pyspark or Java is missing.
        EngineError: Spark could not start or reach the master.
    """
    require_pyspark()
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    if running is not None:  # a caller's session (a test's, a notebook's): used as it is, and left running
        yield running
        return

    def start(settings: dict[str, str]) -> Any:
        builder = SparkSession.builder.master(spec.master).appName(spec.app_name)
        for key, value in settings.items():
            builder = builder.config(key, value)
        return builder.getOrCreate()

    with _started(spec, start, lambda session: session.sparkContext) as session:
        yield session


@contextmanager
def spark_context(spec: SparkSpec) -> Iterator[Any]:
    """A SparkContext for `spec` (RDD work: verification, conflict scans), without the SQL session's start-up;
    stopped when the block ends. A caller's running session or context is used as it is, and left running; one
    `started_early` began for this spec is taken over (and stopped here).

    Raises:
        InputError: pyspark or Java is missing.
        EngineError: Spark could not start or reach the master.
    """
    early = _take_early(spec)
    if early is not None:
        made, launch = early.result()  # its start's InputError or EngineError is raised here
        try:
            yield made
        finally:
            _finish(made, made, launch)
        return
    require_pyspark()
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    if running is not None:
        yield running.sparkContext
        return
    active = SparkContext._active_spark_context  # no public accessor that does not create one
    if active is not None:
        yield active
        return
    with _started(spec, _context_start(spec), lambda sc: sc) as sc:
        yield sc


def _context_start(spec: SparkSpec) -> Callable[[dict[str, str]], Any]:
    def start(settings: dict[str, str]) -> Any:
        from pyspark import SparkConf, SparkContext

        conf = SparkConf().setMaster(spec.master).setAppName(spec.app_name).setAll(list(settings.items()))
        return SparkContext(conf=conf)

    return start


@dataclass
class _Early:
    spec: SparkSpec
    started: Future[tuple[Any, jvm.DriverStart | None]]
    taken: bool = False


_EARLY: list[_Early] = []  # the context `started_early` is starting, until a `spark_context` takes it


@contextmanager
def started_early(spec: SparkSpec) -> Iterator[None]:
    """Start a SparkContext for `spec` on a thread of its own now, for a `spark_context(spec)` in this block to
    take over: the driver JVM (most of a short run's time) starts while the caller opens the knowledge base and
    reads its claims. One that no `spark_context` took is stopped at the end (its failure to start dropped: no one
    needed it). Nothing starts when a session or context is running already.
    """
    if _EARLY or _running():
        yield
        return
    _environment(spec)  # here: os.environ is not changed on another thread while this one runs

    def start() -> tuple[Any, jvm.DriverStart | None]:
        require_pyspark()
        return _launch(spec, _context_start(spec), lambda sc: sc)

    with ThreadPoolExecutor(1, thread_name_prefix="kgbrain-spark-start") as pool:
        early = _Early(spec, pool.submit(start))
        _EARLY.append(early)
        try:
            yield
        finally:
            _EARLY.remove(early)
            if not early.taken:
                _stop_unused(early.started)


def _running() -> bool:
    if "pyspark" not in sys.modules:  # nothing of Spark's runs in a process that has not imported it (0.3 s)
        return False
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    return SparkSession.getActiveSession() is not None or SparkContext._active_spark_context is not None


def _take_early(spec: SparkSpec) -> Future[tuple[Any, jvm.DriverStart | None]] | None:
    for early in _EARLY:
        if early.spec == spec and not early.taken:
            early.taken = True
            return early.started
    return None


def _stop_unused(started: Future[tuple[Any, jvm.DriverStart | None]]) -> None:
    try:
        made, launch = started.result()
    except KgbrainError:
        return
    _finish(made, made, launch)


def _environment(spec: SparkSpec) -> None:
    if spec.local:
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    # The RDD API starts executors' Python from this variable (not from spark.pyspark.python).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)


@contextmanager
def _started(spec: SparkSpec, start: Callable[[dict[str, str]], Any], context: Callable[[Any], Any]) -> Iterator[Any]:
    """`start(settings)`'s session or context (`_launch`), stopped at the end (`_finish`)."""
    _environment(spec)
    made, launch = _launch(spec, start, context)
    try:
        yield made
    finally:
        _finish(made, context(made), launch)


def _launch(
    spec: SparkSpec, start: Callable[[dict[str, str]], Any], context: Callable[[Any], Any]
) -> tuple[Any, jvm.DriverStart | None]:
    """`start(settings)`'s session or context, and how its driver JVM was launched (None: it was running): a
    driver JVM it launches gets the fast-start options.

    Raises:
        EngineError: Spark could not start or reach the master.
    """
    from py4j.protocol import Py4JError
    from pyspark import SparkContext
    from pyspark.errors import PySparkException

    settings = _settings(spec)
    launch = None
    if SparkContext._gateway is None:  # this start launches the JVM: its options still matter
        launch = jvm.driver_start(settings.get(DRIVER_OPTIONS), jvm.cds_cache())
        if launch.options:
            settings[DRIVER_OPTIONS] = launch.options
    try:
        made = start(settings)
    except (PySparkException, Py4JError) as exc:
        raise EngineError(f"Spark did not start on master {spec.master!r}: {exc}") from exc
    # A failed task reaches the caller as one EngineError; the JVM's own log of it would repeat it at length.
    context(made).setLogLevel("FATAL")
    return made, launch


def _finish(made: Any, sc: Any, launch: jvm.DriverStart | None) -> None:
    """Stop `made` (`sc` its context); a driver JVM that writes the class archive is stopped too, so the archive is
    whole before this returns."""
    from pyspark import SparkContext

    stopping = stop(made, sc)
    if launch is not None and launch.dump is not None:
        if stopping is not None:
            stopping.join()  # the JVM exits next: its end of the connection must not close under the handler
        jvm.finish_dump(launch, SparkContext._gateway)
        SparkContext._gateway = SparkContext._jvm = None  # the next start launches a new JVM


def stop(made: Any, sc: Any) -> threading.Thread | None:
    """Stop `made` (a SparkSession or SparkContext; `sc` its context) without waiting on its accumulator server;
    the thread that shuts that down (join it before the JVM exits).

    The JVM side stops here, with the executors and their Python daemon and workers. The accumulator server is a
    thread of this process, and its shutdown waits for the one connection's handler, which polls for a shutdown
    once a second: up to a second (0.9 s on the 50k-claim bench, most of a stop), after the work is done. Detached
    from the context before it stops, it is shut down on a thread of its own and its socket closed there. Its
    handler would take the JVM's end of the connection closing during a poll for an update, and print that
    error: a JVM this process stops (not one that ends with it) is stopped once this thread is done.
    """
    server = getattr(sc, "_accumulatorServer", None)  # pyspark's, with no public handle
    if server is not None:
        sc._accumulatorServer = None
    try:
        made.stop()
    finally:
        stopping = None
        if server is not None:
            server.server_shutdown = True  # its handler leaves its loop at the next poll
            stopping = threading.Thread(target=server.shutdown, name=ACCUMULATORS_STOP, daemon=True)
            stopping.start()
    return stopping
