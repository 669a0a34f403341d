"""The one predicate <-> phrase lexicon: a word per predicate, and views that agree with it."""

from __future__ import annotations

import re

from kgbrain.language import inflect_phrase
from kgbrain.output.dialogue import phrase
from kgbrain.reasoning.nlu import lexicon as L
from kgbrain.reasoning.nlu.question import causal_predicate
from kgbrain.reasoning.nlu.understanding import wh_predicates


def test_each_predicate_has_one_word() -> None:
    predicates = [w.predicate for w in L.WORDS]
    assert len(predicates) == len(set(predicates))


def test_the_views_come_from_the_words() -> None:
    by_id = {w.predicate: w for w in L.WORDS}
    assert all(by_id[p].ru == said for p, said in L.PHRASES["ru"].items())
    assert all(by_id[p].en == said for p, said in L.PHRASES["en"].items())
    for case in L.RU_CASES.values():
        inflect_phrase("клетка", case)  # a case inflect_phrase knows (an unknown one raises)
    assert {said.split(" ")[0] for said in L.PHRASES["ru"].values()} >= L.RU_AGREES
    assert {p for ps in L.RU_VERB_STEMS.values() for p in ps} <= set(by_id)
    assert set(L.YES_NO_PREDICATES.values()) <= set(by_id)
    for lang in ("ru", "en"):
        for verbs in L.CLAIM_VERBS[lang].values():
            re.compile(verbs)


def test_readers_and_the_writer_use_it() -> None:
    assert phrase("located_in", "мозг", "ru") == "находится в мозге"
    assert phrase("named_by", "Sherrington", "en") == "was named by Sherrington"
    assert causal_predicate("предотвращает") == "prevents"
    assert all(causal_predicate(verb) == p for verb, p in L.CAUSAL_VERBS)
    assert L.RU_VERB_STEMS["состо"] == ("made_of", "consists_of")

    class Graph:
        def predicate_id(self, name: str) -> int:
            return 0 if name in {"located_in", "named_by", "protects_against"} else -1

    assert wh_predicates("находится", "ru", Graph()) == {"located_in"}  # type: ignore[arg-type]
    assert wh_predicates("located", "en", Graph()) == {"located_in"}  # type: ignore[arg-type]
    assert wh_predicates("protects against", "en", Graph()) == {"protects_against"}  # type: ignore[arg-type]
