"""Wh-questions whose relation phrase the knowledge base names itself (#26 item 2): the KB's own label of a
predicate («используется для») wins over the fixed verb table's reading of the verb («использ…» -> uses) when it
explains the phrase whole; a name that swallows the verb ("bake bread" names an activity) is shortened by its
first word so the verb stays the phrase ("Which appliances bake bread?"). A kitchen.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from kgbrain.api import Brain


def _names(cid: str, en: str, ru: str) -> list[dict[str, Any]]:
    return [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]


ROWS: list[dict[str, Any]] = [
    *_names("whisk", "whisk", "венчик"),
    *_names("knife", "knife", "нож"),
    *_names("chef", "chef", "повар"),
    *_names("whipping_cream", "whipping cream", "взбивание сливок"),
    *_names("appliance", "appliance", "прибор"),
    *_names("oven", "oven", "духовка"),
    *_names("kettle", "kettle", "чайник"),
    *_names("bread", "bread", "хлеб"),
    *_names("bread_baking", "bake bread", "выпечка хлеба"),
    *_names("used_for", "used for", "используется для"),
    *_names("bakes", "bakes", "печёт"),
    {"subject": "chef", "predicate": "uses", "object": "knife"},
    {"subject": "whisk", "predicate": "used_for", "object": "whipping_cream"},
    {"subject": "oven", "predicate": "is_a", "object": "appliance"},
    {"subject": "kettle", "predicate": "is_a", "object": "appliance"},
    {"subject": "oven", "predicate": "bakes", "object": "bread"},
    {"subject": "oven", "predicate": "used_for", "object": "bread_baking"},
]


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    path = tmp_path_factory.mktemp("kitchen") / "facts.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    with Brain.open(None) as b:
        b.load([path])
        yield b


@pytest.mark.parametrize(
    ("question", "said", "unsaid"),
    [
        ("Что используется для взбивания сливок?", "Венчик", "нож"),
        ("Which appliances bake bread?", "Oven", "kettle"),
    ],
)
def test_a_wh_question_in_the_kbs_own_words(brain: Brain, question: str, said: str, unsaid: str) -> None:
    answer = brain.ask(question)
    assert answer.intent == "wh", answer.text
    assert said in answer.text, answer.text
    assert unsaid not in answer.text.lower(), answer.text


@pytest.mark.parametrize(
    ("request_", "said"),
    [
        ("Tell me what a whisk is.", "Whisk"),  # an embedded question keeps statement order
        ("Please explain what an oven is", "Oven"),
        ("Расскажите, что такое духовка.", "Духовка"),
        ("List the appliances that bake bread.", "Oven"),
        ("List the kinds of appliance.", "kettle, oven"),  # a request the patterns read already stays as read
    ],
)
def test_a_request_asks_the_question_it_wraps(brain: Brain, request_: str, said: str) -> None:
    wrapped = brain.ask(request_)
    if said:
        assert wrapped.confidence > 0.5, wrapped.text
        assert said in wrapped.text, wrapped.text
    else:
        assert wrapped.confidence == 0.0, wrapped.text
