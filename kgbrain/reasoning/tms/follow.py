"""Derived facts follow status changes that are not loads: conflict resolutions (a person's or automatic) and
the rivals a retraction brings back.

Rules read only active facts, so a fact that leaves the active set (disputed, outdated, retracted) takes away
what was derived from it, and a fact that comes back (a person keeps it; a retraction closes the conflict that
held it down) brings back what it implies, exactly as a retraction and a load do:

- leaving: DRed over the derivation records (`withdraw_lost`, dred.py), in the transaction that changed the
  statuses, so the two commit together;
- coming back: the stored rules run again (`derive_regained`: the in-memory closure over the active facts,
  which writes what is missing, derivations and withdrawn facts derived again included);
- then `not` and defeasible conclusions are settled over the change keys of both (settle.py).

A resolution never deletes: withdrawn conclusions are `retracted` by `kgbrain:rules` with a record, and come
back when derived again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timezone

from kgbrain.ingest.batch import FactColumns
from kgbrain.knowledge import Fact
from kgbrain.reasoning.rules.derivations import RunReport
from kgbrain.reasoning.tms.settle import EVERYTHING, column_keys, fact_keys
from kgbrain.reasoning.tms.withdraw import Withdrawal, withdraw_support
from kgbrain.store.protocol import GraphStore


def withdraw_lost(store: GraphStore, fact_ids: Iterable[str]) -> Withdrawal:
    """Withdraw what lost all support when these facts left the active set (joins the caller's transaction).

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.reasoning.rules.rulebase import has_rules

    ids = sorted(set(fact_ids))
    if not ids or not has_rules(store):  # nothing was ever derived: a load of plain facts pays one query
        return Withdrawal(0, ())
    return withdraw_support(store, ids)


def derive_regained(store: GraphStore, facts: Iterable[Fact]) -> RunReport | None:
    """Run the stored rules after these facts came back to the active set; what they derived, or None.

    Do not call it inside a transaction (the rules' writes are committed as a load's are).

    Raises:
        StoreError: the store failed.
    """
    from kgbrain.reasoning.rules.materialisation import materialise
    from kgbrain.reasoning.rules.rulebase import has_rules, stored_program

    predicates = {f.predicate for f in facts}
    if not predicates or not has_rules(store):
        return None
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    run = materialise(store, stored_program(store), since=now, predicates=predicates)
    return run if run.derived else None


def change_keys(facts: Iterable[Fact], derived: RunReport | None = None) -> set[str]:
    """The change keys settling re-checks: those of the facts that moved and of what the rules derived."""
    keys: set[str] = set()
    for f in facts:
        keys |= fact_keys(f)
    if derived is not None:
        added: FactColumns = derived.added
        keys |= column_keys(added)
        if derived.derived != len(added):  # facts derived again (revived) are not in `added`
            keys.add(EVERYTHING)
    return keys
