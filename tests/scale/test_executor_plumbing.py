"""How an executor's Python worker starts and hands its results back.

Spark puts its copy of pyspark (`pyspark.zip`, py4j's zip) first on an executor's module path, and Python
compiles every module it imports from a zip again in each process: the daemon drops the zips that an installed
pyspark carries inside itself (its folder is on the path: the same files, with bytecode), and keeps a Spark
distribution's own. On a local master a task writes its encoded verdicts to a file the driver reads back in
order and removes; the driver builds the views every executor opens only when they are not saved for the data
as it is."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from kgbrain.api import Brain
from kgbrain.scale import verify as spark_verify
from kgbrain.scale.daemon import PRELOADED, installed_zips, preloaded
from tests.conftest import FIXTURES


def _installed(site: Path, *, py4j: bool = True) -> tuple[str, str]:
    lib = site / "pyspark" / "python" / "lib"
    lib.mkdir(parents=True)
    (site / "pyspark" / "__init__.py").write_text("", encoding="utf-8")
    if py4j:
        (site / "py4j").mkdir()
        (site / "py4j" / "__init__.py").write_text("", encoding="utf-8")
    zips = (lib / "pyspark.zip", lib / "py4j-0.10.9.9-src.zip")
    for z in zips:
        z.write_bytes(b"")
    return str(zips[0]), str(zips[1])


def test_the_zips_inside_an_installed_pyspark_are_dropped(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    pyspark_zip, py4j_zip = _installed(site)
    assert installed_zips([pyspark_zip, py4j_zip, "", str(site)]) == [pyspark_zip, py4j_zip]


def test_a_spark_distributions_zips_and_unlisted_installs_stay(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    pyspark_zip, py4j_zip = _installed(site)
    assert installed_zips([pyspark_zip, py4j_zip]) == []  # the installed folder is not on the path
    home = tmp_path / "spark-4.0" / "python" / "lib"  # SPARK_HOME/python/lib: no package around it
    home.mkdir(parents=True)
    (home / "pyspark.zip").write_bytes(b"")
    assert installed_zips([str(home / "pyspark.zip"), str(tmp_path)]) == []
    bare = tmp_path / "bare"
    pyspark_zip, py4j_zip = _installed(bare, py4j=False)  # no installed py4j: its zip is the only copy
    assert installed_zips([pyspark_zip, py4j_zip, str(bare)]) == [pyspark_zip]


def test_a_tasks_handed_off_results_come_back_in_order_and_the_file_goes(tmp_path: Path) -> None:
    results = [{"batch": n, "data": bytes(range(n % 256)) * 40} for n in range(7)]
    name = spark_verify._hand_off(tmp_path, iter(results))
    assert Path(name).parent == tmp_path
    assert spark_verify._taken(name) == results
    assert not Path(name).exists()
    empty = spark_verify._hand_off(tmp_path, iter([]))
    assert spark_verify._taken(empty) == []
    assert list(tmp_path.iterdir()) == []


def test_the_driver_builds_the_views_executors_open_only_when_missing_or_stale(tmp_path: Path) -> None:
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([FIXTURES / "claims" / "penguins_kb.jsonl"])
    caches = db.with_name(db.name + ".reasoning")
    shutil.rmtree(caches, ignore_errors=True)
    with Brain.open(db, read_only=True) as brain:
        brain.persist_views()
        assert brain.reasoner._graph is not None  # missing: built and saved
    assert (caches / "graph.npz").is_file()
    assert (caches / "reach" / "fingerprint.json").is_file()
    with Brain.open(db, read_only=True) as brain:
        brain.persist_views()
        assert brain.reasoner._graph is None  # current: nothing read but their fingerprints
        assert brain.reasoner._hierarchy is None
    (caches / "graph.npz").write_bytes(b"not a mirror")
    with Brain.open(db, read_only=True) as brain:
        brain.persist_views()
        assert brain.reasoner._graph is not None  # unreadable: built and saved again
    stamp = caches / "reach" / "fingerprint.json"
    stamp.write_text(stamp.read_text(encoding="utf-8").replace("}", ', "stale": 1}'), encoding="utf-8")
    with Brain.open(db, read_only=True) as brain:
        brain.persist_views()
        assert brain.reasoner._hierarchy is not None  # labels of other data: built again
    with Brain.open(db, read_only=True) as brain:
        brain.persist_views()
        assert brain.reasoner._graph is None


def test_the_daemon_imports_the_reasoner_only_when_numpy_starts_no_threads() -> None:
    assert "kgbrain.reasoning.answering.reasoner" in preloaded({"OMP_NUM_THREADS": "1"})
    assert "kgbrain.reasoning.answering.reasoner" in preloaded({"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "4"})
    for environ in ({}, {"OMP_NUM_THREADS": "2"}, {"OPENBLAS_NUM_THREADS": "4", "OMP_NUM_THREADS": "1"}):
        assert preloaded(environ) == PRELOADED
    code = (
        "import os, sys\n"
        "from kgbrain.scale.daemon import preloaded\n"
        "import importlib\n"
        "for name in preloaded(os.environ): importlib.import_module(name)\n"
        "print(len(os.listdir('/proc/self/task')), 'numpy' in sys.modules)\n"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    env.pop("OPENBLAS_NUM_THREADS", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.split() == ["1", "True"]  # numpy imported, and this process still has its one thread
