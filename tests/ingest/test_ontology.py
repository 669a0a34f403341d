"""Loading ontologies: the RDF/OWL mapping, checked against rdflib's own view of real files.

The files are copies or extracts of real ontologies in tests/fixtures/ontology (licences in its LICENSES.md;
the extracts in real/ are cut by bench/make_test_extracts.py).
"""

from __future__ import annotations

import gzip
import io
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import rdflib
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from rdflib import OWL, RDF, RDFS, BNode, URIRef
from rdflib.collection import Collection

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InputError, OntologyError
from kgbrain.ingest import ntriples
from kgbrain.ingest.formats import Kind, named
from kgbrain.ingest.ntriples import read_ntriples
from kgbrain.ingest.ontology import load_mapping, read_ontology, source_name
from kgbrain.ingest.rdf_mapping import RdfMapper, snake_case
from kgbrain.knowledge import Literal
from tests.conftest import FIXTURES

ONTOLOGY = FIXTURES / "ontology"
REAL = ONTOLOGY / "real"
UB = rdflib.Namespace("http://swat.cse.lehigh.edu/onto/univ-bench.owl#")
GO = rdflib.Namespace("http://purl.obolibrary.org/obo/go#")
ZOO = FIXTURES / "ontology" / "zoo.ttl"
BUILTIN = (str(RDF), str(RDFS), str(OWL))


def rdflib_graph(path: Path) -> rdflib.Graph:
    graph = rdflib.Graph()
    if path.suffix == ".gz":
        with gzip.open(path, "rb") as fh:
            graph.parse(fh, format="nt")
    else:
        graph.parse(path, format={".ttl": "turtle", ".nt": "nt"}.get(path.suffix, "xml"))
    return graph


def expected_counts(graph: rdflib.Graph) -> dict[str, int]:
    """What the mapping must give for a file without owl:sameAs, computed from rdflib's graph alone."""
    named = {
        (s, o) for s, o in graph.subject_objects(RDFS.subClassOf) if isinstance(s, URIRef) and isinstance(o, URIRef)
    }
    for a, b in graph.subject_objects(OWL.equivalentClass):
        if isinstance(a, URIRef) and isinstance(b, URIRef):
            named |= {(a, b), (b, a)}
    named |= schema_is_a(graph)
    disjoint = {
        (a, b) for a, b in graph.subject_objects(OWL.disjointWith) if isinstance(a, URIRef) and isinstance(b, URIRef)
    }
    headers = set(graph.subjects(RDF.type, OWL.Ontology))
    # a declaring class the file puts under a class (`schema:Class owl:equivalentClass rdfs:Class`): its members too
    parented = {a for a, b in graph.subject_objects(RDFS.subClassOf) if isinstance(b, URIRef)}
    parented |= {x for pair in graph.subject_objects(OWL.equivalentClass) for x in pair if isinstance(x, URIRef)}
    types = {
        (s, o)
        for s, o in graph.subject_objects(RDF.type)
        if isinstance(s, URIRef)
        and isinstance(o, URIRef)
        and (not str(o).startswith(BUILTIN) or o in parented)
        and s not in headers
    }
    return {"is_a": len(named), "disjoint_with": len(disjoint), "instance_of": len(types), "triples": len(graph)}


def schema_is_a(graph: rdflib.Graph) -> set[tuple[URIRef, URIRef]]:
    """OWL 2 RL scm-int / scm-uni: `C ≡ C1 ⊓ … ⊓ Cn` (or `C ⊑` it) gives C ⊑ Ci; `C ≡ C1 ⊔ … ⊔ Cn` gives Ci ⊑ C."""
    pairs: set[tuple[URIRef, URIRef]] = set()
    lists = [(c, kind, items) for kind in (OWL.intersectionOf, OWL.unionOf) for c, items in graph.subject_objects(kind)]
    for c, p, expr in graph.triples((None, None, None)):  # C ≡ [list], C ⊑ [list]
        if p in (OWL.equivalentClass, RDFS.subClassOf) and not isinstance(expr, URIRef):
            lists += [(c, k, items) for k in (OWL.intersectionOf, OWL.unionOf) if p == OWL.equivalentClass or
                      k == OWL.intersectionOf for items in graph.objects(expr, k)]  # fmt: skip
    for c, kind, items in lists:
        if not isinstance(c, URIRef):
            continue
        for m in Collection(graph, items):
            if isinstance(m, URIRef) and m not in (c, OWL.Thing):
                pairs.add((c, m) if kind == OWL.intersectionOf else (m, c))
    return pairs


@pytest.mark.parametrize(
    "relative",
    [
        "pizza.owl",
        "univ-bench.owl",
        "real/dbo_extract.ttl",
        "real/schemaorg_extract.ttl",
    ],
)
def test_real_ontologies_map_as_rdflib_reads_them(brain: Brain, relative: str) -> None:
    path = ONTOLOGY / relative
    want = expected_counts(rdflib_graph(path))
    [report] = brain.load([path])
    for predicate in ("is_a", "disjoint_with", "instance_of"):
        assert report.per_predicate.get(predicate, 0) == want[predicate], predicate
    assert report.extra["triples_read"] == want["triples"]
    # nothing dropped silently: every triple is either mapped or counted as skipped
    assert report.extra["triples_mapped"] + report.extra["triples_skipped"] == want["triples"]
    assert brain.stats().predicates.get("is_a", 0) == want["is_a"]


def test_pizza_class_expressions_become_rules_or_are_counted(brain: Brain) -> None:
    path = ONTOLOGY / "pizza.owl"
    graph = rdflib_graph(path)
    [report] = brain.load([path])
    superclasses = [o for o in graph.objects(None, RDFS.subClassOf) if isinstance(o, BNode)]
    existential = sum(1 for o in superclasses if (o, OWL.someValuesFrom, None) in graph)
    # an existential superclass (5 more from the ⊑ half of definitions) is a class-level fact `C some_values__p D`;
    # the one whose filler is a class expression (∃hasTopping.(A ⊔ B)) is counted as skipped
    at_class_level = sum(n for p, n in report.per_predicate.items() if p.startswith("some_values__"))
    assert report.skipped["class_expression:some_values_superclass"] == 1
    assert at_class_level + 1 == existential + 5 == 152
    # inverse-functional properties are prp-ifp rules now (owl:sameAs between two subjects of one value)
    assert "property_characteristic:inverse_functional" not in report.skipped
    ifp = {str(s).rpartition("#")[2] for s in graph.subjects(RDF.type, OWL.InverseFunctionalProperty)}
    assert len(ifp) == 3
    assert {r.id for r in brain.rules().rules if r.id.startswith("prp-ifp:")} == {f"prp-ifp:pizza:{p}" for p in ifp}
    margherita = brain.facts("pizza:Margherita")
    assert {f.object for f in margherita.facts if f.predicate == "is_a"} == {"pizza:NamedPizza"}
    toppings = {f.object for f in margherita.facts if f.predicate == "some_values__has_topping"}
    assert {"pizza:MozzarellaTopping", "pizza:TomatoTopping"} <= toppings  # every Margherita has some of each
    assert "pizza:CheeseTopping" in toppings  # scm-svf1: MozzarellaTopping ⊑ CheeseTopping
    assert (
        brain.resolve("https://raw.githubusercontent.com/owlcs/pizza-ontology/refs/heads/master/pizza.owl#Margherita")
        == "pizza:Margherita"
    )
    assert brain.resolve("Margherita") == "pizza:Margherita"


def test_univ_bench_declares_predicates_for_the_reasoner(brain: Brain) -> None:
    brain.load([ONTOLOGY / "univ-bench.owl"])
    predicates = {p["name"]: p for p in brain.store.run("predicates_all")}
    assert predicates["sub_organization_of"]["transitive"] is True
    assert predicates["head_of"]["sub_property_of"] == ["works_for"]
    assert predicates["has_alumnus"]["inverse_of"] == "degree_from"
    assert predicates["advisor"]["domain"] == "ub:Person"
    assert predicates["advisor"]["range"] == "ub:Professor"


def test_lubm_instance_data_gives_relations_and_typed_attributes(brain: Brain) -> None:
    path = REAL / "University0_0.owl"
    graph = rdflib_graph(path)
    literal_triples = Counter(
        snake_case(str(p).rsplit("#", 1)[1]) for _, p, o in graph if isinstance(o, rdflib.Literal)
    )
    [report] = brain.load([path])
    for predicate, n in literal_triples.items():
        assert report.per_predicate[predicate] == n, predicate
    relations = sum(1 for s, p, o in graph if isinstance(o, URIRef) and p not in (RDF.type, OWL.imports))
    attributes = sum(literal_triples.values())
    core = report.per_predicate["instance_of"]
    assert report.facts_added == relations + attributes + core
    course = brain.facts("Department0.University0.edu:GraduateStudent1")
    assert any(f.predicate == "takes_course" for f in course.facts)
    name = next(f for f in course.facts if f.predicate == "name")
    assert name.value == Literal("GraduateStudent1", "string")


@pytest.mark.parametrize(
    ("name", "iris", "skipped"),
    [
        ("lubm1_0_head.nt.gz", {"takes_course": UB.takesCourse, "name": UB.name}, {"ontology_header"}),  # owl:imports
        ("go_isa_rel_head.nt.gz", {"part_of": GO.part_of, "regulates": GO.regulates}, {"annotation:other"}),
    ],
)
def test_large_gzipped_ntriples_stream_through_the_fast_reader(
    name: str, iris: dict[str, URIRef], skipped: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ntriples, "_BLOCK", 1 << 14)  # many blocks: lines cut at block boundaries come out whole
    # mapped without the store: bench/ontology_load.py times the whole load of the full files
    path = REAL / name
    graph = rdflib_graph(path)
    want = expected_counts(graph)
    counts = {p: len(set(graph.subject_objects(iri))) for p, iri in iris.items()}
    ticks: list[int] = []
    batch = read_ontology(path, progress=ticks.append)
    predicates = Counter(batch.facts.column("predicate"))
    assert batch.extra["triples_read"] == want["triples"]
    assert predicates["is_a"] == want["is_a"]
    assert predicates["instance_of"] == want["instance_of"]
    assert {p: predicates[p] for p in counts} == counts
    assert batch.extra["triples_mapped"] + batch.extra["triples_skipped"] == want["triples"]
    assert set(batch.skipped) == skipped
    assert len(ticks) >= 3
    assert ticks == sorted(ticks)
    assert ticks[-1] == path.stat().st_size


def test_schema_org_gives_one_knowledge_base_from_ttl_nt_and_rdf() -> None:
    exports = []
    for suffix in ("ttl", "nt", "rdf"):
        with Brain.open(None) as b:
            b.load([REAL / f"schemaorg_extract.{suffix}"])
            out = io.StringIO()
            b.export(out)
            rows = [json.loads(line) for line in out.getvalue().splitlines()]
            for row in rows:
                row.pop("loaded_at", None)
                if row["predicate"] == "rule_record":  # a rule's origin names the file it came from
                    row["value"] = {k: v for k, v in json.loads(row["value"]).items() if k != "origin"}
            exports.append(sorted(json.dumps(r, sort_keys=True, ensure_ascii=False) for r in rows))
    assert len(exports[0]) > 1000
    assert exports[0] == exports[1] == exports[2]


def test_fast_ntriples_reader_agrees_with_rdflib() -> None:
    for path in (REAL / "schemaorg_extract.nt", FIXTURES / "ontology" / "zoo.nt"):
        graph = rdflib_graph(path)
        theirs = {
            (
                str(s),
                str(p),
                (str(o), str(o.datatype) if o.datatype else None, o.language)
                if isinstance(o, rdflib.Literal)
                else str(o),
            )
            for s, p, o in graph
            if not isinstance(s, BNode) and not isinstance(o, BNode)
        }
        ours = {
            t
            for t in read_ntriples(path)
            if not t[0].startswith("_:") and not (isinstance(t[2], str) and t[2].startswith("_:"))
        }
        assert ours == theirs, path.name
    says = next(t for t in read_ntriples(FIXTURES / "ontology" / "zoo.nt") if t[1].endswith("#says"))
    assert says[2][0] == '"Meow"\n\tand \\ purr'


def test_labels_in_russian_and_english_are_searchable(brain: Brain) -> None:
    brain.load([ZOO])
    for name in ("cat", "кошка", "Кот", "kitty", "http://example.org/zoo#Cat", "example.org/zoo:Cat"):
        assert brain.resolve(name) == "example.org/zoo:Cat", name
    assert brain.resolve("млекопитающее") == brain.resolve("mammal") == "example.org/zoo:Mammal"
    cat = brain.facts("кошка")
    assert cat.labels == {"en": "cat", "ru": "кошка"}
    animal = brain.facts("животное")
    assert animal.descriptions == {"en": "A living being.", "ru": "Живое существо."}
    assert brain.facts("mammal").labels["en"] == "mammal"  # tagged en-GB


def test_zoo_fixture_maps_every_rule(brain: Brain) -> None:
    [report] = brain.load([ZOO], trust=0.8)
    assert report.per_predicate["is_a"] == 9  # 5 subClassOf + Cat/Feline both ways + Cat, Dog ⊑ Pet (scm-uni)
    assert report.per_predicate["disjoint_with"] == 4  # Bird/Mammal + AllDisjointClasses(Cat, Dog, Mouse)
    assert report.per_predicate["instance_of"] == 3
    assert report.per_predicate["some_values__eats"] == 1  # Cat ⊑ ∃eats.Mouse, a class-level fact
    assert report.skipped == {
        "annotation:other": 1,
        "annotation:property": 1,
        "class_expression:union_superclass": 1,  # Pet ⊑ Cat ⊔ Dog (Cat ⊑ Pet and Dog ⊑ Pet are rules)
        "ontology_header": 3,
    }
    assert report.owl2rl["prp-spo2"] == 1  # the property chain
    assert report.extra["triples_mapped"] + report.extra["triples_skipped"] == report.extra["triples_read"] == 86
    # owl:sameAs: one concept, both ids and both IRIs name it
    tom = brain.resolve("Tom")
    assert (
        tom
        == brain.resolve("http://example.net/other/Thomas")
        == brain.resolve("example.org/zoo:tom")
        == brain.resolve("Том")
    )
    facts = {f.predicate: f for f in brain.facts(tom).facts if f.subject == tom}
    assert facts["has_parent"].object == "example.org/zoo:tomsMother"  # stated about the other IRI
    assert facts["weight_kg"].value == Literal("4.5", "decimal")
    assert facts["legs"].value == Literal("4", "integer")
    assert facts["indoor"].value == Literal("true", "boolean")
    assert facts["born"].value == Literal("1940-02-10", "date")
    assert facts["nickname"].value == Literal("Томас", "string", lang="ru")
    assert "note" not in facts  # an owl:AnnotationProperty
    stated = [f for f in brain.facts(tom).facts if not f.source.startswith("rule:")]  # OWL 2 RL derives more
    # tom eats jerry (prp-spo1: hunts ⊑ eats), jerry hunted_by tom (prp-inv2)
    assert {f.predicate for f in brain.facts(tom).facts} - {f.predicate for f in stated} == {"eats", "hunted_by"}
    for f in stated:
        assert (f.source, f.trust) == ("zoo", 0.8)
        assert f.loaded_at is not None
    predicates = {p["name"]: p for p in brain.store.run("predicates_all")}
    assert predicates["weight_kg"]["functional"] is True
    assert predicates["weight_kg"]["range"] == "xsd:decimal"
    assert predicates["has_ancestor"]["transitive"] is True
    assert predicates["friend_of"]["symmetric"] is True
    assert predicates["hunts"]["sub_property_of"] == ["eats"]
    assert predicates["hunted_by"]["inverse_of"] == "hunts"
    assert (predicates["eats"]["domain"], predicates["eats"]["range"]) == ("example.org/zoo:Animal",) * 2


def test_loading_twice_adds_nothing_and_source_option_applies(brain: Brain) -> None:
    [first] = brain.load([ZOO], source="zoo-v1")
    [again] = brain.load([ZOO], source="zoo-v1")
    assert first.facts_added > 0
    assert (again.facts_added, again.concepts_created) == (0, 0)
    assert {f.source for f in brain.facts("cat").facts if not f.source.startswith("rule:")} == {"zoo-v1"}


@pytest.mark.parametrize(
    ("name", "fmt"), [("zoo.jsonld", None), ("zoo.trig", None), ("zoo.ttl", "n3"), ("zoo.nt", "ntriples")]
)
def test_other_syntaxes_and_format_override(brain: Brain, name: str, fmt: str | None) -> None:
    [report] = brain.load([FIXTURES / "ontology" / name], fmt=fmt)
    assert report.per_predicate["is_a"] >= 1
    assert brain.resolve("http://example.org/zoo#Cat") == "example.org/zoo:Cat"


def test_gzip_of_any_syntax_and_source_name_without_extensions(brain: Brain, tmp_path: Path) -> None:
    packed = tmp_path / "zoo.ttl.gz"
    packed.write_bytes(gzip.compress(ZOO.read_bytes()))
    [report] = brain.load([packed])
    assert report.per_predicate["is_a"] == 9
    assert source_name(packed) == source_name(ZOO) == "zoo"
    assert source_name(Path("schema.org.v2.nt.gz")) == "schema.org.v2"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("bad.ttl", "bad.ttl:5: Bad syntax (expected '.'"),
        ("bad.nt", "bad.nt:3: not a valid N-Triples statement"),
        ("bad.owl", "bad.owl:4: bad RDF/XML: mismatched tag"),
    ],
)
def test_malformed_file_names_file_and_line_and_changes_nothing(brain: Brain, name: str, message: str) -> None:
    brain.load([ZOO])
    before = brain.stats()
    with pytest.raises(OntologyError) as err:
        brain.load([FIXTURES / "ontology" / name])
    assert str(err.value).startswith(message)
    assert brain.stats() == before


def test_broken_gzip_and_bad_utf8_are_ontology_errors(brain: Brain, tmp_path: Path) -> None:
    truncated = tmp_path / "cut.nt.gz"
    truncated.write_bytes(gzip.compress((FIXTURES / "ontology" / "zoo.nt").read_bytes())[:60])
    with pytest.raises(OntologyError, match=r"cut\.nt\.gz"):
        brain.load([truncated])
    latin = tmp_path / "latin.nt"
    latin.write_bytes(b'<http://e.org/a> <http://e.org/b> "caf\xe9" .\n')
    with pytest.raises(OntologyError, match=r"latin.nt:1: not valid UTF-8"):
        brain.load([latin])
    assert brain.stats().facts == 0


def test_unknown_format_is_an_input_error(tmp_path: Path) -> None:
    odd = tmp_path / "data.xyz"
    odd.write_text("x", encoding="utf-8")
    with pytest.raises(InputError, match=r"'data.xyz': unknown file format"):
        read_ontology(odd)
    with pytest.raises(InputError, match=r"unknown format 'yaml'"):
        read_ontology(ZOO, fmt="yaml")


def test_cli_help_lists_formats_and_load_reports_skips(tmp_path: Path) -> None:
    runner = CliRunner()
    help_text = " ".join(runner.invoke(cli, ["load", "--help"]).stdout.split())
    for fmt in ("ttl", "nt", "xml", "json-ld", "n3", "trig"):
        assert fmt in help_text
        assert (found := named(fmt)) is not None
        assert found.kind is Kind.ONTOLOGY
    db = str(tmp_path / "kb.kuzu")
    result = runner.invoke(cli, ["--db", db, "load", str(ZOO), "--json"])
    assert result.exit_code == 0, result.stderr
    [report] = json.loads(result.stdout)
    assert report["owl2rl"]["prp-spo2"] == 1
    assert report["extra"]["triples_read"] == 86
    result = runner.invoke(cli, ["--db", db, "load", str(ZOO)])
    assert "skipped: annotation:other=1" in result.stdout
    assert "triples_read=86, triples_mapped=81, triples_skipped=5" in result.stdout  # Cat ⊑ ∃eats.Mouse mapped
    assert "OWL 2 RL rules: cax-dw=2, cax-sco=1, cls-uni=2, prp-dom=1" in result.stdout
    result = runner.invoke(cli, ["--db", db, "load", str(FIXTURES / "ontology" / "bad.nt")])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "Error: bad.nt:3: not a valid N-Triples statement: "
        "'<http://example.org/zoo#Dog> <http://www.w3.org/2000/01/rdf-schema#subClassOf> \"'"
    ]


def test_predicate_names_are_snake_case_deterministic_and_collision_safe() -> None:
    assert [snake_case(n) for n in ("knowsAbout", "HTMLParser", "part_of", "has-part", "weightKg")] == [
        "knows_about",
        "html_parser",
        "part_of",
        "has_part",
        "weight_kg",
    ]
    mapper = RdfMapper(load_mapping(), file="x", source="x", trust=0.5)
    names = mapper.predicate_names(
        [
            "http://b.org/ns#title",
            "http://a.org/ns#title",
            "http://dbpedia.org/ontology/range",
            "https://schema.org/knowsAbout",
            "https://kgbrain.dev/vocab#is_a",
            "http://e.org/x#3dModel",
        ]
    )
    assert names == {
        "http://a.org/ns#title": "title",
        "http://b.org/ns#title": "b_org_ns_title",
        "http://dbpedia.org/ontology/range": "dbo_range",
        "https://schema.org/knowsAbout": "knows_about",
        "https://kgbrain.dev/vocab#is_a": "is_a",
        "http://e.org/x#3dModel": "p_3d_model",
    }
    assert mapper.concept_id("http://www.Department0.University0.edu/Course1") == "Department0.University0.edu:Course1"
    assert mapper.concept_id("https://pending.schema.org") == "https://pending.schema.org"


_OWL, _RDFS, _RDF = str(OWL), str(RDFS), str(RDF)
_NAMED = [f"http://example.org/t#{n}" for n in ("A", "B", "C", "p", "q")] + ["https://schema.org/D"]
_PREDICATES = [
    _RDFS + "subClassOf",
    _OWL + "equivalentClass",
    _RDF + "type",
    _OWL + "sameAs",
    _OWL + "disjointWith",
    _RDFS + "label",
    _RDFS + "subPropertyOf",
    _RDFS + "domain",
    _OWL + "inverseOf",
    _OWL + "onProperty",
    _OWL + "members",
    _RDF + "first",
    _RDF + "rest",
    _OWL + "unionOf",
    _OWL + "propertyChainAxiom",
    "http://purl.org/dc/terms/title",
    "http://example.org/t#p",
    "http://example.org/t#q",
]
_OBJECTS = [
    *_NAMED,
    _OWL + "Class",
    _OWL + "Restriction",
    _OWL + "ObjectProperty",
    _OWL + "TransitiveProperty",
    _OWL + "AllDisjointClasses",
    _OWL + "Ontology",
    _RDF + "nil",
]
_blank = st.sampled_from(["_:b1", "_:b2", "_:b3"])
_literal = st.tuples(
    st.sampled_from(["x", "7", "кот"]),
    st.sampled_from([None, "http://www.w3.org/2001/XMLSchema#integer"]),
    st.sampled_from([None, "ru", "en-gb"]),
)
_triples = st.lists(
    st.tuples(
        st.one_of(st.sampled_from(_NAMED), _blank),
        st.sampled_from(_PREDICATES),
        st.one_of(st.sampled_from(_OBJECTS), _blank, _literal),
    ),
    max_size=40,
)


def _mapped(triples: list[tuple]) -> tuple:
    batch = RdfMapper(load_mapping(), file="t", source="t", trust=0.5).map(triples)
    facts = sorted(
        zip(
            *(batch.facts.column(c) for c in ("subject", "predicate", "object", "lexical", "datatype", "lang")),
            strict=True,
        ),
        key=repr,
    )
    return facts, sorted(batch.annotations, key=repr), batch.declarations, batch.skipped, batch.extra


@given(_triples, st.randoms(use_true_random=False))
def test_every_triple_is_mapped_or_counted_whatever_the_order(triples: list[tuple], rnd: Any) -> None:
    first = _mapped(triples)
    extra = first[4]
    assert extra["triples_mapped"] + extra["triples_skipped"] == extra["triples_read"] == len(triples)
    shuffled = list(triples)
    rnd.shuffle(shuffled)
    assert _mapped(shuffled) == first  # the syntax (and so the triple order) never changes the knowledge base


def test_a_second_domain_is_counted_not_silently_dropped() -> None:
    p, a, b = "http://e.org/t#p", "http://e.org/t#A", "http://e.org/t#B"
    triples = [(p, _RDFS + "domain", b), (p, _RDFS + "domain", a), (p, _RDFS + "range", a)]
    batch = RdfMapper(load_mapping(), file="t", source="t", trust=0.5).map(triples)
    assert [(d.predicate, d.kind, d.value) for d in batch.declarations] == [
        ("p", "domain", "e.org/t:A"),
        ("p", "range", "e.org/t:A"),
    ]
    assert batch.skipped == {"domain:additional": 1}
    assert (batch.extra["triples_mapped"], batch.extra["triples_skipped"]) == (2, 1)


def test_ntriples_blocks_split_lines_without_losing_them_or_their_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    import kgbrain.ingest.ntriples as ntriples

    whole = list(read_ntriples(FIXTURES / "ontology" / "zoo.nt"))
    monkeypatch.setattr(ntriples, "_BLOCK", 37)  # far shorter than a line
    assert list(read_ntriples(FIXTURES / "ontology" / "zoo.nt")) == whole
    with pytest.raises(OntologyError, match=r"^bad\.nt:3: "):
        list(read_ntriples(FIXTURES / "ontology" / "bad.nt"))


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("rel.nt", '<http://e.org/a> <htt.2000/01/rdf-schema#label> "x" .\n'),
        (
            "rel.jsonld",
            '{"@context": {"rdfs": "htt/www.w3.org/2000/01/rdf-schema#"}, "@id": "http://e.org/a", "rdfs:label": "x"}',
        ),
        (
            "decl.nt",
            "<rel> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> "
            "<http://www.w3.org/2002/07/owl#ObjectProperty> .\n",
        ),
    ],
)
def test_a_property_that_is_not_an_absolute_iri_is_refused(brain: Brain, tmp_path: Path, name: str, text: str) -> None:
    # found by fuzzing: a scheme-less property IRI reached the naming step and failed there with a KeyError
    brain.load([ZOO])
    before = brain.stats()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OntologyError, match=rf"^{re.escape(name)}: the property <.*> is not an absolute IRI"):
        brain.load([path])
    assert brain.stats() == before


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("iri.nt", '<http://e.org/a> <http://e.org/b\\uD800x> "x" .\n', r"^iri\.nt:1: the escape \\uD800"),
        (
            "big.nt",
            '<http://e.org/a> <http://e.org/b> "ok" .\n<http://e.org/a> <http://e.org/b> "\\U00110000" .\n',
            r"^big\.nt:2: the escape \\U00110000",
        ),
        ("pre.ttl", '@prefix r: <http://e.org/\\uD800#> .\n<http://e.org/a> r:p "x" .\n', r"^pre\.ttl: a \\u escape"),
        ("lit.ttl", '<http://e.org/a> <http://e.org/p> "x\\uDFFF" .\n', r"^lit\.ttl: a \\u escape"),
        ("lit.jsonld", '{"@id": "http://e.org/a", "http://e.org/p": "x\\udfff"}', r"^lit\.jsonld: .*surrogate"),
    ],
)
def test_an_escape_that_is_no_unicode_character_is_refused(
    brain: Brain, tmp_path: Path, name: str, text: str, message: str
) -> None:
    # found by fuzzing: a lone surrogate reached the store (a cast error) or the load summary (UnicodeEncodeError)
    brain.load([ZOO])
    before = brain.stats()
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OntologyError, match=message):
        brain.load([path])
    assert brain.stats() == before


@pytest.mark.parametrize(
    "text",
    [
        "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\n{ ?@:Neuron } => { ?x a ex:c } .\n",
        "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\n{ ?@euron } => { ex:a ex:b ex:d } .\n",
    ],
)
def test_n3_that_breaks_the_parser_itself_is_one_error(brain: Brain, tmp_path: Path, text: str) -> None:
    # found by fuzzing: rdflib's N3 parser raised a bare Exception (a variable with an empty name) past every handler
    brain.load([ZOO])
    before = brain.stats()
    path = tmp_path / "rules.n3"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OntologyError, match=r"^rules\.n3: cannot parse as n3"):
        brain.load([path])
    assert brain.stats() == before
