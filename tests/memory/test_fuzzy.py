"""CloseMatcher gives difflib.get_close_matches' answer (hypothesis, random keys and words)."""

from __future__ import annotations

import difflib

from hypothesis import given
from hypothesis import strategies as st

from kgbrain.memory.fuzzy import CloseMatcher

text = st.text(alphabet="abcdeнё .:_0123", max_size=14)


@given(st.lists(text, max_size=40, unique=True), text, st.integers(1, 4), st.sampled_from([0.0, 0.3, 0.6, 0.8, 1.0]))
def test_same_answer_as_difflib(keys: list[str], word: str, n: int, cutoff: float) -> None:
    keys = sorted(keys)
    assert CloseMatcher(keys).matches(word, n, cutoff) == difflib.get_close_matches(word, keys, n, cutoff)


def test_many_similar_identifiers() -> None:
    keys = sorted(f"department{d}.university0.edu:graduatestudent{i}" for d in range(15) for i in range(60))
    matcher = CloseMatcher(keys)
    for word in ("department3.university0.edu:gradstudent3", "departmnt12.university0.edu:graduatestudent7", "zz"):
        assert matcher.matches(word) == difflib.get_close_matches(word, keys)
