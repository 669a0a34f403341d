"""One process owning a knowledge base: one writer, many readers, every capability as a pydantic result.

The HTTP app and the MCP server both call `Service`, which calls `Brain`, so a verdict reached over HTTP,
MCP, the CLI or the library comes from the same code.

- Writes go through one queue: a single worker thread owns the read-write connection (and the file lock,
  announced with the server's address so a CLI write fails at once naming it).
- Reads use a second connection to the same Kùzu database with its own Brain (the hot mirror, analogy and term
  indexes). They never wait for a write to finish; a COMMIT and the refresh of the reader's caches happen
  together while readers are held off (`KuzuStore.commit_guard`), so a read sees the data before a write or
  after it, never between, and a write's response is sent only after readers see it.
- Reads are serialised among themselves (one lock): the reader's caches are plain Python objects, and on two
  cores the GIL leaves little to gain from running them side by side.
- Both are time-limited. A read past its limit is cancelled. A write is one transaction (its load, the rules it
  sets off, withdrawal and settling: `whole_write`; on Kùzu each step commits on its own), and past its limit it
  is answered as timed out unless its COMMIT is under way: it is then never started, or stopped at its next
  statement and rolled back whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from kgbrain.api import Brain
from kgbrain.errors import InputError, InvalidRequest, KgbrainError, ReadTimeout, WriteTimeout
from kgbrain.ingest.loader import LoadReport
from kgbrain.models import (
    MAX_PAGE_BYTES,
    AskOut,
    CheckAnswerOut,
    ConceptFactsOut,
    ConceptFactsPageOut,
    ConceptMatchesOut,
    ConceptMatchOut,
    ConflictOut,
    ConflictsPageOut,
    ExplanationOut,
    HealthOut,
    LoadReportOut,
    QueryOut,
    QueryPageOut,
    RecallOut,
    RetractOut,
    StatsOut,
    VerdictOut,
)
from kgbrain.patterns import request_deadline
from kgbrain.reasoning.cognition.monitor import ResourceState
from kgbrain.service.paging import page
from kgbrain.service.uploads import remove_orphans, request_folder
from kgbrain.store.delta import FactDelta
from kgbrain.store.protocol import served

T = TypeVar("T")

ANSWER_CACHE_ENTRIES = 10_000
READ_TIMEOUT_S = 60.0
WRITE_TIMEOUT_S = 300.0  # an upload of 64 MB (the body cap) loads in about a minute on a quiet machine
VERIFY_CHUNK = 64  # claims per streamed chunk: a verdict line reaches the client soon after it is decided


class Service:
    """A knowledge base opened once, with a write queue and a reader that sees every completed write."""

    def __init__(
        self,
        path: Path | None,
        *,
        read_only: bool = False,
        demo: bool = False,
        read_timeout_s: float = READ_TIMEOUT_S,
        write_timeout_s: float = WRITE_TIMEOUT_S,
    ) -> None:
        """Open the knowledge base at `path` (None and `demo`: the bundled demo; None: in memory).

        Raises:
            DatabaseLocked: another process holds it.
            StoreError: it cannot be opened.
        """
        self.read_only = read_only
        self.read_timeout_s = read_timeout_s
        self.write_timeout_s = write_timeout_s
        self._job: _ReadJob | None = None  # the read running on the reader thread
        self._write_job: _WriteJob | None = None  # the write running on the writer thread
        # Readers take turns (one reader Brain); a commit waiting for its window goes before the next read, so
        # a steady stream of questions cannot starve the writer.
        self._gate = threading.Condition()
        self._reading = False
        self._committing = 0
        self._pending: list[LoadReport] = []
        # Answers by (question, goal, priority) until the next commit: a question starts from the same state each
        # time and reads the same data, so it gets the same answer; only its latency is its own.
        self._answers: dict[tuple[str, str | None, float, str | None], AskOut] = {}
        remove_orphans()  # what servers killed in the middle of a request left in the temporary directory
        opened = Brain.demo(read_only=read_only) if demo else Brain.open(path, read_only=read_only)
        self.writer: Brain | None = None if read_only else opened
        if self.writer is None:
            self.reader = opened
            served(self.reader.store).cache_reads()
        else:
            self.reader = self._new_reader()
            self.writer.load_hooks.append(lambda _brain, report: self._pending.append(report))
            store = served(self.writer.store)
            store.commit_guard = self._commit_window
            store.before_commit = self._before_commit
            store.before_statement = self._before_statement
            store.on_commit.append(self._committed)
            store.track_facts()  # the store records what each commit did to the facts: the reader applies it
        # What /healthz reports, kept here so that it never waits for the reader (a long read must not make the
        # server look dead): the schema version is fixed while open, the counter is refreshed at each commit.
        self._schema_version = opened.store.schema_version
        self._write_counter = opened.store.write_counter()
        self._writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbrain-writer")
        self._reads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgbrain-reader")
        self.store_path = opened.store.path

    def _new_reader(self) -> Brain:
        assert self.writer is not None
        reader = Brain(served(self.writer.store).connect())
        # Between two writes a named query returns the same rows: the reader keeps them (dropped at each commit).
        served(reader.store).cache_reads()
        reader.reasoner.analogies.save_updates = False  # saved once, at close (`Reasoner.persist`)
        return reader

    def warm(self) -> None:
        """Build or read back everything questions use (mirror, hierarchy, term and analogy indexes) before the
        first request, instead of inside it (seconds on a 1M-fact knowledge base).

        Raises:
            StoreError: the store failed.
        """
        reasoner = self.reader.reasoner
        reasoner.warm()
        reasoner.analogies.index()
        self.reader.cognition.retriever.link("")

    def announce(self, address: str) -> None:
        """Record the server's address beside the lock file (a CLI on the same path then names it)."""
        if self.writer is not None:
            served(self.writer.store).announce(address)

    def close(self) -> None:
        """Finish queued work and close both connections (the reader first: it shares the database)."""
        self._writes.shutdown(wait=True)
        self._reads.shutdown(wait=True)
        reasoner = self.reader.__dict__.get("_reasoner")
        if reasoner is not None and self.writer is not None:
            with contextlib.suppress(KgbrainError):  # caches: the next process rebuilds them
                reasoner.persist()
                if self.reader.__dict__.get("_cognition") is not None:
                    self.reader.cognition.retriever.persist()
        if self.writer is not None:
            self.reader.close()
            self.writer.close()
        else:
            self.reader.close()

    # -- the two queues ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _commit_window(self) -> Iterator[None]:
        # Held by the writer around COMMIT and the refresh of the reader's caches: no read runs meanwhile.
        with self._gate:
            self._committing += 1
            while self._reading:
                self._gate.wait()
        try:
            yield
        finally:
            with self._gate:
                self._committing -= 1
                self._gate.notify_all()

    def _committed(self) -> None:
        # Runs in the writer thread right after COMMIT, with readers held off by the commit guard.
        reports: list[LoadReport | None] = [*self._pending] or [None]
        self._pending.clear()
        self._answers = {}
        served(self.reader.store).forget_reads()
        assert self.writer is not None
        delta = served(self.writer.store).take_delta()
        for n, report in enumerate(reports):
            self.reader.changed(report, delta=delta if n == 0 else FactDelta())
        with contextlib.suppress(KgbrainError):  # health only: the next commit refreshes it
            self._write_counter = self.writer.store.write_counter()

    async def read(self, fn: Callable[[Brain], T]) -> T:
        """Run `fn(reader brain)` off the event loop, one read at a time, cancelled past `read_timeout_s`.

        Raises:
            ReadTimeout: it ran past the limit; it was stopped (the engine interrupted, the Python work cancelled)
                and the reader is free for the next read.
        """
        job = _ReadJob()
        deadline = time.monotonic() + self.read_timeout_s

        def locked() -> T:
            with self._gate:
                while self._committing or self._reading:
                    self._gate.wait()
                self._reading = True
                if job.abandoned:  # timed out while it queued: never start it
                    self._reading = False
                    self._gate.notify_all()
                    raise ReadTimeout("abandoned")
                job.thread = threading.get_ident()
                self._job = job
            try:
                with request_deadline(deadline):  # what the engine cannot interrupt (a user's REGEX) stops itself
                    return fn(self.reader)
            except _Cancelled:
                raise ReadTimeout("cancelled") from None
            finally:
                self._finish(job)

        running = asyncio.get_running_loop().run_in_executor(self._reads, locked)
        try:
            return await asyncio.wait_for(asyncio.shield(running), timeout=self.read_timeout_s)
        except asyncio.CancelledError:  # the request is gone (its client left, or the HTTP backstop fired)
            self._cancel(job)
            running.add_done_callback(_swallow)
            raise
        except asyncio.TimeoutError:
            self._cancel(job)
            running.add_done_callback(_swallow)
            raise ReadTimeout(
                f"the request took longer than {self.read_timeout_s:g} s and was cancelled; ask about less at a time"
            ) from None

    def _cancel(self, job: _ReadJob) -> None:
        with job.lock:
            job.abandoned = True
            if job.thread is None or job.finished:
                return
        threading.Thread(target=self._stop, args=(job,), name="kgbrain-cancel", daemon=True).start()

    def _stop(self, job: _ReadJob) -> None:
        # Python threads cannot be killed, but an exception can be raised in one at its next bytecode
        # (PyThreadState_SetAsyncExc). Never while the engine runs a statement (it would strike the engine's own
        # bookkeeping when the call returns): that statement is interrupted instead, repeatedly, since an interrupt
        # that arrives while it compiles is lost.
        store = served(self.reader.store)
        raised = False
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with job.lock:
                if job.finished or job.thread is None:
                    return
                with contextlib.suppress(RuntimeError):
                    in_engine = store.interrupt()
                if not in_engine and not raised:
                    _raise_in(job.thread, _Cancelled)
                    raised = True
            time.sleep(0.05)

    def _finish(self, job: _ReadJob) -> None:
        # The reader thread, after `fn`: from here on the job cannot be cancelled; an exception the canceller raised
        # just before is dropped (or caught, and the step repeated) so it can never hit the next read.
        for _ in range(3):
            try:
                with job.lock:
                    job.finished = True
                    if job.thread is not None:
                        _raise_in(job.thread, None)
                if job.abandoned and job.thread is not None and self.writer is not None:
                    # The reader's caches may be half-updated where the exception struck: start a fresh one.
                    stale, self.reader = self.reader, self._new_reader()
                    threading.Thread(target=_close_quietly, args=(stale,), daemon=True).start()
                with self._gate:
                    self._reading = False
                    self._job = None
                    self._gate.notify_all()
                return
            except _Cancelled:
                continue

    async def write(self, fn: Callable[[Brain], T]) -> T:
        """Run `fn(writer brain)` on the single writer thread, all or nothing within `write_timeout_s`.

        Raises:
            InputError: the service is read-only.
            WriteTimeout: it was still queued or had not reached its COMMIT at the limit: nothing of it is stored (a
                write already committing is waited for and answered with its result).
        """
        writer = self.writer
        if writer is None:
            raise InputError("this server is read-only (started with --read-only); writes are disabled")
        job = _WriteJob()

        def run() -> T:
            with job.lock:
                if job.abandoned:  # timed out while it queued: never start it
                    job.finished = True
                    raise WriteTimeout("abandoned")
                self._write_job = job
            self._pending.clear()  # what a failed (rolled back) write left
            try:
                # One transaction for the whole write (its load, the rules it sets off, withdrawal, settling): it
                # can be stopped and rolled back at any statement until its one COMMIT.
                with served(writer.store).whole_write():
                    return fn(writer)
            finally:
                with job.lock:  # (a canceller interrupts only while this job runs: never the next one)
                    self._write_job = None
                    job.finished = True

        running = asyncio.get_running_loop().run_in_executor(self._writes, run)
        try:
            return await asyncio.wait_for(asyncio.shield(running), timeout=self.write_timeout_s)
        except (asyncio.TimeoutError, asyncio.CancelledError) as exc:
            with job.lock:
                job.abandoned = not job.committed
            if job.abandoned:
                running.add_done_callback(_swallow)
                threading.Thread(target=self._stop_write, args=(job,), name="kgbrain-cancel", daemon=True).start()
                if isinstance(exc, asyncio.CancelledError):
                    raise
                raise WriteTimeout(
                    f"the write took longer than {self.write_timeout_s:g} s and was rolled back; nothing of it "
                    "was stored (send less at a time, or start the server with a longer --write-timeout)"
                ) from None
            # Committed already: the client gets the write's own outcome, however long the rest takes.
            return await asyncio.shield(running)

    def _stop_write(self, job: _WriteJob) -> None:
        # An abandoned write stops at its next statement (`_before_statement`); the statement under way is
        # interrupted, repeatedly (one that arrives while it compiles is lost). Never once it commits: the job's lock
        # is held around each interrupt, and `_before_commit` takes it to mark the job committed.
        assert self.writer is not None
        store = served(self.writer.store)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not job.finished:
            with job.lock:
                if job.committed or job.finished:
                    return
                # (not while queued: it never starts; not outside a transaction: nothing there to roll back)
                if self._write_job is job and store.in_transaction:
                    with contextlib.suppress(RuntimeError):
                        store.interrupt()
            time.sleep(0.05)

    def _before_statement(self) -> None:
        # The writer thread, before each statement of a write transaction.
        job = self._write_job
        if job is not None and job.abandoned and not job.committed:
            raise WriteTimeout("the write's request timed out or its client went away; rolled back")

    def _before_commit(self) -> None:
        # The writer thread, before each COMMIT: a write answered as timed out never commits; once one of its
        # transactions has committed, it can no longer be abandoned.
        job = self._write_job
        if job is None:
            return
        with job.lock:
            if job.abandoned:
                raise WriteTimeout("the write's request timed out; rolled back")
            job.committed = True

    # -- capabilities (each returns the model the CLI's --json prints) -----------------------------
    # The arguments come checked: HTTP and MCP build them from the request models (kgbrain/models.py), whose
    # fields carry the limits.

    async def health(self) -> HealthOut:
        """Liveness and what is open; answered at once, whatever the reader is doing."""
        return HealthOut(
            status="ok",
            read_only=self.read_only,
            schema_version=self._schema_version,
            write_counter=self._write_counter,
        )

    async def ask(
        self,
        question: str,
        *,
        goal: str | None = None,
        priority: float = 0.5,
        as_of: str | None = None,
        session: str | None = None,
        channel: str = "http",
    ) -> AskOut:
        """`kgbrain ask --json` (`--as-of`: `as_of`); with a `session`, within that conversation (`kgbrain chat`),
        recorded as an episode of `channel` (unless the server is read-only)."""
        if session is not None:  # a conversation's answer depends on its state: never cached
            talk = session
            output = await self.read(
                lambda b: b.at(as_of).converse(question, session=talk, goal_type=goal, priority=priority)
            )
            if self.writer is not None:  # an answer as an episode; a correction linked to the last one
                output = await self.write(lambda w: w.record_turn(output, channel=channel, session=talk))
            return AskOut.from_output(output)

        key = (question, goal, priority, as_of)
        started = time.perf_counter()
        found = self._answers.get(key)
        if found is not None:
            # Answered since the last commit: served here, without queueing behind other questions for the reader. A
            # commit replaces the dict only after COMMIT, and a write is acknowledged only after that, so a client
            # that saw a write's response never gets an answer from before it.
            return found.model_copy(update={"latency_ms": round((time.perf_counter() - started) * 1000, 2)})

        def run(whole: Brain) -> AskOut:
            brain = whole.at(as_of)
            answers = self._answers  # (replaced, not cleared, at a commit: no read runs then)
            found = answers.get(key)
            if found is not None:
                return found.model_copy(update={"latency_ms": round((time.perf_counter() - started) * 1000, 2)})
            brain.cognition.loop.reset()  # each question from the same state, whatever other clients asked before
            output = brain.think(question, goal_type=goal, priority=priority)
            out = AskOut.from_output(output)
            if _unconstrained(output.result.resources):
                if len(answers) >= ANSWER_CACHE_ENTRIES:
                    answers.clear()
                answers[key] = out
            return out

        return await self.read(run)

    async def verify(
        self,
        claims: list[dict[str, Any] | str],
        *,
        closed_world: bool = False,
        min_confidence: float = 0.0,
        as_of: str | None = None,
    ) -> list[VerdictOut]:
        """Verdicts for claims, in order (the lines of a verdicts file)."""
        out: list[VerdictOut] = []
        for chunk in verify_chunks(claims):
            out += await self.verify_chunk(chunk, closed_world=closed_world, min_confidence=min_confidence, as_of=as_of)
        return out

    async def verify_chunk(
        self, chunk: list[dict[str, Any]], *, closed_world: bool, min_confidence: float, as_of: str | None = None
    ) -> list[VerdictOut]:
        """Verdicts for one chunk of claims rows (see `verify_chunks`)."""
        return await self.read(
            lambda b: [
                VerdictOut.from_verdict(v)
                for v in b.at(as_of).verify(chunk, closed_world=closed_world, min_confidence=min_confidence)
            ]
        )

    async def check_answer(
        self, draft: str, *, question: str = "", rules: str | None = None, as_of: str | None = None
    ) -> CheckAnswerOut:
        """`kgbrain check-answer --json`; `rules` is the text of a rules TOML file."""

        def run(whole: Brain) -> CheckAnswerOut:
            brain = whole.at(as_of)
            if rules is None:
                return CheckAnswerOut.from_report(brain.check_answer(draft, question=question))
            with request_folder("rules") as folder:
                path = folder / "rules.toml"
                path.write_text(rules, encoding="utf-8")
                from kgbrain.output.answer_check import load_rules

                try:
                    load_rules(path)  # read first, so that a bad rule is an error naming the field
                except InputError as exc:
                    raise InvalidRequest(f"field 'rules': {exc}") from None
                return CheckAnswerOut.from_report(brain.check_answer(draft, question=question, rules=path))

        return await self.read(run)

    async def stats(self) -> StatsOut:
        """`kgbrain stats --json`."""
        return await self.read(lambda b: StatsOut.from_stats(b.stats()))

    async def facts(
        self,
        concept: str,
        *,
        cursor: str | None = None,
        limit: int = 100,
        as_of: str | None = None,
        max_bytes: int = MAX_PAGE_BYTES,
    ) -> ConceptFactsPageOut:
        """`kgbrain facts CONCEPT --json`, one page of its facts at a time (at most `limit`, about `max_bytes`)."""
        whole = await self.read(lambda b: ConceptFactsOut.from_concept(b.at(as_of).facts(concept)))
        items, following = page(whole.facts, cursor, limit, key=("facts", whole.id), max_bytes=max_bytes)
        return ConceptFactsPageOut(
            **{**whole.model_dump(), "facts": items}, total_facts=len(whole.facts), next_cursor=following
        )

    async def recall(
        self,
        concept: str,
        *,
        cursor: str | None = None,
        limit: int = 100,
        as_of: str | None = None,
        max_bytes: int = MAX_PAGE_BYTES,
    ) -> RecallOut:
        """MCP `recall`: `facts` and the latest episodes about the concept."""
        found = await self.facts(concept, cursor=cursor, limit=limit, as_of=as_of, max_bytes=max_bytes)

        def run(brain: Brain) -> list[dict[str, Any]]:
            from kgbrain.memory.episodes import about

            return [e.as_dict() for e in about(brain.store, [found.id])]

        return RecallOut(**found.model_dump(), episodes=await self.read(run))

    async def conflicts(
        self,
        *,
        type: str | None = None,
        status: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
        max_bytes: int = MAX_PAGE_BYTES,
    ) -> ConflictsPageOut:
        """`kgbrain conflicts --json`, paged (newest first)."""
        found = await self.read(lambda b: [ConflictOut.from_record(c) for c in b.conflicts(type=type, status=status)])
        key = ("conflicts", type or "", status or "")
        items, following = page(found, cursor, limit, key=key, max_bytes=max_bytes)
        return ConflictsPageOut(conflicts=items, total=len(found), next_cursor=following)

    async def search_concepts(self, text: str, *, limit: int = 10) -> ConceptMatchesOut:
        """Concepts named `text` (id, label or alias in any case or inflection), then close names."""
        return await self.read(lambda b: search(b, text, limit))

    async def add_facts(
        self, rows: list[dict[str, Any]], *, source: str | None = None, trust: float | None = None
    ) -> LoadReportOut:
        """Store facts-file rows, all or nothing (one transaction)."""
        text = "".join(_json_line(row) for row in rows)
        return await self.load_text(text, name="facts", fmt="jsonl", source=source or "api", trust=trust)

    async def load_text(
        self,
        text: str | bytes,
        *,
        name: str,
        fmt: str | None = None,
        source: str | None = None,
        trust: float | None = None,
    ) -> LoadReportOut:
        """Load one uploaded file (facts, ontology or any format `kgbrain load` reads), all or nothing."""
        if "/" in name or "\\" in name or name.startswith("."):
            raise InputError(f"field 'name': {name!r} must be a plain file name")
        if len(name.encode("utf-8", "surrogatepass")) > 255:  # what file systems allow, in bytes
            raise InputError(f"field 'name': {name[:60]!r}... is longer than a file name may be (255 bytes)")

        def run(brain: Brain) -> LoadReportOut:
            with request_folder("upload") as folder:
                path = folder / name
                path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
                [report] = brain.load([path], source=source, trust=trust, fmt=fmt)
            return LoadReportOut.from_report(report).model_copy(update={"file": name})

        return await self.write(run)

    async def explain(self, fact_id: str, *, as_of: str | None = None) -> ExplanationOut:
        """A fact's provenance and status (as of `as_of`; None: now), and the conflicts it is part of."""

        return await self.read(lambda b: ExplanationOut.of(b.at(as_of), fact_id))

    async def query(
        self, text: str, *, cursor: str | None = None, limit: int = 100, as_of: str | None = None
    ) -> QueryPageOut:
        """`kgbrain query --json`, paged: SPARQL SELECT or a rule body over the facts and rules, in memory.

        The text is parsed by the query layer and evaluated over the reasoner's mirror; it never becomes Cypher.
        """
        whole = await self.read(lambda b: QueryOut.from_result(b.at(as_of).query(text)))
        rows, following = page(whole.rows, cursor, limit, key=("query", text, as_of or ""))
        return QueryPageOut(columns=whole.columns, rows=rows, total_rows=len(whole.rows), next_cursor=following)

    async def retract(self, fact_id: str, *, by: str, reason: str | None = None) -> RetractOut:
        """`kgbrain retract`: non-destructive; the fact keeps its history."""
        return await self.write(lambda b: RetractOut.from_result(b.retract(fact_id, by=by, reason=reason)))

    async def resolve(self, conflict_id: str, *, keep: str, by: str) -> ConflictOut:
        """`kgbrain resolve`: keep one fact of a conflict, dispute its rivals."""
        return await self.write(lambda b: ConflictOut.from_record(b.resolve_conflict(conflict_id, keep=keep, by=by)))


class _Cancelled(BaseException):
    """Raised inside a read that ran past its time (BaseException: no `except Exception` on the way swallows it)."""


@dataclass
class _ReadJob:
    lock: threading.Lock = field(default_factory=threading.Lock)
    thread: int | None = None
    abandoned: bool = False
    finished: bool = False


@dataclass
class _WriteJob:
    lock: threading.Lock = field(default_factory=threading.Lock)
    abandoned: bool = False  # answered as timed out (or its client went away): it must never commit
    committed: bool = False  # one of its transactions committed: it can no longer be abandoned
    finished: bool = False  # the writer is done with it


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Raise `exc` in `thread` at its next bytecode (None: drop one raised there and not yet delivered)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)


def _close_quietly(brain: Brain) -> None:
    with contextlib.suppress(KgbrainError, RuntimeError):
        brain.close()


def _swallow(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()  # retrieved: a cancelled read's ReadTimeout is not "never retrieved"


def _unconstrained(resources: ResourceState) -> bool:
    # An answer the resource monitor cut short (Ring 2 or an expensive action blocked) is this moment's, not the
    # question's: kept, it would be served to every later client until the next commit, even on an idle machine.
    return resources.ring2_allowed and not resources.soft_blocked


def verify_chunks(claims: list[dict[str, Any] | str]) -> Iterator[list[dict[str, Any]]]:
    """Claims as claims-file rows (a sentence becomes `{"id": n, "text": ...}`), in chunks.

    Raises:
        InputError: an item is neither a row nor a sentence.
    """
    rows: list[dict[str, Any]] = []
    for n, claim in enumerate(claims, start=1):
        if isinstance(claim, str):
            rows.append({"id": str(n), "text": claim})
        elif isinstance(claim, dict):
            rows.append(claim if claim.get("id") not in (None, "") else {**claim, "id": str(n)})
        else:
            raise InputError(f"field 'claims[{n - 1}]': expected a claim object or a sentence")
    for start in range(0, len(rows), VERIFY_CHUNK):
        yield rows[start : start + VERIFY_CHUNK]


def search(brain: Brain, text: str, limit: int) -> ConceptMatchesOut:
    """Concepts named `text`, then concepts with close names (see `Brain.resolve`, `Brain.suggest`)."""
    from kgbrain.errors import UnknownConcept

    found: dict[str, str] = {}
    with contextlib.suppress(UnknownConcept):
        found[brain.resolve(text)] = text
    for name in brain.suggest(text, limit=limit):
        if len(found) >= limit:
            break
        try:
            found.setdefault(brain.resolve(name), name)
        except UnknownConcept:
            continue
    out = []
    for cid, matched in list(found.items())[:limit]:
        row = brain.store.run("concept_get", id=cid)[0]
        labels = {lang: row[f"label_{lang}"] for lang in ("en", "ru") if row[f"label_{lang}"]}
        out.append(ConceptMatchOut(id=cid, kind=row["kind"], labels=labels, matched=matched))
    return ConceptMatchesOut(concepts=out)


def _json_line(row: dict[str, Any]) -> str:
    import json

    return json.dumps(row, ensure_ascii=False) + "\n"
