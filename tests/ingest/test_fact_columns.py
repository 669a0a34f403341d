"""FactColumns: Arrow-backed and list-backed columns hold the same facts; conflict candidates found with integer
keys are those the comparison-key definition names."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any

import pyarrow as pa
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kgbrain.ingest.batch import COLUMNS, FactColumns
from kgbrain.knowledge import Authority, Fact, Literal, Status
from kgbrain.reasoning.tms.contradictions import Vocabulary, _worth_comparing

UTC = timezone.utc
FACTS = [
    Fact("neuron", "is_a", "cell", None, True, 0.9, "a", 0.7, Authority.NORM, datetime(2020, 1, 2, tzinfo=UTC)),
    Fact(
        "car",
        "max_speed",
        None,
        Literal("200", "integer", "km/h"),
        False,
        1.0,
        "b",
        0.5,
        None,
        datetime(2019, 5, 1, 3, tzinfo=timezone(timedelta(hours=3))),
        status=Status.OUTDATED,
        lang="en",
        fact_id="f_1",
    ),
    Fact("нейрон", "related_to", "glia", None, True, 0.5, "a", 0.7, lang="ru"),
]


def _arrow_backed(facts: list[Fact]) -> FactColumns:
    listed = FactColumns(facts)
    return FactColumns.of({name: listed.arrow(name) for name in COLUMNS})


def test_arrow_columns_give_the_facts_list_columns_give() -> None:
    arrow = _arrow_backed(FACTS)
    assert isinstance(arrow.subject, pa.Array)  # type: ignore[attr-defined]
    assert list(arrow) == list(FactColumns(FACTS))
    # stamps come back as UTC instants in timezone.utc, as the row-by-row reader makes them
    assert arrow.fact(1).observed_at == datetime(2019, 5, 1, tzinfo=timezone.utc)
    assert arrow.fact(1).observed_at.tzinfo is timezone.utc  # type: ignore[union-attr]
    assert arrow.column("fact_id") == [f.fact_id for f in FACTS]
    other = _arrow_backed(FACTS)
    pending = FactColumns.of({**{n: other.arrow(n) for n in COLUMNS}, "fact_id": pa.nulls(3, pa.string())})
    assert pending.column("fact_id") == ["", "", ""]  # not computed yet, as readers leave it
    assert arrow.distinct("predicate") == {"is_a", "max_speed", "related_to"}
    assert arrow.concepts() == {"neuron", "cell", "car", "нейрон", "glia"}


def test_take_and_keep_pick_the_same_rows_from_arrow_and_list_columns() -> None:
    rows = pa.array([2, 0], pa.int64())
    assert list(_arrow_backed(FACTS).take(rows)) == list(FactColumns(FACTS).take([2, 0])) == [FACTS[2], FACTS[0]]
    for columns in (_arrow_backed(FACTS), FactColumns(FACTS)):
        columns.keep(rows)
        assert list(columns) == [FACTS[2], FACTS[0]]


VOCAB = Vocabulary(
    functional=frozenset({"size"}),
    symmetric=frozenset({"related_to"}),
    opposites=frozenset({("causes", "prevents"), ("prevents", "causes")}),
)
OPPOSITE = {"causes": {"prevents"}, "prevents": {"causes"}}


@st.composite
def small_facts(draw: st.DrawFn) -> Fact:
    subject = draw(st.sampled_from(["a", "b", "c", "1"]))
    predicate = draw(st.sampled_from(["related_to", "related_to", "causes", "prevents", "size", "likes"]))
    polarity = draw(st.booleans())
    if draw(st.integers(0, 3)) == 0:
        value = Literal(draw(st.sampled_from(["1", "2", "a"])), "string")
        return Fact(subject, predicate, None, value, polarity, source="s")
    return Fact(subject, predicate, draw(st.sampled_from(["a", "b", "c"])), None, polarity, source="s")


def _expected(facts: list[Fact]) -> set[int]:
    """The definition with string keys: same subject, predicate group and target (any target for a functional
    predicate; a symmetric fact also the other way round)."""

    def keys(f: Fact) -> list[tuple[Any, ...]]:
        group = min({f.predicate, *OPPOSITE.get(f.predicate, ())})
        target = f.object if f.object is not None else f.value.lexical  # type: ignore[union-attr]
        own = (f.subject, group, None if f.predicate in VOCAB.functional else target)
        both_ways = f.predicate in VOCAB.symmetric and f.object is not None and f.object != f.subject
        return [own, (f.object, group, f.subject)] if both_ways else [own]

    counted = Counter(k for f in facts for k in keys(f))
    return {i for i, f in enumerate(facts) if any(counted[k] > 1 for k in keys(f))}


@settings(max_examples=100, deadline=None)
@given(st.lists(small_facts(), min_size=1, max_size=12))
@example([Fact("a", "related_to", "b", None, True, source="s"), Fact("b", "related_to", "a", None, False, source="s")])
def test_conflict_candidates_are_the_facts_sharing_a_comparison_key(facts: list[Fact]) -> None:
    numbered = [
        Fact(f.subject, f.predicate, f.object, f.value, f.polarity, source=f.source, fact_id=f"f{i}")
        for i, f in enumerate(facts)
    ]
    found = {int(f.fact_id[1:]) for f in _worth_comparing(_arrow_backed(numbered), VOCAB, OPPOSITE, memberships=False)}
    assert found == _expected(numbered)
