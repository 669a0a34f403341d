"""schema:inverseOf is schema.org's, not OWL's (issue #21, 7): no rule comes of it unless owl:inverseOf says so."""

from __future__ import annotations

from pathlib import Path

from kgbrain.api import Brain

SCHEMA = """@prefix schema: <https://schema.org/> .
@prefix ex: <http://t.example/> .
schema:alumni schema:inverseOf schema:alumniOf .
ex:ann schema:alumniOf ex:uni .
"""
CHOICE = "<https://schema.org/alumni> <http://www.w3.org/2002/07/owl#inverseOf> <https://schema.org/alumniOf> .\n"
QUERY = "SELECT ?s ?o WHERE { ?s <https://schema.org/alumni> ?o }"


def test_schema_inverse_of_is_counted_not_reasoned_with_until_owl_says_so(brain: Brain, tmp_path: Path) -> None:
    (tmp_path / "schema.ttl").write_text(SCHEMA, encoding="utf-8")
    (report,) = brain.load([tmp_path / "schema.ttl"])
    assert report.skipped == {"schema_inverse_of": 1}
    assert brain.query(QUERY).rows == ()
    (tmp_path / "choice.nt").write_text(CHOICE, encoding="utf-8")
    brain.load([tmp_path / "choice.nt"])
    assert [tuple(map(str, r)) for r in brain.query(QUERY).rows] == [("t.example:uni", "t.example:ann")]
