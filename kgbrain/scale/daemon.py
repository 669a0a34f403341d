"""Spark's Python daemon for kgbrain's executors: kgbrain's verifier imported once, before the workers fork.

Spark starts one daemon per executor (`spark.python.daemon.module`), which forks a Python worker per task slot.
pyspark's own daemon imports nothing before forking, so every worker would import pyspark's worker module and
kgbrain itself again (about 1 s and 0.3 CPU-s per worker here); forked from this one they share those pages.
Nothing that starts threads is imported (pyspark.daemon's concern): pyspark.worker and kgbrain's verification
modules load no pandas or pyarrow at import time, and no knowledge base is opened here. The reasoner's modules
(numpy with them: a third of a worker's start on the 200k-concept taxonomy) are imported too when numpy's BLAS is
told to run on one thread (`OPENBLAS_NUM_THREADS`, else `OMP_NUM_THREADS`, is 1: Spark sets the latter to the task's
cores, 1 by default), since then its import starts none.

Spark puts its own copy of pyspark (`pyspark/python/lib/pyspark.zip` and py4j's zip) first on the workers' module
path. Python compiles every module it imports from a zip again in each process (no bytecode cache there): 0.9 CPU-s
for this daemon's imports against 0.3 from the installed package. When the zips are the ones inside an installed
pyspark whose folder is on the path anyway (a `pip install pyspark`: the same files), they are dropped, and
pyspark comes from the installed package; a Spark distribution's own zips (SPARK_HOME/python/lib) stay.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Mapping
from pathlib import Path

# What pyspark.daemon imports after each fork, and what a verification task unpickles.
PRELOADED = ("pyspark.worker", "kgbrain.api", "kgbrain.output.verdicts", "kgbrain.scale.verify")
# What a task imports as it opens the knowledge base (Brain.reasoner), numpy among them.
WITH_NUMPY = ("kgbrain.reasoning.answering.reasoner",)


def installed_zips(path: list[str]) -> list[str]:
    """The entries of `path` that are zips inside an installed pyspark package whose folder is on `path` too."""
    folders = {Path(entry).resolve() for entry in path if entry and not entry.endswith(".zip")}
    return [entry for entry in path if _inside_installed(Path(entry), folders)]


def _inside_installed(zipped: Path, folders: set[Path]) -> bool:
    if zipped.suffix != ".zip" or zipped.parent.name != "lib" or zipped.parent.parent.name != "python":
        return False
    package = zipped.parent.parent.parent  # <site>/pyspark/python/lib/pyspark.zip
    site = package.parent.resolve()
    if package.name != "pyspark" or not (package / "__init__.py").is_file() or site not in folders:
        return False
    return not zipped.name.startswith("py4j") or (site / "py4j" / "__init__.py").is_file()


def preloaded(environ: Mapping[str, str]) -> tuple[str, ...]:
    """The modules this daemon imports before forking, in a process with these environment variables."""
    threads = environ.get("OPENBLAS_NUM_THREADS") or environ.get("OMP_NUM_THREADS")  # OpenBLAS reads them so
    return (*PRELOADED, *WITH_NUMPY) if threads == "1" else PRELOADED


def main() -> None:
    dropped = set(installed_zips(sys.path))
    sys.path[:] = [entry for entry in sys.path if entry not in dropped]
    for name in preloaded(os.environ):
        importlib.import_module(name)
    from pyspark.daemon import manager

    manager()


if __name__ == "__main__":
    main()
