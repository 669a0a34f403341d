"""The question and claim grammars compile their patterns on first use; every one of them must compile and match."""

from __future__ import annotations

import re

import pytest

from kgbrain.lazy_re import LazyPattern
from kgbrain.reasoning.nlu import question
from kgbrain.reasoning.nlu import sentences as claims


def test_every_lazily_compiled_pattern_compiles() -> None:
    patterns = [p for _, p in question._COMPILED] + [p for _, _, p in (*claims._RU, *claims._EN)]
    assert len(patterns) > 50
    for pattern in patterns:
        pattern.match("")  # compiles it: a broken pattern raises here, not in some user's question


def test_a_lazy_pattern_matches_as_the_compiled_one() -> None:
    lazy = LazyPattern(r"^is\s+(?P<s>.+)$", re.IGNORECASE)
    found = lazy.match("Is a neuron")
    assert found is not None
    assert found["s"] == "a neuron"
    assert lazy.match("was") is None
    with pytest.raises(re.error):
        LazyPattern("(").match("x")
