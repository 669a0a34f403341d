"""The gather/decide split of verification: what a decision may read besides its in-memory views.

A verdict is made in two parts. *Gather* builds the views (fact mirror, hierarchy and its reachability labels,
predicate declarations, exclusions, the causal graph) and links the claim's names to concepts. *Decide*
(`Reasoner.decide`, the modes it calls, and `verify.verdict_from_check`) is a function of the claims, those
views and the answers to the named read queries in `DECISION_QUERIES`, asked through a `Lookups` and nothing
else. The embedded engine answers them from the store (`DecisionLookups`); another engine (kgbrain/scale) may
answer them from what it gathered. Both run the one decision code, so a verdict rule exists once.

A decision that needs a new lookup adds its query name here: `DecisionLookups` refuses any other name, so a
read that bypasses the list fails every verification test instead of silently differing between engines.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kgbrain.errors import QueryError
from kgbrain.store.protocol import Lookups, Row

# Every named query a decision reads (queries/<name>.cypher), with what it is for.
DECISION_QUERIES: frozenset[str] = frozenset(
    {
        "ded_facts_into",  # facts into a concept that has inactive facts (those are not in the mirror)
        "ded_values_of",  # attribute values of a concept (literal claims, functional values)
        "ded_sources",  # trust and authority tier of sources (normative conflicts, seed 003)
        "cau_shortest",  # causal chains longer than the in-memory best-first search explores
        "rules_derivations_of",  # the derivation records of derived evidence (proof steps)
        "rules_derivations_of_many",
        "tms_facts_get",  # facts by id: premises of derived evidence
        "tms_facts_get_few",
    }
)


class DecisionLookups:
    """A store's answers to `DECISION_QUERIES`, refusing any other query (see the module docstring)."""

    def __init__(self, store: Lookups) -> None:
        """Answer from `store`."""
        self.store = store

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """The rows of a decision query.

        Raises:
            QueryError: `name` is not one of DECISION_QUERIES.
            StoreError: the store failed.
        """
        return self.store.run(_allowed(name), **params)

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Like `run`, streaming.

        Raises:
            QueryError: `name` is not one of DECISION_QUERIES.
            StoreError: the store failed.
        """
        return self.store.iterate(_allowed(name), **params)


def _allowed(name: str) -> str:
    if name not in DECISION_QUERIES:
        raise QueryError(f"the verification decision read {name!r}, which is not in views/lookups.DECISION_QUERIES")
    return name
