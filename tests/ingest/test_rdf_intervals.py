"""Intervals stated in RDF (ingest/rdf_intervals.py): schema.org's Role pattern and dated reified statements load
as facts with valid_from / valid_to, answer as of a time, and round-trip through export."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import OntologyError

TEAM = {
    "@context": {"@vocab": "http://schema.org/", "ex": "http://example.org/"},
    "@graph": [
        {
            "@id": "ex:team",
            "@type": "SportsTeam",
            "coach": [
                {"@type": "Role", "coach": {"@id": "ex:sokolov"}, "startDate": "2012-07-01", "endDate": "2016-05-31"},
                {"@type": "OrganizationRole", "coach": {"@id": "ex:berg"}, "startDate": "2022-07-01"},
            ],
        },
        {"@id": "ex:concert", "@type": "Event", "startDate": "2020-05-01", "performer": {"@id": "ex:berg"}},
    ],
}

PLUTO = """\
@prefix ex: <http://example.org/> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix schema: <https://schema.org/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:Pluto a ex:DwarfPlanet .
[] a rdf:Statement ; rdf:subject ex:Pluto ; rdf:predicate rdf:type ; rdf:object ex:Planet ;
   schema:startDate "1930"^^xsd:gYear ; schema:endDate "2006-08-23"^^xsd:date .
[] rdf:subject ex:Pluto ; rdf:predicate ex:moons ; rdf:object 5 ; schema:startDate "2012" .
ex:claim1 a rdf:Statement ; rdf:subject ex:Pluto ; rdf:predicate ex:orbits ; rdf:object ex:Neptune .
"""


def _rows(brain: Brain) -> list[dict[str, object]]:
    out = io.StringIO()
    brain.export(out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _timed(brain: Brain) -> dict[tuple[object, object, object], tuple[object, object]]:
    return {
        (r["subject"], r["predicate"], r.get("object", r.get("value"))): (r.get("valid_from"), r.get("valid_to"))
        for r in _rows(brain)
        if "fact_id" in r and ("valid_from" in r or "valid_to" in r)
    }


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    team, pluto = tmp_path / "team.jsonld", tmp_path / "pluto.ttl"
    team.write_text(json.dumps(TEAM), encoding="utf-8")
    pluto.write_text(PLUTO, encoding="utf-8")
    return [team, pluto]


def test_roles_and_dated_reified_statements_are_facts_with_their_intervals(brain: Brain, files: list[Path]) -> None:
    brain.load(files)
    assert _timed(brain) == {
        ("example.org:team", "coach", "example.org:sokolov"): ("2012-07-01", "2016-05-31"),
        ("example.org:team", "coach", "example.org:berg"): ("2022-07-01", None),
        ("example.org:Pluto", "instance_of", "example.org:Planet"): ("1930-01-01", "2006-08-23"),
        ("example.org:Pluto", "moons", 5): ("2012-01-01", None),
    }
    facts = {(r["subject"], r["predicate"]) for r in _rows(brain) if "fact_id" in r}
    # an event's date is its own attribute, not an interval; an undated reified statement is not asserted
    assert ("example.org:concert", "start_date") in facts
    assert ("example.org:Pluto", "orbits") not in facts
    assert not any(str(r.get("object", "")).startswith("_:") for r in _rows(brain))


def test_a_dated_statement_holds_only_in_its_interval(brain: Brain, files: list[Path]) -> None:
    brain.load(files)
    claim = [{"id": "1", "subject": "example.org:Pluto", "predicate": "instance_of", "object": "example.org:Planet"}]
    assert brain.at("2000").verify(claim)[0].verdict.value == "SUPPORTED"
    assert brain.at("2010").verify(claim)[0].verdict.value != "SUPPORTED"


def test_intervals_from_rdf_round_trip_through_export(brain: Brain, files: list[Path], tmp_path: Path) -> None:
    brain.load(files)
    dump = tmp_path / "dump.jsonl"
    with dump.open("w", encoding="utf-8") as out:
        brain.export(out)
    with Brain.open(None) as again:
        again.load([dump])
        assert _timed(again) == _timed(brain)


@pytest.mark.parametrize(
    ("dates", "message"),
    [
        ('schema:startDate "not a date"', r"^bad\.ttl: <https://schema\.org/startDate> of a blank node: "),
        ('schema:startDate "2010" ; schema:endDate "2001"', r"^bad\.ttl: a blank node ends before it starts"),
        ('schema:startDate "2010" , "2011"', r"^bad\.ttl: a blank node has two different"),
    ],
)
def test_a_bad_date_is_one_error_and_loads_nothing(brain: Brain, tmp_path: Path, dates: str, message: str) -> None:
    before = brain.stats()
    bad = tmp_path / "bad.ttl"
    bad.write_text(
        "@prefix ex: <http://example.org/> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
        "@prefix schema: <https://schema.org/> .\n"
        f"ex:a ex:b ex:c .\n[] rdf:subject ex:a ; rdf:predicate ex:p ; rdf:object ex:o ; {dates} .\n",
        encoding="utf-8",
    )
    with pytest.raises(OntologyError, match=message):
        brain.load([bad])
    assert brain.stats() == before
