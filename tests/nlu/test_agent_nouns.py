"""A Russian verb asks the predicate its agent noun names: «Кто тренировал Зенит в 2010 году?» asks `coach`
(«тренер»), as "Who coached Zenit in 2010?" does. Who coached when is computed from tests/time/seasons.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kgbrain.api import Brain
from kgbrain.reasoning.nlu.vocabulary import key, same_root
from tests.conftest import write_jsonl
from tests.time.seasons import COACHES, held, name, rows


@pytest.mark.parametrize(
    ("noun", "verb"),
    [("тренер", "тренировал"), ("редактор", "редактировала"), ("координатор", "координирует"),
     ("спонсор", "спонсировали")],
)  # fmt: skip
def test_an_agent_noun_and_its_verb_share_a_root(noun: str, verb: str) -> None:
    assert same_root(key(noun), key(verb))
    assert same_root(key(verb), key(noun))


@pytest.mark.parametrize(("noun", "verb"), [("мотор", "мотивировал"), ("мэр", "мерил")])
def test_a_noun_is_no_agent_of_a_verb_it_only_begins_like(noun: str, verb: str) -> None:
    assert not same_root(key(noun), key(verb))


@pytest.fixture(scope="module")
def seasons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Brain]:
    folder = tmp_path_factory.mktemp("agents")
    with Brain.open(folder / "kb.kuzu") as brain:
        brain.load([write_jsonl(folder / "seasons.jsonl", rows())], source="registry")
        yield brain


@pytest.mark.parametrize(("club", "year"), [("zenit", 2007), ("zenit", 2010), ("spartak", 2012)])
def test_who_coached_a_club_asked_by_the_verb(seasons: Brain, club: str, year: int) -> None:
    asked = {"zenit": "Зенит", "spartak": "Спартак"}[club]
    text = seasons.think(f"Кто тренировал {asked} в {year} году?").text
    assert name(held(COACHES, club, year), "ru") in text, text
    others = {c for terms in COACHES.values() for c, _, _ in terms} - {held(COACHES, club, year)}
    assert not [c for c in others if name(c, "ru") in text], text
