"""Cursors page a list in order and refuse to page another one."""

from __future__ import annotations

import pytest

from kgbrain.errors import InputError
from kgbrain.service.paging import page


def test_pages_cover_the_list_once_in_order() -> None:
    items = list(range(10))
    got: list[int] = []
    cursor = None
    while True:
        chunk, cursor = page(items, cursor, 3, key=("facts", "x"))
        got += chunk
        if cursor is None:
            break
    assert got == items


@pytest.mark.parametrize("cursor", ["garbage!", "", "Zm9v"])
def test_bad_cursors_and_limits_are_input_errors(cursor: str) -> None:
    _, good = page(list(range(10)), None, 3, key=("facts", "x"))
    assert good is not None
    with pytest.raises(InputError, match="belongs to another list"):
        page(list(range(10)), good, 3, key=("facts", "y"))
    if cursor:
        with pytest.raises(InputError, match="field 'cursor'"):
            page(list(range(10)), cursor, 3, key=("facts", "x"))
    with pytest.raises(InputError, match="field 'limit'"):
        page(list(range(10)), None, 0, key=("facts", "x"))


def test_a_page_stops_at_its_byte_budget_and_always_moves_on() -> None:
    """Issue #22: `limit=1` returned 52 MB; a page also stops at about max_bytes, yet never holds nothing."""
    items = ["x" * 400, "y" * 400, "z" * 5000, "w"]
    got: list[str] = []
    cursor = None
    pages = 0
    while True:
        chunk, cursor = page(items, cursor, 100, key=("facts", "x"), max_bytes=1000)
        assert chunk, "a page holds at least one item"
        assert len(chunk) == 1 or sum(len(c) + 3 for c in chunk) <= 1000
        got += chunk
        pages += 1
        if cursor is None:
            break
    assert got == items
    assert pages == 3  # [x, y], [z] alone (over budget, but one item), [w]
