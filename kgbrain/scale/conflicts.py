"""Contradiction scans on Spark: the facts grouped by comparison key across executors, each group compared by
kgbrain's own `find_contradictions`, so the conflict records (and their ids, a hash of type and key) are the
ones `conflicts --scan` makes.

Spark does the part that grows with the knowledge base: keying every fact (`comparison_keys`), the shuffle that
brings facts sharing a key together, and the pairwise comparison inside each group. Disjointness violations
need the class hierarchy and are found on the driver by the embedded walk (`find_disjointness`), as the
verification engine keeps the hierarchy on one machine too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from typing import Any

from kgbrain.ingest.export import stored_fact_rows
from kgbrain.memory.trust import get_trust
from kgbrain.reasoning.tms.contradictions import (
    LIVE,
    Contradiction,
    Vocabulary,
    comparison_keys,
    find_contradictions,
)
from kgbrain.scale.session import SparkSpec, spark_context
from kgbrain.scale.verify import collect
from kgbrain.store.protocol import GraphStore, Row
from kgbrain.store.rows import fact_from_row

# Fact rows per slice handed to executors.
ROWS_PER_SLICE = 50_000


def _keyed(vocab: Vocabulary, rows: Iterable[Row]) -> Iterator[tuple[Any, Any]]:
    opposite = {p for p, _ in vocab.opposites}
    for row in rows:
        fact = fact_from_row(row)
        if fact.status in LIVE:
            for key in comparison_keys(fact, vocab, opposite):
                yield key, fact


def _compared(vocab: Vocabulary, trust: Mapping[str, float], group: tuple[Any, Iterable[Any]]) -> list[Any]:
    facts = list(group[1])
    if len(facts) < 2:
        return []
    return [(c.id, c) for c in find_contradictions(facts, vocab, trust=trust)]


def pairwise_on_spark(spec: SparkSpec, store: GraphStore, vocab: Vocabulary) -> list[Contradiction]:
    """Every pairwise conflict of the knowledge base, compared on Spark; sorted by id (see the module docstring).

    Raises:
        InputError: pyspark or Java is missing.
        EngineError: Spark failed.
        StoreError: the store failed.
    """
    rows = list(stored_fact_rows(store))
    trust = get_trust(store, {str(r["source"] or "") for r in rows})
    return pairwise_of_rows(spec, rows, vocab, trust)


def pairwise_of_rows(
    spec: SparkSpec, rows: list[Row], vocab: Vocabulary, trust: Mapping[str, float]
) -> list[Contradiction]:
    """`pairwise_on_spark` over fact rows (queries/export_facts.cypher's columns) and source trust.

    Raises:
        InputError: pyspark or Java is missing.
        EngineError: Spark failed.
    """
    if not rows:
        return []
    with spark_context(spec) as sc:
        slices = max(1, min(len(rows) // ROWS_PER_SLICE + 1, 4 * int(sc.defaultParallelism)))
        keyed = sc.parallelize(rows, slices).mapPartitions(partial(_keyed, vocab))
        found = (
            keyed.groupByKey()
            .flatMap(partial(_compared, vocab, trust))
            .reduceByKey(lambda a, b: a)  # a pair met in two groups is one conflict (same type, same id)
            .values()
        )
        return sorted(collect(found), key=lambda c: c.id)
