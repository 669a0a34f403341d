"""A fact a rule derives from premises with intervals holds only while all of them hold (#24): in verdicts, answers
and their intervals. The expected verdicts are computed here from the premises' intervals."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgbrain.api import Brain
from tests.conftest import write_jsonl

# (first year, last year) of each premise; the derived fact holds in their intersection, 2012..2015.
WORKS = (2010, 2015)
LOCATED = (2012, 2020)
YEARS = [2009, 2011, 2012, 2015, 2016, 2021]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("derived")
    rows = [
        {"subject": "anna", "predicate": "works_at", "object": "acme", "valid_from": str(WORKS[0]),
         "valid_to": str(WORKS[1])},
        {"subject": "acme", "predicate": "located_in", "object": "berlin", "valid_from": str(LOCATED[0]),
         "valid_to": str(LOCATED[1])},
    ]  # fmt: skip
    rules = folder / "rules.dl"
    rules.write_text("[r1] works_in(X, Z) :- works_at(X, Y), located_in(Y, Z).\n", encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "facts.jsonl", rows), rules])
    return db


@pytest.mark.parametrize("year", YEARS)
def test_a_derived_fact_holds_in_the_intersection_of_its_premises(kb: Path, year: int) -> None:
    holds = max(WORKS[0], LOCATED[0]) <= year <= min(WORKS[1], LOCATED[1])
    with Brain.open(kb, read_only=True) as brain:
        at = brain.at(str(year))
        verdict = at.verify([{"id": "1", "subject": "anna", "predicate": "works_in", "object": "berlin"}])[0]
        assert verdict.verdict.value == ("SUPPORTED" if holds else "NOT_ENOUGH_INFO"), year
        if holds:
            assert "2012-01-01..2015-12-31" in dict(verdict.intervals).values()  # the derived fact's own interval
        assert at.check("anna", "works_in", "berlin").outcome.name == ("SUPPORTED" if holds else "UNKNOWN")
