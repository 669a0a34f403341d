"""A real Spark standalone cluster on 127.0.0.1 (a master and two one-core workers, started with `spark-class` from
pyspark's own distribution and stopped by pid): verify and materialise submitted to it by master URL give the
embedded engine's verdict bytes and derived facts, with the knowledge base shipped to the executors."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.rules.rulebase import save_program
from tests.conftest import FIXTURES, write_jsonl
from tests.scale.test_spark_materialise import FACTS, RULES, _program, _stored
from tests.scale.test_spark_verify import _claims

pytestmark = pytest.mark.spark

STARTUP_S = 180  # a JVM on a busy 2-core machine takes a minute to come up


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spark_class(*args: str, log: Path) -> subprocess.Popen[bytes]:
    import pyspark

    home = Path(pyspark.__file__).parent
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": "127.0.0.1", "SPARK_NO_DAEMONIZE": "1"}
    with log.open("wb") as out:  # spark-class exec's the JVM, so this pid is the JVM's
        return subprocess.Popen([str(home / "bin" / "spark-class"), *args], stdout=out, stderr=out, env=env)


def _wait_for(log: Path, text: str, count: int, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if log.read_text(encoding="utf-8", errors="replace").count(text) >= count:
            return
        if proc.poll() is not None:
            break
        time.sleep(0.5)
    raise AssertionError(f"the Spark cluster did not come up ({text!r} x{count}):\n{log.read_text()[-2000:]}")


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    logs = tmp_path_factory.mktemp("spark_cluster")
    port = _free_port()
    master_log = logs / "master.log"
    master = _spark_class(
        "org.apache.spark.deploy.master.Master",
        *("--host", "127.0.0.1", "--port", str(port), "--webui-port", str(_free_port())),
        log=master_log,
    )
    procs = [master]
    try:
        _wait_for(master_log, "I have been elected leader", 1, master)
        url = f"spark://127.0.0.1:{port}"
        for n in range(2):
            procs.append(
                _spark_class(
                    "org.apache.spark.deploy.worker.Worker",
                    *("--host", "127.0.0.1", "--cores", "1", "--memory", "1g", "--webui-port", str(_free_port())),
                    *("--work-dir", str(logs / f"work{n}"), url),
                    log=logs / f"worker{n}.log",
                )
            )
        _wait_for(master_log, "Registering worker", 2, master)
        yield url
    finally:
        _stop(procs)
    assert all(p.poll() is not None for p in procs)


def test_verify_on_a_standalone_cluster_writes_the_embedded_bytes(cluster: str, tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as b:
        b.load([FIXTURES / "claims" / "penguins_kb.jsonl"])
    with Brain.open(db, read_only=True) as b:
        claims = _claims(tmp_path / "claims.jsonl", sorted(b.reasoner.graph().names)[:6])
        embedded, spark = tmp_path / "embedded.jsonl", tmp_path / "spark.jsonl"
        b.verify_file(claims, embedded, batch_size=32)
        summary = b.verify_file(claims, spark, batch_size=32, engine="spark", master=cluster)
    assert spark.read_bytes() == embedded.read_bytes()
    assert summary.claims == len(embedded.read_bytes().splitlines()) > 100


def test_materialise_on_a_standalone_cluster_stores_the_embedded_facts(cluster: str, tmp_path: Path) -> None:
    facts = write_jsonl(tmp_path / "family.jsonl", FACTS)
    stored = []
    for engine, master in (("embedded", None), ("spark", cluster)):
        with Brain.open(None) as brain:
            brain.load([facts])
            save_program(brain.store, _program(RULES))
            report = brain.materialise(engine=engine, master=master)
            assert report.derived > 10
            stored.append(_stored(brain))
    assert stored[0] == stored[1]
