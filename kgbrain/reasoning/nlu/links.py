"""What question understanding needs to link words to concepts: a small protocol instead of the Reasoner.

`understand` and the claim readers link slot texts through the concept `Linker` (names, mentions, ambiguity) and
read two views: the fact mirror (is a concept used as a property? does a predicate exist?) and the declared
predicates (is a concept an attribute?). The Reasoner provides all three; nlu imports nothing from answering.
"""

from __future__ import annotations

from typing import Protocol

from kgbrain.memory.linking import Linker
from kgbrain.reasoning.nlu.lexicon import KbLexicon
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.predicates import PredicateTable


class ConceptLinks(Protocol):
    """The linker and the views question understanding reads (`Reasoner` satisfies it)."""

    @property
    def linker(self) -> Linker:
        """Names, mentions and ambiguity of concept names."""
        ...

    def graph(self) -> FactGraph:
        """The mirror of every active concept-to-concept fact."""
        ...

    def predicates(self) -> PredicateTable:
        """The loaded predicate declarations."""
        ...

    def vocabulary(self) -> KbLexicon:
        """Every stored predicate and attribute by the words that name it."""
        ...


def classes_above(r: ConceptLinks, concept: str, limit: int | None = None) -> list[str]:
    """The classes above `concept` (is_a / instance_of, stated and positive), in walk order; about `limit` at most."""
    g = r.graph()
    seen, todo = {concept}, [concept]
    found: list[str] = []
    while todo and (limit is None or len(found) < limit):
        c = todo.pop()
        if c not in g.index:
            continue
        for e in g.out(c):
            if e.predicate in ("is_a", "instance_of") and e.polarity and e.object not in seen:
                seen.add(e.object)
                found.append(e.object)
                todo.append(e.object)
    return found
