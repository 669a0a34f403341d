"""The seam between Brain and truth maintenance (reasoning/tms/maintenance.py): load hooks return the facts they
deactivated instead of changing the report, the report is frozen, and a status write tells its owner when it
changed something."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import KgbrainError
from kgbrain.ingest.loader import LoadReport
from kgbrain.ingest.tabular import read_facts_file
from kgbrain.knowledge import Fact, Status
from kgbrain.reasoning.tms.maintenance import LoadHook, Maintenance, detect_conflicts
from tests.conftest import write_jsonl

BIRD = {"subject": "tweety", "predicate": "instance_of", "object": "bird"}
NOT_BIRD = BIRD | {"polarity": False}


def _maintenance(brain: Brain, hooks: list[LoadHook], changed: list[str] | None = None) -> Maintenance:
    told = changed if changed is not None else []
    return Maintenance(brain.store, hooks=lambda: hooks, statuses_changed=lambda: told.append("changed"))


def test_each_hook_sees_what_the_hooks_before_it_deactivated_and_the_report_carries_all_of_it(
    brain: Brain, tmp_path: Path
) -> None:
    seen: list[tuple[Fact, ...]] = []

    def first(report: LoadReport) -> tuple[Fact, ...]:
        return tuple(report.added)[:1]

    def second(report: LoadReport) -> None:
        seen.append(report.deactivated)

    batch = read_facts_file(write_jsonl(tmp_path / "a.jsonl", [BIRD]), source="zoo")
    report = _maintenance(brain, [first, second]).load(batch)
    [fact] = report.added
    assert seen == [(fact,)]
    assert report.deactivated == (fact,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.facts_added = 0  # type: ignore[misc]


def test_the_contradiction_hook_returns_the_facts_its_resolution_took_out_of_the_active_set(
    brain: Brain, tmp_path: Path
) -> None:
    brain.load([write_jsonl(tmp_path / "zoo.jsonl", [BIRD])], source="zoo", trust=0.9)
    returned: list[tuple[Fact, ...]] = []

    def detect(report: LoadReport) -> tuple[Fact, ...]:
        returned.append(detect_conflicts(brain.store, report))
        return returned[-1]

    batch = read_facts_file(write_jsonl(tmp_path / "rumor.jsonl", [NOT_BIRD]), source="rumor", trust=0.1)
    report = _maintenance(brain, [detect]).load(batch)
    [[lost]] = returned
    assert (lost.source, lost.polarity) == ("rumor", False)  # the less trusted source lost: disputed at once
    assert report.deactivated == (lost,)
    assert brain.fact(lost.fact_id).status is Status.DISPUTED


def test_a_status_write_tells_its_owner_and_a_decision_made_already_does_not(brain: Brain, tmp_path: Path) -> None:
    brain.load_hooks.clear()  # loaded without detection: the conflict is found by the scan below
    brain.load([write_jsonl(tmp_path / "zoo.jsonl", [BIRD])], source="zoo")
    brain.load([write_jsonl(tmp_path / "rumor.jsonl", [NOT_BIRD])], source="rumor")
    changed: list[str] = []
    tms = _maintenance(brain, [], changed)
    [record] = tms.scan().recorded
    assert changed == ["changed"]
    keep = next(f.fact_id for f in record.facts if f.source == "zoo")
    tms.resolve(record.id, keep=keep, by="ann")
    assert changed == ["changed"] * 2
    tms.resolve(record.id, keep=keep, by="ann")  # the same decision again changes nothing
    assert changed == ["changed"] * 2
    tms.retract(keep, by="ann", reason="wrong")
    assert changed == ["changed"] * 3


def test_a_failing_hook_loses_the_whole_file(brain: Brain, tmp_path: Path) -> None:
    def failing(report: LoadReport) -> None:
        raise KgbrainError("disk full")

    batch = read_facts_file(write_jsonl(tmp_path / "a.jsonl", [BIRD]), source="zoo")
    before = brain.stats()
    with pytest.raises(KgbrainError, match="disk full"):
        _maintenance(brain, [failing]).load(batch)
    assert brain.stats() == before
