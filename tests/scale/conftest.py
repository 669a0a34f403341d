"""Spark tests: local mode bound to 127.0.0.1, the JVM this process starts stopped by pid at the end.

Each test module that runs Spark is marked `spark`; without Java they fail with the engine's own message
(pyspark comes with the test extra), they are not skipped.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _stop_spark_jvm() -> Iterator[None]:
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    yield
    stop_jvm()


def stop_jvm() -> None:
    """Stop the JVM this process started for Spark, if any (by pid), so the next start launches a new one."""
    from pyspark import SparkContext

    from kgbrain.scale.session import ACCUMULATORS_STOP

    gateway = SparkContext._gateway
    if gateway is None:
        return
    for thread in threading.enumerate():  # a context's accumulator server, shut down after it stopped
        if thread.name == ACCUMULATORS_STOP:
            thread.join()
    proc = gateway.proc  # spark-submit exec's the JVM: this is its pid
    gateway.shutdown()
    if proc is not None:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
        if proc.stdin is not None:
            proc.stdin.close()  # the pipe that would have stopped the JVM when this process exits
    SparkContext._gateway = None
    SparkContext._jvm = None
