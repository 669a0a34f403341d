"""How an executor's Python worker starts and hands its results back.

Spark puts its copy of pyspark (`pyspark.zip`, py4j's zip) first on an executor's module path, and Python
compiles every module it imports from a zip again in each process: the daemon drops the zips that an installed
pyspark carries inside itself (its folder is on the path: the same files, with bytecode), and keeps a Spark
distribution's own. On a local master a task writes its encoded verdicts to a file the driver reads back in
order and removes; the driver builds the views every executor opens only when they are not saved for the data
as it is."""

from __future__ import annotations

import shutil
from pathlib import Path

from kgbrain.api import Brain
from kgbrain.scale import verify as spark_verify
from kgbrain.scale.daemon import installed_zips
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
