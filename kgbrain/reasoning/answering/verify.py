"""Batch fact verification: claims in, verdicts out, in input order, on one process or several.

The semantics are the reasoner's (`Brain.check_many`, the same code `ask` uses): this module only maps a
`Check` to the verdict vocabulary of the verdicts contract (DESIGN.md) and runs batches. A verdict is gathered,
then decided (views/lookups.py): gathering builds the reasoner's views and links the names; deciding
(`Reasoner.decide`, then `verdict_from_check` and the stored conflict notes) reads those views and the named
lookups of `DECISION_QUERIES` only, so another engine (kgbrain/scale) runs this same code per partition. Open world by
default: what cannot be proved is NOT_ENOUGH_INFO; under the closed-world assumption (Reiter, "On Closed
World Data Bases", 1978) it is REFUTED. A conclusion weaker than `min_confidence` is not a verdict either
way and is reported as NOT_ENOUGH_INFO with its proof.

A row that cannot be verified (unreadable, a sentence no template reads, a bad predicate) becomes an ERROR
verdict in its place; only a failing store stops a run.

Parallel runs use worker processes that each open the knowledge base read-only; Kùzu lets readers share a
file only while no process holds it read-write, so the caller's own handle must be read-only too.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from multiprocessing.pool import AsyncResult, Pool
from multiprocessing.util import Finalize
from typing import Any, Protocol, TypeVar, cast

from kgbrain.choices import VerdictKind as VerdictKind  # defined with the other choices a caller names
from kgbrain.errors import InputError, UnknownConcept
from kgbrain.ingest.claims import Claim, ClaimError, ClaimLine, ClaimRow, claim_from_line
from kgbrain.reasoning.nlu.sentences import parse_claim_sentence, parse_verb_sentence
from kgbrain.reasoning.results import Check, Mode, Outcome, Step
from kgbrain.store.protocol import GraphStore

# RULE cwa.not-provable: under the closed-world assumption what the knowledge base cannot prove is false.
CLOSED_WORLD_RULE = "cwa.not-provable"
# The confidence of a closed-world refutation: the assumption itself, not evidence, decides it.
CLOSED_WORLD_CONFIDENCE = 1.0
DEFAULT_BATCH_SIZE = 256
# The reasoner's context step for outdated, disputed and retracted facts it showed but did not use.
INACTIVE_RULE = "ctx.inactive-fact"


_BY_OUTCOME = {
    Outcome.SUPPORTED: VerdictKind.SUPPORTED,
    Outcome.REFUTED: VerdictKind.REFUTED,
    Outcome.CONFLICTING: VerdictKind.CONFLICTING,
    Outcome.UNKNOWN: VerdictKind.NOT_ENOUGH_INFO,
}


@dataclass(frozen=True, slots=True)
class ConflictNote:
    """A stored conflict record touching the evidence of a verdict (see `Brain.conflicts`)."""

    id: str
    type: str = ""
    status: str = ""
    resolution: str = ""  # the strategy applied or pending: source_trust, temporal_override, deferred, ...
    facts: tuple[str, ...] = ()
    kept: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """The verdict on one claim, with its proof; `subject`/`predicate`/`object` are the claim as checked."""

    id: str
    verdict: VerdictKind
    confidence: float
    reasoning_type: str | None = None  # the reasoning mode that decided it (trace.Mode value)
    proof: tuple[Step, ...] = ()
    conflicts: tuple[ConflictNote, ...] = ()  # stored conflict records touching the evidence
    explanation: str = ""
    error: str | None = None  # only on ERROR
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    polarity: bool = True
    line: int = 0
    intervals: tuple[tuple[str, str], ...] = ()  # of the proof's facts that state one (as of a time)


@dataclass(frozen=True, slots=True)
class VerifyOptions:
    """How claims are judged."""

    closed_world: bool = False
    min_confidence: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 <= self.min_confidence <= 1.0:
            raise InputError(f"--min-confidence {self.min_confidence!r} is outside 0..1")


R = TypeVar("R")
# One claim as the reasoner takes it: subject, predicate, object (names or ids), claimed polarity.
Statement = tuple[str, str, str, bool]


class Checker(Protocol):
    """What verification needs from the reasoner (Brain implements it)."""

    def check_many(self, statements: Sequence[Statement]) -> list[Check]:
        """Check statements in one batch, one Check each, in order."""
        ...

    def check(self, subject: str, predicate: str, object: str, polarity: bool = True) -> Check:
        """Check one statement."""
        ...

    def conflict_notes(self) -> Sequence[ConflictNote]:
        """Every stored conflict record, as a verdict reports it (see `stored_conflict_notes`)."""
        ...

    def close(self) -> None:
        """Release the knowledge base."""
        ...


class SharingChecker(Checker, Protocol):
    """A checker whose read-only views a forked worker's own checker can adopt."""

    def warm(self) -> None:
        """Build every view verification reads."""
        ...

    def adopt(self, other: Any) -> None:
        """Use `other`'s views (same data) instead of building its own."""
        ...

    def persist_views(self) -> None:
        """Save the views a new process opens (unless they are saved for the data as it is)."""
        ...


def error_verdict(claim_id: str, message: str, line: int = 0) -> Verdict:
    """The ERROR verdict standing in for a row that could not be verified."""
    return Verdict(claim_id, VerdictKind.ERROR, 0.0, error=message, line=line)


def verdict_from_check(claim: Claim, check: Check, options: VerifyOptions) -> Verdict:
    """Map the reasoner's conclusion on a claim to a verdict (open/closed world, confidence floor)."""
    kind = _BY_OUTCOME[check.outcome]
    proof = check.trace.steps
    confidence = check.confidence
    explanation = check.explanation
    for step in proof:
        if step.rule == INACTIVE_RULE:
            # An outdated (or disputed, retracted) statement is reported as such, not silently dropped.
            status = step.note.split(" ", 1)[0] or "inactive"
            explanation = _join(explanation, f"{step.conclusion} is {status} ({', '.join(step.facts)}), not used")
    if kind in (VerdictKind.SUPPORTED, VerdictKind.REFUTED) and confidence < options.min_confidence:
        floor = f"confidence {confidence:.2f} is below the required {options.min_confidence:.2f}"
        explanation = _join(explanation, floor)
        kind = VerdictKind.NOT_ENOUGH_INFO
    elif kind is VerdictKind.NOT_ENOUGH_INFO and options.closed_world:
        statement = _statement(check.subject, check.predicate, check.object, check.polarity)
        proof = (
            *proof,
            Step(CLOSED_WORLD_RULE, f"NOT ({statement})", confidence=CLOSED_WORLD_CONFIDENCE, note="closed world"),
        )
        explanation = _join(explanation, "not provable from the knowledge base, so false under the closed world")
        kind, confidence = VerdictKind.REFUTED, CLOSED_WORLD_CONFIDENCE
    return Verdict(
        id=claim.id,
        verdict=kind,
        confidence=confidence,
        reasoning_type=check.mode.value,
        proof=proof,
        conflicts=tuple(ConflictNote(c) for c in check.conflicts),
        explanation=explanation,
        subject=check.subject,
        predicate=check.predicate,
        object=check.object,
        polarity=check.polarity,
        line=claim.line,
        intervals=check.intervals,
    )


def unknown_concept_verdict(claim: Claim, statement: Statement, exc: UnknownConcept, options: VerifyOptions) -> Verdict:
    """A claim about a concept the knowledge base does not have: nothing can be proved about it."""
    subject, predicate, obj, polarity = statement
    check = Check(subject, predicate, obj, polarity, Outcome.UNKNOWN, 0.0, Mode.DIRECT, explanation=str(exc))
    return verdict_from_check(claim, check, options)


def stored_conflict_notes(store: GraphStore) -> list[ConflictNote]:
    """Every stored conflict record with the fields a verdict reports, newest first.

    The same rows `truth.list_conflicts` reads (queries/conflict_list.cypher), without the facts it attaches
    and without importing the truth-maintenance modules (and pyarrow with them) into a verification process.

    Raises:
        StoreError: the store failed.
    """
    return [
        ConflictNote(r["id"], r["type"], r["status"], r["strategy"], tuple(r["fact_ids"]), r["kept_fact"])
        for r in store.run("conflict_list", type="", status="")
    ]


class Verifier:
    """Verifies claims in batches against one checker (a Brain), in order."""

    def __init__(
        self, checker: Checker, options: VerifyOptions | None = None, notes: Sequence[ConflictNote] | None = None
    ) -> None:
        """Wrap a checker; `options` default to open world with no confidence floor; `notes` are the stored
        conflict records when the caller has read them already (by default the checker is asked, once)."""
        self.checker = checker
        self.options = options or VerifyOptions()
        self._by_fact: dict[str, list[ConflictNote]] | None = None
        if notes is not None:
            self._by_fact = _by_fact(notes)

    def verify(self, rows: Sequence[ClaimRow]) -> list[Verdict]:
        """Verdicts for a batch of claims, one each, in order.

        Raises:
            StoreError: the store failed (a bad claim never raises; it gets an ERROR verdict).
        """
        out: list[Verdict | None] = [None] * len(rows)
        todo: list[tuple[int, Claim, Statement]] = []
        for i, row in enumerate(rows):
            if isinstance(row, ClaimError):
                out[i] = error_verdict(row.id, row.error, row.line)
                continue
            statement = claim_statement(row)
            if isinstance(statement, str):
                out[i] = error_verdict(row.id, statement, row.line)
            else:
                todo.append((i, row, statement))
        checked = list(self._check(todo))
        for i, verdict in checked:
            out[i] = verdict
        for k, verdict in self._with_conflicts([v for _, v in checked]):
            out[checked[k][0]] = verdict
        return [v for v in out if v is not None]

    def _with_conflicts(self, verdicts: list[Verdict]) -> Iterator[tuple[int, Verdict]]:
        by_fact = self._conflicts_by_fact()
        if not by_fact:
            return
        for i, v in enumerate(verdicts):
            found = {c.id: c for c in v.conflicts}
            for step in v.proof:
                for f in step.facts:
                    found.update((c.id, c) for c in by_fact.get(f, ()))
            if len(found) > len(v.conflicts) or any(found[c.id] != c for c in v.conflicts):
                yield i, replace(v, conflicts=tuple(sorted(found.values(), key=lambda c: c.id)))

    def _conflicts_by_fact(self) -> dict[str, list[ConflictNote]]:
        # Read once per run: a verification run only reads, so the records cannot change under it, and one
        # read beats a lookup per batch even with many thousands of conflicts.
        if self._by_fact is None:
            self._by_fact = _by_fact(self.checker.conflict_notes())
        return self._by_fact

    def _check(self, todo: list[tuple[int, Claim, Statement]]) -> Iterator[tuple[int, Verdict]]:
        if not todo:
            return
        try:
            checks = self.checker.check_many([s for _, _, s in todo])
        except InputError:
            # One bad claim spoils the batch call; redo the batch one by one so only that claim fails.
            for i, claim, statement in todo:
                yield i, self._check_one(claim, statement)
            return
        for (i, claim, _), check in zip(todo, checks, strict=True):
            yield i, verdict_from_check(claim, check, self.options)

    def _check_one(self, claim: Claim, statement: Statement) -> Verdict:
        try:
            check = self.checker.check(*statement)
        except UnknownConcept as exc:
            return unknown_concept_verdict(claim, statement, exc, self.options)
        except InputError as exc:
            return error_verdict(claim.id, f"line {claim.line}: {exc}" if claim.line else str(exc), claim.line)
        return verdict_from_check(claim, check, self.options)


def _by_fact(notes: Iterable[ConflictNote]) -> dict[str, list[ConflictNote]]:
    found: dict[str, list[ConflictNote]] = {}
    for note in notes:
        for f in note.facts:
            found.setdefault(f, []).append(note)
    return found


def claim_statement(claim: Claim) -> Statement | str:
    """The statement a claim makes; for a sentence, read through the templates (an error text when none fits)."""
    if not claim.is_sentence:
        return (claim.subject or "", claim.predicate or "", claim.object or "", claim.polarity)
    # A sentence no template reads may still name a stored relation by its verb (the reasoner decides, or says it
    # cannot read it).
    triple = parse_claim_sentence(claim.text or "", claim.lang) or parse_verb_sentence(claim.text or "", claim.lang)
    where = f"line {claim.line}: " if claim.line else ""
    if triple is None:
        return (
            f"{where}cannot read {claim.text!r} as a claim; write it like 'X is a Y', 'X has Y', 'X can Y', "
            "'X causes Y' (or 'X — это Y', 'X имеет Y', 'X может Y', 'X вызывает Y'), or give subject/predicate/object"
        )
    # A sentence's own negation combines with the row's polarity: `{"text": "X is not Y", "polarity": false}`
    # claims that X is Y.
    return (triple.subject, triple.predicate, triple.object, triple.polarity == claim.polarity)


def batched(rows: Iterable[R], size: int) -> Iterator[list[R]]:
    """Cut a stream of rows into lists of at most `size`."""
    batch: list[R] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def verify_stream(
    checker: Checker,
    rows: Iterable[ClaimRow],
    options: VerifyOptions | None = None,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
) -> Iterator[list[Verdict]]:
    """Verify a stream of claims in this process, yielding each batch's verdicts in input order.

    Raises:
        StoreError: the store failed.
    """
    verifier = Verifier(checker, options)
    for batch in batched(rows, batch_size):
        yield verifier.verify(batch)


# Opens a checker in a worker process; it must be picklable (a module-level function or a functools.partial).
CheckerOpener = Callable[[], Checker]
# What a worker sends back for a batch: the verdicts themselves, or (see `verify_parallel`'s `encode`) their
# encoded form, so the parent only writes what the workers have already serialised.
T = TypeVar("T")
# A unit of work: a claim read (or a row error), or a JSONL line the worker parses itself.
WorkItem = ClaimRow | ClaimLine


@dataclass
class _WorkerState:
    opener: CheckerOpener | None = None
    options: VerifyOptions | None = None
    encode: Callable[[list[Verdict]], Any] | None = None
    verifier: Verifier | None = None
    shared: SharingChecker | None = None  # the parent's checker, inherited by forked workers
    notes: list[ConflictNote] | None = None  # and the conflict records it read


_WORKER = _WorkerState()


def _worker_init(opener: CheckerOpener, options: VerifyOptions, encode: Callable[[list[Verdict]], Any]) -> None:
    # Opening waits here would be invisible: a Pool restarts a worker whose initializer raises, forever.
    # The knowledge base is opened by the first task instead, so a failure reaches the parent as an error.
    _WORKER.opener, _WORKER.options, _WORKER.encode = opener, options, encode


def _worker_verify(items: list[WorkItem]) -> Any:
    if _WORKER.verifier is None:
        if _WORKER.opener is None:
            raise RuntimeError("verification worker was not initialised")
        checker = _WORKER.opener()
        # Close the database before the worker exits: Kùzu can crash at exit when it is left open.
        Finalize(checker, checker.close, exitpriority=10)
        if _WORKER.shared is not None:
            # Forked: the parent's mirror, hierarchy and labels are already in this process's memory
            # (shared copy-on-write with the parent), so the worker reads and builds nothing.
            cast(SharingChecker, checker).adopt(_WORKER.shared)
        _WORKER.verifier = Verifier(checker, _WORKER.options, _WORKER.notes)
    verdicts = _WORKER.verifier.verify(as_rows(items))
    return verdicts if _WORKER.encode is None else _WORKER.encode(verdicts)


def as_rows(items: Sequence[WorkItem]) -> list[ClaimRow]:
    """Claims for work items: JSONL lines are parsed here (in the worker), claims pass through."""
    return [item if isinstance(item, (Claim, ClaimError)) else claim_from_line(item) for item in items]


def verify_parallel(
    opener: CheckerOpener,
    rows: Iterable[WorkItem],
    options: VerifyOptions | None = None,
    *,
    workers: int = 2,
    batch_size: int = DEFAULT_BATCH_SIZE,
    shared: SharingChecker | None = None,
) -> Iterator[list[Verdict]]:
    """Verify a stream of claims on `workers` processes, each with its own read-only checker.

    With `shared` (the caller's checker over the same knowledge base) and where the platform can fork,
    the workers are forked after `shared` has built its views and adopt them: nothing is read or built
    per worker. Otherwise (or without `shared`) each spawned worker opens and builds its own.
    Batches come back in input order. At most a few batches per worker are in flight, so a huge claims
    file is never read ahead into memory.

    Raises:
        StoreError: a worker's store failed (the pool is stopped).
    """
    yield from verify_parallel_encoded(
        opener, rows, _plain, options, workers=workers, batch_size=batch_size, shared=shared
    )


def _plain(verdicts: list[Verdict]) -> list[Verdict]:
    return verdicts


def verify_parallel_encoded(
    opener: CheckerOpener,
    rows: Iterable[WorkItem],
    encode: Callable[[list[Verdict]], T],
    options: VerifyOptions | None = None,
    *,
    workers: int = 2,
    batch_size: int = DEFAULT_BATCH_SIZE,
    shared: SharingChecker | None = None,
) -> Iterator[T]:
    """`verify_parallel` whose workers also parse their JSONL lines and apply `encode` (a picklable module-level
    function) to each batch's verdicts, so the parent neither parses claims nor serialises verdicts: with
    several workers on as many cores, the parent would otherwise be the bottleneck.

    Raises:
        StoreError: a worker's store failed (the pool is stopped).
    """
    if workers < 1:
        raise InputError(f"--workers {workers!r} must be at least 1")
    fork = shared is not None and "fork" in multiprocessing.get_all_start_methods()
    if fork and shared is not None:
        shared.warm()
        # Children inherit this module state (and the parent's views) at fork time; each opens its own
        # read-only Kùzu connection if a claim needs a query, never the parent's (forked exits skip its destructor).
        _WORKER.shared = shared
        _WORKER.notes = list(shared.conflict_notes())
    ctx = multiprocessing.get_context("fork" if fork else "spawn")
    window = 2 * workers + 1
    initargs = (opener, options or VerifyOptions(), encode)
    pool: Pool = ctx.Pool(workers, initializer=_worker_init, initargs=initargs)
    _WORKER.shared = _WORKER.notes = None
    try:
        pending: deque[AsyncResult[T]] = deque()
        for batch in batched(rows, batch_size):
            pending.append(pool.apply_async(_worker_verify, (batch,)))
            while len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()
        pool.join()
    finally:
        pool.terminate()


def _statement(subject: str, predicate: str, obj: str, polarity: bool) -> str:
    return f"{subject} {'' if polarity else 'NOT '}{predicate} {obj}"


def _join(first: str, second: str) -> str:
    return f"{first}; {second}" if first else second
