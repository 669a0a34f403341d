"""Likeness: symmetric, bounded, decided only over a specific shared class (hypothesis properties)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.reasoning.modes.likeness import SPECIFIC, likeness
from kgbrain.reasoning.results import Outcome

RIVERS = Path(__file__).resolve().parents[2] / "fixtures" / "nlu" / "rivers.jsonl"


@pytest.fixture(scope="module")
def brain() -> Iterator[Brain]:
    b = Brain.open(None)
    b.load([RIVERS])
    yield b
    b.close()


def test_two_of_one_specific_class_are_alike(brain: Brain) -> None:
    a = brain.ask("Is a pike like a perch?")
    assert a.outcome is not None
    assert a.outcome.value == "supported"
    assert "predatory fish" in a.text
    a = brain.ask("Похожа ли щука на окунь?")
    assert a.text.startswith("Да")


def test_a_generic_class_in_common_decides_nothing(brain: Brain) -> None:
    r = brain.reasoner
    close = likeness(r.graph(), r.hierarchy(), "pike", "perch")  # predatory fish, both live in rivers
    far = likeness(r.graph(), r.hierarchy(), "pike", "cod")  # only "fish", which covers more
    assert close.score > far.score
    assert close.specificity > far.specificity
    none = likeness(r.graph(), r.hierarchy(), "pike", "volga")
    assert not none.alike
    assert none.specificity < SPECIFIC
    # a fish and a river share no class and no relation: not alike, decided (ana.apart)
    assert brain.ask("Is a pike like the Volga?").outcome is Outcome.REFUTED


def test_likeness_properties_over_every_pair(brain: Brain) -> None:
    r = brain.reasoner
    names = sorted(r.graph().names)

    @settings(max_examples=60, deadline=None)
    @given(st.sampled_from(names), st.sampled_from(names))
    def check(a: str, b: str) -> None:
        ab, ba = likeness(r.graph(), r.hierarchy(), a, b), likeness(r.graph(), r.hierarchy(), b, a)
        assert ab.score == ba.score
        assert 0.0 <= ab.score <= 1.0
        assert ab.alike == ba.alike
        if ab.alike and a != b:
            assert ab.classes  # alike only with a class in common
            # the analogy index sees the same shared classes: a class both are under is an ancestor of each
            assert all(c in r.hierarchy().ancestors(a) and c in r.hierarchy().ancestors(b) for c in ab.classes)
        assert likeness(r.graph(), r.hierarchy(), a, a).score == 1.0

    check()


MATERIALS = Path(__file__).resolve().parents[2] / "fixtures" / "nlu" / "materials.jsonl"


@pytest.fixture(scope="module")
def materials() -> Iterator[Brain]:
    b = Brain.open(None)
    b.load([MATERIALS])
    yield b
    b.close()


def test_classes_of_their_own_do_not_outweigh_a_specific_kind_in_common(materials: Brain) -> None:
    # pewter and solder are both tin alloys and low-melting alloys; one is also a tableware metal, the other a
    # joining material (classes of their own do not outweigh the nearest kinds they share)
    r = materials.reasoner
    found = likeness(r.graph(), r.hierarchy(), "pewter", "solder")
    assert found.alike, found
    assert set(found.classes[:2]) == {"tin_alloy", "low_melting_alloy"}
    a = materials.ask("Is pewter like solder?")
    assert a.outcome is Outcome.SUPPORTED, a.text
    assert "tin alloy" in a.text


@pytest.mark.parametrize(
    ("question", "opening", "said"),
    [
        ("Is a crucible like tin?", "not really", ("tool", "soft metal")),
        ("Похож ли тигель на олово?", "нет", ("инструмент", "мягкий металл")),
    ],
)
def test_nothing_in_common_is_not_alike(materials: Brain, question: str, opening: str, said: tuple[str, ...]) -> None:
    a = materials.ask(question)
    assert a.outcome is Outcome.REFUTED, a.text
    assert opening in a.text.lower().split(":")[0], a.text
    assert all(s in a.text for s in said), a.text


def test_a_class_in_common_is_never_apart(materials: Brain) -> None:
    r = materials.reasoner
    close = likeness(r.graph(), r.hierarchy(), "tin", "concrete")  # both materials, nothing more
    assert not close.alike
    assert not close.apart
    assert materials.ask("Is tin like concrete?").outcome is None  # the hedge or "I don't know", undecided
    assert not likeness(r.graph(), r.hierarchy(), "tin", "metal").apart  # a member and its class


def test_apart_agrees_with_the_analogy_index(materials: Brain) -> None:
    r = materials.reasoner
    names = sorted(r.graph().names)

    @settings(max_examples=80, deadline=None)
    @given(st.sampled_from(names), st.sampled_from(names))
    def check(a: str, b: str) -> None:
        ab, ba = likeness(r.graph(), r.hierarchy(), a, b), likeness(r.graph(), r.hierarchy(), b, a)
        assert ab.apart == ba.apart
        assert not (ab.apart and ab.alike)
        if ab.apart:
            assert not ab.relations
            assert a not in r.hierarchy().ancestors(b)
            assert b not in r.hierarchy().ancestors(a)
            # the index may still find a structural analogue; then the answer is its hedge, never "not alike"
            indexed = any(x.other == b for x in r.like(a, limit=50))
            assert materials.ask(f"Is {a} like {b}?").outcome is (None if indexed else Outcome.REFUTED) or a == b

    check()
