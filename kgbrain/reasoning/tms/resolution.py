"""Truth maintenance: resolve detected conflicts by changing statuses and confidences, never deleting.

Each conflict type has a strategy (seed 001, "Стратегии разрешения конфликтов"): a source conflict is
settled by source trust (the weaker fact becomes `disputed`), stale evidence by temporal override (the
older value becomes `outdated`), a value conflict by source trust when one source leads clearly (its rival's
source loses 0.1 trust) and otherwise waits for a person, and opposite polarity and relation conflicts are
deferred for review with both facts' confidence lowered (0.15 and 0.12). A person may override any conflict
(`resolve_by_person`), which raises that person's own source trust by 0.05. Every change is written into
the conflict record as an event with the values before and after, so each fact keeps its history.

Statuses only move towards `retracted` automatically (active < disputed < outdated < retracted), and
confidence penalties only subtract (clamped at 0), so applying a batch of resolutions gives the same
result in any order. Only a person's decision brings a fact back to `active`.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from enum import Enum
from typing import Any

from kgbrain.choices import ConflictStatus as ConflictStatus  # defined with the other choices a caller names
from kgbrain.errors import InputError, UnknownItem
from kgbrain.ingest.batch import FactColumns
from kgbrain.knowledge import Fact, Status
from kgbrain.memory.trust import clamp, get_trust, person_source, set_trust
from kgbrain.reasoning.tms.contradictions import (
    TRUST_GAP,
    ConflictType,
    Contradiction,
    PairwiseScan,
    detect_new,
    inconsistency_rule,
    pairwise_conflicts,
    scan,
)
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import facts_by_id


class Strategy(str, Enum):
    """How a conflict was (or is to be) resolved."""

    SOURCE_TRUST = "source_trust"
    TEMPORAL_OVERRIDE = "temporal_override"
    DEFERRED = "deferred"  # requires human review
    HUMAN_OVERRIDE = "human_override"
    RETRACTION = "retraction"


# Seed 001 confidence adjustments ("confidence обоих -= ...").
PENALTY: dict[ConflictType, float] = {
    ConflictType.OPPOSITE_POLARITY: 0.15,
    ConflictType.CONFLICTING_VALUE: 0.10,
    ConflictType.RELATION_CONFLICT: 0.12,
    ConflictType.INCONSISTENCY: 0.15,
}
# The weaker source of a value conflict loses this much trust (seed: "Слабый источник: trust -= 0.1").
WEAK_SOURCE_PENALTY = 0.1
# A person who overrides a conflict gains this much trust (seed: source_trust("user_input") += 0.05).
PERSON_REWARD = 0.05
# A value conflict is settled by trust only when one source leads by at least this much; a smaller lead
# is noise, and letting it disqualify a fact would be the over-eager invalidation users complain about.
MIN_TRUST_LEAD = 0.1
_RANK = {Status.ACTIVE: 0, Status.DISPUTED: 1, Status.OUTDATED: 2, Status.RETRACTED: 3}


@dataclass(frozen=True, slots=True)
class FactChange:
    """A fact's confidence and status before and after one event."""

    fact_id: str
    confidence_before: float
    confidence_after: float
    status_before: Status
    status_after: Status


@dataclass(frozen=True, slots=True)
class TrustChange:
    """A source's trust before and after one event."""

    source: str
    before: float
    after: float


@dataclass(frozen=True, slots=True)
class Event:
    """One thing done to a conflict: detection with its automatic resolution, a person's decision, a retraction."""

    strategy: Strategy
    at: datetime
    facts: tuple[FactChange, ...] = ()
    sources: tuple[TrustChange, ...] = ()
    by: str | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (stored in Conflict.adjustments)."""
        return {
            "strategy": self.strategy.value,
            "at": self.at.isoformat(),
            "by": self.by,
            "note": self.note,
            "facts": [
                {
                    "fact_id": c.fact_id,
                    "confidence_before": round(c.confidence_before, 6),
                    "confidence_after": round(c.confidence_after, 6),
                    "status_before": c.status_before.value,
                    "status_after": c.status_after.value,
                }
                for c in self.facts
            ],
            "sources": [
                {"source": t.source, "before": round(t.before, 6), "after": round(t.after, 6)} for t in self.sources
            ],
        }


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a strategy decided for one conflict."""

    strategy: Strategy
    status: ConflictStatus
    kept: str | None
    event: Event
    explanation: str


@dataclass(slots=True)
class ConflictRecord:
    """A stored conflict with its resolution history, as the API returns it."""

    id: str
    type: ConflictType
    fact_ids: list[str]
    status: ConflictStatus
    strategy: Strategy
    kept_fact: str | None
    explanation: str
    detected_at: datetime | None
    resolved_at: datetime | None
    resolved_by: str | None
    events: list[dict[str, Any]]
    facts: list[Fact] = field(default_factory=list)

    @staticmethod
    def from_row(row: Mapping[str, Any]) -> ConflictRecord:
        """Build from a row of queries/conflict_list.cypher."""
        return ConflictRecord(
            id=row["id"],
            type=ConflictType(row["type"]),
            fact_ids=list(row["fact_ids"]),
            status=ConflictStatus(row["status"]),
            strategy=Strategy(row["strategy"]),
            kept_fact=row["kept_fact"],
            explanation=row["explanation"] or "",
            detected_at=_utc(row["detected_at"]),
            resolved_at=_utc(row["resolved_at"]),
            resolved_by=row["resolved_by"],
            events=json.loads(row["adjustments"] or "[]"),
        )


@dataclass(frozen=True, slots=True)
class Shift:
    """What a status change did to the active set, which is all that rules read: facts that left it (disputed,
    outdated, retracted) and facts that came back (a person kept them; a retraction closed what held them down)."""

    lost: tuple[Fact, ...] = ()
    regained: tuple[Fact, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.lost or self.regained)

    def __or__(self, later: Shift) -> Shift:
        """This shift followed by `later`: a fact's last move counts."""
        lost = {f.fact_id: f for f in self.lost}
        regained = {f.fact_id: f for f in self.regained}
        for f in later.lost:
            if regained.pop(f.fact_id, None) is None:
                lost[f.fact_id] = f
        for f in later.regained:
            if lost.pop(f.fact_id, None) is None:
                regained[f.fact_id] = f
        return Shift(tuple(lost.values()), tuple(regained.values()))


def shift_of(events: Iterable[Mapping[str, Any]], facts: Iterable[Fact]) -> Shift:
    """The net effect of events (stored form, in order) on the active set; `facts` names the facts they change."""
    first: dict[str, bool] = {}
    last: dict[str, bool] = {}
    for event in events:
        for ch in event["facts"]:
            first.setdefault(ch["fact_id"], ch["status_before"] == Status.ACTIVE.value)
            last[ch["fact_id"]] = ch["status_after"] == Status.ACTIVE.value
    by_id = {f.fact_id: f for f in facts}
    lost = tuple(by_id[i] for i in sorted(first) if first[i] and not last[i])
    regained = tuple(by_id[i] for i in sorted(first) if last[i] and not first[i])
    return Shift(lost, regained)


def _utc(stamp: datetime | None) -> datetime | None:
    return stamp.replace(tzinfo=timezone.utc) if stamp is not None and stamp.tzinfo is None else stamp


def _naive(stamp: datetime | None) -> datetime | None:
    return stamp.astimezone(timezone.utc).replace(tzinfo=None) if stamp is not None else None


# -- describing facts -------------------------------------------------------------------------


def describe(fact: Fact) -> str:
    """`subject [NOT] predicate target` in one line."""
    return f"{fact.subject} {'' if fact.polarity else 'NOT '}{fact.predicate} {fact.target}"


def _cite(fact: Fact, trust: float) -> str:
    when = f", observed {fact.observed_at:%Y-%m-%d}" if fact.observed_at else ""
    return f"{fact.source or '?'} (trust {trust:.2f}{when})"


# -- planning (pure) --------------------------------------------------------------------------

State = dict[str, tuple[float, Status]]


def _change(state: State, fact_id: str, *, penalty: float = 0.0, status: Status | None = None) -> FactChange:
    confidence, current = state[fact_id]
    after_status = status if status is not None and _RANK[status] > _RANK[current] else current
    after = FactChange(fact_id, confidence, round(clamp(confidence - penalty), 6), current, after_status)
    state[fact_id] = (after.confidence_after, after.status_after)
    return after


def plan(c: Contradiction, state: State, trust: dict[str, float], now: datetime) -> Resolution:
    """Decide and apply (to `state` and `trust`, in memory) the automatic resolution of a new conflict.

    Args:
        c: the conflict.
        state: current (confidence, status) of every fact involved; updated in place.
        trust: current trust of the sources involved; updated in place.
        now: the time of the event.
    """
    if c.type is ConflictType.STALE_EVIDENCE:
        older, newer = sorted(c.facts, key=lambda f: (f.observed_at, f.fact_id))
        change = _change(state, older.fact_id, status=Status.OUTDATED)
        text = (
            f"{older.subject} {older.predicate}: {older.target} from {_cite(older, c.trust_of(older))}"
            f" is superseded by {newer.target} from {_cite(newer, c.trust_of(newer))};"
            " the older value is now outdated (an update, not a contradiction)."
        )
        event = Event(Strategy.TEMPORAL_OVERRIDE, now, (change,))
        return Resolution(Strategy.TEMPORAL_OVERRIDE, ConflictStatus.RESOLVED, newer.fact_id, event, text)
    if c.type is ConflictType.SOURCE_CONFLICT:
        loser, winner = sorted(c.facts, key=lambda f: (c.trust_of(f), f.fact_id))
        kind = ConflictType.OPPOSITE_POLARITY if loser.polarity != winner.polarity else ConflictType.CONFLICTING_VALUE
        change = _change(state, loser.fact_id, penalty=PENALTY[kind], status=Status.DISPUTED)
        text = (
            f"{describe(winner)} per {_cite(winner, c.trust_of(winner))} against {describe(loser)} per "
            f"{_cite(loser, c.trust_of(loser))}: trust gap {abs(c.trust_of(winner) - c.trust_of(loser)):.2f} > "
            f"{TRUST_GAP}, so the more trusted source wins and the other fact is disputed."
        )
        event = Event(Strategy.SOURCE_TRUST, now, (change,))
        return Resolution(Strategy.SOURCE_TRUST, ConflictStatus.RESOLVED, winner.fact_id, event, text)
    if c.type is ConflictType.INCONSISTENCY:
        return _inconsistent(c, state, now)
    penalty = PENALTY[c.type]
    if c.type is ConflictType.CONFLICTING_VALUE:
        loser, winner = sorted(c.facts, key=lambda f: (c.trust_of(f), f.fact_id))
        lead = round(c.trust_of(winner) - c.trust_of(loser), 9)
        what = f"{winner.subject} {winner.predicate} is functional (one value at a time)"
        values = (
            f"{winner.target} per {_cite(winner, c.trust_of(winner))} vs "
            f"{loser.target} per {_cite(loser, c.trust_of(loser))}"
        )
        if lead >= MIN_TRUST_LEAD:
            changes = [
                _change(state, winner.fact_id, penalty=penalty),
                _change(state, loser.fact_id, penalty=penalty, status=Status.DISPUTED),
            ]
            before = trust.get(loser.source, loser.trust)
            trust[loser.source] = clamp(before - WEAK_SOURCE_PENALTY)
            weak = TrustChange(loser.source, before, trust[loser.source])
            event = Event(Strategy.SOURCE_TRUST, now, tuple(sorted(changes, key=lambda x: x.fact_id)), (weak,))
            text = (
                f"{what}: {values}; both lost {penalty} confidence, the more trusted value is kept, the other is "
                f"disputed and {loser.source} loses {WEAK_SOURCE_PENALTY} trust."
            )
            return Resolution(Strategy.SOURCE_TRUST, ConflictStatus.RESOLVED, winner.fact_id, event, text)
        changes = [_change(state, i, penalty=penalty) for i in c.doubted]
        text = f"{what}: {values}; no source leads by {MIN_TRUST_LEAD}, both lost {penalty} confidence; needs review."
        return Resolution(
            Strategy.DEFERRED, ConflictStatus.OPEN, None, Event(Strategy.DEFERRED, now, tuple(changes)), text
        )
    changes = [_change(state, i, penalty=penalty) for i in c.doubted]
    if c.type is ConflictType.OPPOSITE_POLARITY:
        yes = next(f for f in c.facts if f.polarity)
        no = next(f for f in c.facts if not f.polarity)
        text = (
            f"{describe(yes)} is asserted by {_cite(yes, c.trust_of(yes))} and denied by {_cite(no, c.trust_of(no))}; "
            f"no source leads by more than {TRUST_GAP}, both lost {penalty} confidence; needs review."
        )
    elif c.concept is not None:
        axiom = next(f for f in c.facts if f.fact_id == c.axiom)
        text = (
            f"{c.concept} falls under both {axiom.subject} and {axiom.object}, which {_cite(axiom, c.trust_of(axiom))} "
            f"declares disjoint; {c.concept}'s membership links lost {penalty} confidence; needs review."
        )
    else:
        a, b = c.facts
        text = (
            f"{describe(a)} per {_cite(a, c.trust_of(a))} and {describe(b)} per {_cite(b, c.trust_of(b))} use "
            f"predicates declared opposite; both lost {penalty} confidence; needs review."
        )
    return Resolution(Strategy.DEFERRED, ConflictStatus.OPEN, None, Event(Strategy.DEFERRED, now, tuple(changes)), text)


def _inconsistent(c: Contradiction, state: State, now: datetime) -> Resolution:
    """An OWL 2 RL "false" rule fired: both facts lose confidence, none is deleted, a person decides."""
    penalty = PENALTY[c.type]
    changes = [_change(state, i, penalty=penalty) for i in c.doubted]
    denial = next(f for f in c.facts if not f.polarity)
    claim = next((f for f in c.facts if f.polarity), denial)
    rule = inconsistency_rule(denial) or denial.source
    text = (
        f"OWL 2 RL rule {rule}: {describe(claim)} per {_cite(claim, c.trust_of(claim))} makes the knowledge base "
        f"inconsistent (the rule concludes the opposite); both lost {penalty} confidence, nothing is deleted; "
        "needs review."
    )
    return Resolution(Strategy.DEFERRED, ConflictStatus.OPEN, None, Event(Strategy.DEFERRED, now, tuple(changes)), text)


# -- recording in the store -------------------------------------------------------------------


def _write_facts(
    store: GraphStore,
    changed: Mapping[str, tuple[float, Status]],
    subjects: Mapping[str, str],
    fresh: Collection[str] = (),
) -> None:
    """Write new confidences and statuses; `fresh` facts were stored by the running transaction."""
    items = sorted(changed.items())
    # Facts stored by the running transaction need the query that sees them (see its file).
    for query, group, size in (
        ("tms_facts_update", [(i, c) for i, c in items if i not in fresh], 5_000),
        ("tms_facts_update_fresh", [(i, c) for i, c in items if i in fresh], 2_000),
    ):
        for start in range(0, len(group), size):
            part = group[start : start + size]
            store.run(
                query,
                subjects=sorted({subjects[i] for i, _ in part}),
                ids=[i for i, _ in part],
                statuses=[status.value for _, (_, status) in part],
                confidences=[round(float(conf), 6) for _, (conf, _) in part],
            )


def record(
    store: GraphStore,
    found: Sequence[Contradiction],
    *,
    now: datetime | None = None,
    fresh: Collection[str] = (),
) -> list[ConflictRecord]:
    """Store conflicts not recorded before, applying each one's automatic resolution.

    Re-detecting a recorded conflict changes nothing (its key is known), so scans are idempotent.

    Returns:
        The records created, with their facts as detection found them (`shift_of` their events tells which
        the resolutions took out of the active set).

    Raises:
        StoreError: the store failed.
    """
    now = now or datetime.now(timezone.utc)
    unique = {c.key: c for c in found}
    keys = sorted(unique)
    known: set[str] = set()
    for start in range(0, len(keys), 20_000):
        known |= {r["fact_key"] for r in store.run("conflict_keys_existing", keys=keys[start : start + 20_000])}
    new = sorted((c for k, c in unique.items() if k not in known), key=lambda c: c.id)
    if not new:
        return []
    state: State = {}
    for c in new:
        for f in c.facts:
            state.setdefault(f.fact_id, (f.confidence, f.status))
    initial = dict(state)
    sources = {f.source for c in new for f in c.facts}
    trust = {s: t for s, t in get_trust(store, sources).items()}
    trust_before = dict(trust)
    records, rows = [], []
    for c in new:
        r = plan(c, state, trust, now)
        rec = ConflictRecord(
            id=c.id,
            type=c.type,
            fact_ids=list(c.fact_ids),
            status=r.status,
            strategy=r.strategy,
            kept_fact=r.kept,
            explanation=r.explanation,
            detected_at=now,
            resolved_at=now if r.status is ConflictStatus.RESOLVED else None,
            resolved_by="kgbrain" if r.status is ConflictStatus.RESOLVED else None,
            events=[r.event.to_dict()],
            facts=list(c.facts),
        )
        records.append(rec)
        rows.append(_row(rec, c.key))
    subjects = {f.fact_id: f.subject for c in new for f in c.facts}
    _write_facts(store, {i: s for i, s in state.items() if s != initial[i]}, subjects, fresh)
    set_trust(store, {s: t for s, t in trust.items() if trust_before.get(s) != t})
    for start in range(0, len(rows), 10_000):
        store.run("conflict_add", rows=rows[start : start + 10_000])
    return records


def _row(rec: ConflictRecord, key: str) -> dict[str, Any]:
    return {
        "id": rec.id,
        "type": rec.type.value,
        "fact_key": key,
        "fact_ids": rec.fact_ids,
        "status": rec.status.value,
        "strategy": rec.strategy.value,
        "kept_fact": rec.kept_fact,
        "adjustments": json.dumps(rec.events, ensure_ascii=False),
        "explanation": rec.explanation,
        "detected_at": _naive(rec.detected_at),
        "resolved_at": _naive(rec.resolved_at),
        "resolved_by": rec.resolved_by,
    }


def _update_row(rec: ConflictRecord) -> dict[str, Any]:
    return {
        "id": rec.id,
        "status": rec.status.value,
        "strategy": rec.strategy.value,
        "kept_fact": rec.kept_fact,
        "adjustments": json.dumps(rec.events, ensure_ascii=False),
        "explanation": rec.explanation,
        "resolved_at": _naive(rec.resolved_at),
        "resolved_by": rec.resolved_by,
    }


def list_conflicts(
    store: GraphStore,
    *,
    type: ConflictType | None = None,
    status: ConflictStatus | None = None,
    fact_ids: Iterable[str] | None = None,
    with_facts: bool = True,
) -> list[ConflictRecord]:
    """Stored conflicts, filtered by type, status and/or the facts involved, with those facts attached.

    Raises:
        StoreError: the store failed.
    """
    if fact_ids is not None:
        rows = store.run("conflict_of_facts", ids=sorted(set(fact_ids)))
        rows = [r for r in rows if type is None or r["type"] == type.value]
        rows = [r for r in rows if status is None or r["status"] == status.value]
    else:
        rows = store.run("conflict_list", type=type.value if type else "", status=status.value if status else "")
    records = [ConflictRecord.from_row(r) for r in rows]
    if with_facts:
        facts = facts_by_id(store, {i for rec in records for i in rec.fact_ids})
        for rec in records:
            rec.facts = [facts[i] for i in rec.fact_ids if i in facts]
    return records


def get_conflict(store: GraphStore, conflict_id: str) -> ConflictRecord:
    """One conflict by id, with its facts.

    Raises:
        InputError: no conflict has this id.
        StoreError: the store failed.
    """
    rows = store.run("conflict_get", ids=[conflict_id])
    if not rows:
        raise UnknownItem(f"Unknown conflict {conflict_id!r}; `kgbrain conflicts` lists them.")
    rec = ConflictRecord.from_row(rows[0])
    facts = facts_by_id(store, rec.fact_ids)
    rec.facts = [facts[i] for i in rec.fact_ids if i in facts]
    return rec


def already_decided(rec: ConflictRecord, keep: str, by: str) -> bool:
    """Whether the same person's same decision is what the conflict already holds (the kept fact active, its rivals
    not): doing it again must change nothing, not raise that person's trust a second time (a `resolve` re-run
    after the first was killed once its write had landed)."""
    facts = {f.fact_id: f for f in rec.facts}
    return (
        rec.status is ConflictStatus.RESOLVED
        and rec.strategy is Strategy.HUMAN_OVERRIDE
        and rec.kept_fact == keep
        and rec.resolved_by == by.strip()
        and keep in facts
        and facts[keep].status is Status.ACTIVE
        and not any(f.status is Status.ACTIVE for i, f in facts.items() if i != keep)
    )


def resolve_by_person(
    store: GraphStore, conflict_id: str, keep: str, by: str, *, now: datetime | None = None
) -> ConflictRecord:
    """Record a person's decision: keep one fact (active again, its confidence before this conflict restored),
    dispute the others, and raise the person's source trust.

    Raises:
        InputError: unknown conflict, `keep` is not one of its facts, or it was retracted.
        StoreError: the store failed.
    """
    now = now or datetime.now(timezone.utc)
    with store.transaction():
        rec = get_conflict(store, conflict_id)
        if keep not in rec.fact_ids:
            facts_list = ", ".join(rec.fact_ids)
            raise InputError(f"Fact {keep!r} is not part of conflict {conflict_id!r}; its facts are {facts_list}.")
        if not by.strip():
            raise InputError("--by needs a person's name")
        facts = {f.fact_id: f for f in rec.facts}
        if facts[keep].status is Status.RETRACTED:
            raise InputError(f"Fact {keep!r} was retracted; a retraction is final, keep another fact.")
        # The confidence the kept fact had before this conflict first touched it.
        earliest: dict[str, float] = {}
        for past in rec.events:
            for ch in past["facts"]:
                earliest.setdefault(ch["fact_id"], ch["confidence_before"])
        changes = []
        kept = facts[keep]
        restored = max(kept.confidence, earliest.get(keep, kept.confidence))
        changes.append(FactChange(keep, kept.confidence, restored, kept.status, Status.ACTIVE))
        # The rivals of the kept fact: the other fact of a pair, or the facts detection cast doubt on (for a
        # disjointness violation, the concept's membership links, not the whole hierarchy above it).
        rivals = set(rec.fact_ids) if len(rec.fact_ids) == 2 else {ch["fact_id"] for ch in rec.events[0]["facts"]}
        for fid in sorted(rivals - {keep}):
            f = facts[fid]
            if f.status is Status.ACTIVE:
                changes.append(FactChange(fid, f.confidence, f.confidence, f.status, Status.DISPUTED))
        person = person_source(by.strip())
        before = get_trust(store, [person]).get(person, 0.5)
        after = clamp(before + PERSON_REWARD)
        set_trust(store, {person: after})
        after_changes = {ch.fact_id: (ch.confidence_after, ch.status_after) for ch in changes}
        _write_facts(store, after_changes, {i: f.subject for i, f in facts.items()})
        event = Event(
            Strategy.HUMAN_OVERRIDE, now, tuple(changes), (TrustChange(person, before, after),), by=by.strip()
        )
        rec.status, rec.strategy, rec.kept_fact = ConflictStatus.RESOLVED, Strategy.HUMAN_OVERRIDE, keep
        rec.resolved_at, rec.resolved_by = now, by.strip()
        rec.events.append(event.to_dict())
        rec.explanation += f" Resolved by {by.strip()}: kept {describe(kept)} ({kept.source})."
        store.run("conflict_update", rows=[_update_row(rec)])
    return get_conflict(store, conflict_id)


@dataclass(frozen=True, slots=True)
class RetractResult:
    """A retracted fact, the open conflicts the retraction closed, and what it did to the active set (the fact
    itself, when it was active, and rivals those conflicts held down)."""

    fact: Fact
    previous_status: Status
    closed: tuple[str, ...]
    shift: Shift = Shift()


def _imposed(rec: ConflictRecord, fact_id: str) -> Status | None:
    """The status a conflict's resolution holds a fact at (None when it decided nothing about it)."""
    if rec.kept_fact is None or fact_id == rec.kept_fact:
        return None
    if rec.strategy not in (Strategy.SOURCE_TRUST, Strategy.TEMPORAL_OVERRIDE, Strategy.HUMAN_OVERRIDE):
        return None
    # A pair's other fact, or (a disjointness violation) the facts detection cast doubt on.
    if len(rec.fact_ids) > 2 and fact_id not in {ch["fact_id"] for ch in rec.events[0]["facts"]}:
        return None
    return Status.OUTDATED if rec.strategy is Strategy.TEMPORAL_OVERRIDE else Status.DISPUTED


def retract(
    store: GraphStore, fact_id: str, *, by: str | None = None, reason: str | None = None, now: datetime | None = None
) -> RetractResult:
    """Mark a fact retracted (it stays, with its history) and close every conflict it took part in.

    What those conflicts did to the other facts is undone (dependency-directed, as in a JTMS): a fact
    disputed only because a now-retracted fact outranked it is active again, and confidence lost to the
    conflict comes back. A status that another conflict still in force imposes stays.

    Raises:
        InputError: no fact has this id, or it is retracted already.
        StoreError: the store failed.
    """
    now = now or datetime.now(timezone.utc)
    with store.transaction():
        fact = _retractable(store, fact_id)
        store.run(
            "tms_retraction_add",
            fact_id=fact_id,
            previous_status=fact.status.value,
            retracted_at=_naive(now),
            retracted_by=by,
            reason=reason,
        )
        closing = [r for r in list_conflicts(store, fact_ids=[fact_id]) if r.strategy is not Strategy.RETRACTION]
        others = {i for r in closing for i in r.fact_ids} - {fact_id}
        staying = [
            r
            for r in list_conflicts(store, fact_ids=sorted(others), with_facts=False)
            if r.strategy is not Strategy.RETRACTION and fact_id not in r.fact_ids
        ]
        state: State = {f.fact_id: (f.confidence, f.status) for r in closing for f in r.facts}
        subjects = {f.fact_id: f.subject for r in closing for f in r.facts}
        subjects[fact_id] = fact.subject
        state[fact_id] = (fact.confidence, fact.status)
        initial = dict(state)
        gone = FactChange(fact_id, fact.confidence, fact.confidence, fact.status, Status.RETRACTED)
        state[fact_id] = (fact.confidence, Status.RETRACTED)
        for rec in closing:
            changes = [gone, *_undo(rec, fact_id, state, staying)]
            _close_by_retraction(rec, fact_id, changes, now=now, by=by, reason=reason)
        closed = [rec.id for rec in closing]
        _write_facts(store, {i: v for i, v in state.items() if v != initial[i]}, subjects)
        if closed:
            store.run("conflict_update", rows=[_update_row(r) for r in closing])
        known = {f.fact_id: f for r in closing for f in r.facts} | {fact_id: fact}
        shift = _shift_between(initial, state, known)
    return RetractResult(facts_by_id(store, [fact_id])[fact_id], fact.status, tuple(closed), shift)


def _retractable(store: GraphStore, fact_id: str) -> Fact:
    """The fact to retract.

    Raises:
        InputError: no fact has this id, or it is retracted already.
    """
    fact = facts_by_id(store, [fact_id]).get(fact_id)
    if fact is None:
        raise UnknownItem(f"Unknown fact {fact_id!r}; `kgbrain facts CONCEPT` shows fact ids.")
    if fact.status is Status.RETRACTED:
        raise InputError(f"Fact {fact_id!r} is retracted already.")
    return fact


def _undo(rec: ConflictRecord, fact_id: str, state: State, staying: Sequence[ConflictRecord]) -> list[FactChange]:
    """Undo what conflict `rec` did to its facts other than the retracted `fact_id` (updating `state`): the
    confidence it took comes back, and a status it imposed goes unless a conflict still in force (`staying`)
    imposes one too."""
    changes = []
    for other in (i for i in rec.fact_ids if i != fact_id):
        confidence, status = state[other]
        lost = sum(
            ch["confidence_before"] - ch["confidence_after"]
            for e in rec.events
            for ch in e["facts"]
            if ch["fact_id"] == other
        )
        after_status = status
        if _imposed(rec, other) is not None and status is not Status.RETRACTED:
            held = [s for s in (_imposed(r, other) for r in staying if other in r.fact_ids) if s is not None]
            after_status = max(held, key=_RANK.__getitem__, default=Status.ACTIVE)
        after = (round(clamp(confidence + lost), 6), after_status)
        if after != (confidence, status):
            changes.append(FactChange(other, confidence, after[0], status, after_status))
            state[other] = after
    return changes


def _close_by_retraction(
    rec: ConflictRecord,
    fact_id: str,
    changes: Sequence[FactChange],
    *,
    now: datetime,
    by: str | None,
    reason: str | None,
) -> None:
    """Mark `rec` resolved by the retraction of `fact_id`, with the event of its `changes`."""
    rec.status, rec.strategy = ConflictStatus.RESOLVED, Strategy.RETRACTION
    remaining = [i for i in rec.fact_ids if i != fact_id]
    rec.kept_fact = remaining[0] if len(remaining) == 1 else None
    rec.resolved_at, rec.resolved_by = now, by
    rec.events.append(Event(Strategy.RETRACTION, now, tuple(changes), by=by, note=reason or "").to_dict())
    rec.explanation += f" {fact_id} was retracted{' by ' + by if by else ''}; what this conflict changed is undone."


def _shift_between(initial: State, state: State, known: Mapping[str, Fact]) -> Shift:
    """The facts that left the active set and came back to it between two states of the same facts."""
    active = {i: s is Status.ACTIVE for i, (_, s) in state.items()}
    was = {i: s is Status.ACTIVE for i, (_, s) in initial.items()}
    return Shift(
        tuple(known[i] for i in sorted(state) if was[i] and not active[i]),
        tuple(known[i] for i in sorted(state) if active[i] and not was[i]),
    )


def retract_many(
    store: GraphStore,
    fact_ids: Sequence[str],
    *,
    by: str | None = None,
    reason: str | None = None,
    now: datetime | None = None,
) -> list[RetractResult]:
    """`retract` for many facts in one transaction: all of them or none.

    Facts in no conflict (nearly all) are retracted with a few set-wise statements (one fact lookup for all);
    the others go through `retract` one by one, which undoes what their conflicts did.

    Raises:
        InputError: an unknown fact, a fact retracted already, or one named twice.
        StoreError: the store failed.
    """
    now = now or datetime.now(timezone.utc)
    ids = list(fact_ids)
    if len(set(ids)) != len(ids):
        raise InputError("a fact is named twice in one retraction")
    with store.transaction():
        facts = facts_by_id(store, ids)
        for i in ids:
            if i not in facts:
                raise UnknownItem(f"Unknown fact {i!r}; `kgbrain facts CONCEPT` shows fact ids.")
            if facts[i].status is Status.RETRACTED:
                raise InputError(f"Fact {i!r} is retracted already.")
        involved = {i for r in list_conflicts(store, fact_ids=ids, with_facts=False) for i in r.fact_ids}
        plain = [i for i in ids if i not in involved]
        results: dict[str, RetractResult] = {}
        if plain:
            import pyarrow as pa

            rows = pa.table(
                {
                    "fact_id": pa.array(plain, pa.string()),
                    "previous_status": pa.array([facts[i].status.value for i in plain], pa.string()),
                    "retracted_at": pa.array([_naive(now)] * len(plain), pa.timestamp("us")),
                    "retracted_by": pa.array([by] * len(plain), pa.string()),
                    "reason": pa.array([reason] * len(plain), pa.string()),
                }
            )
            store.run("tms_retractions_put", rows=rows)
            _write_facts(
                store,
                {i: (facts[i].confidence, Status.RETRACTED) for i in plain},
                {i: facts[i].subject for i in plain},
            )
            for i in plain:
                gone = replace(facts[i], status=Status.RETRACTED)
                lost = (facts[i],) if facts[i].status is Status.ACTIVE else ()
                results[i] = RetractResult(gone, facts[i].status, (), Shift(lost))
        for i in ids:
            if i in involved:
                results[i] = retract(store, i, by=by, reason=reason, now=now)
    return [results[i] for i in ids]


@dataclass(frozen=True, slots=True)
class ScanResult:
    """A full scan: how many conflicts exist, and the records it created (the rest were known)."""

    found: int
    recorded: list[ConflictRecord]


def scan_and_record(
    store: GraphStore, *, now: datetime | None = None, pairwise: PairwiseScan = pairwise_conflicts
) -> ScanResult:
    """Scan the whole knowledge base and record the conflicts not recorded before, in one transaction
    (`pairwise`: where the pairs are compared, see `contradictions.scan`).

    Raises:
        StoreError: the store failed.
    """
    with store.transaction():
        found = scan(store, pairwise)
        return ScanResult(len(found), record(store, found, now=now))


def record_on_load(
    store: GraphStore, added: Sequence[Fact], *, only_new: bool = False, new_concepts: Collection[str] = ()
) -> list[ConflictRecord]:
    """The load hook: detect conflicts between the facts a load added and the rest, and record them.

    `only_new` says the store held no fact before this load, so the new facts need comparing only among
    themselves (a first bulk load then costs no store round trips for candidates); `new_concepts` are the
    concepts the load created (see `detect_new`).

    Raises:
        StoreError: the store failed.
    """
    found = detect_new(store, added, only_new=only_new, new_concepts=new_concepts)
    involved = sorted({i for c in found for i in c.fact_ids})
    if isinstance(added, FactColumns):  # a million new ids need no Python set: only those of the conflicts
        import pyarrow as pa
        import pyarrow.compute as pc

        ids = added.arrow("fact_id")
        wanted = pc.is_in(ids, value_set=pa.array(involved, pa.string()))
        fresh = set(ids.filter(wanted).to_pylist()) if involved else set()
    else:
        fresh = {f.fact_id for f in added}
    return record(store, found, fresh=fresh)
