"""schema:sameAs is schema.org's (a page naming the item), not OWL's (issue #21, 7): skipped and counted, and a
property of another vocabulary with the local name `sameAs` never takes kgbrain's `same_as` (owl:sameAs)."""

from __future__ import annotations

from pathlib import Path

from kgbrain.api import Brain

DATA = """@prefix schema: <https://schema.org/> .
@prefix ex: <http://t.example/> .
ex:ann schema:sameAs ex:anna .
ex:ann schema:name "Ann" .
"""
OTHER = """@prefix ex: <http://t.example/> .
ex:bob ex:sameAs ex:rob .
ex:rob ex:sameAs ex:robert .
"""
SAME = "SELECT ?o WHERE { <http://t.example/bob> <http://www.w3.org/2002/07/owl#sameAs> ?o }"
OWN = "SELECT ?o WHERE { <http://t.example/bob> <http://t.example/sameAs> ?o }"


def test_schema_same_as_is_counted_and_merges_nothing(brain: Brain, tmp_path: Path) -> None:
    (tmp_path / "data.ttl").write_text(DATA, encoding="utf-8")
    (report,) = brain.load([tmp_path / "data.ttl"])
    assert report.skipped == {"schema_same_as": 1}
    assert brain.stats().predicates.get("same_as", 0) == 0


def test_a_same_as_of_another_vocabulary_is_a_plain_relation(brain: Brain, tmp_path: Path) -> None:
    (tmp_path / "other.ttl").write_text(OTHER, encoding="utf-8")
    brain.load([tmp_path / "other.ttl"])
    assert brain.stats().predicates.get("same_as", 0) == 0  # no eq-sym / eq-trans from it
    assert brain.query(SAME).rows == ()
    assert [str(r[0]) for r in brain.query(OWN).rows] == ["t.example:rob"]
