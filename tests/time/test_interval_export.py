"""Intervals round-trip (#24): export -> load -> export is identical with every kind of `valid_from` / `valid_to`
(year, month, day, date-time, open ends, a hand-over), Parquet too, and the reloaded base answers as of a time as
the first did. Episodes go with an export too, with their corrections (who made each and when), and a reload
keeps them as they were."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from kgbrain.api import Brain
from tests.conftest import write_jsonl

ROWS: list[dict[str, Any]] = [
    {"subject": "director", "predicate": "property_type", "value": "functional"},
    {"subject": "nta", "predicate": "director", "object": "petrov", "valid_from": "2008", "valid_to": "2014-06"},
    {"subject": "nta", "predicate": "director", "object": "sokolova", "valid_from": "2014-07-01",
     "valid_to": "2021-02-01"},
    {"subject": "nta", "predicate": "director", "object": "orlov", "valid_from": "2021-02-01"},
    {"subject": "ticket", "predicate": "price", "value": 2, "unit": "EUR", "valid_to": "2019-12-31T23:59:59Z"},
    {"subject": "ticket", "predicate": "price", "value": 2.5, "unit": "EUR", "valid_from": "2020-01-01T00:00:00Z"},
    {"subject": "depot", "predicate": "located_in", "object": "north"},
]  # fmt: skip
CLAIMS = [{"id": p, "subject": "nta", "predicate": "director", "object": p} for p in ("petrov", "sokolova", "orlov")]


def _export(brain: Brain) -> list[dict[str, Any]]:
    out = io.StringIO()
    brain.export(out)
    return [{k: v for k, v in json.loads(line).items() if k != "loaded_at"} for line in out.getvalue().splitlines()]


def test_intervals_round_trip_through_export_and_load(tmp_path: Path) -> None:
    first, second = tmp_path / "a.kuzu", tmp_path / "b.kuzu"
    with Brain.open(first) as brain:
        brain.load([write_jsonl(tmp_path / "facts.jsonl", ROWS)])
        episode = brain.record_episode(brain.think("Who is the director of nta?"), channel="http", session="s-1")
        brain.correct_episode(episode.id, "Нет, это неверно: директор — Орлов", by="http:s-1")
        brain.correct_episode(episode.id, "No, that is wrong: Orlov", by="reviewer")
        episodes = [e.as_dict() for e in brain.history()]
        exported = _export(brain)
        verdicts = {w: [v.verdict for v in brain.at(w).verify(CLAIMS)] for w in ("2010", "2021-02-01", "2025")}
        brain.export_parquet(tmp_path / "dump")
    timed = [r for r in exported if "valid_from" in r or "valid_to" in r]
    assert len(timed) == 5
    assert {r.get("valid_to") for r in timed} >= {"2014-06-30", "2021-02-01", "2019-12-31T23:59:59Z"}
    dump = tmp_path / "dump.jsonl"
    dump.write_text("".join(json.dumps(r) + "\n" for r in exported), encoding="utf-8")
    with Brain.open(second) as brain:
        brain.load([dump])
        assert _export(brain) == exported
        assert {w: [v.verdict for v in brain.at(w).verify(CLAIMS)] for w in verdicts} == verdicts
        assert [e.as_dict() for e in brain.history()] == episodes  # corrections and correctors too
        brain.load([dump])  # loaded again: nothing doubles
        assert [e.as_dict() for e in brain.history()] == episodes
        assert brain.forget_episodes("2999") == 1
    with Brain.open(tmp_path / "c.kuzu") as brain:
        brain.load([tmp_path / "dump"])
        assert _export(brain) == exported
        assert [e.as_dict() for e in brain.history()] == episodes
    assert [r["subject"] for r in exported if r["predicate"] == "episode_record"] == [episode.id]
    assert episodes[0]["corrected_by"] == ["http:s-1", "reviewer"]


def test_rdf_dates_load_as_attribute_values_not_intervals(tmp_path: Path) -> None:
    # README "From RDF: not yet": what an ontology's start and end dates become today.
    ttl = tmp_path / "roles.ttl"
    ttl.write_text(
        "@prefix schema: <https://schema.org/> .\n@prefix dbo: <http://dbpedia.org/ontology/> .\n"
        "@prefix ex: <http://example.org/> .\n@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        'ex:role1 schema:startDate "2013-01-01"^^xsd:date ; schema:endDate "2018-12-31"^^xsd:date .\n'
        'ex:petrov dbo:activeYearsStartYear "1990"^^xsd:gYear .\n',
        encoding="utf-8",
    )
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        brain.load([ttl])
        assert set(brain.stats().predicates) == {"start_date", "end_date", "active_years_start_year"}
        assert all("valid_from" not in r and "valid_to" not in r for r in _export(brain))
