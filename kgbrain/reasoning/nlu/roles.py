"""Role questions and claims: "Is X the P of Y?", «Является ли X P Y?», «X — P Y?», "X is the P of Y".

A relation named by a noun ("director", «директор», "capital") says what X is *to* Y: "Petrov is the director of
Acme" states the fact `acme director petrov`, the reverse of the order its words come in (a verb keeps the order:
"Neurons consume energy"). The noun is marked by "of" before Y in English and by being a noun in Russian (pymorphy3).
The phrase between the two names must be the predicate's name whole, and only a stored concept-to-concept relation
outside kgbrain's core vocabulary is read so ("Is a neuron a kind of cell?" stays a class question).
"""

from __future__ import annotations

from dataclasses import replace

from kgbrain.knowledge import CORE_INHERITABLE
from kgbrain.language import words
from kgbrain.reasoning.nlu.links import ConceptLinks
from kgbrain.reasoning.nlu.question import Intent, Question

# Words of a role question that are not the role's name: articles, the copula, «ли».
_FRAME = frozenset(
    ["the", "a", "an", "is", "was", "are", "were", "be", "been", "has", "have", "still", "ли", "является",
     "являлся", "являлась", "был", "была", "были", "было", "это", "всё", "все", "еще", "ещё"]
)  # fmt: skip


_ARTICLES = frozenset({"the", "a", "an"})


def read_role(r: ConceptLinks, q: Question) -> Question | None:
    """The yes/no question "is X the P of Y" as the relation it asks (Y P X), or None when it is none."""
    tokens = words(q.text)
    declared = r.predicates().declared
    mentions = [m for m in r.linker.mentions(q.text) if m.concept not in declared]
    if len(mentions) != 2:
        return None
    x, y = mentions
    between = tokens[x.end : y.start]
    while between and between[-1] in _ARTICLES:  # "the director of the Novograd Transport Authority"
        between = between[:-1]
    if q.language == "en":
        if len(between) < 2 or between[-1] != "of":
            return None
        between = between[:-1]
    named = [w for w in between if w not in _FRAME]
    if not named or (q.language == "ru" and not _noun(named[-1])):
        return None
    relations = frozenset(p for p in r.graph().pred_names if p not in CORE_INHERITABLE)
    matches = r.vocabulary().match(named, only=relations)
    if not matches or len(matches[0].explained) < len(named):
        return None
    read = replace(q, intent=Intent.DOES, verb=matches[0].predicate, subject="", object="")
    return read.with_links(Intent.DOES, (y.concept, x.concept), ())


def _noun(word: str) -> bool:
    from kgbrain.language import _morph

    return any(p.tag.POS == "NOUN" for p in _morph().parse(word)[:1])
