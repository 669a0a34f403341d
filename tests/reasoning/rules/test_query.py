"""`kgbrain query` / Brain.query: SPARQL SELECT over the knowledge base (rdflib's parser), read-only."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError
from tests.conftest import write_jsonl

EX = "http://example.org/uni#"
TTL = f"""@prefix ex: <{EX}> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Student rdfs:subClassOf ex:Person .
ex:ann a ex:Student ; ex:takesCourse ex:c0, ex:c1 ; ex:age 21 ; ex:name "Ann" .
ex:bob a ex:Student ; ex:takesCourse ex:c1 ; ex:age 19 ; ex:name "Bob" .
ex:cid a ex:Student ; ex:age 30 .
ex:dan a ex:Person ; ex:advisor ex:ann .
"""
PREFIXES = f"PREFIX ex: <{EX}>\nPREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"


@pytest.fixture(scope="module")
def uni_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("uni")
    (folder / "uni.ttl").write_text(TTL, encoding="utf-8")
    extra = write_jsonl(
        folder / "extra.jsonl",
        [
            {
                "subject": "example.org/uni:bob",
                "predicate": "takes_course",
                "object": "example.org/uni:c0",
                "polarity": False,
            },
            {
                "subject": "example.org/uni:cid",
                "predicate": "takes_course",
                "object": "example.org/uni:c0",
                "status": "retracted",
            },
        ],
    )
    rules = folder / "uni.dl"
    rules.write_text(
        "[person] 'example.org/uni:Person'(X) :- 'example.org/uni:Student'(X).\n"
        "[adult] adult(X) :- age(X, A), A >= 21.\n",
        encoding="utf-8",
    )
    path = folder / "kb.kuzu"
    with Brain.open(path) as b:
        b.load([folder / "uni.ttl", extra, rules])
    return path


@pytest.fixture
def uni(uni_db: Path) -> Iterator[Brain]:
    with Brain.open(uni_db, read_only=True) as b:
        yield b


def _q(brain: Brain, where: str, select: str = "?x") -> list[tuple[object, ...]]:
    return list(brain.query(f"{PREFIXES}SELECT {select} WHERE {{ {where} }}").rows)


def test_basic_graph_pattern_with_iris_and_kgbrain_ids(uni: Brain) -> None:
    assert sorted(_q(uni, "?x rdf:type ex:Student . ?x ex:takesCourse ex:c0")) == [("example.org/uni:ann",)]
    # a kgbrain id written as an IRI names itself; a negative fact never matches a positive pattern
    assert _q(uni, "?x <takes_course> <example.org/uni:c0>") == [("example.org/uni:ann",)]
    # the retracted fact is not active, so cid takes nothing
    assert _q(uni, "ex:cid ex:takesCourse ?x") == []


def test_filter_optional_distinct_order_limit(uni: Brain) -> None:
    rows = _q(uni, "?x ex:age ?a FILTER(?a >= 20 && ?a < 40)", "?x ?a")
    assert sorted(rows) == [("example.org/uni:ann", 21), ("example.org/uni:cid", 30)]
    rows = _q(uni, "?x rdf:type ex:Student OPTIONAL { ?x ex:name ?n }", "?x ?n")
    assert sorted(rows, key=str) == sorted(
        [("example.org/uni:ann", "Ann"), ("example.org/uni:bob", "Bob"), ("example.org/uni:cid", None)], key=str
    )
    assert _q(uni, "?x ex:takesCourse ?c", "DISTINCT ?c") in (
        [("example.org/uni:c0",), ("example.org/uni:c1",)],
        [("example.org/uni:c1",), ("example.org/uni:c0",)],
    )
    ordered = uni.query(f"{PREFIXES}SELECT ?x ?a WHERE {{ ?x ex:age ?a }} ORDER BY DESC(?a) LIMIT 2 OFFSET 1").rows
    assert ordered == (("example.org/uni:ann", 21), ("example.org/uni:bob", 19))
    assert _q(uni, '?x ex:name ?n FILTER(regex(?n, "^b", "i"))') == [("example.org/uni:bob",)]
    assert _q(uni, "?x ex:advisor ?y FILTER(!bound(?z))") == [("example.org/uni:dan",)]


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("SELECT ?x WHERE { { ?x <a> ?y } UNION { ?x <b> ?y } }", "UNION"),
        ("SELECT (COUNT(?x) AS ?n) WHERE { ?x <a> ?y }", "aggregates"),
        ("ASK { ?x <a> ?y }", "ASK"),
        ("SELECT ?x WHERE { ?x ?p ?y }", "variable predicates"),
        ("SELECT ?x WHERE { ?x <a>/<b> ?y }", "property paths"),
        ("SELECT ?x WHERE { ?x foo:a ?y }", "prefix 'foo:'"),
        ("SELECT ?x WHERE { ?x <a> ?y ", "syntax error"),
    ],
)
def test_unsupported_sparql_is_one_clear_error(uni: Brain, text: str, feature: str) -> None:
    with pytest.raises(InputError, match=feature):
        uni.query(text)


def test_cli_table_json_csv_and_read_only(uni_db: Path) -> None:
    runner = CliRunner()
    before = uni_db.stat().st_mtime_ns
    text = f"{PREFIXES}SELECT ?x ?a WHERE {{ ?x ex:age ?a }} ORDER BY ?a"
    out = runner.invoke(cli, ["--db", str(uni_db), "query", text])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].split() == ["x", "a"]
    assert lines[1].split() == ["example.org/uni:bob", "19"]
    data = json.loads(runner.invoke(cli, ["--db", str(uni_db), "query", text, "--json"]).stdout)
    assert data["columns"] == ["x", "a"]
    assert data["rows"][0] == {"x": "example.org/uni:bob", "a": 19}
    rows = list(csv.reader(io.StringIO(runner.invoke(cli, ["--db", str(uni_db), "query", text, "--csv"]).stdout)))
    assert rows == [
        ["x", "a"],
        ["example.org/uni:bob", "19"],
        ["example.org/uni:ann", "21"],
        ["example.org/uni:cid", "30"],
    ]
    bad = runner.invoke(cli, ["--db", str(uni_db), "query", "SELECT ?x WHERE { {?x <a> ?y} UNION {?x <b> ?y} }"])
    assert bad.exit_code == 2
    assert bad.stderr == "Error: SPARQL UNION is not supported\n"
    assert uni_db.stat().st_mtime_ns == before


def test_queries_see_what_rules_derive(uni: Brain) -> None:
    people = _q(uni, "?x rdf:type ex:Person")
    assert sorted(people) == [(f"example.org/uni:{n}",) for n in ("ann", "bob", "cid", "dan")]
    assert uni.query("adult(X)").rows == (("example.org/uni:ann",), ("example.org/uni:cid",))


def test_rule_body_queries(uni: Brain) -> None:
    result = uni.query("'example.org/uni:Student'(X), takes_course(X, C), not ~takes_course(X, C)")
    assert result.columns == ("X", "C")
    assert result.rows == (
        ("example.org/uni:ann", "example.org/uni:c0"),
        ("example.org/uni:ann", "example.org/uni:c1"),
        ("example.org/uni:bob", "example.org/uni:c1"),
    )
    assert uni.query("~takes_course(X, 'example.org/uni:c0')").rows == (("example.org/uni:bob",),)
    assert uni.query("age(X, A), A < 20").rows == (("example.org/uni:bob", 19),)
    with pytest.raises(InputError, match="unsafe variable Y"):
        uni.query("age(X, A), Y < 20")
