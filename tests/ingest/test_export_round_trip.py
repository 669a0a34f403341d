"""Export → load → export of every bundled fixture is identical apart from load times (the README's "loads back
losslessly"): facts with their provenance, the stored rules and superiority, derivation records, conflicts and
retractions, and no source trust invented for the rules that derived facts."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kgbrain.api import Brain, demo_files
from tests.conftest import FIXTURES, write_jsonl

ONTOLOGY = FIXTURES / "ontology"
# Each case is what a user loads together: facts files, ontologies (then their data), rules files.
CASES: dict[str, list[Path]] = {
    "demo": list(demo_files()),
    "penguins": [FIXTURES / "claims" / "penguins_kb.jsonl"],
    **{p.stem: [p] for p in sorted((FIXTURES / "reasoning").glob("*.jsonl"))},
    **{f"conflicts-{p.stem}": [p] for p in sorted((FIXTURES / "conflicts").glob("*.jsonl"))},
    "pizza": [ONTOLOGY / "pizza.owl", ONTOLOGY / "pizza_extract.ttl"],
    "lubm": [ONTOLOGY / "univ-bench.owl", ONTOLOGY / "lubm_extract.nt"],
    **{p.name: [p] for p in (ONTOLOGY / n for n in ("campus.ttl", "owl2rl.ttl", "zoo.ttl", "zoo.jsonld", "zoo.trig"))},
    "dbpedia": [ONTOLOGY / "dbpedia_restaurant.nt"],
    "schemaorg": [ONTOLOGY / "schemaorg_restaurant.nt"],
    "go": [ONTOLOGY / "go_extract.nt"],
    "owl2rl-prp-trp": [FIXTURES / "owl2rl" / "prp-trp.ttl", FIXTURES / "owl2rl" / "prp-trp.data.ttl"],
}
RULES = """\
[anc1] ancestor(X, Y) :- parent(X, Y).
[anc2] ancestor(X, Z) :- parent(X, Y), ancestor(Y, Z).
[fly] flies(X) :~ bird(X).
[nofly] ~flies(X) :~ penguin(X).
nofly > fly.
"""


def _export(brain: Brain) -> list[dict[str, object]]:
    out = io.StringIO()
    brain.export(out)
    return [{k: v for k, v in json.loads(line).items() if k != "loaded_at"} for line in out.getvalue().splitlines()]


def _round_trip(tmp_path: Path, files: list[Path]) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    with Brain.open(tmp_path / "first.kuzu") as first:
        first.load(files)
        exported = _export(first)
        text = io.StringIO()
        first.export(text)
    dump = tmp_path / "export.jsonl"
    dump.write_text(text.getvalue(), encoding="utf-8")
    with Brain.open(tmp_path / "second.kuzu") as second:
        second.load([dump])
        return exported, _export(second)


@pytest.mark.parametrize("case", sorted(CASES))
def test_export_load_export_is_identical(case: str, tmp_path: Path) -> None:
    first, second = _round_trip(tmp_path, CASES[case])
    assert second == first


def test_rules_derivations_and_retractions_survive_a_round_trip(tmp_path: Path) -> None:
    family = [
        {"subject": "alice", "predicate": "parent", "object": "bob"},
        {"subject": "bob", "predicate": "parent", "object": "carol"},
        {"subject": "tweety", "predicate": "instance_of", "object": "penguin"},
        {"subject": "penguin", "predicate": "is_a", "object": "bird"},
    ]
    rules = tmp_path / "family.dl"
    rules.write_text(RULES, encoding="utf-8")
    files = [write_jsonl(tmp_path / "family.jsonl", family), rules]
    first, second = _round_trip(tmp_path, files)
    assert second == first
    kinds = {r["predicate"] for r in first}
    assert {"rule_record", "rule_order_record", "derivation_record"} <= kinds
    assert not [r for r in first if r["predicate"] == "source_trust" and str(r["subject"]).startswith("rule:")]
    with Brain.open(tmp_path / "second.kuzu", read_only=True) as copy:
        derived = next(f for f in copy.facts("alice").facts if f.predicate == "ancestor" and f.object == "carol")
        assert copy.explain(derived.fact_id).rule == "anc2"
        assert {r.id for r in copy.rules().rules} == {"anc1", "anc2", "fly", "nofly"}


def test_a_broken_rule_record_names_its_line_and_loads_nothing(tmp_path: Path) -> None:
    bad = {"subject": "r1", "predicate": "rule_record", "value": json.dumps({"id": "r1", "text": "not a rule"})}
    dump = write_jsonl(tmp_path / "bad.jsonl", [{"subject": "a", "predicate": "is_a", "object": "b"}, bad])
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        with pytest.raises(Exception, match=r"bad\.jsonl:2: field .value.: the rule_record.s text is not a rule"):
            brain.load([dump])
        assert brain.stats().facts == 0


def test_identity_records_survive_a_round_trip(tmp_path: Path) -> None:
    """Which name each predicate IRI has, and which sources assume unique names, are exported and restored: a
    later file names its IRIs as it would have in the original knowledge base."""
    clash = tmp_path / "clash.ttl"
    clash.write_text("<http://x.example/al> <http://a.example/name> <http://x.example/al2> .\n", encoding="utf-8")
    later = tmp_path / "later.ttl"
    later.write_text('<http://x.example/bob> <http://b.example/name> "Bob" .\n', encoding="utf-8")
    first, second = _round_trip(tmp_path, [clash, ONTOLOGY / "pizza.owl"])
    assert second == first
    rows = {(r["predicate"], r["subject"]): r.get("value") for r in first}
    assert rows[("predicate_iri", "http://a.example/name")] == "name"
    assert rows[("unique_names", "clash")] is False  # an RDF source: OWL's open names
    with Brain.open(tmp_path / "second.kuzu") as copy:
        copy.load([later])
        assert [f.predicate for f in copy.facts("x.example:bob").facts] == ["b_example_name"]  # not `name`


def test_a_facts_file_declares_a_source_without_unique_names(tmp_path: Path) -> None:
    def conflicts(*declared: dict[str, object]) -> int:
        rows = [
            {"subject": "born_in", "predicate": "property_type", "value": "functional"},
            *declared,
            {"subject": "gina", "predicate": "born_in", "object": "rome", "source": "census"},
            {"subject": "gina", "predicate": "born_in", "object": "roma", "source": "census"},
        ]
        with Brain.open(None) as brain:
            brain.load([write_jsonl(tmp_path / "people.jsonl", rows)])
            return len(brain.conflicts())

    assert conflicts() == 1  # a facts file assumes unique names: rome and roma are two cities
    assert conflicts({"subject": "census", "predicate": "unique_names", "value": False}) == 0
