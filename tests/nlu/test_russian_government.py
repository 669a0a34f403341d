"""Russian answers put an object in the case its predicate's label governs (#26 item 5), read from the dictionary,
not from a table of verbs: a transitive verb takes the accusative («выпекает булку»), a preposition its own case
(«служит для варки»), a passive short participle the instrumental («изготовлена фабрикой»), and a negated
«имеет» the genitive («не имеет таймера»). English answers of the same comparison keep the labels' English.

The knowledge base is a kitchen: an oven and a toaster are appliances; predicates carry RU/EN labels only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.output.dialogue import phrase


def _concept(cid: str, en: str, ru: str) -> list[dict[str, Any]]:
    return [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]


ROWS: list[dict[str, Any]] = [
    *_concept("oven", "oven", "духовка"),
    *_concept("toaster", "toaster", "тостер"),
    *_concept("appliance", "appliance", "бытовой прибор"),
    *_concept("bun", "bun", "булка"),
    *_concept("toast", "toast", "гренка"),
    *_concept("boiling", "boiling", "варка"),
    *_concept("timer", "timer", "таймер"),
    *_concept("bakes", "bakes", "выпекает"),
    *_concept("browns", "browns", "подрумянивает"),
    *_concept("serves_for", "serves for", "служит для"),
    {"subject": "oven", "predicate": "is_a", "object": "appliance"},
    {"subject": "toaster", "predicate": "is_a", "object": "appliance"},
    {"subject": "oven", "predicate": "bakes", "object": "bun"},
    {"subject": "toaster", "predicate": "browns", "object": "toast"},
    {"subject": "appliance", "predicate": "serves_for", "object": "boiling"},
    {"subject": "oven", "predicate": "has_property", "object": "timer"},
    {"subject": "toaster", "predicate": "has_property", "object": "timer", "polarity": False},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("kitchen") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


def test_a_russian_comparison_says_each_label_with_the_case_it_governs(brain: Brain) -> None:
    text = brain.ask("Чем духовка отличается от тостера?").text
    for said in ("выпекает булку", "подрумянивает гренку", "служит для варки", "не имеет таймера"):
        assert said in text, text
    assert "bakes" not in text, text
    assert "serves for" not in text, text


def test_an_english_comparison_keeps_the_english_labels(brain: Brain) -> None:
    text = brain.ask("What is the difference between an oven and a toaster?").text
    for said in ("bakes bun", "browns toast", "serves for boiling"):
        assert said in text, text


@pytest.mark.parametrize(
    ("label", "obj", "said"),
    [
        ("изготовлена", "фабрика", "изготовлена фабрикой"),  # a passive participle: the instrumental
        ("перевозит", "баржа", "перевозит баржу"),  # a transitive verb: the accusative
        ("расположена у", "пристань", "расположена у пристани"),  # a preposition: its case
        ("спит", "нора", "спит нора"),  # an intransitive verb: the dictionary tells no case, the name as written
    ],
)
def test_a_label_governs_its_object(label: str, obj: str, said: str) -> None:
    assert phrase("any_predicate", obj, "ru", subject="лодка", label=label) == said
