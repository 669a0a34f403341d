"""Which of two rules wins when their conclusions oppose (defeasible logic), shared by both engines.

An explicit `r > s` first; otherwise a higher authority tier (NORM > OPERATIVE > GUIDANCE > COMMENTARY);
otherwise the more specific rule: each of the other's positive body atoms is matched by one of this rule's
(same predicate), or is a class this rule's body class is a sub-class of (stored `is_a`, or a single-atom
strict unary rule `b(X) :- a(X).`), and not the other way round.
"""

from __future__ import annotations

from collections import defaultdict

from kgbrain.knowledge import Authority
from kgbrain.ruleset import Atom, Program, Rule, RuleKind
from kgbrain.store.protocol import GraphStore

_TIER = {a.value: len(Authority) - i for i, a in enumerate(Authority)}  # NORM highest


class Superiority:
    """Whether one rule beats another: explicit order, then authority tier, then specificity."""

    def __init__(self, store: GraphStore, program: Program) -> None:
        self.explicit = {(s.stronger, s.weaker) for s in program.superiority}
        self.store = store
        self._ancestors: dict[str, set[str]] = {}
        # `b(X) :- a(X).` as a strict rule makes a(X) at least as specific as b(X), like `a is_a b`.
        self._implies: dict[str, set[str]] = defaultdict(set)
        for rule in program.rules:
            body = rule.body
            if rule.kind is RuleKind.STRICT and rule.head.unary and len(body) == 1 and isinstance(body[0], Atom):
                only = body[0]
                plain = only.unary and not only.naf and not only.negated and not rule.head.negated
                if plain and only.args == rule.head.args:
                    self._implies[only.predicate].add(rule.head.predicate)

    def stronger(self, rule: Rule, other: Rule) -> bool:
        if (rule.id, other.id) in self.explicit:
            return True
        if (other.id, rule.id) in self.explicit:
            return False
        mine, theirs = _TIER.get(rule.authority or "", 0), _TIER.get(other.authority or "", 0)
        if mine != theirs:
            return mine > theirs
        return self._more_specific(rule, other) and not self._more_specific(other, rule)

    def _more_specific(self, rule: Rule, other: Rule) -> bool:
        mine = [a for a in rule.body if isinstance(a, Atom) and not a.naf]
        theirs = [a for a in other.body if isinstance(a, Atom) and not a.naf]
        if not theirs:
            return bool(mine)
        return all(any(self._covers(m, t) for m in mine) for t in theirs)

    def _covers(self, mine: Atom, theirs: Atom) -> bool:
        if mine.predicate == theirs.predicate and mine.negated == theirs.negated:
            return True
        return mine.unary and theirs.unary and theirs.predicate in self.ancestors(mine.predicate)

    def ancestors(self, cls: str) -> set[str]:
        """Classes every member of `cls` belongs to: stored is_a, and single-atom strict unary rules."""
        if cls not in self._ancestors:
            found: set[str] = set()
            todo = [cls]
            while todo:
                current = todo.pop()
                nxt = {r["ancestor"] for r in self.store.run("ded_ancestors_shortest", id=current)}
                nxt |= self._implies.get(current, set())
                todo += sorted(nxt - found)
                found |= nxt
            self._ancestors[cls] = found
        return self._ancestors[cls]
