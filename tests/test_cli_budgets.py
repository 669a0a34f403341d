"""Queries bounded in work: a cross product and a deeply nested FILTER are one clear error, never a 3 GB process or a
RecursionError; a query just inside the budget still answers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError
from kgbrain.ingest import sparql
from kgbrain.reasoning.rules import query


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    rows = [{"subject": f"a{i}", "predicate": "likes", "object": f"b{i}"} for i in range(40)]
    facts = tmp_path / "likes.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts])
    return db


def test_a_cross_product_query_is_refused_before_it_is_built(kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(query, "MAX_QUERY_ROWS", 10_000)
    with Brain.open(kb, read_only=True) as brain:
        assert len(brain.query("likes(A, B), likes(C, D)").rows) == 1_600
        with pytest.raises(InputError, match=r"would build 64,000 intermediate solutions, more than the 10,000"):
            brain.query("likes(A, B), likes(C, D), likes(E, F)")
        joined = brain.query("likes(A, B), likes(A, C), likes(A, D), likes(A, E)")  # shared: 40 rows, allowed
        assert len(joined.rows) == 40


def test_the_cli_names_the_budget(kb: Path) -> None:
    result = CliRunner().invoke(cli, ["--db", str(kb), "query", "likes(A,B), likes(C,D), likes(E,F), likes(G,H)"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: the query would build 2,560,000 intermediate solutions")
    assert result.stdout == ""


@pytest.mark.parametrize("depth", [sparql.MAX_NESTING + 1, 3000])
def test_a_deeply_nested_filter_is_one_clear_error(kb: Path, depth: int) -> None:
    text = "SELECT ?x WHERE { ?x <urn:kgbrain:likes> ?y FILTER(" + "(" * depth + "?x = ?x" + ")" * depth + ") }"
    with Brain.open(kb, read_only=True) as brain, pytest.raises(InputError, match=r"nested .* levels deep"):
        brain.query(text)


def test_nesting_within_the_limit_parses(kb: Path) -> None:
    depth = sparql.MAX_NESTING - 2
    text = "SELECT ?x WHERE { ?x <urn:kgbrain:likes> ?y FILTER(" + "(" * depth + "?x = ?x" + ")" * depth + ") }"
    with Brain.open(kb, read_only=True) as brain:
        brain.query(text)  # no error; the answer itself is covered by the SPARQL tests
