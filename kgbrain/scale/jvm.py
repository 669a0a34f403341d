"""Java options for the driver's JVM: start fast, and keep the JVM's own messages off standard output.

A kgbrain run starts a new JVM each time, and on a small machine its start-up is most of a short run's time
(bench/scale.py: about 14 CPU-s for a SparkSession with the default JIT and GC). The driver JVM does little
compute of its own (it schedules tasks and moves bytes; in local mode its executors only pipe rows to the Python
workers), so:

- `-XX:TieredStopAtLevel=1` compiles with C1 only: C2's compile threads cost more CPU than they save here;
- `-XX:+UseSerialGC`: no parallel or concurrent GC threads to start for a heap this size;
- class data sharing (AppCDS): the classes Spark loads are archived once, as the first run's JVM exits
  (`-XX:ArchiveClassesAtExit`; that run waits for it), and mapped by every later one (`-XX:SharedArchiveFile`),
  from the user's cache folder. The JVM checks an archive against its own build and class path and ignores one
  that does not match, so a stale archive costs nothing but its benefit.

Only the driver gets these (executors on a cluster run long and keep the JVM's defaults). Options the user sets
in `spark.driver.extraJavaOptions` come after them and win.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FAST_START = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
# JVM warnings go to stderr (the default is stdout, where `verify -o -` writes verdicts); CDS's own notes about
# classes it cannot archive are dropped.
QUIET = ("-Xlog:disable", "-Xlog:all=warning,cds*=off:stderr")
ARCHIVE_SUFFIX = ".jsa"
OFF_SWITCH = "KGBRAIN_SPARK_FAST_START"
DYNAMIC_MAGIC = (0xF00BABA8).to_bytes(4, "little")  # a dynamic CDS archive's first field, in the JVM's byte order
DUMP_TIMEOUT_S = 120


@dataclass(frozen=True, slots=True)
class DriverStart:
    """The driver JVM's options, and the class archive it writes as it exits (None: it maps one, or none)."""

    options: str
    dump: Path | None = None
    archive: Path | None = None


def driver_start(user: str | None, cache: Path | None) -> DriverStart:
    """How to start the driver JVM: fast start, class data sharing from `cache` (None: off), then the user's
    own options (`spark.driver.extraJavaOptions`). `KGBRAIN_SPARK_FAST_START=0` leaves the JVM's defaults (a JVM
    that is not HotSpot's may refuse these options)."""
    if os.environ.get(OFF_SWITCH, "1") == "0":
        return DriverStart(user or "")
    sharing, dump, archive = _sharing(cache)
    options = [*FAST_START, *QUIET, *sharing]
    return DriverStart(" ".join([*options, user] if user else options), dump, archive)


def cds_cache() -> Path | None:
    """Where this Spark and Java's class archive lives (per user); None when no cache folder can be made."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kgbrain" / "spark-cds"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base if os.access(base, os.W_OK) else None


def _sharing(cache: Path | None) -> tuple[list[str], Path | None, Path | None]:
    if cache is None:
        return [], None, None
    archive = cache / (_build_key() + ARCHIVE_SUFFIX)
    if archive.is_file():
        return [f"-XX:SharedArchiveFile={archive}"], None, None
    # Written under a name of its own, renamed once whole: a run starting meanwhile never maps a half-written file.
    dump = archive.with_suffix(f".{os.getpid()}.tmp")
    return [f"-XX:ArchiveClassesAtExit={dump}"], dump, archive


def finish_dump(start: DriverStart, gateway: Any) -> None:
    """Stop the driver JVM that `start` launched so it writes its class archive now, and put the archive in
    place. Without this the JVM would write it after this process exits, unseen (and unfinished if killed)."""
    if start.dump is None or start.archive is None or gateway is None:
        return
    proc = gateway.proc  # spark-submit exec's the JVM: this is its process
    gateway.shutdown()
    if proc is not None and proc.stdin is not None:
        proc.stdin.close()  # the JVM exits on end of input (PythonGatewayServer), dumping the archive on its way
        try:
            proc.wait(timeout=DUMP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    try:
        if _whole(start.dump):
            start.dump.replace(start.archive)
        else:
            start.dump.unlink(missing_ok=True)
    except OSError:
        return  # another run's archive is in place, or the cache is read-only now: the next run dumps again


def _whole(dump: Path) -> bool:
    # The JVM writes the archive's header (its magic number first) after everything else.
    try:
        with dump.open("rb") as fh:
            return fh.read(4) == DYNAMIC_MAGIC
    except OSError:
        return False


def _build_key() -> str:
    """This Java and Spark installation: an archive is made for one JVM build and one class path."""
    import pyspark

    home = os.environ.get("JAVA_HOME")
    java = (shutil.which("java", path=str(Path(home) / "bin")) if home else None) or shutil.which("java") or "java"
    real = Path(java).resolve()
    stamp = real.stat().st_mtime_ns if real.exists() else 0
    parts = (str(real), str(stamp), pyspark.__version__, str(Path(pyspark.__file__).parent), *FAST_START)
    return "spark-" + hashlib.blake2b("\0".join(parts).encode(), digest_size=8).hexdigest()
