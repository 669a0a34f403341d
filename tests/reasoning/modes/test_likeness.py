"""Likeness: symmetric, bounded, decided only over a specific shared class (hypothesis properties)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.reasoning.modes.likeness import SPECIFIC, likeness

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
    assert brain.ask("Is a pike like the Volga?").outcome is None


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
