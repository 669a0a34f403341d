"""OWL 2 RL axioms of ontologies -> built-in rules (ingest/owl_rules.py through ingest/rdf_mapping.py)."""

from __future__ import annotations

from pathlib import Path

from kgbrain.api import Brain
from kgbrain.ingest.ntriples import Triple
from kgbrain.ingest.ontology import _rdflib_triples, load_mapping, read_ontology
from kgbrain.ingest.rdf_mapping import RdfMapper
from kgbrain.reasoning.results import Outcome
from kgbrain.ruleset import Atom, Const, Var
from tests.conftest import FIXTURES

ONTOLOGY = FIXTURES / "ontology"
OWL2RL = ONTOLOGY / "owl2rl.ttl"
E = "example.org/uni:"

EXPECTED = [
    "[cax-dw] ~instance_of(X, D) :- instance_of(X, C), disjoint_with(C, D).",
    "[cax-dw:inverse] ~instance_of(X, C) :- instance_of(X, D), disjoint_with(C, D).",
    "[cax-sco] instance_of(X, D) :- instance_of(X, C), is_a(C, D).",
    "[cls-avf:E:Vegan:E:Plant] instance_of(Y, 'E:Plant') :- instance_of(X, 'E:Vegan'), eats(X, Y).",
    "[cls-com:E:Plant:E:Fish] ~instance_of(X, 'E:Fish') :- instance_of(X, 'E:Plant').",
    "[cls-com:E:Plant:E:Meat] ~instance_of(X, 'E:Meat') :- instance_of(X, 'E:Plant').",
    "[cls-com:E:Vegetarian:E:Meat] ~instance_of(Y, 'E:Meat') :- instance_of(X, 'E:Vegetarian'), eats(X, Y).",
    "[cls-hv1:E:Adult:E:age] age(X, 18) :- instance_of(X, 'E:Adult').",
    "[cls-hv1:E:Italian:E:bornIn] born_in(X, 'E:italy') :- instance_of(X, 'E:Italian').",
    "[cls-hv2:E:Italian] instance_of(X, 'E:Italian') :- born_in(X, 'E:italy').",
    "[cls-int1:E:Chair] instance_of(X, 'E:Chair') :- "
    "instance_of(X, 'E:Person'), head_of(X, Y), instance_of(Y, 'E:Department').",
    "[cls-int1:E:Chair:restriction] instance_of(X, 'E:Chair') :- "
    "instance_of(X, 'E:Person'), instance_of(X, Y), some_values__head_of(Y, 'E:Department'), Y != 'E:Chair'.",
    "[cls-int1:E:Dean] instance_of(X, 'E:Dean') :- "
    "instance_of(X, 'E:Person'), head_of(X, Y), instance_of(Y, 'E:College').",
    "[cls-int1:E:Dean:restriction] instance_of(X, 'E:Dean') :- "
    "instance_of(X, 'E:Person'), instance_of(X, Y), some_values__head_of(Y, 'E:College'), Y != 'E:Dean'.",
    "[cls-int2:E:Chair:E:Person] instance_of(X, 'E:Person') :- instance_of(X, 'E:Chair').",
    "[cls-int2:E:Dean:E:Person] instance_of(X, 'E:Person') :- instance_of(X, 'E:Dean').",
    "[cls-int2:E:Vegetarian:E:Person] instance_of(X, 'E:Person') :- instance_of(X, 'E:Vegetarian').",
    "[cls-svf2:E:Parent] instance_of(X, 'E:Parent') :- has_child(X, Y).",
    "[cls-uni:E:Member:E:Staff] instance_of(X, 'E:Member') :- instance_of(X, 'E:Staff').",
    "[cls-uni:E:Member:E:Student] instance_of(X, 'E:Member') :- instance_of(X, 'E:Student').",
    "[prp-dom:E:teaches:E:Teacher] instance_of(X, 'E:Teacher') :- teaches(X, Y).",
    "[prp-eqp1:E:colleagueOf:E:coworkerOf] coworker_of(X, Y) :- colleague_of(X, Y).",
    "[prp-eqp2:E:colleagueOf:E:coworkerOf] colleague_of(X, Y) :- coworker_of(X, Y).",
    "[prp-inv1:E:contains:E:partOf] part_of(Y, X) :- contains(X, Y).",
    "[prp-inv1:E:degreeFrom:E:hasAlumnus] has_alumnus(Y, X) :- degree_from(X, Y).",
    "[prp-inv2:E:contains:E:partOf] contains(Y, X) :- part_of(X, Y).",
    "[prp-inv2:E:degreeFrom:E:hasAlumnus] degree_from(Y, X) :- has_alumnus(X, Y).",
    "[prp-pdw:E:marriedTo:E:siblingOf] ~sibling_of(X, Y) :- married_to(X, Y).",
    "[prp-pdw:E:siblingOf:E:marriedTo] ~married_to(X, Y) :- sibling_of(X, Y).",
    "[prp-rng:E:teaches:E:Course] instance_of(Y, 'E:Course') :- teaches(X, Y).",
    "[prp-spo1:E:doctoralDegreeFrom:E:degreeFrom] degree_from(X, Y) :- doctoral_degree_from(X, Y).",
    "[prp-spo1:E:headOf:E:worksFor] works_for(X, Y) :- head_of(X, Y).",
    "[prp-spo2:E:hasChild] has_child(X, Y) :- has_parent(Y, X).",
    "[prp-spo2:E:hasUncle] has_uncle(X, Z) :- has_parent(X, Y), has_brother(Y, Z).",
    "[prp-symp:E:knows] knows(Y, X) :- knows(X, Y).",
    "[prp-trp:E:contains] contains(X, Z) :- contains(X, Y), contains(Y, Z).",
    "[scm-avf1:E:eats] all_values__eats(X, Z) :- all_values__eats(X, Y), is_a(Y, Z).",
    "[scm-hv:E:Italian:E:italy] is_a(X, 'E:Italian') :- has_value__born_in(X, 'E:italy'), X != 'E:Italian'.",
    "[scm-svf1:E:Parent:owl:Thing] is_a(X, 'E:Parent') :- some_values__has_child(X, Y), X != 'E:Parent'.",
    "[scm-svf1:E:hasChild] some_values__has_child(X, Z) :- some_values__has_child(X, Y), is_a(Y, Z).",
    "[scm-svf1:E:headOf] some_values__head_of(X, Z) :- some_values__head_of(X, Y), is_a(Y, Z).",
    "[scm-svf1:E:worksFor] some_values__works_for(X, Z) :- some_values__works_for(X, Y), is_a(Y, Z).",
    "[scm-svf2:E:headOf:E:worksFor] some_values__works_for(X, Y) :- some_values__head_of(X, Y).",
]


def rule_texts(path: Path) -> list[str]:
    return [str(r).replace(E, "E:") for r in read_ontology(path).rules]


def test_each_owl2rl_axiom_gives_its_table_rule() -> None:
    assert rule_texts(OWL2RL) == EXPECTED


def test_rules_use_the_mappers_predicate_names_and_concept_ids() -> None:
    batch = read_ontology(OWL2RL)
    by_id = {r.id: r for r in batch.rules}
    chair = by_id[f"cls-int1:{E}Chair"]
    assert chair.head == Atom("instance_of", (Var("X"), Const(f"{E}Chair")))
    assert chair.origin == "owl2rl:owl2rl.ttl"
    adult = by_id[f"cls-hv1:{E}Adult:{E}age"]
    assert adult.head.args[1] == Const(18, literal=True)  # a typed literal, not the text "18"
    # binary atoms name predicates as the facts do
    assert {d.predicate for d in batch.declarations} >= {"teaches", "head_of", "degree_from"}


def test_non_rl_positions_are_counted_as_skipped_and_every_triple_is_accounted_for() -> None:
    batch = read_ontology(OWL2RL)
    assert batch.skipped == {
        "class_expression:cardinality": 1,  # Team ⊑ ≥2 member
        "class_expression:complement_subclass": 1,  # Person ⊓ ¬∃eats.Meat ⊑ Vegetarian
        "class_expression:union_superclass": 1,  # Member ⊑ Student ⊔ Staff
    }  # existential super-classes (Employee, the ⊑ direction of Chair, Dean, Parent) are class-level facts
    assert batch.owl2rl["cls-int1"] == 4  # Chair and Dean, each by an edge or by a class-level restriction
    assert sum(batch.owl2rl.values()) == len(batch.rules) == len(EXPECTED)
    extra = batch.extra
    assert extra["triples_mapped"] + extra["triples_skipped"] == extra["triples_read"]
    # the mapped facts stay as they were, plus the hierarchy intersections and unions state (scm-int, scm-uni)
    facts = batch.facts
    triples = {
        (s.split(":")[-1], p, o.split(":")[-1])
        for s, p, o in zip(*map(facts.column, ("subject", "predicate", "object")), strict=True)
    }
    assert triples == {
        ("Professor", "is_a", "Teacher"),  # stated
        ("Cat", "disjoint_with", "Dog"),  # stated
        ("Chair", "is_a", "Person"),  # Chair ≡ Person ⊓ ∃headOf.Department
        ("Dean", "is_a", "Person"),
        ("Vegetarian", "is_a", "Person"),  # Vegetarian ≡ Person ⊓ ∀eats.¬Meat
        ("Student", "is_a", "Member"),  # Member ≡ Student ⊔ Staff
        ("Staff", "is_a", "Member"),
        # class-level restrictions: the anonymous classes of `C ⊑ ∃p.D`, `C ⊑ ∀p.D`, `C ⊑ p hasValue v`
        ("Chair", "some_values__head_of", "Department"),
        ("Dean", "some_values__head_of", "College"),
        ("Employee", "some_values__works_for", "Organization"),
        ("Parent", "some_values__has_child", "Thing"),
        ("Italian", "has_value__born_in", "italy"),
        ("Vegan", "all_values__eats", "Plant"),
    }


def _rename_blanks(triples: list[Triple], prefix: str) -> list[Triple]:
    def term(t: object) -> object:
        return f"_:{prefix}{t[2:]}" if isinstance(t, str) and t.startswith("_:") else t

    return [(str(term(s)), p, term(o)) for s, p, o in triples]  # type: ignore[misc]


def test_rule_ids_do_not_depend_on_triple_order_or_blank_node_labels() -> None:
    triples = list(_rdflib_triples(OWL2RL, "turtle"))

    def rules(ts: list[Triple]) -> list[str]:
        mapper = RdfMapper(load_mapping(), file=str(OWL2RL), source="owl2rl", trust=0.5)
        return [str(r) for r in mapper.map(ts).rules]

    assert rules(triples) == rules(_rename_blanks(list(reversed(triples)), "other"))


def test_univ_bench_definitions_become_rules() -> None:
    batch = read_ontology(ONTOLOGY / "univ-bench.owl")
    texts = {str(r).replace("ub:", "") for r in batch.rules}  # `ub:Person` is a bare name, `'E:Person'` is not
    assert {
        "[cls-int1:Student] instance_of(X, Student) :- "
        "instance_of(X, Person), takes_course(X, Y), instance_of(Y, Course).",
        "[cls-int2:Student:Person] instance_of(X, Person) :- instance_of(X, Student).",
        "[cls-int1:Chair] instance_of(X, Chair) :- instance_of(X, Person), head_of(X, Y), instance_of(Y, Department).",
        "[prp-dom:teacherOf:Faculty] instance_of(X, Faculty) :- teacher_of(X, Y).",
        "[prp-inv1:degreeFrom:hasAlumnus] has_alumnus(Y, X) :- degree_from(X, Y).",
        "[prp-trp:subOrganizationOf] sub_organization_of(X, Z) :- "
        "sub_organization_of(X, Y), sub_organization_of(Y, Z).",
    } <= texts
    assert batch.owl2rl == {
        "cax-sco": 1,
        "cls-int1": 12,  # Chair, Dean, Director, Employee, Student, TeachingAssistant; by edge or class level
        "cls-int2": 5,
        "prp-dom": 25,
        "prp-inv1": 3,  # memberOf/member, and degreeFrom/hasAlumnus stated both ways
        "prp-inv2": 1,
        "prp-rng": 18,
        "prp-spo1": 5,
        "prp-trp": 1,
        "scm-svf1": 5,  # a restriction's filler climbs the hierarchy: one rule per property
        "scm-svf2": 2,  # headOf ⊑ worksFor ⊑ memberOf
    }
    # the `⊑ ∃headOf.Department` halves of the definitions and GraduateStudent ⊑ ∃takesCourse.GraduateCourse are
    # class-level facts; ResearchAssistant ⊑ ∃worksFor.ResearchGroup makes every research assistant an Employee
    assert "class_expression:some_values_superclass" not in batch.skipped
    restrictions = [p for p in batch.facts.column("predicate") if p.startswith("some_values__")]
    assert len(restrictions) == 8
    assert restrictions.count("some_values__works_for") == 2  # and Employee's own


def test_pizza_restrictions_give_rules_where_owl2rl_has_them() -> None:
    report = read_ontology(ONTOLOGY / "pizza.owl")
    # 147 `⊑ ∃hasTopping.X`-style superclasses, and the ⊑ direction of 5 definitions (CheeseyPizza, ...), are
    # class-level facts but one, whose filler is a union
    assert report.skipped["class_expression:some_values_superclass"] == 1
    # 22 closure axioms `⊑ ∀hasTopping.(A ⊔ B ...)`, and 3 definitions as unions (Spiciness, ...)
    assert report.skipped["class_expression:union_superclass"] == 25
    assert report.owl2rl["cls-int1"] == 19  # 12 by edges, 7 by class-level restrictions
    assert report.owl2rl["cls-hv1"] == 6  # hasCountryOfOrigin value Italy / America
    assert report.extra["triples_mapped"] + report.extra["triples_skipped"] == report.extra["triples_read"]
    # the mapped facts are unchanged
    is_a = [
        (s, o)
        for s, p, o in zip(*(report.facts.column(c) for c in ("subject", "predicate", "object")), strict=True)
        if p == "is_a"
    ]
    assert [o for s, o in is_a if s == "pizza:Margherita"] == ["pizza:NamedPizza"]


def test_defined_classes_join_the_hierarchy_questions_read(brain: Brain) -> None:
    # pizza.owl: SpicyPizza ≡ Pizza ⊓ ∃hasTopping.SpicyTopping; without scm-int the hierarchy had no edge up.
    brain.load([FIXTURES / "ontology" / "pizza.owl"])
    for defined in ("SpicyPizza", "VegetarianPizza", "CheeseyPizza", "RealItalianPizza"):
        assert brain.check(defined, "is_a", "Pizza").outcome is Outcome.SUPPORTED, defined
    assert brain.ask("Is a spicy pizza a pizza?").outcome is Outcome.SUPPORTED
    assert brain.check("SpicyPizza", "is_a", "PizzaTopping").outcome is Outcome.REFUTED  # Pizza disjoint_with it


def test_an_ill_typed_literal_is_kept_and_an_inconsistency_and_a_well_typed_one_is_not(
    brain: Brain, tmp_path: Path
) -> None:
    """dt-not-type for each checked datatype: the statement stays (as text) and is denied by the rule."""
    data = tmp_path / "ages.ttl"
    data.write_text(
        "@prefix : <http://example.org/d#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n"
        ':a :age "abc"^^xsd:integer . :b :vegan "maybe"^^xsd:boolean . :c :age "7"^^xsd:integer .\n'
        ':d :vegan "true"^^xsd:boolean . :e :weight "1.5"^^xsd:double .\n',
        encoding="utf-8",
    )
    brain.load([data])
    explained = sorted(c.explanation for c in brain.conflicts())
    assert len(explained) == 2, explained
    assert all("rule dt-not-type" in e for e in explained), explained
    assert any("abc" in e for e in explained), explained
    assert any("maybe" in e for e in explained), explained
