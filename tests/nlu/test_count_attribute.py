"""A count question whose counted word is what a stored attribute counts by its name ("number of shelves",
«количество полок») is answered with that value, not by counting the stated instances (#26: "How many wheels
does a bicycle have?"); a relation named by the question's verb is no attribute to count; a count question with
no such attribute still counts members.

The knowledge base is a library: the reading room has 40 shelves by its attribute, and one shelf is stated as an
instance with `part_of` the room (the partial listing that must not be counted).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain


def _names(cid: str, en: str, ru: str, *aliases: tuple[str, str]) -> list[dict[str, Any]]:
    rows = [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]
    return rows + [{"subject": cid, "predicate": "alias", "value": v, "lang": lang} for lang, v in aliases]


ROWS: list[dict[str, Any]] = [
    *_names("reading_room", "reading room", "читальный зал"),
    *_names("shelf", "shelf", "полка", ("en", "shelves")),
    *_names("shelf_a1", "shelf A1", "полка А1"),
    *_names("reader", "reader", "читатель"),
    *_names("shelf_count", "shelf number", "количество полок", ("en", "number of shelves")),
    *_names("seating", "seating", "вместимость", ("en", "number of readers"), ("ru", "число читателей")),
    *_names("lends", "lends", "выдаёт"),
    {"subject": "shelf_count", "predicate": "property_type", "value": "functional"},
    {"subject": "seating", "predicate": "property_type", "value": "functional"},
    {"subject": "shelf_a1", "predicate": "instance_of", "object": "shelf"},
    {"subject": "shelf_a1", "predicate": "part_of", "object": "reading_room"},
    {"subject": "reading_room", "predicate": "shelf_count", "value": 40},
    {"subject": "reading_room", "predicate": "seating", "value": 85},
    {"subject": "reading_room", "predicate": "lends", "object": "shelf"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("library") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(
    ("question", "number"),
    [
        ("How many shelves does the reading room have?", "40"),
        ("Сколько полок в читальном зале?", "40"),
        ("How many readers can the reading room seat?", "85"),  # the verb names no stored relation
        ("Сколько читателей вмещает читальный зал?", "85"),
    ],
)
def test_the_attribute_that_counts_the_word_answers(brain: Brain, question: str, number: str) -> None:
    answer = brain.ask(question)
    assert answer.data.get("kind") != "count", answer.text  # not a count of stated instances
    assert number in answer.text, answer.text
    assert answer.confidence >= 0.9, answer.text


def test_without_such_an_attribute_members_are_counted(brain: Brain) -> None:
    answer = brain.ask("How many shelves are there?")
    assert "1" in answer.text, answer.text
    assert "A1" in answer.text, answer.text
