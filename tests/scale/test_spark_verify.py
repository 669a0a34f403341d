"""`verify --engine spark` writes the embedded engine's verdict file byte for byte, and resumes like it."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.scale import verify as spark_verify
from kgbrain.scale.session import SparkSpec, spark_session
from tests.conftest import FIXTURES, write_jsonl
from tests.reasoning.rules.test_bulk_vs_cypher import dense_rows
from tests.reasoning.rules.test_executor import CLASSES, CONCEPTS, PREDICATES
from tests.time.test_as_of import _rows as timed_rows

pytestmark = pytest.mark.spark
PLUTO_PLANET = ("pluto", "is_a", "planet")

RULES = """\
[anc1] ancestor(X, Y) :- parent(X, Y).
[anc2] ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
"""
FAMILY = [
    {"subject": "alice", "predicate": "parent", "object": "bob"},
    {"subject": "bob", "predicate": "parent", "object": "carol"},
    {"subject": "carol", "predicate": "parent", "object": "dan"},
    {"subject": "alice", "predicate": "height_cm", "value": "170"},
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("spark_kb")
    rules = tmp / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    db = tmp / "kb.kuzu"
    with Brain.open(db) as b:
        b.load([FIXTURES / "claims" / "penguins_kb.jsonl", FIXTURES / "reasoning" / "smoking.jsonl"])
        b.load([write_jsonl(tmp / "family.jsonl", FAMILY), rules])
        b.retract(next(f.fact_id for f in b.facts("carol").facts if f.predicate == "parent"), by="test")
    return db


def _claims(path: Path, names: list[str]) -> Path:
    preds = ("is_a", "can", "has_property", "causes", "ancestor", "parent", "instance_of")
    rows: list[str] = []
    n = 0
    for s in names:
        for p in preds:
            for o in names:
                n += 1
                rows.append(
                    json.dumps({"id": f"c{n}", "subject": s, "predicate": p, "object": o, "polarity": n % 4 != 0})
                )
    rows += [
        json.dumps({"id": "v1", "subject": "alice", "predicate": "height_cm", "object": "170"}),
        json.dumps({"id": "t1", "text": "a penguin is a bird"}),
        json.dumps({"id": "t2", "text": "nothing reads this"}),
        "not json at all",
        "",
        json.dumps({"id": "u1", "subject": "unicorn", "predicate": "is_a", "object": "bird"}),
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_spark_verdicts_are_the_embedded_bytes_and_resume(kb: Path, tmp_path: Path) -> None:
    with Brain.open(kb, read_only=True) as b:
        names = [*sorted(b.reasoner.graph().names)[:9], "alice", "carol", "dan"]
        claims = _claims(tmp_path / "claims.jsonl", names)
        embedded, spark = tmp_path / "embedded.jsonl", tmp_path / "spark.jsonl"
        b.verify_file(claims, embedded, batch_size=64)
        summary = b.verify_file(claims, spark, batch_size=64, engine="spark", master="local[2]")
        assert spark.read_bytes() == embedded.read_bytes()
        assert summary.claims == len(embedded.read_bytes().splitlines())
        # killed mid-line: resume keeps the finished verdicts and writes the same file
        data = spark.read_bytes()
        cut = data.index(b"\n", len(data) // 3) + 40
        spark.write_bytes(data[:cut])
        again = b.verify_file(claims, spark, batch_size=64, engine="spark", master="local[2]", resume=True)
        assert again.resumed > 0
        assert again.torn_line_rewritten
        assert spark.read_bytes() == embedded.read_bytes()
        # closed world on a CSV file: the same options reach the executors
        csv = tmp_path / "claims.csv"
        csv.write_text("id,subject,predicate,object\na,penguin,can,fly\nb,sparrow,is_a,fish\n", encoding="utf-8")
        b.verify_file(csv, embedded, closed_world=True)
        b.verify_file(csv, spark, closed_world=True, engine="spark", master="local[1]")
        assert spark.read_bytes() == embedded.read_bytes()


def test_many_waves_come_back_in_input_order(kb: Path, tmp_path: Path) -> None:
    # batches of 2: several waves of batches, two running at once, must still be written in input order
    with Brain.open(kb, read_only=True) as b:
        names = sorted(b.reasoner.graph().names)[:10]
        claims = _claims(tmp_path / "claims.jsonl", names)
        embedded, spark = tmp_path / "embedded.jsonl", tmp_path / "spark.jsonl"
        b.verify_file(claims, embedded, batch_size=2)
        b.verify_file(claims, spark, batch_size=2, engine="spark", master="local[2]")
    lines = embedded.read_bytes().splitlines()
    assert len(lines) > 2 * 2 * spark_verify.BATCHES_PER_SLOT * spark_verify.WAVES_IN_FLIGHT
    assert spark.read_bytes() == embedded.read_bytes()


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    with spark_session(SparkSpec("local[2]")) as session:  # one JVM for every example (verify reuses it)
        yield session


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    dense_rows(),
    st.lists(
        st.tuples(
            st.sampled_from(CONCEPTS[:4]),
            st.sampled_from([*PREDICATES, "is_a", "instance_of"]),
            st.sampled_from([*CONCEPTS[:4], *CLASSES]),
            st.booleans(),
        ),
        min_size=1,
        max_size=40,
    ),
)
def test_random_knowledge_bases_and_claims_give_the_embedded_bytes(
    spark: Any, rows: list[dict[str, Any]], claims: list[tuple[str, str, str, bool]]
) -> None:
    with tempfile.TemporaryDirectory(prefix="kgbrain-spark-") as tmp:
        folder = Path(tmp)
        db = folder / "kb.kuzu"
        with Brain.open(db) as b:
            b.load([write_jsonl(folder / "facts.jsonl", rows)])
        lines = [
            {"id": f"c{i}", "subject": s, "predicate": p, "object": o, "polarity": polarity}
            for i, (s, p, o, polarity) in enumerate(claims)
        ]
        path = write_jsonl(folder / "claims.jsonl", lines)
        embedded, on_spark = folder / "embedded.jsonl", folder / "spark.jsonl"
        with Brain.open(db, read_only=True) as b:
            b.verify_file(path, embedded, batch_size=7)
            b.verify_file(path, on_spark, batch_size=7, engine="spark", master="local[2]")
        assert on_spark.read_bytes() == embedded.read_bytes()


def test_as_of_on_spark_gives_the_embedded_verdicts(spark: Any, tmp_path: Path) -> None:
    db = tmp_path / "timed.kuzu"
    with Brain.open(db) as b:
        b.load([write_jsonl(tmp_path / "timed.jsonl", timed_rows())], source="iau")
    names = sorted({r["subject"] for r in timed_rows()} | {r["object"] for r in timed_rows()})
    claims = _claims(tmp_path / "claims.jsonl", names)
    verdicts: dict[str, bytes] = {}
    with Brain.open(db, read_only=True) as b:
        for when in ("1950", "2010"):
            embedded, on_spark = tmp_path / f"embedded{when}.jsonl", tmp_path / f"spark{when}.jsonl"
            b.at(when).verify_file(claims, embedded, batch_size=16)
            b.at(when).verify_file(claims, on_spark, batch_size=16, engine="spark", master="local[2]")
            assert on_spark.read_bytes() == embedded.read_bytes()
            verdicts[when] = embedded.read_bytes()
    rows = [json.loads(line) for line in claims.read_text(encoding="utf-8").splitlines() if line.startswith("{")]
    asked = {r["id"] for r in rows if (r.get("subject"), r.get("predicate"), r.get("object")) == PLUTO_PLANET}
    found = {
        when: {v["verdict"] for v in map(json.loads, text.splitlines()) if v["id"] in asked}
        for when, text in verdicts.items()
    }
    assert found["1950"] & {"SUPPORTED", "REFUTED"}
    assert found["1950"] != found["2010"]  # the time reached the executors


def test_a_reused_worker_keeps_its_views_out_of_the_daemons_collections(spark: Any, kb: Path) -> None:
    # pyspark's daemon runs a full gc.collect() after every task of a reused worker: what the worker keeps (the
    # mirror, labels, caches) must be frozen by then, so that pass has only the task's leftovers to traverse.
    with Brain.open(kb, read_only=True) as b:
        names = sorted(b.reasoner.graph().names)[:6]
    lines = [
        json.dumps({"id": f"g{i}", "subject": s, "predicate": "is_a", "object": o})
        for i, (s, o) in enumerate((s, o) for s in names for o in names)
    ]
    from functools import partial

    from kgbrain.output.verdicts import encode_batch
    from kgbrain.reasoning.answering.verify import VerifyOptions

    task = partial(
        spark_verify._verify_partition,
        partial(Brain.open, read_only=True),
        spark_verify.KbLocation(str(kb)),
        VerifyOptions(),
        encode_batch,
        None,
    )

    def probe(batches: Any) -> Any:
        import gc

        done = sum(batch.size for batch in task(batches))
        return [(done, gc.get_freeze_count(), len(gc.get_objects()))]

    sc = spark.sparkContext
    found = sc.parallelize([[(n + 1, line.encode())] for n, line in enumerate(lines)], 1).mapPartitions(probe).collect()
    [(done, frozen, young)] = found
    assert done == len(lines)
    assert frozen > 10 * young  # the views are frozen; the collector is left the task's few young objects
