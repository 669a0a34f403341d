"""Truth maintenance for every write: each write is one atomic unit, in the order Kùzu needs, with a frozen report.

The writes are: a load of a facts file or ontology (a parsed `LoadBatch`), a load of a rules file, a retraction
(of one fact or of several at once), a person's decision on a conflict, and a scan for conflicts. Each runs
inside `store.atomic()`, so a kill at any moment leaves all of it or none of it, and goes through the same steps:

1. the change itself, in a transaction: the file's rows (and the rules an ontology states), or the statuses;
2. the load hooks on what a load added, in that transaction (contradiction detection first: its automatic
   resolutions take facts out of the active set, and each hook returns the facts it took);
3. the stored rules on the new or regained facts (each round commits; see reasoning/rules/cypher_engine.py), the hooks
   seeing what they derive as a load of its own;
4. the withdrawal (DRed, withdraw.py) of what rested on facts that left the active set: for a status change in
   the change's transaction, for a load after its commit (Kùzu 0.11.3 misreads relationships appended earlier in
   the same transaction);
5. settling `not` atoms and defeasible conclusions over every change key (settle.py).

The owner (Brain) passes in what it needs called: `hooks` gives the load hooks, read at each write so that hooks
added later (the reasoner's, on its first use) take part; `statuses_changed` runs after a status write commits,
so caches built from the old statuses go.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import timezone
from functools import reduce
from pathlib import Path
from typing import Generic, TypeVar

import pyarrow.compute as pc

from kgbrain.ingest.batch import LoadBatch, check_text
from kgbrain.ingest.loader import LoadReport, load_batch
from kgbrain.knowledge import Fact
from kgbrain.reasoning.rules.equality import equality_for_load
from kgbrain.reasoning.rules.rulebase import load_rules_file, run_on_new_facts, save_program
from kgbrain.reasoning.tms import resolution as truth
from kgbrain.reasoning.tms.contradictions import PairwiseScan, pairwise_conflicts
from kgbrain.reasoning.tms.follow import change_keys, derive_regained, withdraw_lost
from kgbrain.reasoning.tms.settle import EVERYTHING, column_keys, settle_stored
from kgbrain.reasoning.tms.withdraw import Withdrawal
from kgbrain.ruleset import Atom, Program, Rule
from kgbrain.store.protocol import GraphStore

# Run after a load's facts are stored, inside its transaction (so a failing hook loses the file); returns the facts
# it took out of the active set (a conflict's automatic resolution disputed or outdated them), or None.
LoadHook = Callable[[LoadReport], Iterable[Fact] | None]
T = TypeVar("T")
# About 1 KB per row is written (data pages and their log); measured 700 bytes a fact on a 300k-fact load.
BYTES_PER_ROW = 1024


@dataclass(frozen=True, slots=True)
class _Change(Generic[T]):
    """What a status change did: its result, its shift of the active set, the facts whose support goes (ids),
    and facts that moved without being in the shift (a retracted fact); `moved` is False when nothing changed."""

    result: T
    shift: truth.Shift = field(default_factory=truth.Shift)
    lost: tuple[str, ...] = ()
    also: tuple[Fact, ...] = ()
    moved: bool = True


class Maintenance:
    """Runs every write to one store with its truth maintenance, each write all or nothing."""

    def __init__(
        self, store: GraphStore, *, hooks: Callable[[], Iterable[LoadHook]], statuses_changed: Callable[[], None]
    ) -> None:
        self.store = store
        self._load_hooks = hooks
        self._statuses_changed = statuses_changed

    # -- loads ---------------------------------------------------------------------------------

    def load(self, batch: LoadBatch) -> LoadReport:
        """Store a parsed facts file or ontology, run the rules on it and settle what it changed.

        Raises:
            InputError: the batch has bad text (nothing of it is loaded).
            StoreError: the store failed (everything of the batch was rolled back).
        """
        check_text(batch)
        if batch.empty:  # nothing to load: not even the file's source is recorded
            return LoadReport(batch.file, batch.rows_read, skipped=dict(batch.skipped), extra=dict(batch.extra))
        expected = BYTES_PER_ROW * (len(batch.facts) + len(batch.annotations) + len(batch.declarations))
        with self.store.atomic(expected_bytes=expected):
            with self.store.transaction():
                report = load_batch(self.store, batch)
                report, new_rules = _save_rules(self.store, batch, report)
                report = self._hooks(report)
            # Stored rules run on the new facts after they are committed (each round commits), then the hooks see
            # the derived facts as a load of their own; a kill during a round leaves the knowledge base as it was.
            report, derived = _run_rules(self.store, report, new_rules)
            if derived is not None:
                with self.store.transaction():
                    derived = self._hooks(derived)
            # Stored facts the conflict hooks disputed or outdated take what was derived from them along (after
            # the load's commit: Kùzu 0.11.3 misreads relationships appended earlier in the same transaction).
            gone = self._withdraw(report, derived)
            _settle_after_load(self.store, report, derived, gone)
        return report

    def load_rules(self, path: Path) -> LoadReport:
        """Store a rules file and what its rules derive, and settle it: all of it or none.

        Raises:
            InputError: the file has a bad rule (nothing of it is stored).
            StoreError: the store failed.
        """
        with self.store.atomic():
            rules = load_rules_file(self.store, path)
            extra = {"rules_added": rules.rules_added, "superiority_added": rules.superiority_added}
            extra |= {"derived": rules.run.derived, "derivations": rules.run.derivations}
            report = LoadReport(
                str(path), rows_read=rules.rules_read, facts_added=rules.run.derived, extra=extra, added=rules.run.added
            )
            if rules.rules_added or rules.superiority_added:
                settle_stored(self.store, {EVERYTHING})
            with self.store.transaction():
                report = self._hooks(report)
            if report.deactivated:  # conclusions a conflict resolution disputed: what rests on them goes
                _settle_after_load(self.store, report, None, self._withdraw(report))
        return report

    # -- status changes ------------------------------------------------------------------------

    def retract(self, fact_id: str, *, by: str | None, reason: str | None) -> truth.RetractResult:
        """Retract a fact, with what loses all support with it, what the rivals it brings back imply, and what
        that settles.

        Raises:
            InputError: unknown fact, or retracted already.
            StoreError: the store failed.
        """

        def step() -> _Change[truth.RetractResult]:
            result = truth.retract(self.store, fact_id, by=by, reason=reason)
            return _Change(result, result.shift, (fact_id, *_ids(result.shift.lost)), (result.fact,))

        return self._status_write(step)

    def retract_many(self, fact_ids: Sequence[str], *, by: str | None, reason: str | None) -> list[truth.RetractResult]:
        """Retract several facts at once, with one truth-maintenance pass for all of them.

        Raises:
            InputError: an unknown fact, or one retracted already (then nothing is retracted).
            StoreError: the store failed.
        """

        def step() -> _Change[list[truth.RetractResult]]:
            results = truth.retract_many(self.store, list(dict.fromkeys(fact_ids)), by=by, reason=reason)
            shift = reduce(truth.Shift.__or__, (r.shift for r in results), truth.Shift())
            ids = (*(r.fact.fact_id for r in results), *_ids(shift.lost))
            return _Change(results, shift, ids, tuple(r.fact for r in results))

        return self._status_write(step)

    def resolve(self, conflict_id: str, *, keep: str, by: str) -> truth.ConflictRecord:
        """Record a person's decision on a conflict, with what the rules derived from the facts it disputes
        (withdrawn) and from the fact it keeps (derived again), and what that settles.

        Raises:
            InputError: unknown conflict, or `keep` is not one of its facts.
            StoreError: the store failed.
        """

        def step() -> _Change[truth.ConflictRecord]:
            current = truth.get_conflict(self.store, conflict_id)
            if truth.already_decided(current, keep, by):
                return _Change(current, moved=False)
            record = truth.resolve_by_person(self.store, conflict_id, keep, by)
            shift = truth.shift_of(record.events[-1:], record.facts)
            return _Change(record, shift, _ids(shift.lost))

        return self._status_write(step)

    def scan(self, pairwise: PairwiseScan | None = None) -> truth.ScanResult:
        """Detect conflicts over the whole knowledge base and record the new ones, with what their resolutions
        take from the rules' conclusions (`pairwise`: where pairs are compared; None: here).

        Raises:
            StoreError: the store failed.
        """

        def step() -> _Change[truth.ScanResult]:
            result = truth.scan_and_record(self.store, pairwise=pairwise or pairwise_conflicts)
            events = (e for r in result.recorded for e in r.events)
            shift = truth.shift_of(events, (f for r in result.recorded for f in r.facts))
            return _Change(result, shift, _ids(shift.lost))

        return self._status_write(step)

    # -- the steps -----------------------------------------------------------------------------

    def _status_write(self, step: Callable[[], _Change[T]]) -> T:
        """Run a status change and its withdrawal in one transaction, then the rest of truth maintenance: all of
        it or none."""
        with self.store.atomic():
            with self.store.transaction():
                change = step()
                if not change.moved:
                    return change.result
                gone = withdraw_lost(self.store, change.lost)
            self._follow(change.shift, gone, change.also)
        self._statuses_changed()
        return change.result

    def _follow(self, shift: truth.Shift, gone: Withdrawal, also: Sequence[Fact] = ()) -> None:
        """The rest of truth maintenance after a committed status change and its DRed withdrawal `gone`.

        Facts back in the active set run the rules; what they derive goes through the load hooks as a load's
        derived facts do (contradiction detection may dispute some, and what rests on those is withdrawn in
        turn); then `not` and defeasible conclusions are settled over every fact that moved (and `also`).
        Call it inside `atomic`, outside a transaction.
        """
        run = derive_regained(self.store, shift.regained)
        keys = change_keys([*shift.lost, *shift.regained, *also], run)
        rules = set(gone.rules)
        if run is not None:
            derived = LoadReport(file="kgbrain:rules", facts_added=run.derived, added=run.added)
            with self.store.transaction():
                derived = self._hooks(derived)
            if derived.deactivated:
                with self.store.transaction():
                    rules |= set(withdraw_lost(self.store, _ids(derived.deactivated)).rules)
                keys |= change_keys(derived.deactivated)
        settle_stored(self.store, keys, rules)

    def _hooks(self, report: LoadReport) -> LoadReport:
        """Run the load hooks in order (each sees what those before it deactivated); the report with all of it."""
        for hook in self._load_hooks():
            lost = hook(report)
            if lost:
                report = replace(report, deactivated=(*report.deactivated, *lost))
        return report

    def _withdraw(self, *reports: LoadReport | None) -> Withdrawal | None:
        """Withdraw (in a transaction of its own) what rested on facts the load hooks took out of the active set."""
        lost = [f.fact_id for r in reports if r is not None for f in r.deactivated]
        if not lost:
            return None
        with self.store.transaction():
            return withdraw_lost(self.store, lost)


def detect_conflicts(store: GraphStore, report: LoadReport) -> tuple[Fact, ...]:
    """The contradiction load hook: record the conflicts a load's facts bring (new facts against the stored ones);
    the facts their automatic resolutions took out of the active set."""
    records = truth.record_on_load(store, report.added, only_new=report.first_facts, new_concepts=report.new_concepts)
    if not records:
        return ()
    return truth.shift_of((e for r in records for e in r.events), (f for r in records for f in r.facts)).lost


def _ids(facts: Iterable[Fact]) -> tuple[str, ...]:
    return tuple(f.fact_id for f in facts)


def _save_rules(store: GraphStore, batch: LoadBatch, report: LoadReport) -> tuple[LoadReport, list[str]]:
    """Store the rules a file states (an ontology's OWL 2 RL axioms) in the load's transaction.

    Returns the report (counting them) and the new rules that can fire on what is stored now; the others
    (thousands of DBpedia's `prp-dom`, say) wait, as every stored rule does, for a load that brings facts of
    their predicates.
    """
    rules = [*batch.rules, *equality_for_load(store, batch.rules, set(batch.facts.column("predicate")))]
    if not rules and not batch.superiority:
        return report, []
    _, new, _ = save_program(store, Program(tuple(rules), tuple(batch.superiority)))
    report = replace(report, extra={**report.extra, "rules_added": len(new)})
    if not new:
        return report, []
    present = {r["predicate"] for r in store.run("fact_counts") if r["active"]}
    fresh = set(new)
    return report, [r.id for r in rules if r.id in fresh and _may_match(r, present)]


def _may_match(rule: Rule, predicates: set[str]) -> bool:
    """Whether every positive body atom of `rule` has a stored fact of its predicate to match."""
    for atom in rule.body:
        if isinstance(atom, Atom) and not atom.naf:
            wanted = {"instance_of", "is_a"} if atom.unary else {atom.predicate}
            if not wanted & predicates:
                return False
    return True


def _run_rules(
    store: GraphStore, report: LoadReport, new_rules: Sequence[str] = ()
) -> tuple[LoadReport, LoadReport | None]:
    """Run the stored rules on a load's new facts (new rules on every fact): the load's report (counting what
    they derived) and the derived facts' report, or None."""
    if (not len(report.added) and not new_rules) or report.loaded_at is None:
        return report, None
    earliest = pc.min(report.added.arrow("loaded_at")).as_py()  # an aware UTC datetime, or None
    stamps = [earliest.astimezone(timezone.utc).replace(tzinfo=None)] if earliest is not None else []
    predicates = report.added.distinct("predicate")
    run = run_on_new_facts(store, min([report.loaded_at, *stamps]), new_rules, predicates)
    if not run.derived:
        return report, None
    report = replace(report, extra={**report.extra, "derived": report.extra.get("derived", 0) + run.derived})
    return report, LoadReport(file="kgbrain:rules", facts_added=run.derived, added=run.added)


def _settle_after_load(
    store: GraphStore, report: LoadReport, derived: LoadReport | None, gone: Withdrawal | None = None
) -> None:
    """New facts can make `not` atoms false and block defeasible conclusions, and so can the facts the load's
    conflicts disputed and the conclusions withdrawn with them (`gone`)."""
    keys = column_keys(report.added) | change_keys(report.deactivated)
    if derived is not None:
        keys |= column_keys(derived.added) | change_keys(derived.deactivated)
        if derived.facts_added != len(derived.added):  # revived facts: their predicates are not reported
            keys.add(EVERYTHING)
    settle_stored(store, keys, gone.rules if gone is not None else ())
