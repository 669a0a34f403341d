"""Contradiction detection and truth maintenance on real Kùzu: one fixture per conflict type and strategy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgbrain.api import Brain, demo_files
from kgbrain.errors import InputError
from kgbrain.ingest.loader import LoadReport
from kgbrain.knowledge import Status
from kgbrain.reasoning.results import Outcome
from kgbrain.reasoning.tms import resolution as truth
from kgbrain.reasoning.tms.contradictions import ConflictType
from kgbrain.reasoning.tms.resolution import ConflictRecord, ConflictStatus, Strategy
from tests.conftest import FIXTURES, write_jsonl

CONFLICTS = FIXTURES / "conflicts"


def load(brain: Brain, *names: str) -> None:
    brain.load([CONFLICTS / f"{n}.jsonl" for n in names])


def only(brain: Brain) -> ConflictRecord:
    found = brain.conflicts()
    assert len(found) == 1, [(c.type, c.fact_ids) for c in found]
    return found[0]


def by_source(record: ConflictRecord) -> dict[str, object]:
    return {f.source: f for f in record.facts}


def fact_count(brain: Brain) -> int:
    return brain.stats().facts


def test_opposite_polarity_is_deferred_and_lowers_both(brain: Brain) -> None:
    load(brain, "opposite_polarity")
    c = only(brain)
    assert (c.type, c.status, c.strategy) == (ConflictType.OPPOSITE_POLARITY, ConflictStatus.OPEN, Strategy.DEFERRED)
    facts = {f.source: f for f in c.facts}
    assert facts["textbook/a"].confidence == pytest.approx(0.75)
    assert facts["article/b"].confidence == pytest.approx(0.55)
    assert {f.status for f in c.facts} == {Status.ACTIVE}  # nobody wins without a strategy or a person
    before = {ch["fact_id"]: ch["confidence_before"] for ch in c.events[0]["facts"]}
    assert sorted(before.values()) == [0.7, 0.9]  # the history keeps what the confidences were
    assert "needs review" in c.explanation


def test_conflicting_value_settled_by_source_trust(brain: Brain) -> None:
    load(brain, "conflicting_value")
    car = brain.conflicts(facts=[f.fact_id for f in brain.facts("car").facts])
    assert len(car) == 1
    c = car[0]
    assert (c.type, c.status, c.strategy) == (
        ConflictType.CONFLICTING_VALUE,
        ConflictStatus.RESOLVED,
        Strategy.SOURCE_TRUST,
    )
    facts = {f.source: f for f in c.facts}
    assert c.kept_fact == facts["spec-sheet"].fact_id
    assert facts["spec-sheet"].status is Status.ACTIVE
    assert facts["review-site"].status is Status.DISPUTED
    assert facts["spec-sheet"].confidence == pytest.approx(0.8)
    assert facts["review-site"].confidence == pytest.approx(0.7)
    assert c.events[0]["sources"] == [{"source": "review-site", "before": 0.6, "after": 0.5}]
    trust = {r["name"]: r["trust"] for r in brain.store.run("sources_all")}
    assert trust["review-site"] == pytest.approx(0.5)


def test_conflicting_value_with_equal_trust_waits_for_a_person(brain: Brain) -> None:
    load(brain, "conflicting_value")
    truck = brain.conflicts(facts=[f.fact_id for f in brain.facts("truck").facts])
    assert [(c.type, c.status, c.strategy) for c in truck] == [
        (ConflictType.CONFLICTING_VALUE, ConflictStatus.OPEN, Strategy.DEFERRED)
    ]
    assert {f.status for f in truck[0].facts} == {Status.ACTIVE}


def test_values_in_different_units_are_not_compared(brain: Brain) -> None:
    load(brain, "conflicting_value")
    assert brain.conflicts(facts=[f.fact_id for f in brain.facts("bike").facts]) == []
    assert len(brain.conflicts()) == 2


def test_source_conflict_keeps_the_trusted_source(brain: Brain) -> None:
    load(brain, "source_conflict")
    c = only(brain)
    assert (c.type, c.status, c.strategy) == (
        ConflictType.SOURCE_CONFLICT,
        ConflictStatus.RESOLVED,
        Strategy.SOURCE_TRUST,
    )
    facts = {f.source: f for f in c.facts}
    assert c.kept_fact == facts["textbook/kandel"].fact_id
    assert facts["forum/brain-myths"].status is Status.DISPUTED
    assert facts["forum/brain-myths"].confidence == pytest.approx(0.45)
    assert facts["textbook/kandel"].confidence == pytest.approx(0.95)
    assert "trust gap 0.65 > 0.3" in c.explanation


def test_relation_conflict_between_opposite_predicates(brain: Brain) -> None:
    load(brain, "relation_conflict")
    coffee = brain.conflicts(facts=[f.fact_id for f in brain.facts("coffee").facts])
    assert [(c.type, c.status, c.strategy) for c in coffee] == [
        (ConflictType.RELATION_CONFLICT, ConflictStatus.OPEN, Strategy.DEFERRED)
    ]
    assert sorted(f.predicate for f in coffee[0].facts) == ["causes", "prevents"]
    assert sorted(f.confidence for f in coffee[0].facts) == pytest.approx([0.48, 0.78])


def test_disjointness_violation_reported_once_at_its_root(brain: Brain) -> None:
    load(brain, "relation_conflict")
    found = [c for c in brain.conflicts() if any(f.predicate == "disjoint_with" for f in c.facts)]
    assert len(found) == 1  # fruit_bat and flying_fox inherit bat's violation; they are not reported again
    c = found[0]
    assert (c.type, c.status) == (ConflictType.RELATION_CONFLICT, ConflictStatus.OPEN)
    assert "bat falls under both mammal and bird" in c.explanation
    lowered = {ch["fact_id"] for ch in c.events[0]["facts"]}
    memberships = {f.fact_id for f in c.facts if f.subject == "bat" and f.predicate == "is_a"}
    assert lowered == memberships  # the axiom itself is not doubted


def test_stale_value_is_an_update_not_a_contradiction(brain: Brain) -> None:
    load(brain, "stale")
    found = {(c.type, tuple(sorted(f.source for f in c.facts))): c for c in brain.conflicts()}
    stale = found[(ConflictType.STALE_EVIDENCE, ("census/2010", "census/2021"))]
    assert (stale.status, stale.strategy) == (ConflictStatus.RESOLVED, Strategy.TEMPORAL_OVERRIDE)
    facts = {f.source: f for f in stale.facts}
    assert facts["census/2010"].status is Status.OUTDATED
    assert facts["census/2021"].status is Status.ACTIVE
    assert facts["census/2010"].confidence == pytest.approx(0.9)  # an update costs no confidence
    assert stale.kept_fact == facts["census/2021"].fact_id


def test_a_newer_value_from_a_weak_source_does_not_retire_a_trusted_one(brain: Brain) -> None:
    load(brain, "stale")
    rumour = [c for c in brain.conflicts() if "forum/rumours" in {f.source for f in c.facts}]
    assert {c.type for c in rumour} == {ConflictType.SOURCE_CONFLICT}
    facts = {f.source: f for c in rumour for f in c.facts}
    assert facts["forum/rumours"].status is Status.DISPUTED
    assert facts["census/2021"].status is Status.ACTIVE


def test_additive_facts_produce_no_conflicts(brain: Brain) -> None:
    load(brain, "additive")
    assert brain.conflicts() == []
    result = brain.scan_conflicts()
    assert (result.found, result.recorded) == (0, [])
    assert brain.stats().statuses == {"active": 28 - 2}  # two declarations, no fact demoted


def test_demo_has_one_contradiction_and_one_stale_value_in_neuro() -> None:
    neuro = [f for f in demo_files() if f.name == "neuro.jsonl"]
    with Brain.open(None) as brain:
        brain.load(neuro)
        found = sorted(brain.conflicts(), key=lambda c: c.type.value)
        assert [c.type for c in found] == [ConflictType.SOURCE_CONFLICT, ConflictType.STALE_EVIDENCE]
        myth, stale = found
        assert {(f.subject, f.predicate, f.object, f.polarity, f.source) for f in myth.facts} == {
            ("human_brain", "has_property", "ten_percent_usage", True, "forum/brain-myths"),
            ("human_brain", "has_property", "ten_percent_usage", False, "textbook/kandel-principles-neural-science"),
        }
        assert {(f.source, f.status) for f in stale.facts} == {
            ("textbook/neuroanatomy-1990", Status.OUTDATED),
            ("paper/azevedo-2009-j-comp-neurol", Status.ACTIVE),
        }
        assert brain.scan_conflicts().found == 2  # the full scan agrees with what the loads found


def test_demo_safety_conflicts_are_the_norm_against_commentary_cases(brain: Brain) -> None:
    safety = [f for f in demo_files() if f.name == "safety_ru.jsonl"]
    brain.load(safety)
    found = brain.conflicts()
    assert {c.type for c in found} == {ConflictType.SOURCE_CONFLICT}
    losers = {f.source for c in found for f in c.facts if f.fact_id != c.kept_fact}
    assert losers == {"forum/ohrana-truda", "article/blog-ohrana-truda"}
    assert len(found) == 3


def test_detection_on_load_and_full_scan_are_idempotent(brain: Brain, tmp_path: Path) -> None:
    load(brain, "source_conflict")
    first = only(brain)
    load(brain, "source_conflict")  # the same facts again: nothing new
    assert brain.scan_conflicts().recorded == []
    again = only(brain)
    assert (again.id, again.events) == (first.id, first.events)
    assert fact_count(brain) == 2


def test_a_later_load_is_compared_with_stored_facts(brain: Brain, tmp_path: Path) -> None:
    row = {"subject": "x", "predicate": "likes", "object": "y", "source": "a", "trust": 0.6}
    write_jsonl(tmp_path / "a.jsonl", [row])
    row = {"subject": "x", "predicate": "likes", "object": "y", "polarity": False, "source": "b", "trust": 0.5}
    write_jsonl(tmp_path / "b.jsonl", [row])
    brain.load([tmp_path / "a.jsonl"])
    assert brain.conflicts() == []
    brain.load([tmp_path / "b.jsonl"])
    c = only(brain)
    assert c.type is ConflictType.OPPOSITE_POLARITY
    # Both penalised inside the load transaction: the stored fact and the one the load just added.
    assert sorted((f.source, f.confidence) for f in c.facts) == [("a", 0.85), ("b", 0.85)]
    assert sorted(f.confidence for f in brain.facts("x").facts) == [0.85, 0.85]


def test_load_detection_uses_a_fixed_number_of_queries(brain: Brain, tmp_path: Path) -> None:
    """Bulk, not one query per fact: the hook's query count does not grow with the load."""
    real_run, real_iterate = brain.store.run, brain.store.iterate
    calls: list[str] = []

    def counting_run(name: str, **params: object) -> list[dict[str, object]]:
        calls.append(name)
        return real_run(name, **params)

    def counting_iterate(name: str, **params: object) -> object:
        calls.append(name)
        return real_iterate(name, **params)

    def detect(b: Brain, report: LoadReport) -> None:
        b.store.run, b.store.iterate = counting_run, counting_iterate  # type: ignore[method-assign,assignment]
        try:
            truth.record_on_load(b.store, report.added)
        finally:
            b.store.run, b.store.iterate = real_run, real_iterate  # type: ignore[method-assign]

    brain.load_hooks[:] = [detect]
    counts = []
    for n in (5, 300):
        rows = [{"subject": f"s{n}_{i % 7}", "predicate": "likes", "object": f"o{i}", "source": "s"} for i in range(n)]
        rows += [{"subject": f"s{n}_0", "predicate": "likes", "object": "o0", "polarity": False, "source": "t"}]
        calls.clear()
        brain.load([write_jsonl(tmp_path / f"f{n}.jsonl", rows)])
        counts.append(len(calls))
    assert counts[0] == counts[1] > 0
    assert len(brain.conflicts()) == 2


def test_person_override_restores_the_kept_fact_and_raises_their_trust(brain: Brain) -> None:
    load(brain, "source_conflict")
    c = only(brain)
    forum = next(f for f in c.facts if f.source == "forum/brain-myths")
    resolved = brain.resolve_conflict(c.id, keep=forum.fact_id, by="alice")
    assert (resolved.status, resolved.strategy, resolved.kept_fact) == (
        ConflictStatus.RESOLVED,
        Strategy.HUMAN_OVERRIDE,
        forum.fact_id,
    )
    assert resolved.resolved_by == "alice"
    facts = {f.source: f for f in resolved.facts}
    assert facts["forum/brain-myths"].status is Status.ACTIVE
    assert facts["forum/brain-myths"].confidence == pytest.approx(0.6)  # what it was before the conflict
    assert facts["textbook/kandel"].status is Status.DISPUTED
    assert [e["strategy"] for e in resolved.events] == ["source_trust", "human_override"]
    trust = {r["name"]: r["trust"] for r in brain.store.run("sources_all")}
    assert trust["user/alice"] == pytest.approx(0.55)
    # The same decision again changes nothing: a `resolve` re-run after a kill that came once its write had landed
    # must not raise alice's trust a second time (nor could repeating it raise her trust at will).
    again = brain.resolve_conflict(c.id, keep=forum.fact_id, by="alice")
    assert {r["name"]: r["trust"] for r in brain.store.run("sources_all")}["user/alice"] == pytest.approx(0.55)
    assert again.events == resolved.events
    assert fact_count(brain) == 2
    # Another person's decision, or another choice, is a new decision.
    brain.resolve_conflict(c.id, keep=forum.fact_id, by="bob")
    assert {r["name"]: r["trust"] for r in brain.store.run("sources_all")}["user/bob"] == pytest.approx(0.55)


def test_person_override_of_a_deferred_conflict(brain: Brain) -> None:
    load(brain, "opposite_polarity")
    c = only(brain)
    keep = next(f for f in c.facts if f.polarity)
    resolved = brain.resolve_conflict(c.id, keep=keep.fact_id, by="bob")
    facts = {f.polarity: f for f in resolved.facts}
    assert (facts[True].status, facts[False].status) == (Status.ACTIVE, Status.DISPUTED)
    assert facts[True].confidence == pytest.approx(0.9)
    assert brain.conflicts(status="open") == []
    assert len(brain.conflicts(status="resolved")) == 1


def test_resolve_rejects_unknown_conflict_and_foreign_fact(brain: Brain) -> None:
    load(brain, "source_conflict", "opposite_polarity")
    before = [(c.id, c.status, c.events) for c in brain.conflicts()]
    with pytest.raises(InputError, match="Unknown conflict 'c_nope'"):
        brain.resolve_conflict("c_nope", keep="f_x", by="alice")
    c = brain.conflicts(type="source_conflict")[0]
    other = brain.conflicts(type="opposite_polarity")[0].fact_ids[0]
    with pytest.raises(InputError, match="is not part of conflict"):
        brain.resolve_conflict(c.id, keep=other, by="alice")
    assert [(c.id, c.status, c.events) for c in brain.conflicts()] == before
    assert "user/alice" not in {r["name"] for r in brain.store.run("sources_all")}


def test_conflicts_filters_reject_unknown_values(brain: Brain) -> None:
    with pytest.raises(InputError, match="Unknown conflict type 'bogus'"):
        brain.conflicts(type="bogus")
    with pytest.raises(InputError, match="Unknown conflict status 'closed'"):
        brain.conflicts(status="closed")


def test_retract_keeps_the_fact_and_closes_its_open_conflicts(brain: Brain) -> None:
    load(brain, "opposite_polarity")
    c = only(brain)
    no = next(f for f in c.facts if not f.polarity)
    result = brain.retract(no.fact_id, by="carol", reason="misread the paper")
    assert (result.fact.status, result.previous_status, result.closed) == (Status.RETRACTED, Status.ACTIVE, (c.id,))
    closed = only(brain)
    assert (closed.status, closed.strategy, closed.resolved_by) == (
        ConflictStatus.RESOLVED,
        Strategy.RETRACTION,
        "carol",
    )
    assert closed.kept_fact == next(f.fact_id for f in c.facts if f.polarity)
    assert fact_count(brain) == 2
    assert brain.stats().statuses == {"active": 1, "retracted": 1}
    assert brain.scan_conflicts().found == 0  # a retracted fact no longer conflicts with anything
    with pytest.raises(InputError, match="retracted already"):
        brain.retract(no.fact_id)
    with pytest.raises(InputError, match="was retracted; a retraction is final"):
        brain.resolve_conflict(c.id, keep=no.fact_id, by="dave")
    with pytest.raises(InputError, match="Unknown fact 'f_nope'"):
        brain.retract("f_nope")


def test_conclusions_from_a_retracted_premise_disappear(brain: Brain, tmp_path: Path) -> None:
    rows = [
        {"subject": "socrates", "predicate": "instance_of", "object": "human", "source": "plato"},
        {"subject": "human", "predicate": "is_a", "object": "mortal", "source": "aristotle"},
    ]
    brain.load([write_jsonl(tmp_path / "socrates.jsonl", rows)])
    assert brain.check("socrates", "is_a", "mortal").outcome is Outcome.SUPPORTED
    premise = next(f for f in brain.facts("human").facts if f.predicate == "is_a")
    brain.retract(premise.fact_id)
    assert brain.check("socrates", "is_a", "mortal").outcome is not Outcome.SUPPORTED


def test_conflicts_are_stored_on_disk(db_path: Path) -> None:
    with Brain.open(db_path) as brain:
        load(brain, "source_conflict")
    with Brain.open(db_path, read_only=True) as brain:
        c = only(brain)
        assert c.type is ConflictType.SOURCE_CONFLICT
        assert json.loads(json.dumps(c.events))[0]["strategy"] == "source_trust"


def test_retracting_a_winner_reinstates_what_it_alone_outranked(brain: Brain) -> None:
    load(brain, "stale")
    facts = {f.source: f for c in brain.conflicts() for f in c.facts}
    assert (facts["census/2010"].status, facts["forum/rumours"].status) == (Status.OUTDATED, Status.DISPUTED)
    result = brain.retract(facts["census/2021"].fact_id, by="erin")
    assert len(result.closed) == 2  # the stale update and the rumour's source conflict with the 2021 census
    after = {f.source: f for c in brain.conflicts() for f in c.facts}
    assert after["census/2010"].status is Status.ACTIVE  # the older census is current again
    assert after["forum/rumours"].status is Status.DISPUTED  # still outranked by the 2010 census
    assert after["forum/rumours"].confidence == pytest.approx(0.5 - 0.1)  # one of its two penalties undone
    assert brain.stats().facts == 3


def test_retracting_a_winner_restores_its_rivals_confidence(brain: Brain) -> None:
    load(brain, "source_conflict")
    c = only(brain)
    brain.retract(c.kept_fact or "")
    closed = only(brain)
    forum = next(f for f in closed.facts if f.source == "forum/brain-myths")
    assert (forum.status, forum.confidence) == (Status.ACTIVE, pytest.approx(0.6))
    assert closed.strategy is Strategy.RETRACTION
    assert [e["strategy"] for e in closed.events] == ["source_trust", "retraction"]
