"""OWL 2 RL rules of a loaded ontology derive facts in the store, with the rule ids in their proofs (real Kùzu)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.results import Outcome
from kgbrain.reasoning.tms.proofs import Proof
from tests.conftest import FIXTURES, write_jsonl

E = "example.org/uni:"
PIZZA = "pizza:"


def rules_of(proof: Proof) -> list[str]:
    """The rule ids of a proof tree, top down."""
    return ([proof.rule] if proof.rule else []) + [r for p in proof.premises for r in rules_of(p)]


def derived_fact(brain: Brain, subject: str, predicate: str, obj: str, polarity: bool = True) -> str:
    found = [
        f.fact_id
        for f in brain.facts(subject).facts
        if (f.predicate, f.object, f.polarity) == (predicate, obj, polarity) and f.source.startswith("rule:")
    ]
    assert found, f"{subject} {predicate} {obj} was not derived"
    return found[0]


@pytest.fixture(scope="module")
def uni_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("owl2rl")
    facts = write_jsonl(
        folder / "uni.jsonl",
        [
            {"subject": "alice", "predicate": "teaches", "object": "math101"},
            {"subject": "bob", "predicate": "doctoral_degree_from", "object": "uni1"},
            {"subject": "room1", "predicate": "part_of", "object": "building1"},
            {"subject": "building1", "predicate": "part_of", "object": "campus1"},
        ],
    )
    path = folder / "kb.kuzu"
    with Brain.open(path) as b:
        # facts first: the ontology's rules run over what is stored already when they arrive
        b.load([facts, FIXTURES / "ontology" / "campus.ttl"])
    return path


@pytest.fixture
def uni(uni_db: Path) -> Iterator[Brain]:
    with Brain.open(uni_db) as b:
        yield b


def test_domain_makes_the_subject_a_member(uni: Brain) -> None:
    fact = derived_fact(uni, "alice", "instance_of", f"{E}Teacher")
    assert rules_of(uni.explain(fact)) == [f"prp-dom:{E}teaches:{E}Teacher"]
    check = uni.check("alice", "instance_of", f"{E}Teacher")
    assert check.outcome is Outcome.SUPPORTED
    assert any(s.startswith(f"rule:prp-dom:{E}teaches") for st in check.trace.steps for s in st.sources)


def test_has_alumnus_through_sub_property_and_inverse(uni: Brain) -> None:
    fact = derived_fact(uni, "uni1", "has_alumnus", "bob")
    assert rules_of(uni.explain(fact))[0] == f"prp-inv1:{E}degreeFrom:{E}hasAlumnus"
    # bob degree_from uni1 is derived twice (a derived fact's source is its rule): from the sub-property, and
    # back from has_alumnus
    sources = {f.source for f in uni.facts("bob").facts if f.predicate == "degree_from"}
    assert sources == {
        f"rule:prp-spo1:{E}doctoralDegreeFrom:{E}degreeFrom",
        f"rule:prp-inv2:{E}degreeFrom:{E}hasAlumnus",
    }
    assert uni.check("uni1", "has_alumnus", "bob").outcome is Outcome.SUPPORTED


def test_contains_through_inverse_and_transitivity(uni: Brain) -> None:
    fact = derived_fact(uni, "campus1", "contains", "room1")
    used = rules_of(uni.explain(fact))
    assert used[0] == f"prp-trp:{E}contains"
    assert f"prp-inv2:{E}contains:{E}partOf" in used[1:]  # down to the stored part_of facts
    assert uni.check("campus1", "contains", "room1").outcome is Outcome.SUPPORTED


def test_rules_are_stored_with_their_origin(uni: Brain) -> None:
    rules = {r.id: r for r in uni.rules().rules}
    assert rules[f"prp-trp:{E}contains"].origin == "owl2rl:campus.ttl"
    # reloading the ontology adds no rule and no fact
    [report] = uni.load([FIXTURES / "ontology" / "campus.ttl"])
    assert report.extra.get("rules_added", 0) == 0
    assert report.facts_added == 0


def test_pizza_what_owl2rl_derives_and_what_it_cannot(tmp_path: Path) -> None:
    # "Margherita is a VegetarianPizza" is a subsumption between classes that needs the closure axiom
    # (Margherita ⊑ ∀hasTopping.(Mozzarella ⊔ Tomato)), disjointness and negation reasoned over all models:
    # not OWL 2 RL, whose rules fire on individuals. What RL gives for pizza individuals is tested here.
    facts = write_jsonl(
        tmp_path / "order.jsonl",
        [
            {"subject": "my_pizza", "predicate": "has_topping", "object": "my_mozzarella"},
            {"subject": "my_mozzarella", "predicate": "instance_of", "object": f"{PIZZA}MozzarellaTopping"},
            {"subject": "veggie", "predicate": "instance_of", "object": f"{PIZZA}VegetarianPizza"},
            {"subject": "veggie", "predicate": "has_topping", "object": "my_ham"},
            {"subject": "my_ham", "predicate": "instance_of", "object": f"{PIZZA}HamTopping"},
        ],
    )
    with Brain.open(None) as brain:
        brain.load([FIXTURES / "ontology" / "pizza_extract.ttl", facts])
        assert f"prp-dom:{PIZZA}hasTopping:{PIZZA}Pizza" in by_rules(brain, "my_pizza", "instance_of", f"{PIZZA}Pizza")
        assert by_rules(brain, "my_pizza", "instance_of", f"{PIZZA}CheeseyPizza") == {f"cls-int1:{PIZZA}CheeseyPizza"}
        cheesy = proof(brain, "my_pizza", "instance_of", f"{PIZZA}CheeseyPizza")
        assert "cax-sco" in cheesy  # my_mozzarella is a CheeseTopping through MozzarellaTopping is_a CheeseTopping
        assert by_rules(brain, "my_mozzarella", "has_country_of_origin", f"{PIZZA}Italy") == {
            f"cls-hv1:{PIZZA}MozzarellaTopping:{PIZZA}hasCountryOfOrigin"
        }
        assert by_rules(brain, "my_mozzarella", "is_topping_of", "my_pizza") == {
            f"prp-inv1:{PIZZA}hasTopping:{PIZZA}isToppingOf"
        }
        assert f"prp-spo1:{PIZZA}hasTopping:{PIZZA}hasIngredient" in by_rules(
            brain, "my_pizza", "has_ingredient", "my_mozzarella"
        )
        classes = {f.object for f in brain.facts("my_pizza").facts if f.predicate == "instance_of"}
        assert f"{PIZZA}VegetarianPizza" not in classes
        # a vegetarian pizza with ham: ham is a meat topping (cax-sco) and, by the definition, is not (cls-com)
        meat = derived_fact(brain, "my_ham", "instance_of", f"{PIZZA}MeatTopping")
        not_meat = derived_fact(brain, "my_ham", "instance_of", f"{PIZZA}MeatTopping", polarity=False)
        assert by_rules(brain, "my_ham", "instance_of", f"{PIZZA}MeatTopping", polarity=False) == {
            f"cls-com:{PIZZA}VegetarianPizza:{PIZZA}MeatTopping"
        }
        assert any({meat, not_meat} <= set(c.fact_ids) for c in brain.conflicts())


def by_rules(brain: Brain, subject: str, predicate: str, obj: str, polarity: bool = True) -> set[str]:
    """The rules that derived `subject predicate obj` (a derived fact's source is `rule:<id>`)."""
    return {
        f.source.removeprefix("rule:")
        for f in brain.facts(subject).facts
        if (f.predicate, f.object, f.polarity) == (predicate, obj, polarity) and f.source.startswith("rule:")
    }


def proof(brain: Brain, subject: str, predicate: str, obj: str, polarity: bool = True) -> list[str]:
    return rules_of(brain.explain(derived_fact(brain, subject, predicate, obj, polarity)))


def test_existential_superclasses_type_members_as_owlrl_does(tmp_path: Path) -> None:
    """`C ⊑ ∃p.D` is a class-level restriction: its members meet `∃p.D` (and `∃p.E`, `D ⊑ E`) in a definition."""
    facts = write_jsonl(
        tmp_path / "people.jsonl",
        [
            {"subject": "ra", "predicate": "instance_of", "object": "ub:ResearchAssistant"},
            {"subject": "marg", "predicate": "instance_of", "object": f"{PIZZA}Margherita"},
        ],
    )
    with Brain.open(None) as brain:
        brain.load([FIXTURES / "ontology" / "univ-bench.owl", FIXTURES / "ontology" / "pizza.owl", facts])
        # ResearchAssistant ⊑ Person ⊓ ∃worksFor.ResearchGroup, ResearchGroup ⊑ Organization,
        # Employee ≡ Person ⊓ ∃worksFor.Organization: no worksFor edge is known, the class says there is one
        assert by_rules(brain, "ra", "instance_of", "ub:Employee") == {"cls-int1:ub:Employee:restriction"}
        assert "scm-svf1:ub:worksFor" in proof(brain, "ra", "instance_of", "ub:Employee")
        # Margherita ⊑ ∃hasTopping.MozzarellaTopping, MozzarellaTopping ⊑ CheeseTopping: a CheeseyPizza
        assert by_rules(brain, "marg", "instance_of", f"{PIZZA}CheeseyPizza") == {
            f"cls-int1:{PIZZA}CheeseyPizza:restriction"
        }
        # no edge is made up: the topping stays unknown
        assert not [f for f in brain.facts("marg").facts if f.predicate == "has_topping"]
