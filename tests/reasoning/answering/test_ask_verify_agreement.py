"""One source of truth: `ask` and `verify` give the same yes/no on the same question over the demo knowledge base.

test_verify.py checks agreement on a small penguin KB; this table covers every rule a yes/no question can
take on the demo KB (data/demo/README.md ids), in Russian and English, and each claim three ways: the
question through the cognitive loop (`Brain.ask`), the structured claim and the claim sentence (`verify`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.answering.reasoner import Answer
from kgbrain.reasoning.answering.verify import VerdictKind
from kgbrain.reasoning.modes import causal
from kgbrain.reasoning.results import Mode, Outcome
from tests.conftest import write_jsonl

YES, NO, UNKNOWN = "yes", "no", "unknown"
_VERDICT = {VerdictKind.SUPPORTED: YES, VerdictKind.REFUTED: NO, VerdictKind.NOT_ENOUGH_INFO: UNKNOWN}
_OUTCOME = {Outcome.SUPPORTED: YES, Outcome.REFUTED: NO, Outcome.UNKNOWN: UNKNOWN}

# (case, question, structured claim, claim sentence, expected answer, the rule the proof must show)
CASES: list[tuple[str, str, tuple[str, str, str], str, str, str | None]] = [
    # is_a through several levels: betz_cell → pyramidal_neuron → neuron → excitable_cell → eukaryotic_cell → cell
    ("isa-deep-en", "Is a Betz cell a cell?", ("betz_cell", "is_a", "cell"), "A Betz cell is a cell", YES,
     "ded.isa-transitive"),
    ("isa-ru", "Является ли нейрон клеткой?", ("neuron", "is_a", "cell"), "Нейрон — это клетка", YES,
     "ded.isa-transitive"),
    # An individual's class: henry_molaison instance_of human is_a mammal is_a animal
    ("instance-en", "Is Henry Molaison an animal?", ("henry_molaison", "is_a", "animal"),
     "Henry Molaison is an animal", YES, "ded.isa-transitive"),
    # has by inheritance: cell has_property dna
    ("inherit-en", "Does a neuron have DNA?", ("neuron", "has_property", "dna"), "Neurons have DNA", YES,
     "ded.property-inheritance"),
    ("inherit-ru", "Есть ли у нейрона ДНК?", ("neuron", "has_property", "dna"), "Нейрон имеет ДНК", YES,
     "ded.property-inheritance"),
    # has by parts: axon part_of neuron (the report: ask said yes, verify NOT_ENOUGH_INFO)
    ("parts-en", "Does a neuron have an axon?", ("neuron", "has_property", "axon"), "Neurons have axons", YES,
     "ded.has-part"),
    ("parts-ru", "Есть ли у нейрона аксон?", ("neuron", "has_property", "axon"), "Нейрон имеет аксон", YES,
     "ded.has-part"),
    # has by a chain of parts: prefrontal_cortex part_of cerebral_cortex part_of brain
    ("parts-transitive-en", "Does the brain have a prefrontal cortex?", ("brain", "has_property", "prefrontal_cortex"),
     "The brain has a prefrontal cortex", YES, "ded.has-part"),
    # Specificity: cell can cell_division, but neuron can NOT cell_division
    ("override-en", "Can a neuron divide?", ("neuron", "can", "cell_division"), "Neurons can divide", NO,
     "ded.specificity-override"),
    ("override-ru", "Может ли нейрон делиться?", ("neuron", "can", "cell_division"), "Нейрон может делиться", NO,
     "ded.specificity-override"),
    ("inherit-can-ru", "Может ли глиальная клетка делиться?", ("glial_cell", "can", "cell_division"),
     "Глиальная клетка может делиться", YES, None),
    # A negative fact: transistor NOT has_property dna
    ("negative-en", "Does a transistor have DNA?", ("transistor", "has_property", "dna"), "A transistor has DNA", NO,
     "dir.fact"),
    ("negative-isa-ru", "Является ли транзистор клеткой?", ("transistor", "is_a", "cell"), "Транзистор — это клетка",
     NO, "dir.fact"),
    # Disjointness: neuron disjoint_with glial_cell
    ("disjoint-en", "Is a neuron a glial cell?", ("neuron", "is_a", "glial_cell"), "A neuron is a glial cell", NO,
     "ded.disjoint"),
    ("disjoint-ru", "Является ли пирамидный нейрон глиальной клеткой?", ("pyramidal_neuron", "is_a", "glial_cell"),
     "Пирамидный нейрон — это глиальная клетка", NO, "ded.disjoint"),
    # A concept the knowledge base does not have
    ("unknown-en", "Is a zorblax a cell?", ("zorblax", "is_a", "cell"), "A zorblax is a cell", UNKNOWN, None),
    ("unknown-ru", "Есть ли у нейрона квазитрон?", ("neuron", "has_property", "квазитрон"), "Нейрон имеет квазитрон",
     UNKNOWN, None),
    # Causal: a direct fact, a chain (neuron causes signal_transmission enables thinking) and a prevented chain
    ("causal-direct-en", "Does a neuron cause signal transmission?", ("neuron", "causes", "signal_transmission"),
     "Neurons cause signal transmission", YES, "dir.fact"),
    ("causal-chain-en", "Does a neuron cause thinking?", ("neuron", "causes", "thinking"), "Neurons cause thinking",
     YES, "cau.chain"),
    ("causal-chain-ru", "Вызывает ли нейрон мышление?", ("neuron", "causes", "thinking"), "Нейрон вызывает мышление",
     YES, "cau.chain"),
    ("causal-prevented-en", "Does multiple sclerosis cause fast signal conduction?",
     ("multiple_sclerosis", "causes", "fast_signal_conduction"), "Multiple sclerosis causes fast signal conduction",
     NO, "cau.prevents-flip"),
    # Stated values (neuron resting_potential -70 mV, functional; myelinated_axon conduction_speed 120 m/s):
    # a value question, a structured value claim and a value sentence, units converted
    ("value-en", "Is the resting potential of a neuron -70 mV?", ("neuron", "resting_potential", "-70 mV"),
     "The resting potential of a neuron is -70 mV", YES, "dir.fact"),
    ("value-other-en", "Is the resting potential of a neuron -60 mV?", ("neuron", "resting_potential", "-60 mV"),
     "The resting potential of a neuron is -60 mV", NO, "ded.functional-value"),
    ("value-units-en", "Is a neuron's resting potential -0.07 V?", ("neuron", "resting_potential", "-0.07 V"),
     "A neuron's resting potential is -0.07 V", YES, "dir.fact"),
    ("value-inherited-en", "Is the resting potential of a Betz cell -70 mV?",
     ("betz_cell", "resting_potential", "-70 mV"), "The resting potential of a Betz cell is -70 mV", YES, None),
    ("value-ru", "Равен ли потенциал покоя нейрона -70 мВ?", ("neuron", "resting_potential", "-70 мВ"),
     "Потенциал покоя нейрона равен -70 мВ", YES, "dir.fact"),
    ("value-other-ru", "Скорость проведения миелинизированного аксона — 50 м/с?",
     ("myelinated_axon", "conduction_speed", "50 м/с"),
     "Скорость проведения миелинизированного аксона составляет 50 м/с", NO, "ded.functional-value"),
    ("value-unstated-en", "Is the resting potential of a glial cell -70 mV?",
     ("glial_cell", "resting_potential", "-70 mV"), "The resting potential of a glial cell is -70 mV", UNKNOWN, None),
    # Any stored relation, named by its verb (neuron consumes energy; glial_cell NOT transmits action_potential;
    # synapse named_by charles_sherrington); with no object the verb names an ability (can cell_division)
    ("verb-en", "Does a neuron consume energy?", ("neuron", "consumes", "energy"), "Neurons consume energy", YES,
     "dir.fact"),
    ("verb-ru", "Потребляет ли нейрон энергию?", ("neuron", "consumes", "energy"), "Нейрон потребляет энергию", YES,
     "dir.fact"),
    ("verb-negative-en", "Does a glial cell transmit action potentials?",
     ("glial_cell", "transmits", "action_potential"), "Glial cells transmit action potentials", NO, "dir.fact"),
    ("verb-passive-en", "Was the synapse named by Sherrington?", ("synapse", "named_by", "charles_sherrington"),
     "The synapse was named by Sherrington", YES, "dir.fact"),
    ("verb-ability-en", "Do neurons divide?", ("neuron", "can", "cell_division"), "Neurons divide", NO,
     "ded.specificity-override"),
    ("verb-ability-ru", "Делится ли глиальная клетка?", ("glial_cell", "can", "cell_division"),
     "Глиальная клетка делится", YES, None),
]  # fmt: skip


def ask_outcome(answer: Answer, subject: str, obj: str) -> str:
    """The yes/no an answer gives: its outcome, or for a causal question the sign of the chain it found."""
    if answer.outcome is not None:
        return _OUTCOME[answer.outcome]
    data: dict[str, Any] = answer.data
    if data.get("kind") == "causal_path" and (data["source"], data["target"]) == (subject, obj):
        return YES if data["polarity"] else NO
    # An unknown concept (a clarification or an unrelated statement) or nothing found: no yes/no.
    return UNKNOWN


@pytest.mark.parametrize(
    ("question", "claim", "sentence", "expected", "rule"),
    [pytest.param(*c[1:], id=c[0]) for c in CASES],
)
def test_ask_and_verify_agree(
    demo: Brain, question: str, claim: tuple[str, str, str], sentence: str, expected: str, rule: str | None
) -> None:
    subject, predicate, obj = claim
    answer = demo.ask(question)
    structured, text = demo.verify(
        [
            {"id": "claim", "subject": subject, "predicate": predicate, "object": obj},
            {"id": "sentence", "text": sentence},
        ]
    )
    assert ask_outcome(answer, subject, obj) == expected
    assert _VERDICT[structured.verdict] == expected, structured.explanation
    assert _VERDICT[text.verdict] == expected, text.explanation
    assert (text.subject, text.predicate, text.object) == claim  # the sentence names the same concepts
    assert text.proof == structured.proof
    if rule is not None:
        assert rule in {s.rule for s in structured.proof}
    if answer.data.get("kind") in ("check", "value_check"):
        # A yes/no question and a claim are one computation: the same proof and the reasoner's confidence.
        assert answer.trace.steps == structured.proof
        assert demo.reasoner.ask(question).confidence == structured.confidence


def test_a_batch_decides_each_claim_as_a_single_check_does(demo: Brain) -> None:
    claims = [(c[2][0], c[2][1], c[2][2], True) for c in CASES] + [(c[2][0], c[2][1], c[2][2], False) for c in CASES]
    batch = demo.check_many(claims)
    assert batch == [demo.check(*c) for c in claims]


@pytest.mark.parametrize(
    ("claim", "outcome"),
    [
        # The negated claims: "a neuron does not have an axon" is refuted by the parts reading.
        (("neuron", "has_property", "axon"), Outcome.REFUTED),
        (("neuron", "causes", "thinking"), Outcome.REFUTED),
        (("multiple_sclerosis", "causes", "fast_signal_conduction"), Outcome.SUPPORTED),
    ],
)
def test_negated_claims_flip_with_the_shared_readings(
    demo: Brain, claim: tuple[str, str, str], outcome: Outcome
) -> None:
    check = demo.check(*claim, polarity=False)
    assert check.outcome is outcome
    assert check.polarity is False
    assert (check.subject, check.predicate, check.object) == claim  # reported as claimed, not as read


def test_prevents_is_decided_by_the_sign_of_the_chain(demo: Brain) -> None:
    # multiple_sclerosis causes demyelination prevents fast_signal_conduction: it works against it.
    check = demo.check("multiple_sclerosis", "prevents", "fast_signal_conduction")
    assert check.outcome is Outcome.SUPPORTED
    assert [s.rule for s in check.trace.steps] == ["cau.chain", "cau.prevents-flip", "cau.conclusion"]
    assert check.confidence == pytest.approx(0.855)


def test_causal_claims_use_the_same_path_bound_as_the_question(brain: Brain, tmp_path: Path) -> None:
    # A 13-link chain with a side branch: the claim's in-memory reachability test must agree with the 12-hop
    # Kùzu fallback that `ask` uses for chains longer than the best-first search.
    rows = [{"subject": f"e{i}", "predicate": "causes", "object": f"e{i + 1}", "confidence": 0.9} for i in range(13)]
    rows += [
        {"subject": "e3", "predicate": "prevents", "object": "x", "confidence": 0.8},
        {"subject": "y", "predicate": "causes", "object": "e5", "confidence": 0.8, "polarity": False},
    ]
    brain.load([write_jsonl(tmp_path / "chain.jsonl", rows)])
    graph = brain.reasoner.causal_graph()
    for source, target, hops in [("e0", "e12", 12), ("e0", "e13", None), ("e0", "x", 4), ("y", "e6", None)]:
        found = brain.reasoner.paths(source, target)
        assert causal.reachable(graph, source, target) is (hops is not None)
        assert [len(p.links) for p in found[:1]] == ([hops] if hops else [])
        expected = Outcome.UNKNOWN if not found else Outcome.SUPPORTED if found[0].polarity else Outcome.REFUTED
        assert brain.check(source, "causes", target).outcome is expected
    assert brain.check("e0", "causes", "e12").mode is Mode.CAUSAL
    assert brain.check("e0", "prevents", "x").outcome is Outcome.SUPPORTED


def test_has_is_read_through_inverse_and_sub_property_parts(brain: Brain, tmp_path: Path) -> None:
    # The shortcut that skips the parts reading must still see parts stated with an inverse of part_of
    # (`car has_part wheel`) or a sub-property of it (`piston component_of engine`), and a negative part_of.
    rows = [
        {"subject": "has_part", "predicate": "inverse_of", "object": "part_of"},
        {"subject": "component_of", "predicate": "sub_property_of", "object": "part_of"},
        {"subject": "car", "predicate": "has_part", "object": "wheel"},
        {"subject": "piston", "predicate": "component_of", "object": "engine"},
        {"subject": "sail", "predicate": "part_of", "object": "car", "polarity": False},
        {"subject": "car", "predicate": "is_a", "object": "vehicle"},
        {"subject": "engine", "predicate": "is_a", "object": "machine"},
    ]
    brain.load([write_jsonl(tmp_path / "parts.jsonl", rows)])
    wheel, piston, sail = brain.check_many(
        [("car", "has_property", "wheel"), ("engine", "has_property", "piston"), ("car", "has_property", "sail")]
    )
    assert (wheel.outcome, [s.rule for s in wheel.trace.steps]) == (Outcome.SUPPORTED, ["ded.inverse", "ded.has-part"])
    assert piston.outcome is Outcome.SUPPORTED
    assert "ded.sub-property" in {s.rule for s in piston.trace.steps}
    assert sail.outcome is Outcome.REFUTED
    assert sail.trace.steps[-1].conclusion == "car NOT has_property sail"
    assert brain.check("vehicle", "has_property", "wheel").outcome is Outcome.UNKNOWN  # part_of is not inherited
