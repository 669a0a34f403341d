"""Batch verification on Spark: claims split over executors, each running kgbrain's own decision code.

The plan measured in research/scaleout.md (`mapInArrow` over claim partitions with the hierarchy index
shipped to every executor: 19 s against 61 s embedded on the 200k-concept taxonomy) in its simplest honest
form: every executor's Python worker opens the knowledge base read-only once (with the mirror and reachability
labels cached beside it), and verifies its batches with the `Verifier` the embedded engine uses, so verdicts are
the same bytes by construction. The driver reads the claims, cuts them into the embedded run's batches, hands
out waves of batches, and writes what comes back in input order (resumable like any verdicts file).

On a cluster the knowledge base is shipped to the executors with `SparkContext.addArchive` (the database file and
its caches), unless it is at a path every executor can read (`shared_path`), and the encoded verdicts come back
through Spark. On a local master the executors share this machine's file system: they open the knowledge base where
it is, and hand each task's encoded verdicts back in a file of a private folder, so the ~1 KB of proof per claim
does not pass through the JVM (a task result's bytes are copied, serialised, stored and served again there: most of
the driver JVM's CPU on the 200k-claim bench).
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import shutil
import tempfile
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from kgbrain.reasoning.answering.verify import (
    Verifier,
    VerifyOptions,
    WorkItem,
    as_rows,
    batched,
)
from kgbrain.scale.session import SparkSpec, spark_context

T = TypeVar("T")
# Batches handed out per wave and slot, in TASKS_PER_SLOT tasks: enough to keep every core busy between the driver's
# writes, and few, long jobs and tasks (about 16,000 claims each): each job costs the driver JVM about 0.1 CPU-s and
# each task a round trip to a Python worker (200k claims on local[2]: 13 jobs of 4 tasks took JVM 4.3 and workers
# 24.9 CPU-s, 7 jobs of 2 tasks 3.3 and 23.4). The second wave in flight keeps a core from idling at a wave's end.
BATCHES_PER_SLOT = 64
TASKS_PER_SLOT = 1
WAVES_IN_FLIGHT = 2
# Opens the knowledge base at a path, read-only (Brain.open: passed down, so this layer needs no api import).
PathOpener = Callable[[Path], Any]


@dataclass(frozen=True, slots=True)
class KbLocation:
    """Where executors find the knowledge base: at `path`, or shipped under `shipped` (SparkFiles names)."""

    path: str
    shipped: str | None = None

    def resolve(self) -> Path:
        """The database file on this executor."""
        if self.shipped is None:
            return Path(self.path)
        from pyspark import SparkFiles

        return Path(SparkFiles.get(self.shipped)) / Path(self.path).name


@dataclass
class _Executor:
    key: tuple[Any, ...] | None = None
    verifier: Verifier | None = None
    checker: Any = None


_EXECUTOR = _Executor()


def _verifier(opener: PathOpener, where: KbLocation, options: VerifyOptions) -> Verifier:
    # One checker per Python worker process (Spark reuses workers across tasks), opened on its first batch. Every
    # task unpickles its own copy of the opener, so openers are compared by what they call, not by identity.
    key = (_opener_key(opener), where, options)
    if _EXECUTOR.verifier is None or _EXECUTOR.key != key:
        if _EXECUTOR.checker is not None:
            atexit.unregister(_EXECUTOR.checker.close)
            _EXECUTOR.checker.close()  # another knowledge base: each open holds a large address-space reservation
            # Its views were frozen (`_settle`) and hold reference cycles: back to the collector, to be freed.
            gc.unfreeze()
            _EXECUTOR.key = _EXECUTOR.verifier = _EXECUTOR.checker = None
        checker = opener(where.resolve())
        atexit.register(checker.close)  # close before exit: Kùzu can crash at exit when left open
        warm = getattr(checker, "warm", None)  # a Brain: every view verification reads, now, to be frozen below
        if warm is not None:
            warm()
        _EXECUTOR.key, _EXECUTOR.verifier, _EXECUTOR.checker = key, Verifier(checker, options), checker
        _settle()
    return _EXECUTOR.verifier


def _settle() -> None:
    """In a Spark task: keep what this worker holds out of the collector's full passes. pyspark's daemon runs
    `gc.collect()` after every task of a reused worker, and over the mirror, labels and the caches verification
    fills those passes were a sixth of a worker's CPU on the 200k-claim bench. The young objects are collected
    first, so what is frozen is what is still alive (cyclic garbage that reached the oldest generation would stay);
    frozen objects are still freed by reference counting. Elsewhere (a test calling this module) nothing is done.
    """
    from pyspark import TaskContext

    if TaskContext.get() is None:
        return
    gc.collect(1)
    gc.freeze()


def _opener_key(opener: PathOpener) -> Any:
    # By name: cloudpickle ships a method such as Brain.open by value, so each task's copy is a new function.
    if isinstance(opener, partial):
        return (_opener_key(opener.func), opener.args, tuple(sorted(opener.keywords.items())))
    inner = getattr(opener, "__func__", opener)
    name = (getattr(inner, "__module__", None), getattr(inner, "__qualname__", None))
    return (*name, getattr(opener, "__self__", None)) if None not in name else opener


def _verify_partition(
    opener: PathOpener,
    where: KbLocation,
    options: VerifyOptions,
    encode: Callable[[list[Any]], Any],
    handoff: str | None,
    batches: Iterable[Sequence[WorkItem]],
) -> Iterator[Any]:
    verifier = _verifier(opener, where, options)
    encoded = (encode(verifier.verify(as_rows(batch))) for batch in batches)
    if handoff is None:
        yield from encoded
    else:
        yield _hand_off(Path(handoff), encoded)
    _settle()  # the caches this task filled, before the daemon's collection after it


def _hand_off(folder: Path, results: Iterable[Any]) -> str:
    """Write a task's results to a new file in `folder` (pickled one after another); its name."""
    fd, name = tempfile.mkstemp(prefix="task-", suffix=".pickle", dir=folder)
    with os.fdopen(fd, "wb") as fh:
        for result in results:
            pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return name


def _taken(name: str) -> list[Any]:
    """The results a task handed off in file `name` (written by `_hand_off` in this run's private folder), in
    order; the file is removed."""
    path = Path(name)
    found: list[Any] = []
    try:
        with path.open("rb") as fh:
            while True:
                try:
                    found.append(pickle.load(fh))
                except EOFError:
                    return found
    finally:
        path.unlink(missing_ok=True)


def verify_on_spark(
    opener: PathOpener,
    db: Path,
    items: Iterable[WorkItem],
    encode: Callable[[list[Any]], T],
    options: VerifyOptions,
    spec: SparkSpec,
    *,
    batch_size: int,
    shared_path: bool = False,
    prepare: Callable[[], None] | None = None,
) -> Iterator[T]:
    """Verify claims (or unparsed JSONL lines) on Spark; each batch's `encode`d verdicts, in input order.

    `opener(path)` opens the knowledge base at `db` read-only on an executor; `prepare` (on the driver) builds
    the caches executors open instead of reading every fact (`Brain.warm` and persist).

    Raises:
        InputError: pyspark or Java is missing.
        EngineError: Spark failed.
    """
    # The caches are built while the JVM starts (most of a small run's time); executors need them from the start.
    warming = ThreadPoolExecutor(1)
    try:
        warmed = warming.submit(prepare) if prepare is not None else None
        with spark_context(spec) as sc, tempfile.TemporaryDirectory(prefix="kgbrain-ship-") as tmp:
            if warmed is not None:
                warmed.result()
            local = is_local(sc)
            where = KbLocation(str(db))
            if not (local or shared_path):
                where = KbLocation(str(db), _ship(sc, db, Path(tmp)))
            handoff = None
            if local:
                handoff = Path(tmp) / "results"
                handoff.mkdir()
            task = partial(_verify_partition, opener, where, options, encode, str(handoff) if handoff else None)
            yield from _waves(sc, task, batched(items, batch_size), handed_off=handoff is not None)
    finally:
        warming.shutdown(wait=True)


def is_local(sc: Any) -> bool:
    """The context runs its executors in the driver's JVM, on this machine (`local`, `local[n]`, `local[*]`): the
    context's own master, which may not be the one asked for when a caller's session was running."""
    master = str(sc.master)
    return master == "local" or master.startswith("local[")


def _waves(
    sc: Any, task: Callable[[Iterable[Sequence[WorkItem]]], Iterator[Any]], batches: Iterable[Any], *, handed_off: bool
) -> Iterator[Any]:
    """`task`'s results over the batches, in order: waves of batches, each one Spark job (`handed_off`: each task
    returns the name of the file its results are in)."""
    slots = max(1, int(sc.defaultParallelism))
    wave = slots * BATCHES_PER_SLOT

    def run(part: list[list[WorkItem]]) -> list[Any]:
        rdd = sc.parallelize(part, min(len(part), slots * TASKS_PER_SLOT))
        found = collect(rdd.mapPartitions(task))
        return [r for name in found for r in _taken(name)] if handed_off else found

    # Two waves run at once, so the cores a wave's last tasks leave idle take the next wave's first ones, and this
    # thread writes the wave before them meanwhile.
    with ThreadPoolExecutor(WAVES_IN_FLIGHT) as pool:
        pending: deque[Future[list[Any]]] = deque()
        for part in batched(batches, wave):
            pending.append(pool.submit(run, part))
            if len(pending) >= WAVES_IN_FLIGHT:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def collect(rdd: Any) -> list[Any]:
    """Run a Spark job and return its rows; a failed job is one EngineError.

    Raises:
        EngineError: the job failed.
    """
    from py4j.protocol import Py4JError

    from kgbrain.errors import EngineError

    try:
        return list(rdd.collect())
    except Py4JError as exc:
        raise EngineError(f"a Spark job failed: {_first_line(exc)}") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    found = [ln for ln in text.splitlines() if "Error" in ln or "Exception" in ln]
    return (found[-1] if found else text.splitlines()[0] if text else type(exc).__name__)[:500]


def _ship(sc: Any, db: Path, tmp: Path) -> str:
    """Pack the database file and its caches into one zip archive and ship it to every executor; its SparkFiles
    name (the folder each executor unpacks it into).

    An archive, not a folder: Spark ships a local folder only to local masters (UNSUPPORTED_ADD_FILE).

    Raises:
        EngineError: Spark refused the archive.
    """
    from py4j.protocol import Py4JError

    from kgbrain.errors import EngineError

    folder = tmp / "kb"
    folder.mkdir()
    shutil.copy2(db, folder / db.name)
    caches = db.with_name(db.name + ".reasoning")
    if caches.is_dir():
        shutil.copytree(caches, folder / caches.name)
    archive = shutil.make_archive(str(tmp / "kb-ship"), "zip", root_dir=folder)
    try:
        sc.addArchive(archive)
    except Py4JError as exc:
        raise EngineError(f"could not ship the knowledge base to the executors: {_first_line(exc)}") from exc
    return Path(archive).name
