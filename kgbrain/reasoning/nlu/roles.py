"""Role questions and claims: "Is X the P of Y?", «Является ли X P Y?», «X — P Y?», "X is the P of Y", "The P of Y
is X", «P Y — X».

A relation named by a noun ("director", «директор», "capital") says what X is *to* Y: "Petrov is the director of
Acme" states the fact `acme director petrov`, the reverse of the order its words come in (a verb keeps the order:
"Neurons consume energy"). The noun is marked by "of" before Y in English and by being a noun in Russian (pymorphy3).
The phrase between the two names must be the predicate's name whole, and only a stored concept-to-concept relation
outside kgbrain's core vocabulary is read so ("Is a neuron a kind of cell?" stays a class question). A relation
whose name ends in "of" (`member_of`, `capital_of`) keeps the order of the words: "Is Zenit a member of the Premier
League?" asks `zenit member_of premier_league`.
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
    # "X is the P of Y" (the role's name between the two), or "The P of X is Y" (before both)
    if all(w in _FRAME for w in tokens[x.end : y.start]):
        predicate, holder, held = _role(r, q.language, tokens[: x.start]), x.concept, y.concept
    else:
        predicate, holder, held = _role(r, q.language, tokens[x.end : y.start]), y.concept, x.concept
    if predicate is None:
        return None
    if predicate.endswith("_of"):  # "X is a member of Y" states `x member_of y`: the name says the order itself
        holder, held = held, holder
    read = replace(q, intent=Intent.DOES, verb=predicate, subject="", object="")
    return read.with_links(Intent.DOES, (holder, held), ())


def _role(r: ConceptLinks, language: str, said: list[str]) -> str | None:
    """The stored relation the words before a holder name as a role ("the director of", «директором»), or None."""
    while said and said[-1] in _ARTICLES:  # "the director of the Novograd Transport Authority"
        said = said[:-1]
    if language == "en":
        if len(said) < 2 or said[-1] != "of":
            return None
        said = said[:-1]
    named = [w for w in said if w not in _FRAME]
    if not named or (language == "ru" and not _noun(named[-1])):
        return None
    relations = frozenset(p for p in r.graph().pred_names if p not in CORE_INHERITABLE)
    matches = r.vocabulary().match(named, only=relations)
    if not matches or len(matches[0].explained) < len(named):
        return None
    return matches[0].predicate


def _noun(word: str) -> bool:
    from kgbrain.language import _morph

    return any(p.tag.POS == "NOUN" for p in _morph().parse(word)[:1])
