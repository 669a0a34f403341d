"""Withdrawal of derived facts by DRed (delete and re-derive) over the stored derivation records.

Gupta, Mumick, Subrahmanian 1993, "Maintaining views incrementally", section 6 (DRed), run over the
recorded derivations instead of the rules:

1. Over-delete: every derived fact reachable from the removed facts (or from the heads of derivations
   found invalid) through active derivations (FactRef <-USES- Derivation) is suspect.
2. Re-derive: a suspect fact holds again when some active, valid derivation of it uses only premises that
   hold: premises outside the suspect set that were not removed, or suspect facts already shown to hold.
   This is a least fixpoint started from the facts outside the suspect set, so a cycle of facts that only
   support each other (p(a,b) from p(b,a) and back) does not keep itself alive, unlike support counting.

Re-derivation needs no rule evaluation: for a program without `not` and defeasible rules, every rule
instance over the remaining facts was recorded while they were all present (the records are complete),
so a support check over the records is exact. What a removal makes newly derivable (a `not` atom that
became true, a defeasible conclusion no longer blocked) is found by `reasoning/tms/settle.py`.

Withdrawn facts are kept with status `retracted` and a Retraction record naming why; their derivations
become `lost`. Everything here runs in one transaction (joining the caller's), so a retraction and its
withdrawals commit together. Cost: a primary-key lookup per suspect fact and derivation, and one
anchored scan of the facts to set the statuses of those withdrawn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone

# Withdrawals are signed WITHDRAWN_BY; the rules layer reads that name back (derivations.revivable).
from kgbrain.reasoning.rules.derivations import WITHDRAWN_BY as WITHDRAWN_BY
from kgbrain.store.protocol import GraphStore, Row

_CHUNK = 5_000
_FEW = 32  # up to this many fact ids, one scan testing each fact against the list beats the join


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """What a retraction took away with it: derivations now lost, derived facts now retracted."""

    derivations_lost: int
    facts_retracted: tuple[str, ...]
    suspects: int = 0
    rules: tuple[str, ...] = ()  # the rules whose conclusions were withdrawn (what settle.py re-checks)


def withdraw_support(
    store: GraphStore,
    removed: Iterable[str],
    invalid: Iterable[str] = (),
    *,
    reason: str | None = None,
    now: datetime | None = None,
) -> Withdrawal:
    """Withdraw what lost all well-founded support after facts stopped being active.

    `removed`: fact ids no longer active (retracted, disputed). `invalid`: ids of derivations that no
    longer hold although their premises do (a `not` atom became false, a defeasible conclusion became
    blocked). Returns the lost derivations and the derived facts withdrawn.

    Raises:
        StoreError: the store failed.
    """
    dead_premises = set(removed)
    bad = set(invalid)
    stamp = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(tzinfo=None)
    with store.transaction():
        heads = _heads_of(store, bad) if bad else set()
        suspects = _over_delete(store, dead_premises | heads, heads)
        if not suspects:
            return Withdrawal(0, ())
        support = _support(store, suspects)
        holding = _rederive(suspects, support, dead_premises, bad)
        lost = [
            d_id
            for d_id, (_, premises, _) in support.items()
            if d_id in bad or any(p in dead_premises or (p in suspects and p not in holding) for p in premises)
        ]
        if len(lost) <= _FEW:
            for d_id in lost:
                store.run("tms_derivation_lose_one", id=d_id)
        for start in range(0, len(lost) if len(lost) > _FEW else 0, _CHUNK):
            store.run("rules_derivations_lose", ids=lost[start : start + _CHUNK])
        gone = sorted(suspects - holding)
        withdrawn = _retract_facts(store, gone, stamp, reason or _why(dead_premises, bad))
    done = set(withdrawn)
    rules = sorted({rule for head, _, rule in support.values() if head in done})
    return Withdrawal(len(lost), tuple(withdrawn), len(suspects), tuple(rules))


def _why(removed: set[str], invalid: set[str]) -> str:
    if removed:
        first = sorted(removed)[0]
        more = f" and {len(removed) - 1} more" if len(removed) > 1 else ""
        return f"lost all support: premise {first}{more} is no longer active"
    return "lost all support: a `not` atom became false or a defeasible conclusion became blocked"


def _heads_of(store: GraphStore, derivations: set[str]) -> set[str]:
    ids = sorted(derivations)
    heads: set[str] = set()
    for start in range(0, len(ids), _CHUNK):
        heads |= {r["fact_id"] for r in store.run("tms_derivation_heads", ids=ids[start : start + _CHUNK])}
    return heads


def _over_delete(store: GraphStore, start: set[str], heads: set[str]) -> set[str]:
    """Every derived fact reachable from `start` through active derivations, plus `heads` themselves."""
    suspects = set(heads)
    frontier = sorted(start)
    while frontier:
        reached = {r["fact_id"] for r in _by_ids(store, "tms_dred_using_one", "tms_dred_using", frontier)}
        frontier = sorted(reached - suspects)
        suspects |= reached
    return suspects


def _support(store: GraphStore, facts: set[str]) -> dict[str, tuple[str, tuple[str, ...], str]]:
    """Active derivations of the suspect facts: id -> (derived fact id, premises, rule)."""
    out: dict[str, tuple[str, tuple[str, ...], str]] = {}
    for r in _by_ids(store, "tms_dred_support_one", "tms_dred_support", sorted(facts)):
        out[r["id"]] = (r["fact_id"], tuple(r["premises"]), r["rule"])
    return out


def _by_ids(store: GraphStore, one: str, many: str, ids: list[str]) -> Iterator[Row]:
    """Rows of `query` for these fact ids: one primary-key lookup each for a few, an UNWIND join for many."""
    if len(ids) <= _FEW:
        for i in ids:
            yield from store.run(one, fact_id=i)
        return
    for start in range(0, len(ids), _CHUNK):
        yield from store.run(many, ids=ids[start : start + _CHUNK])


def _rederive(
    suspects: set[str],
    support: dict[str, tuple[str, tuple[str, ...], str]],
    removed: set[str],
    invalid: set[str],
) -> set[str]:
    """The suspect facts that still hold: least fixpoint from the premises outside the suspect set."""
    waiting: dict[str, int] = {}
    users: dict[str, list[str]] = defaultdict(list)
    ready: list[str] = []
    for d_id, (head, premises, _) in support.items():
        if d_id in invalid or any(p in removed for p in premises):
            continue
        inside = {p for p in premises if p in suspects}
        waiting[d_id] = len(inside)
        for p in inside:
            users[p].append(d_id)
        if not inside:
            ready.append(head)
    holding: set[str] = set()
    while ready:
        fact = ready.pop()
        if fact in holding:
            continue
        holding.add(fact)
        for d_id in users.get(fact, ()):
            waiting[d_id] -= 1
            if waiting[d_id] == 0:
                ready.append(support[d_id][0])
    return holding


def _retract_facts(store: GraphStore, ids: list[str], stamp: datetime, reason: str) -> list[str]:
    import pyarrow as pa

    done: list[str] = []
    query = "tms_dred_facts_withdraw" if len(ids) <= _FEW else "tms_dred_facts_withdraw_many"
    for start in range(0, len(ids), _CHUNK):
        done += [r["fact_id"] for r in store.run(query, ids=ids[start : start + _CHUNK])]
    done = sorted(set(done))
    if done:
        rows = pa.table(
            {
                "fact_id": pa.array(done, pa.string()),
                "previous_status": pa.array(["active"] * len(done), pa.string()),
                "retracted_at": pa.array([stamp] * len(done), pa.timestamp("us")),
                "retracted_by": pa.array([WITHDRAWN_BY] * len(done), pa.string()),
                "reason": pa.array([reason] * len(done), pa.string()),
            }
        )
        store.run("tms_retractions_put", rows=rows)
    return done
