"""Reasoner around its edges: the persisted analogy index, the why/path/like commands, and its queries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.store.queries import queries_dir
from tests.conftest import write_jsonl

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "reasoning"
GADGETS = [
    {"subject": "lamp", "predicate": "consumes", "object": "electricity"},
    {"subject": "lamp", "predicate": "produces", "object": "light"},
    {"subject": "heater", "predicate": "consumes", "object": "electricity"},
    {"subject": "heater", "predicate": "produces", "object": "heat"},
    {"subject": "light", "predicate": "is_a", "object": "energy_form"},
    {"subject": "heat", "predicate": "is_a", "object": "energy_form"},
    {"subject": "rock", "predicate": "is_a", "object": "thing"},
]


def test_analogy_index_is_persisted_beside_the_database_and_kept_current(db_path: Path, tmp_path: Path) -> None:
    facts = write_jsonl(tmp_path / "g.jsonl", GADGETS)
    with Brain.open(db_path) as b:
        b.load([facts])
        (best,) = b.like("lamp", limit=1)
        assert best.other == "heater"
        assert not best.supported
        assert {s.rule for s in best.steps} >= {"ana.relational-match", "ana.parallel-match", "ana.hypothesis"}
    folder = Path(f"{db_path}.reasoning")
    assert (folder / "meta.json").is_file()
    assert (folder / "graph.npz").is_file()  # the fact mirror is persisted too
    stamp = (folder / "index.bin").stat().st_mtime_ns
    graph_stamp = (folder / "graph.npz").stat().st_mtime_ns
    with Brain.open(db_path) as b:
        assert b.like("lamp", limit=1)[0].other == "heater"  # reused: same data, same fingerprint
        assert (folder / "index.bin").stat().st_mtime_ns == stamp
        assert (folder / "graph.npz").stat().st_mtime_ns == graph_stamp
        more = write_jsonl(tmp_path / "m.jsonl", [{"subject": "fan", "predicate": "consumes", "object": "electricity"}])
        b.load([more])  # the load hook re-embeds the touched concepts and saves
        assert "fan" in {a.other for a in b.like("heater")}
    assert (folder / "index.bin").stat().st_mtime_ns != stamp


def test_supported_analogy_uses_the_similar_to_fact(brain: Brain, tmp_path: Path) -> None:
    rows = [*GADGETS, {"subject": "lamp", "predicate": "similar_to", "object": "heater", "confidence": 0.7}]
    brain.load([write_jsonl(tmp_path / "g.jsonl", rows)])
    (best,) = brain.like("lamp", limit=1)
    assert best.supported
    assert "ana.supported" in [s.rule for s in best.steps]


@pytest.fixture
def smoking_db(db_path: Path) -> Path:
    with Brain.open(db_path) as b:
        b.load([FIX / "smoking.jsonl", FIX / "penguins.jsonl"])
    return db_path


def test_path_why_like_commands(smoking_db: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["--db", str(smoking_db), "path", "smoking", "lung_cancer"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "0.720  smoking -causes-> tar_deposits -causes-> lung_cancer"
    r = runner.invoke(cli, ["--db", str(smoking_db), "path", "exercise", "diabetes", "--json"])
    (path,) = json.loads(r.stdout)
    assert path["polarity"] is False
    assert [s["rule"] for s in path["trace"]] == ["cau.prevents-flip", "cau.chain", "cau.conclusion"]
    r = runner.invoke(cli, ["--db", str(smoking_db), "why", "lung_cancer"])
    assert r.exit_code == 0
    assert "tar_deposits -causes-> lung_cancer" in r.stdout
    r = runner.invoke(cli, ["--db", str(smoking_db), "path", "diabetes", "smoking"])
    assert r.stdout.strip() == "No causal path found."
    r = runner.invoke(cli, ["--db", str(smoking_db), "like", "robin", "--json"])
    assert r.exit_code == 0
    assert isinstance(json.loads(r.stdout), list)


def test_unknown_concept_is_one_error_line_with_exit_2(smoking_db: Path) -> None:
    r = CliRunner().invoke(cli, ["--db", str(smoking_db), "why", "smokin"])
    assert r.exit_code == 2
    assert r.stderr.strip() == "Error: Unknown concept 'smokin'. Did you mean 'smoking', 'song'?"


MINE = ("ded_", "cau_", "asc_", "ana_", "link_", "graph_")


@pytest.mark.parametrize("name", sorted(p.stem for p in queries_dir().glob("*.cypher") if p.stem.startswith(MINE)))
def test_reasoner_queries_bind_against_the_schema(brain: Brain, name: str) -> None:
    brain.store.explain(name)  # type: ignore[attr-defined]


def test_kuzu_shortest_agrees_with_the_mirror(smoking_db: Path) -> None:
    with Brain.open(smoking_db, read_only=True) as b:
        (row,) = b.store.run("cau_shortest", source="smoking", target="lung_cancer")  # type: ignore[attr-defined]
        assert row["predicates"] == ["leads_to"]  # Kùzu's BFS finds the fewest hops...
        best = b.path("smoking", "lung_cancer")[0]
        assert len(best.links) == 2  # ...the reasoner ranks by strength (0.72 > 0.6)
        ancestors = b.reasoner.ancestors_cypher("emperor_penguin")
        assert ancestors == set(b.reasoner.hierarchy().ancestors("emperor_penguin"))


def test_path_without_a_causal_chain_shows_the_association(smoking_db: Path) -> None:
    r = CliRunner().invoke(cli, ["--db", str(smoking_db), "path", "robin", "fish"])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "No causal path found.",
        "Associated (0.900): robin -is_a-> bird ; bird -disjoint_with-> fish",
    ]


def test_asc_path_answers_how_two_concepts_are_related(smoking_db: Path) -> None:
    with Brain.open(smoking_db, read_only=True) as b:
        a = b.reasoner.ask("How is a robin related to a whale?")
        assert a.data["kind"] == "connection"
        assert a.data["path"] == ["robin", "bird", "animal", "whale"]
        assert {s.rule for s in a.trace.steps} == {"asc.path"}
