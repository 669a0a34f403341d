"""Spark's Python daemon for kgbrain's executors: kgbrain's verifier imported once, before the workers fork.

Spark starts one daemon per executor (`spark.python.daemon.module`), which forks a Python worker per task slot.
pyspark's own daemon imports nothing before forking, so every worker would import pyspark's worker module and
kgbrain itself again (about 1 s and 0.3 CPU-s per worker here); forked from this one they share those pages.
Nothing that starts threads is imported (pyspark.daemon's concern): pyspark.worker and kgbrain's verification
modules load no numpy, pandas or pyarrow at import time, and no knowledge base is opened here.
"""

from __future__ import annotations

import importlib

# What pyspark.daemon imports after each fork, and what a verification task unpickles.
PRELOADED = ("pyspark.worker", "kgbrain.api", "kgbrain.output.verdicts", "kgbrain.scale.verify")


def main() -> None:
    for name in PRELOADED:
        importlib.import_module(name)
    from pyspark.daemon import manager

    manager()


if __name__ == "__main__":
    main()
