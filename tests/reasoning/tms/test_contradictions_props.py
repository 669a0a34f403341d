"""Properties of contradiction detection and truth maintenance (hypothesis, profile "ci")."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.ingest.loader import LoadReport
from kgbrain.knowledge import Fact, Literal, Status
from kgbrain.reasoning.tms import resolution as truth
from kgbrain.reasoning.tms.contradictions import ConflictType, Vocabulary, claim_key, find_contradictions
from kgbrain.reasoning.tms.resolution import plan
from tests.conftest import write_jsonl

VOCAB = Vocabulary(
    functional=frozenset({"size"}),
    symmetric=frozenset({"related_to"}),
    opposites=frozenset({("causes", "prevents"), ("prevents", "causes")}),
)
NOW = datetime(2026, 1, 1, tzinfo=timezone.utc)
DATES = [None, datetime(2010, 1, 1, tzinfo=timezone.utc), datetime(2020, 1, 1, tzinfo=timezone.utc)]
TRUST = {"s1": 0.2, "s2": 0.5, "s3": 0.9}

names = st.sampled_from(["a", "b", "c"])
relations = st.sampled_from(["likes", "causes", "prevents", "related_to"])


@st.composite
def facts(draw: st.DrawFn, positive: bool = False) -> Fact:
    """A small fact: a relation between concepts, or a value of the functional attribute `size`."""
    source = draw(st.sampled_from(sorted(TRUST)))
    common: dict[str, Any] = {
        "subject": draw(names),
        "polarity": True if positive else draw(st.booleans()),
        "confidence": draw(st.sampled_from([0.0, 0.05, 0.5, 1.0])),
        "source": source,
        "trust": TRUST[source],
        "observed_at": draw(st.sampled_from(DATES)),
    }
    if draw(st.booleans()):
        return Fact(predicate=draw(relations), object=draw(names), **common)
    return Fact(predicate="size", value=Literal.from_python(draw(st.integers(0, 2))), **common)


def signature(found: list[Any]) -> list[tuple[str, ConflictType]]:
    return [(c.id, c.type) for c in found]


@given(st.lists(facts(), max_size=12), st.randoms(use_true_random=False))
def test_detection_does_not_depend_on_fact_order(kb: list[Fact], rnd: Any) -> None:
    shuffled = list(kb)
    rnd.shuffle(shuffled)
    assert signature(find_contradictions(shuffled, VOCAB)) == signature(find_contradictions(kb, VOCAB))


@given(st.lists(facts(), max_size=12), facts(), st.sampled_from(sorted(TRUST)))
def test_a_fact_and_its_negation_always_conflict(kb: list[Fact], fact: Fact, source: str) -> None:
    negation = dataclasses.replace(fact, polarity=not fact.polarity, source=source, trust=TRUST[source], fact_id="")
    found = find_contradictions([*kb, fact, negation], VOCAB)
    pairs = {(c.type, frozenset(c.fact_ids)) for c in found}
    assert {
        (ConflictType.OPPOSITE_POLARITY, frozenset({fact.fact_id, negation.fact_id})),
        (ConflictType.SOURCE_CONFLICT, frozenset({fact.fact_id, negation.fact_id})),
    } & pairs
    assert claim_key(fact, VOCAB) == claim_key(negation, VOCAB)


@given(st.lists(facts(positive=True), max_size=15))
def test_a_consistent_kb_has_no_conflicts(kb: list[Fact]) -> None:
    one_value: dict[tuple[str, str], Fact] = {}
    consistent = []
    for f in kb:
        if f.predicate == "size":
            f = one_value.setdefault((f.subject, f.predicate), f)
        elif f.predicate == "prevents":
            continue  # no statement with an opposite predicate; several values of other relations are fine
        consistent.append(f)
    assert find_contradictions(consistent, VOCAB) == []


@given(st.lists(facts(), max_size=14))
def test_confidences_and_trust_stay_within_0_and_1(kb: list[Fact]) -> None:
    state = {f.fact_id: (f.confidence, f.status) for f in kb}
    trust = dict(TRUST)
    for c in find_contradictions(kb, VOCAB):
        r = plan(c, state, trust, NOW)
        for ch in r.event.facts:
            assert 0.0 <= ch.confidence_after <= ch.confidence_before <= 1.0
    assert all(0.0 <= conf <= 1.0 for conf, _ in state.values())
    assert all(0.0 <= t <= 1.0 for t in trust.values())
    assert all(status is not Status.RETRACTED for _, status in state.values())  # only a person retracts


def rows_of(kb: list[Fact]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"subject": "size", "predicate": "property_type", "value": "functional"}]
    for f in kb:
        row: dict[str, Any] = {"subject": f.subject, "predicate": f.predicate, "polarity": f.polarity}
        if f.object is not None:
            row["object"] = f.object
        else:
            assert f.value is not None
            row["value"] = f.value.python()
        row.update(confidence=f.confidence, source=f.source, trust=f.trust)
        if f.observed_at is not None:
            row["observed_at"] = f.observed_at.isoformat()
        rows.append(row)
    return rows


def conflict_sets(brain: Brain) -> set[frozenset[str]]:
    return {frozenset(c.fact_ids) for c in brain.conflicts()}


@settings(max_examples=8)
@given(st.lists(facts(), min_size=1, max_size=10), st.integers(0, 10))
def test_stored_conflicts_do_not_depend_on_load_order(tmp_path_factory: Any, kb: list[Fact], cut: int) -> None:
    folder: Path = tmp_path_factory.mktemp("order")
    first = write_jsonl(folder / "first.jsonl", rows_of(kb[:cut]))
    second = write_jsonl(folder / "second.jsonl", rows_of(kb[cut:]))
    found = []
    for order in ([first, second], [second, first]):
        with Brain.open(None) as brain:
            brain.load(order)
            found.append(conflict_sets(brain))
            assert brain.scan_conflicts().recorded == []  # loads already found everything a full scan finds
    assert found[0] == found[1]


@settings(max_examples=8)
@given(st.lists(facts(), min_size=1, max_size=10), st.data())
def test_no_fact_is_ever_removed(tmp_path_factory: Any, kb: list[Fact], data: st.DataObject) -> None:
    path = write_jsonl(tmp_path_factory.mktemp("kb") / "kb.jsonl", rows_of(kb))
    with Brain.open(None) as brain:
        brain.load([path])
        stored = brain.stats().facts
        assert stored == len({f.fact_id for f in kb})
        brain.scan_conflicts()
        for c in brain.conflicts(status="open"):
            brain.resolve_conflict(c.id, keep=data.draw(st.sampled_from(c.fact_ids)), by="tester")
        ids = sorted({f.fact_id for c in brain.conflicts() for f in c.facts})
        if ids:
            brain.retract(data.draw(st.sampled_from(ids)))
        assert brain.stats().facts == stored
        assert all(0.0 <= f.confidence <= 1.0 for c in brain.conflicts() for f in c.facts)


def test_an_outdated_value_is_still_compared_whatever_the_order(tmp_path: Path) -> None:
    """2010 then 2021 then a 2024 rumour gives the same conflicts as the rumour first (outdated is not gone)."""
    rows = [
        {"subject": "kazan", "predicate": "size", "value": v, "observed_at": f"{year}-01-01", "source": s, "trust": t}
        for v, year, s, t in [(1, 2010, "census/2010", 0.9), (2, 2021, "census/2021", 0.9), (3, 2024, "rumour", 0.3)]
    ]
    declare = {"subject": "size", "predicate": "property_type", "value": "functional"}
    files = [write_jsonl(tmp_path / f"{i}.jsonl", [declare, row]) for i, row in enumerate(rows)]
    found = []
    for order in (files, [files[2], files[0], files[1]]):
        with Brain.open(None) as brain:
            brain.load(order)
            found.append(conflict_sets(brain))
    assert found[0] == found[1]
    assert len(found[0]) == 3


hierarchy_names = st.sampled_from(["a", "b", "c", "d"])


@st.composite
def hierarchy_rows(draw: st.DrawFn) -> dict[str, Any]:
    """An is_a / instance_of / disjoint_with statement among a few concepts (mostly positive)."""
    return {
        "subject": draw(hierarchy_names),
        "predicate": draw(st.sampled_from(["is_a", "is_a", "instance_of", "disjoint_with"])),
        "object": draw(hierarchy_names),
        "polarity": draw(st.sampled_from([True, True, True, False])),
        "source": draw(st.sampled_from(["s1", "s2"])),
    }


def _row(subject: str, predicate: str, obj: str, polarity: bool = True) -> dict[str, Any]:
    return {"subject": subject, "predicate": predicate, "object": obj, "polarity": polarity, "source": "s1"}


@settings(max_examples=30)
@given(
    st.lists(st.one_of(hierarchy_rows(), facts().map(lambda f: rows_of([f])[1])), min_size=3, max_size=16),
    st.integers(0, 16),
    st.integers(0, 16),
)
# A stored fact denied by a load that also creates a concept; a new concept under two disjoint stored classes.
@example(rows=[_row("a", "likes", "b"), _row("a", "likes", "b", False), _row("d", "is_a", "a")], cut=1, cut2=3)
@example(rows=[_row("a", "disjoint_with", "b"), _row("d", "is_a", "a"), _row("d", "is_a", "b")], cut=1, cut2=3)
def test_what_a_load_creates_is_followed_in_memory_with_the_same_conflicts(
    tmp_path_factory: Any, rows: list[dict[str, Any]], cut: int, cut2: int
) -> None:
    """A load takes the concepts it created as having no stored facts: it does not ask the store for their facts
    (conflict candidates) and follows their links in memory (the disjointness walk). The conflicts recorded are
    those found by asking about every concept (the definition), load after load."""
    folder: Path = tmp_path_factory.mktemp("walk")
    low, high = sorted((cut, cut2))
    parts = (rows_of([])[:1] + rows[:low], rows[low:high], rows[high:])
    files = [write_jsonl(folder / f"{i}.jsonl", part) for i, part in enumerate(parts)]
    found = []
    for in_memory in (True, False):
        with Brain.open(None) as brain:
            if not in_memory:
                brain.load_hooks[0] = _record_only
            brain.load(files)
            found.append({(c.id, tuple(c.fact_ids)) for c in brain.conflicts()})
            assert brain.scan_conflicts().recorded == []  # the loads found everything a full scan finds
    assert found[0] == found[1]


def _record_only(brain: Brain, report: LoadReport) -> None:
    """Record the load's conflicts; no fact is reported deactivated (nothing derived here to withdraw)."""
    truth.record_on_load(brain.store, report.added, only_new=report.first_facts)
