"""The predicate declarations the reasoner obeys, loaded from the Predicate table.

Declarations come from kgbrain's own vocabulary (ontology/kgbrain.ttl) and from loaded ontologies
(owl:TransitiveProperty, owl:inverseOf, rdfs:subPropertyOf, ...). An undeclared predicate is a plain,
inheritable relation (DESIGN.md, Facts file).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kgbrain.knowledge import CORE_INHERITABLE
from kgbrain.store.protocol import GraphStore

HIERARCHY = ("is_a", "instance_of")


@dataclass(frozen=True, slots=True)
class Predicate:
    """How one predicate behaves."""

    name: str
    transitive: bool = False
    symmetric: bool = False
    functional: bool = False
    inheritable: bool = True
    inverse_of: str | None = None
    opposite_of: str | None = None
    sub_property_of: tuple[str, ...] = ()


@dataclass(slots=True)
class PredicateTable:
    """Every declared predicate, with the derived views the reasoner needs."""

    declared: dict[str, Predicate] = field(default_factory=dict)
    # The derived views by (view, predicate): a verification run asks for them once per claim, and each one
    # scans every declaration. The declarations are fixed once read (a load makes a new table).
    _views: dict[tuple[str, str], tuple[str, ...]] = field(default_factory=dict, init=False, repr=False, compare=False)
    _undeclared: dict[str, Predicate] = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def load(cls, store: GraphStore) -> PredicateTable:
        """Read the Predicate table.

        Raises:
            StoreError: the store failed.
        """
        table = cls()
        for row in store.run("predicates_all"):
            name = row["name"]
            inheritable = row["inheritable"]
            table.declared[name] = Predicate(
                name=name,
                transitive=bool(row["transitive"]),
                symmetric=bool(row["symmetric"]),
                functional=bool(row["functional"]),
                inheritable=CORE_INHERITABLE.get(name, True) if inheritable is None else bool(inheritable),
                inverse_of=row["inverse_of"] or None,
                opposite_of=row["opposite_of"] or None,
                sub_property_of=tuple(row["sub_property_of"] or ()),
            )
        return table

    def get(self, name: str) -> Predicate:
        """The declaration of `name`, or the default behaviour of an undeclared predicate."""
        found = self.declared.get(name) or self._undeclared.get(name)
        if found is None:
            found = Predicate(name=name, inheritable=CORE_INHERITABLE.get(name, True), transitive=name == "is_a")
            self._undeclared[name] = found
        return found

    def inverses(self, name: str) -> tuple[str, ...]:
        """Predicates q such that `o q s` states `s name o` (declared either way round)."""
        view = self._views.get(("inverses", name))
        if view is None:
            view = self._views[("inverses", name)] = self._inverses(name)
        return view

    def _inverses(self, name: str) -> tuple[str, ...]:
        found = {p.name for p in self.declared.values() if p.inverse_of == name}
        own = self.get(name).inverse_of
        if own:
            found.add(own)
        return tuple(sorted(found))

    def sub_properties(self, name: str) -> tuple[str, ...]:
        """`name` and every predicate declared (transitively) as its sub-property."""
        view = self._views.get(("sub_properties", name))
        if view is None:
            view = self._views[("sub_properties", name)] = self._sub_properties(name)
        return view

    def _sub_properties(self, name: str) -> tuple[str, ...]:
        result = [name]
        seen = {name}
        i = 0
        while i < len(result):
            parent = result[i]
            for p in self.declared.values():
                if parent in p.sub_property_of and p.name not in seen:
                    seen.add(p.name)
                    result.append(p.name)
            i += 1
        return tuple(result)

    def opposites(self, name: str) -> tuple[str, ...]:
        """Predicates declared opposite to `name` (either way round)."""
        found = {p.name for p in self.declared.values() if p.opposite_of == name}
        own = self.get(name).opposite_of
        if own:
            found.add(own)
        return tuple(sorted(found))
