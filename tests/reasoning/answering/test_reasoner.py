"""Reasoner: every rule id, refutation, specificity override, cycles, deep chains, unknown concepts, empties."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pytest

from kgbrain.api import Brain
from kgbrain.errors import UnknownConcept
from kgbrain.reasoning.nlu.question import Intent, parse_question
from kgbrain.reasoning.results import Mode, Outcome
from kgbrain.store.schema import CONCEPT_COLUMNS, FACT_COLUMNS

FIX = Path(__file__).resolve().parents[2] / "fixtures" / "reasoning"


@pytest.fixture(scope="module")
def zoo() -> Iterator[Brain]:
    with Brain.open(None) as b:
        b.load([FIX / "penguins.jsonl", FIX / "cycles.jsonl", FIX / "smoking.jsonl"])
        yield b


def rules(check: object) -> list[str]:
    return [s.rule for s in check.trace.steps]  # type: ignore[attr-defined]


def test_dir_fact(zoo: Brain) -> None:
    c = zoo.check("penguin", "is_a", "bird")
    assert (c.outcome, c.mode, rules(c)) == (Outcome.SUPPORTED, Mode.DIRECT, ["dir.fact"])
    assert c.trace.steps[0].facts
    assert c.trace.steps[0].sources == ("zoo",)


def test_ded_isa_transitive_min_confidence(zoo: Brain) -> None:
    c = zoo.check("emperor_penguin", "is_a", "animal")
    assert c.outcome is Outcome.SUPPORTED
    assert rules(c) == ["ded.isa-transitive"] * 3
    assert c.confidence == 0.9  # min(0.9, 0.95, 0.99)


def test_instance_of_chain(zoo: Brain) -> None:
    assert zoo.check("pingu", "is_a", "bird").outcome is Outcome.SUPPORTED


def test_ded_property_inheritance(zoo: Brain) -> None:
    c = zoo.check("robin", "has_property", "metabolism")
    assert c.outcome is Outcome.SUPPORTED
    assert "ded.property-inheritance" in rules(c)
    assert c.confidence == 0.8


def test_ded_specificity_override_birds_fly_penguins_do_not(zoo: Brain) -> None:
    assert zoo.check("robin", "can", "fly").outcome is Outcome.SUPPORTED
    c = zoo.check("emperor_penguin", "can", "fly")
    assert c.outcome is Outcome.REFUTED
    assert "ded.specificity-override" in rules(c)
    assert zoo.check("pingu", "can", "fly", polarity=False).outcome is Outcome.SUPPORTED


def test_ded_disjoint_refutes(zoo: Brain) -> None:
    c = zoo.check("penguin", "is_a", "fish")
    assert c.outcome is Outcome.REFUTED
    assert "ded.disjoint" in rules(c)


def test_ded_negation_refutes_down_the_hierarchy(zoo: Brain) -> None:
    assert zoo.check("whale", "is_a", "fish").outcome is Outcome.REFUTED
    c = zoo.check("whale", "is_a", "fish", polarity=False)
    assert c.outcome is Outcome.SUPPORTED


def test_ded_functional_value(zoo: Brain) -> None:
    assert zoo.check("robin", "color", "red").outcome is Outcome.SUPPORTED
    c = zoo.check("robin", "color", "blue")
    assert c.outcome is Outcome.REFUTED
    assert "ded.functional-value" in rules(c)


def test_ded_inverse_symmetric_sub_property(zoo: Brain) -> None:
    assert rules(zoo.check("penguin", "eats", "krill")) == ["ded.inverse"]
    assert rules(zoo.check("penguin", "near", "rock")) == ["ded.symmetric"]
    assert rules(zoo.check("robin", "makes_sound", "song")) == ["ded.sub-property"]


def test_not_inheritable_predicate(zoo: Brain) -> None:
    assert zoo.check("bird", "named_by", "linnaeus").outcome is Outcome.SUPPORTED
    assert zoo.check("robin", "named_by", "linnaeus").outcome is Outcome.UNKNOWN


def test_ctx_inactive_fact_is_shown_not_used(zoo: Brain) -> None:
    paths = zoo.path("smoking", "stained_teeth")
    assert paths == []


def test_unknown_concept_and_empty_result(zoo: Brain) -> None:
    c = zoo.check("pengiun", "is_a", "bird")
    assert c.outcome is Outcome.UNKNOWN
    assert "penguin" in c.explanation
    assert zoo.check("robin", "is_a", "fish").outcome is Outcome.REFUTED
    assert zoo.check("robin", "has_property", "wings").outcome is Outcome.UNKNOWN
    with pytest.raises(UnknownConcept, match="Did you mean 'penguin'"):
        zoo.like("pengiun")


def test_cycles_terminate(zoo: Brain) -> None:
    assert zoo.check("a", "is_a", "c").outcome is Outcome.SUPPORTED
    assert zoo.check("a", "is_a", "smoking").outcome is Outcome.UNKNOWN
    paths = zoo.path("learning", "memory")
    assert [p.concepts for p in paths] == [("learning", "plasticity", "memory")]
    assert {p.source for p in zoo.why("learning")} == {"plasticity"}


def test_cau_chain_product_and_ranking(zoo: Brain) -> None:
    paths = zoo.path("smoking", "lung_cancer")
    assert [round(p.confidence, 2) for p in paths] == [0.72, 0.6]
    assert [s.rule for s in paths[0].steps()] == ["cau.chain", "cau.chain", "cau.conclusion"]


def test_cau_prevents_flip(zoo: Brain) -> None:
    (p,) = zoo.path("exercise", "diabetes")
    assert p.polarity is False
    assert "cau.prevents-flip" in [s.rule for s in p.steps()]


_FACT_TYPES = {
    "polarity": pa.bool_(),
    "confidence": pa.float64(),
    "trust": pa.float64(),
    **{c: pa.timestamp("us") for c in ("observed_at", "loaded_at", "valid_from", "valid_to")},
}


def test_ten_thousand_level_chain() -> None:
    n = 10_000
    with Brain.open(None) as b:
        ids = [f"k{i}" for i in range(n + 1)]
        concept = {c: pa.array([None] * len(ids), pa.string()) for c in CONCEPT_COLUMNS}
        concept["id"] = pa.array(ids, pa.string())
        concept["kind"] = pa.array(["class"] * len(ids), pa.string())
        # Every fact column (nulls where the chain needs none), so a new column in the schema does not break this test.
        rows = {c: pa.array([None] * n, _FACT_TYPES.get(c, pa.string())) for c in FACT_COLUMNS}
        rows.update(
            {
                "fact_id": pa.array([f"f{i}" for i in range(n)], pa.string()),
                "predicate": pa.array(["is_a"] * n, pa.string()),
                "polarity": pa.array([True] * n, pa.bool_()),
                "confidence": pa.array([1.0] * n, pa.float64()),
                "source": pa.array(["gen"] * n, pa.string()),
                "trust": pa.array([0.5] * n, pa.float64()),
                "status": pa.array(["active"] * n, pa.string()),
            }
        )
        rows = {"from": pa.array(ids[:-1], pa.string()), "to": pa.array(ids[1:], pa.string()), **rows}
        with b.store.transaction():
            b.store.copy("Concept", pa.table(concept))
            b.store.copy("IS_A", pa.table(rows))
        c = b.check("k0", "is_a", f"k{n}")
        assert c.outcome is Outcome.SUPPORTED
        assert len(c.trace.steps) == n
        assert b.check(f"k{n}", "is_a", "k0").outcome is Outcome.UNKNOWN


def test_hook_keeps_caches_current(brain: Brain, tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text('{"subject": "x", "predicate": "is_a", "object": "y"}\n', encoding="utf-8")
    brain.load([tmp_path / "a.jsonl"])
    assert brain.check("x", "is_a", "z").outcome is Outcome.UNKNOWN
    (tmp_path / "b.jsonl").write_text('{"subject": "y", "predicate": "is_a", "object": "z"}\n', encoding="utf-8")
    brain.load([tmp_path / "b.jsonl"])
    assert brain.check("x", "is_a", "z").outcome is Outcome.SUPPORTED


def test_check_many_keeps_order(zoo: Brain) -> None:
    out = zoo.check_many([("robin", "can", "fly"), ("penguin", "can", "fly", True), ("nobody", "is_a", "bird")])
    assert [c.outcome for c in out] == [Outcome.SUPPORTED, Outcome.REFUTED, Outcome.UNKNOWN]


@pytest.mark.parametrize(
    ("question", "intent", "lang"),
    [
        ("Что такое нейрон?", Intent.DEFINE, "ru"),
        ("Почему нейроны важны для мышления?", Intent.WHY, "ru"),
        ("Является ли нейрон клеткой?", Intent.IS_A, "ru"),
        ("Есть ли у нейрона ДНК?", Intent.HAS, "ru"),
        ("Может ли нейрон делиться?", Intent.CAN, "ru"),
        ("На что похож нейрон?", Intent.LIKE, "ru"),
        ("Нейрон похож на что?", Intent.LIKE, "ru"),
        ("Что вызывает демиелинизацию?", Intent.CAUSES, "ru"),
        ("What is a neuron?", Intent.DEFINE, "en"),
        ("Is a penguin a bird?", Intent.IS_A, "en"),
        ("Does a neuron have DNA?", Intent.HAS, "en"),
        ("Can a penguin fly?", Intent.CAN, "en"),
        ("What is a neuron like?", Intent.LIKE, "en"),
        ("What causes thinking?", Intent.CAUSES, "en"),
        ("Why do neurons matter for thinking?", Intent.WHY, "en"),
    ],
)
def test_question_patterns(question: str, intent: Intent, lang: str) -> None:
    q = parse_question(question)
    assert (q.intent, q.language) == (intent, lang)


def test_ask_penguins_in_both_languages(zoo: Brain) -> None:
    en = zoo.reasoner.ask("Can a penguin fly?")
    assert en.outcome is Outcome.REFUTED
    assert en.language == "en"
    ru = zoo.reasoner.ask("Может ли пингвин летать?")
    assert ru.outcome is Outcome.REFUTED
    assert ru.language == "ru"
    unknown = zoo.reasoner.ask("Что такое пингвиноид?")
    assert unknown.action == "ask_clarification"
    assert "пингвин" in unknown.suggestions


def test_ded_transitive_part_of_chain(demo: Brain) -> None:
    c = demo.check("axon", "part_of", "organism")
    assert c.outcome is Outcome.SUPPORTED
    assert rules(c) == ["ded.transitive"] * 4
    assert demo.check("organism", "part_of", "axon").outcome is Outcome.UNKNOWN


def test_causal_chain_longer_than_the_search_bound_falls_back_to_kuzu_shortest(brain: Brain, tmp_path: Path) -> None:
    rows = [{"subject": f"e{i}", "predicate": "causes", "object": f"e{i + 1}", "confidence": 0.9} for i in range(9)]
    rows.append({"subject": "e4", "predicate": "prevents", "object": "x", "confidence": 0.5})
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    brain.load([path])
    (found,) = brain.path("e0", "e9")
    assert len(found.links) == 9
    assert found.confidence == round(0.9**9, 4)
    assert found.polarity


def test_has_questions_are_also_answered_by_parts(demo: Brain) -> None:
    a = demo.reasoner.ask("Есть ли у нейрона аксон?")
    assert a.outcome is Outcome.SUPPORTED
    # The part_of proof, then the step that reads it as the asked has_property (shared with check/verify).
    assert [s.rule for s in a.trace.steps] == ["dir.fact", "ded.has-part"]
    assert a.trace.steps[-1].conclusion == "neuron has_property axon"
    b = demo.reasoner.ask("Does the brain have a prefrontal cortex?")
    assert b.outcome is Outcome.SUPPORTED
    assert {s.rule for s in b.trace.steps} == {"ded.transitive", "ded.has-part"}


def test_ctx_inactive_fact_appears_in_the_trace_but_does_not_count(zoo: Brain) -> None:
    c = zoo.check("robin", "can", "swim")
    assert c.outcome is Outcome.UNKNOWN
    assert rules(c) == ["ctx.inactive-fact"]
    assert c.trace.steps[0].note == "outdated fact, not used"


def test_ded_inheritance_conflict_between_equally_specific_parents(zoo: Brain) -> None:
    c = zoo.check("duck", "can", "dive")
    assert c.outcome is Outcome.CONFLICTING
    assert rules(c)[-1] == "ded.inheritance-conflict"


def test_ded_negation_rule_id(zoo: Brain) -> None:
    c = zoo.check("whale", "is_a", "fish")
    assert rules(c) == ["dir.fact"]  # the negative fact itself
    c = zoo.check("whale", "is_a", "penguin")  # fish is disjoint with bird, whale is not a fish: unknown
    assert c.outcome is Outcome.UNKNOWN
    d = zoo.check("pingu", "is_a", "fish")
    assert "ded.disjoint" in rules(d)
    e = zoo.check("blue_whale", "is_a", "fish")  # whale NOT is_a fish, read as disjointness, inherited
    assert e.outcome is Outcome.REFUTED
    assert rules(e) == ["ded.isa-transitive", "ded.negation", "ded.negation"]


def test_asc_direct_relation_when_no_causal_path(demo: Brain) -> None:
    a = demo.reasoner.ask("Как связаны нейрон и глиальная клетка?")
    assert a.data["kind"] == "relation"
    assert {s.rule for s in a.trace.steps} == {"asc.direct-relation"}
