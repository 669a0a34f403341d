"""Brain: the single entry point that the CLI, services and end-to-end tests call."""

from __future__ import annotations

import hashlib
import os
import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, cast

from kgbrain.errors import AmbiguousConcept, InputError, UnknownConcept, UnknownItem
from kgbrain.knowledge import Fact
from kgbrain.resources import resource_dir
from kgbrain.ruleset import Program
from kgbrain.store import KuzuStore
from kgbrain.store import engine as store_engine
from kgbrain.store.delta import FactDelta
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import fact_from_row
from kgbrain.store.schema import latest_version

DEFAULT_DB = Path("kgbrain.kuzu")
# Longer text is refused instead of keeping the caller waiting: a question is a sentence or two, a draft a few pages.
MAX_QUESTION_CHARS = 1000
MAX_DRAFT_CHARS = 50_000
# Called with (file, bytes done, bytes total) while a file is read.
LoadProgress = Callable[[str, int, int], None]
# Run after each file's facts are stored, inside the same transaction (so a failing hook loses the file); returns
# the facts it took out of the active set (contradiction detection's automatic resolutions), or None.
LoadHook = Callable[["Brain", "LoadReport"], "Iterable[Fact] | None"]

if TYPE_CHECKING:  # loading imports pyarrow, truth maintenance its own modules: a question needs neither
    from kgbrain.ingest.batch import LoadBatch
    from kgbrain.ingest.formats import Format
    from kgbrain.ingest.loader import LoadReport
    from kgbrain.reasoning.tms import resolution as truth
    from kgbrain.reasoning.tms.maintenance import Maintenance

if TYPE_CHECKING:
    from kgbrain.reasoning.tms.proofs import Proof

if TYPE_CHECKING:  # the reasoner imports numpy and hnswlib; commands that never reason skip them
    from kgbrain.reasoning.answering.reasoner import Answer, Reasoner
    from kgbrain.reasoning.modes.analogical import Analogy
    from kgbrain.reasoning.modes.associative import Connection
    from kgbrain.reasoning.modes.causal import CausalPath
    from kgbrain.reasoning.results import Check

if TYPE_CHECKING:  # the cognitive loop and output layer load on the first `think`/`ask`
    from kgbrain.config import Config
    from kgbrain.output.answer_check import AnswerReport
    from kgbrain.output.pipeline import BrainOutput, Cognition

if TYPE_CHECKING:
    from datetime import datetime

    from kgbrain.memory.episodes import Episode
    from kgbrain.reasoning.cognition.conversation import Concepts, Predicates
    from kgbrain.reasoning.cognition.referents import Knowledge
    from kgbrain.reasoning.nlu.question import Question
    from kgbrain.reasoning.nlu.when import TimeInQuestion
    from kgbrain.reasoning.views.timed import Timeline
    from kgbrain.store.engine_migration import MigrationReport
    from kgbrain.timeline import Window

if TYPE_CHECKING:  # verification is imported where it is used: most commands never verify
    from collections.abc import Iterable
    from typing import IO

    from kgbrain.ingest.claims import ClaimRow
    from kgbrain.output.verdicts import VerifyProgress, VerifySummary
    from kgbrain.output.verify_runs import SparkRun
    from kgbrain.reasoning.answering.verify import CheckerOpener, ConflictNote, Verdict, VerifyOptions
    from kgbrain.reasoning.rules.derivations import RunReport
    from kgbrain.scale.session import SparkSpec

if TYPE_CHECKING:  # queries with variables load the rule executor on first use
    from kgbrain.reasoning.rules.query import QueryEngine, QueryResult
    from kgbrain.ruleset import Program


@dataclass(frozen=True, slots=True)
class Stats:
    """Size of the knowledge base."""

    concepts: int
    individuals: int
    facts: int
    active_facts: int
    predicates: dict[str, int]
    statuses: dict[str, int]
    sources: int
    schema_version: int

    @classmethod
    def of(cls, store: GraphStore) -> Stats:
        """Count what `store` holds.

        Raises:
            StoreError: the store failed.
        """
        counts = store.run("concept_count")[0]
        per_predicate: Counter[str] = Counter()
        statuses: Counter[str] = Counter()
        total = active = 0
        for row in store.run("fact_counts"):
            per_predicate[row["predicate"]] += row["facts"]
            total += row["facts"]
            active += row["active"]
        for row in store.run("fact_status_counts"):
            statuses[row["status"]] += row["facts"]
        return cls(
            concepts=counts["concepts"],
            individuals=counts["individuals"] or 0,
            facts=total,
            active_facts=active,
            predicates=dict(sorted(per_predicate.items())),
            statuses=dict(sorted(statuses.items())),
            sources=len(store.run("sources_all")),
            schema_version=store.schema_version,
        )


@dataclass(frozen=True, slots=True)
class ConceptFacts:
    """A concept with its names and every fact about it (either end), whatever the status."""

    id: str
    kind: str
    labels: dict[str, str]
    descriptions: dict[str, str]
    names: list[dict[str, Any]] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)

    @classmethod
    def of(cls, store: GraphStore, cid: str) -> ConceptFacts:
        """The stored concept `cid` (it must exist) with its names and facts.

        Raises:
            StoreError: the store failed.
        """
        c = store.run("concept_get", id=cid)[0]
        facts = [fact_from_row(r) for r in store.run("concept_facts_out", id=cid)]
        facts += [fact_from_row(r) for r in store.run("concept_facts_in", id=cid)]
        return cls(
            id=cid,
            kind=c["kind"],
            labels={lang: c[f"label_{lang}"] for lang in ("en", "ru") if c[f"label_{lang}"]},
            descriptions={lang: c[f"description_{lang}"] for lang in ("en", "ru") if c[f"description_{lang}"]},
            names=store.run("concept_names", id=cid),
            facts=facts,
        )


class Brain:
    """A knowledge base: load, inspect, export (and, through the reasoning layer, ask and verify)."""

    def __init__(self, store: GraphStore) -> None:
        """Wrap an open store; prefer `Brain.open`."""
        self.store = store
        # Subsystems that must see every load add themselves here (the reasoner's caches and analogy index, the
        # retriever's names). Contradiction detection comes first: new facts against the stored ones, recorded in
        # the same transaction; the facts its automatic resolutions deactivate go back to truth maintenance.
        self.load_hooks: list[LoadHook] = [_detect_conflicts]
        # Count each question's chosen action in the stored success history (a write per question; off, `ask`
        # only reads and the same question keeps its answer).
        self.record_actions = False

    @classmethod
    def open(
        cls, path: str | Path | None = None, *, read_only: bool = False, on_wait: Callable[[str], None] | None = None
    ) -> Brain:
        """Open (or create) the knowledge base at `path`; None gives an in-memory one.

        A read-only open never creates or changes anything; `on_wait` is told at once when another
        process holds the database and this one has to wait for it.

        Raises:
            DatabaseLocked: another process is writing to it.
            SchemaVersionError: it was written by a newer kgbrain.
            StoreError: it cannot be opened.
        """
        brain = cls(KuzuStore(path, read_only=read_only, on_wait=on_wait))
        if not read_only and not brain.store.run("predicates_all"):
            brain._load_vocabulary()
        return brain

    @classmethod
    def open_on_use(cls, path: str | Path) -> Brain:
        """The knowledge base at `path`, read-only, with the file opened at its first query (a forked
        verification worker that adopts its parent's views may never need to open it).

        Raises:
            StoreError: (at first use) it cannot be opened.
        """
        from kgbrain.store.on_use import OpenOnUse

        return cls(cast(GraphStore, OpenOnUse(path)))

    @classmethod
    def demo(cls, *, read_only: bool = False, on_wait: Callable[[str], None] | None = None) -> Brain:
        """Open the bundled demo knowledge base, building it in the user's cache on first use.

        Raises:
            StoreError: the cache cannot be written.
        """
        return cls.open(demo_path(), read_only=read_only, on_wait=on_wait)

    def _load_vocabulary(self) -> None:
        from kgbrain.ingest.batch import LoadBatch
        from kgbrain.ingest.loader import load_batch
        from kgbrain.ingest.vocabulary import core_declarations

        batch = LoadBatch(file="kgbrain:vocabulary", declarations=core_declarations())
        load_batch(self.store, batch)

    def close(self) -> None:
        """Close the underlying store."""
        self.store.close()

    def compact(self) -> int:
        """Merge the facts new writes left in the store's delta tables into its main tables (what a load does by
        itself once they pass KGBRAIN_DELTA_MERGE_ROWS), all or nothing; how many facts moved. Answers stay the
        same; the next writes commit faster.

        Raises:
            StoreError: the store failed or is read-only; the knowledge base is as it was.
        """
        return self.store.merge_deltas()

    def __enter__(self) -> Brain:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def maintenance(self) -> Maintenance:
        """Every write's truth maintenance (created on the first write; it calls this Brain's load hooks)."""
        found: Maintenance | None = self.__dict__.get("_maintenance")
        if found is None:
            from kgbrain.reasoning.tms.maintenance import Maintenance

            found = Maintenance(self.store, hooks=self._bound_hooks, statuses_changed=self._statuses_changed)
            self.__dict__["_maintenance"] = found
        return found

    def _bound_hooks(self) -> list[Callable[[LoadReport], Iterable[Fact] | None]]:
        """The load hooks as truth maintenance calls them, read at each write (hooks are added on first use)."""
        return [partial(hook, self) for hook in self.load_hooks]

    # -- loading -------------------------------------------------------------------------------

    def load(
        self,
        paths: Sequence[str | Path],
        *,
        source: str | None = None,
        trust: float | None = None,
        fmt: str | None = None,
        progress: LoadProgress | None = None,
    ) -> list[LoadReport]:
        """Load facts files and ontologies, all of them or none: a bad file anywhere in `paths` keeps every
        file out (on a database a server shares with readers, each file is all-or-nothing on its own).

        Raises:
            InputError: a file is missing, of unknown format, or has a bad row (nothing is loaded).
            OntologyError: an ontology cannot be parsed (nothing is loaded).
            StoreError: the store failed (everything was rolled back).
        """
        if trust is not None and not 0.0 <= trust <= 1.0:
            raise InputError(f"--trust {trust!r} is outside 0..1")
        from kgbrain.ingest.input_files import check_loadable

        files = [Path(raw) for raw in paths]
        for path in files:  # before anything is written (a folder: a Parquet export, ingest/parquet.py)
            check_loadable(path)
        if len(files) == 1:
            return [self._load_file(files[0], source=source, trust=trust, fmt=fmt, progress=progress)]
        expected = sum(path.stat().st_size for path in files)
        with self.store.atomic(expected_bytes=expected):  # each file's write joins this one
            return [self._load_file(path, source=source, trust=trust, fmt=fmt, progress=progress) for path in files]

    def _load_file(
        self, path: Path, *, source: str | None, trust: float | None, fmt: str | None, progress: LoadProgress | None
    ) -> LoadReport:
        from kgbrain.ingest.formats import Kind, load_format
        from kgbrain.ingest.input_files import check_loadable

        check_loadable(path)
        total = path.stat().st_size

        def tick(done: int) -> None:
            if progress is not None:
                progress(str(path), done, total)

        found = load_format(path, fmt)
        if found.kind is Kind.RULES:
            report = self.maintenance.load_rules(path)
        else:
            report = self.maintenance.load(_read(self.store, found, path, source=source, trust=trust, progress=tick))
        tick(total)
        return report

    # -- verification --------------------------------------------------------------------------

    def verify(
        self,
        claims: Iterable[ClaimRow | dict[str, Any] | str],
        *,
        closed_world: bool = False,
        min_confidence: float = 0.0,
        workers: int = 1,
        batch_size: int = 256,
    ) -> list[Verdict]:
        """Verify claims (Claim objects, claims-file rows as dicts, or sentences), one verdict each, in order.

        Uses the reasoner behind `check_many`, so a verdict and an answer to the same question agree.
        `workers` > 1 verifies on that many processes, each opening this knowledge base read-only; that
        needs this Brain opened read-only on a file (Kùzu locks readers out while a writer has it open).

        Raises:
            InputError: bad options, or workers > 1 on a read-write or in-memory knowledge base.
            StoreError: the store failed (a bad claim never raises; it gets an ERROR verdict).
        """
        from kgbrain.ingest.claims import Claim, ClaimError, claim_from_row
        from kgbrain.reasoning.answering.verify import VerifyOptions

        rows: list[ClaimRow] = []
        for n, c in enumerate(claims, start=1):
            if isinstance(c, (Claim, ClaimError)):
                rows.append(c)
            else:
                rows.append(claim_from_row(c) if isinstance(c, dict) else Claim(str(n), text=c))
        options = VerifyOptions(closed_world=closed_world, min_confidence=min_confidence)
        now = self._current()
        return [verdict for batch in now._verify_batches(rows, options, workers, batch_size) for verdict in batch]

    def verify_file(
        self,
        claims: str | Path,
        out: str | Path | None = None,
        *,
        stream: IO[str] | None = None,
        resume: bool = False,
        closed_world: bool = False,
        min_confidence: float = 0.0,
        workers: int = 1,
        fmt: str | None = None,
        progress: VerifyProgress | None = None,
        batch_size: int = 256,
        engine: str = "embedded",
        master: str | None = None,
    ) -> VerifySummary:
        """Verify a claims file into a verdicts file (or `stream`), written as it goes, in input order.

        With `resume`, verdicts an interrupted run left in `out` are kept (a torn last line is rewritten)
        and only the remaining claims are verified. `engine="spark"` runs the same decisions on Spark's
        executors (`master`: any Spark master URL, default local[*]); the verdicts file is the same bytes.

        Raises:
            InputError: a missing or unreadable claims file, bad options, or an output that is not a verdicts
                file for these claims; Spark without pyspark, or on a knowledge base not opened read-only.
            StoreError: the store failed (everything verified so far is on disk).
            EngineError: Spark failed.
        """
        from kgbrain.output.verify_runs import Spread, verify_file
        from kgbrain.reasoning.answering.verify import VerifyOptions

        options = VerifyOptions(closed_world=closed_world, min_confidence=min_confidence)
        now = self._current()
        spread = Spread(workers, batch_size, now._worker_opener, now._spark_run(engine, master))
        return verify_file(
            now, Path(claims), out, options, spread, stream=stream, resume=resume, fmt=fmt, progress=progress
        )

    def _verify_batches(
        self, rows: Iterable[ClaimRow], options: VerifyOptions, workers: int, batch_size: int = 256
    ) -> Iterable[list[Verdict]]:
        from kgbrain.output.verify_runs import Spread, verify_batches

        return verify_batches(self, rows, options, Spread(workers, batch_size, self._worker_opener))

    def _spark_run(self, engine: str, master: str | None) -> SparkRun | None:
        """How verification runs on Spark (None: embedded).

        Raises:
            InputError: an unknown engine, or a knowledge base executors cannot open (in memory, read-write).
        """
        spec = _spark_spec(engine, master)
        if spec is None:
            return None
        self._worker_opener()  # the same conditions as several workers: a file, opened read-only
        from kgbrain.output.verify_runs import SparkRun

        assert self.store.path is not None
        window = self._window()
        opener = partial(Brain.open, read_only=True) if window is None else partial(_executor_as_of, window)
        return SparkRun(spec, self.store.path, opener)

    def _worker_opener(self) -> CheckerOpener:
        """How a verification worker opens this knowledge base.

        Raises:
            InputError: it is in memory or open read-write (Kùzu locks readers out while a writer has it open).
        """
        import multiprocessing

        path = self.store.path
        if path is None or not self.store.read_only:
            raise InputError(
                "verifying with several workers needs a knowledge base file opened read-only "
                "(Brain.open(path, read_only=True)): Kùzu locks readers out while a process has it open read-write"
            )
        # Forked workers adopt this process's views, so they open the file only if a claim needs a query;
        # spawned ones build their own views from it at once.
        fork = "fork" in multiprocessing.get_all_start_methods()
        opener = partial(Brain.open_on_use, path) if fork else partial(Brain.open, path, read_only=True)
        window = self._window()
        return opener if window is None else partial(_opened_as_of, opener, window)

    # -- inspection ----------------------------------------------------------------------------

    def stats(self) -> Stats:
        """Count concepts, facts per predicate and status, sources.

        Raises:
            StoreError: the store failed.
        """
        return Stats.of(self.store)

    def resolve(self, name: str) -> str:
        """The concept id that `name` (an id, label or alias, in any case) refers to.

        Raises:
            UnknownConcept: nothing matches; the error lists close names.
            AmbiguousConcept: the name means concepts of several ontologies; the error lists them.
        """
        if self.store.run("concepts_existing", ids=[name]):
            return name
        linker = self.reasoner.linker
        candidates = linker.ambiguous(name)
        if candidates:
            raise AmbiguousConcept(name, [linker.describe(c) for c in candidates])
        found = linker.lookup(name)
        if found is None:
            raise UnknownConcept(name, self.suggest(name))
        return found

    def _resolve_as(self, name: str, field: str) -> str:
        """`resolve` for one of several names a call takes: an unknown one is named by its field."""
        try:
            return self.resolve(name)
        except UnknownConcept as exc:
            raise UnknownConcept(exc.concept_id, exc.close, field=field) from None

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Names of concepts close to `name` (for "did you mean"), as they are written."""
        return self.reasoner.linker.suggest(name, limit)

    def facts(self, name: str) -> ConceptFacts:
        """Every fact about a concept, as subject or object, with provenance and status.

        Raises:
            UnknownConcept: `name` matches no concept.
        """
        now = self._current()
        return ConceptFacts.of(now.store, now.resolve(name))

    def fact(self, fact_id: str) -> Fact:
        """One fact by id, whatever its status, with its provenance.

        Raises:
            InputError: no fact has this id.
        """
        rows = self._current().store.run("tms_facts_get", ids=[fact_id])  # as of now or this Brain's time
        if not rows:
            raise UnknownItem(f"Unknown fact {fact_id!r}")
        return fact_from_row(rows[0])

    def export_parquet(self, folder: str | Path) -> dict[str, Any]:
        """Write the knowledge base as a Parquet dataset in `folder` (ingest/parquet.py); its manifest.

        Raises:
            InputError: `folder` is a file or holds something else than a kgbrain export.
            StoreError: the store failed.
        """
        from kgbrain.ingest.parquet import export_parquet

        return export_parquet(self.store, Path(folder))

    def export(self, out: TextIO) -> int:
        """Write the knowledge base as JSONL facts (lossless: `load` of it rebuilds the same base).

        Raises:
            StoreError: the store failed.
        """
        from kgbrain.ingest.export import export_rows, write_jsonl

        return write_jsonl(export_rows(self.store), out)

    # -- reasoning -----------------------------------------------------------------------------

    def at(self, as_of: str | None = None) -> Brain:
        """This knowledge base as of `as_of` (`2010`, `2010-05`, `2010-05-03`, an ISO date-time; None: now): a
        fact whose validity interval misses that time is `out_of_time` to every answer, verdict, proof, fact
        listing and query of the returned Brain (reads only). Itself when `as_of` is None and no fact has an
        interval, so a knowledge base without intervals answers exactly as before.

        Raises:
            InvalidTime: `as_of` is not a date or date-time.
            StoreError: the store failed.
        """
        from kgbrain.timeline import Window

        timeline = self._timeline()
        if as_of is None:
            return self if not timeline.intervals else _now(self, timeline)
        return _as_of(self, Window.parse(as_of), timeline)

    def _current(self) -> Brain:
        """The Brain a read runs on: this one when it is as of a time already, else this one as of now.

        The single place of the default of every `--as-of` (the CLI, HTTP, MCP and library calls all read
        through it), so `Brain.open(path).ask(...)` answers what `kgbrain ask` answers.
        """
        from kgbrain.reasoning.views.timed import TimedStore

        return self if isinstance(self.store, TimedStore) else self.at(None)

    def _window(self) -> str | None:
        """How the time this Brain is as of was written (None: not as of a time)."""
        from kgbrain.reasoning.views.timed import TimedStore

        return self.store.window.text if isinstance(self.store, TimedStore) else None

    def _timeline(self) -> Timeline:
        found: Timeline | None = self.__dict__.get("_timeline_read")
        if found is None:
            from kgbrain.reasoning.views.timed import Timeline

            found = self.__dict__["_timeline_read"] = Timeline.read(self.store)
            if _forget_timeline not in self.load_hooks:
                self.load_hooks.append(_forget_timeline)
        return found

    @property
    def reasoner(self) -> Reasoner:
        """The reasoner over this knowledge base (created on first use; it then sees every load)."""
        found: Reasoner | None = self.__dict__.get("_reasoner")
        if found is None:
            from kgbrain.reasoning.answering.reasoner import Reasoner

            path = self.store.path
            found = Reasoner(self.store, index_dir=Path(f"{path}.reasoning") if path is not None else None)
            self.__dict__["_reasoner"] = found
            self.load_hooks.append(lambda brain, report: found.on_load(brain, report))
        return found

    def query(self, text: str) -> QueryResult:
        """Answer a SPARQL SELECT or a rule body (`student(X), takes_course(X, c0)`) with reasoning; never writes.

        Raises:
            InputError: bad syntax, or a SPARQL feature outside the supported subset (named in the message).
            StoreError: the store failed.
        """
        from kgbrain.reasoning.rules.query import run

        return run(self._current()._query_engine(), text)

    def _query_engine(self) -> QueryEngine:
        """The closure of the active facts under the stored rules, kept until the next write.

        Kept in the process and in `<db>.reasoning/` (reasoning/rules/closure_file.py) under the write counter, so a
        warm `kgbrain query` reads it back; as of a time (a `TimedStore`) it is built in the process, per mirror.
        """
        from kgbrain.memory.persisted import data_key
        from kgbrain.reasoning.views.timed import TimedStore

        counter = None if isinstance(self.store, TimedStore) else data_key(self.store)  # read before the facts
        key: object = counter if counter is not None else self.reasoner.graph()  # no counter: the mirror's identity
        cached = self.__dict__.get("_query")
        if cached is None or (cached[0] != key if counter is not None else cached[0] is not key):
            folder = self.reasoner.index_dir if counter is not None else None
            built = _query_engine(self.reasoner, self.store, self.rule_program, folder, counter)
            cached = self.__dict__["_query"] = (key, built)
        engine: QueryEngine = cached[1]
        return engine

    def rule_program(self) -> Program:
        """The strict rules that hold in this knowledge base: loaded rule files and ontologies' OWL 2 RL rules.

        (Defeasible conclusions are stored facts already: materialisation writes them at load.)
        """
        from kgbrain.reasoning.rules.rulebase import stored_program
        from kgbrain.ruleset import Program, RuleKind

        return Program(tuple(r for r in stored_program(self.store).rules if r.kind is RuleKind.STRICT))

    def check(self, subject: str, predicate: str, object: str, polarity: bool = True) -> Check:
        """Decide the statement `subject predicate object` (ids or names) by lookup and deduction.

        The single semantic entry point of verification and the cognitive loop: a yes/no question runs the
        same code (`Reasoner.decide`), including `has` read through parts and causal claims through
        chains. The result's outcome is
        SUPPORTED / REFUTED / CONFLICTING / UNKNOWN relative to the claimed `polarity`; its trace lists
        every step with a rule id, the fact ids and sources used and the step's confidence. Unknown names
        give UNKNOWN (the explanation lists close names); an object that names no concept is compared as
        an attribute value (`human_brain neuron_count 86000000000`).

        Raises:
            StoreError: the store failed.
        """
        return self._current().reasoner.check(subject, predicate, object, polarity)

    def warm(self) -> None:
        """Build (or load) the reasoner's views now, e.g. before forking verification workers.

        Raises:
            StoreError: the store failed.
        """
        self.reasoner.warm()

    def persist_views(self) -> None:
        """Save the views a new process opens instead of building them (the mirror and reachability labels) beside
        the database, unless they are there for the data as it is (then nothing is loaded), e.g. before Spark's
        executors open the knowledge base.

        Raises:
            StoreError: the store failed.
        """
        self.reasoner.persist_views()

    def adopt(self, other: Brain) -> None:
        """Reuse `other`'s reasoner views (same knowledge base, e.g. a forked worker's parent)."""
        self.reasoner.adopt(other.reasoner)

    def check_many(self, claims: Sequence[tuple[str, str, str] | tuple[str, str, str, bool]]) -> list[Check]:
        """`check` for many (subject, predicate, object[, polarity]) claims, in order, sharing caches.

        Raises:
            StoreError: the store failed.
        """
        return self._current().reasoner.check_many(claims)

    def ask(self, question: str) -> Answer:
        """Answer a question in Russian or English: hedged text first, with sources and the trace.

        Raises:
            InputError: the question is empty.
            StoreError: the store failed.
        """
        from kgbrain.output.pipeline import answer_of

        return answer_of(self.think(question))

    # -- the cognitive loop (seed 001) and the output layer (seed 000) -------------------------

    @property
    def config(self) -> Config:
        """Every weight and threshold of the loop and the output (defaults, or $KGBRAIN_CONFIG's TOML)."""
        found: Config | None = self.__dict__.get("_config")
        if found is None:
            from kgbrain.config import load_config

            found = self.__dict__["_config"] = load_config()
        return found

    @config.setter
    def config(self, value: Config) -> None:
        self.__dict__["_config"] = value
        self.__dict__.pop("_cognition", None)

    @property
    def cognition(self) -> Cognition:
        """The cognitive loop and output pipeline over this knowledge base (created on first use)."""
        found: Cognition | None = self.__dict__.get("_cognition")
        if found is None:
            from kgbrain.output.pipeline import Cognition

            found = self.__dict__["_cognition"] = Cognition.create(
                self.store, self.reasoner, self.config, record=self.record_actions
            )
            self.load_hooks.append(_names_changed)
        return found

    def think(self, question: str, *, goal_type: str | None = None, priority: float = 0.5) -> BrainOutput:
        """Run one cycle of the cognitive loop on a question and render its output.

        Goal, plan, Ring 1 and (on its triggers) Ring 2, hypotheses with scores, the chosen action and its
        alternatives, the validated hedged text, the trace (JSONL record and digest) and proposed actions.

        Raises:
            InputError: the question is empty, or the goal type or priority is invalid.
            StoreError: the store failed.
        """
        _askable(question)
        return _think(self._current(), question, goal_type, priority)

    def converse(
        self, question: str, *, session: str, goal_type: str | None = None, priority: float = 0.5
    ) -> BrainOutput:
        """`think` within a conversation: a follow-up ("Does it divide?", «А глиальные клетки?», "Why?") is read
        against the session's last question (reasoning/cognition/conversation.py) and the answer says how.

        Raises:
            InputError: the question is empty, or the goal type or priority is invalid.
            StoreError: the store failed.
        """
        _askable(question)
        return _converse(self, question, session, goal_type, priority)

    # -- episodic memory (memory/episodes.py) ---------------------------------------------------

    def record_episode(self, output: BrainOutput, *, channel: str, session: str = "") -> Episode:
        """Store what was asked and answered (`ask --record`, every question of a conversation).

        Raises:
            StoreError: the store failed or is read-only.
        """
        from kgbrain.memory import episodes
        from kgbrain.output.pipeline import answer_of

        a = answer_of(output)
        outcome = a.outcome.value if a.outcome else _found(a.data)
        return episodes.record(
            self.__dict__.get("_whole", self).store, question=output.question or a.question, intent=a.intent,
            concepts=a.concepts, answer=output.text, outcome=outcome, confidence=output.confidence,
            fact_ids=a.trace.fact_ids, channel=channel, session=session, as_of=output.as_of or "",
        )  # fmt: skip

    def record_turn(self, output: BrainOutput, *, channel: str, session: str) -> BrainOutput:
        """Record one turn of a conversation: an answer as an episode, a correction ("No, that is wrong: …")
        linked to the session's last episode; the output, its words saying where a correction went.

        Raises:
            StoreError: the store failed or is read-only.
        """
        from kgbrain.memory import episodes
        from kgbrain.reasoning.cognition.conversation import correction_sentence

        if output.corrects is None:
            self.record_episode(output, channel=channel, session=session)
            return output
        said, asked = output.corrects
        store = self.__dict__.get("_whole", self).store
        last = episodes.last_of_session(store, session)
        if last is not None:
            episodes.correct(store, last, said, by=f"{channel}:{session}")
        return replace(output, text=correction_sentence(output.language, asked, last, recorded=True))

    def history(self, *, concept: str | None = None, since: str | None = None) -> list[Episode]:
        """Recorded episodes, oldest first: about `concept` (a name or id) when given, asked at or after `since`.

        Raises:
            UnknownConcept: `concept` matches no concept.
            InvalidTime: `since` is not a date or date-time.
        """
        from kgbrain.memory import episodes

        return episodes.listed(self.store, concept=self.resolve(concept) if concept else "", since=since)

    def forget_episodes(self, before: str) -> int:
        """Delete the episodes asked before `before` (a date or date-time) with their corrections; how many.

        Raises:
            InvalidTime: `before` is not a date or date-time.
            StoreError: the store failed or is read-only.
        """
        from kgbrain.memory import episodes

        return episodes.forget_before(self.store, before)

    def correct_episode(self, episode_id: str, text: str, *, by: str) -> str:
        """Link a person's correction to an episode; the correction's id.

        Raises:
            InputError: no episode has this id, or the text is empty.
        """
        from kgbrain.memory import episodes

        return episodes.correct(self.__dict__.get("_whole", self).store, episode_id, text, by=by)

    def check_answer(self, draft: str, *, question: str = "", rules: str | Path | None = None) -> AnswerReport:
        """Check a draft answer written elsewhere: reasoning rules (TOML), claims against the KB, citations.

        Raises:
            InputError: the draft is empty or the rules file is bad.
            StoreError: the store failed.
        """
        from kgbrain.output.answer_check import check_answer, load_rules

        _within_limits(question=(question, MAX_QUESTION_CHARS), draft=(draft, MAX_DRAFT_CHARS))
        loaded = load_rules(rules) if rules is not None else []
        now = self._current()
        retriever = now.cognition.retriever
        reasoner = now.reasoner
        return check_answer(draft, question, loaded, retriever, decide=reasoner.check_many, sources=reasoner.sources)

    def why(self, name: str, limit: int = 5) -> list[CausalPath]:
        """Causal chains that lead to a concept (its causes), strongest first.

        Raises:
            UnknownConcept: `name` matches no concept.
            StoreError: the store failed.
        """
        now = self._current()
        return now.reasoner.causes_of(now.resolve(name), limit=limit)

    def path(self, source: str, target: str, limit: int = 5) -> list[CausalPath]:
        """Causal paths from one concept to another, strongest first (cycle-safe).

        Raises:
            UnknownConcept: a name matches no concept.
            StoreError: the store failed.
        """
        now = self._current()
        return now.reasoner.paths(now._resolve_as(source, "source"), now._resolve_as(target, "target"), limit=limit)

    def connect(self, source: str, target: str) -> Connection | None:
        """The shortest chain of facts (in either direction) linking two concepts, when any within 4 hops.

        Raises:
            UnknownConcept: a name matches no concept.
            StoreError: the store failed.
        """
        now = self._current()
        return now.reasoner.connection(now._resolve_as(source, "source"), now._resolve_as(target, "target"))

    def like(self, name: str, limit: int = 5) -> list[Analogy]:
        """Concepts structurally similar to a concept, with the structure they share (hypotheses).

        Raises:
            UnknownConcept: `name` matches no concept.
            StoreError: the store failed.
        """
        now = self._current()
        return now.reasoner.like(now.resolve(name), limit=limit)

    # -- conflicts and truth maintenance -------------------------------------------------------

    def conflicts(
        self, *, type: str | None = None, status: str | None = None, facts: Sequence[str] | None = None
    ) -> list[truth.ConflictRecord]:
        """Recorded conflicts, newest first, each with its facts, resolution and history.

        Args:
            type: one conflict type (`opposite_polarity`, `conflicting_value`, `source_conflict`,
                `relation_conflict`, `stale_evidence`).
            status: `open` or `resolved`.
            facts: only conflicts involving any of these fact ids.

        Raises:
            InputError: unknown type or status.
            StoreError: the store failed.
        """
        from kgbrain.reasoning.tms import resolution as truth
        from kgbrain.reasoning.tms.contradictions import ConflictType

        kind = _enum(ConflictType, type, "conflict type")
        state = _enum(truth.ConflictStatus, status, "conflict status")
        return truth.list_conflicts(self.store, type=kind, status=state, fact_ids=facts)

    def conflict_notes(self) -> list[ConflictNote]:
        """Every recorded conflict as a verdict reports it (id, type, status, resolution, facts, kept), newest
        first: what `conflicts()` lists, without the facts themselves.

        Raises:
            StoreError: the store failed.
        """
        from kgbrain.reasoning.answering.verify import stored_conflict_notes

        return stored_conflict_notes(self.store)

    def resolve_conflict(self, conflict_id: str, *, keep: str, by: str) -> truth.ConflictRecord:
        """Record a person's decision on a conflict: keep one fact, dispute its rivals, raise the person's trust.

        Raises:
            InputError: unknown conflict, or `keep` is not one of its facts.
            StoreError: the store failed.
        """
        return self.maintenance.resolve(conflict_id, keep=keep, by=by)

    def retract(self, fact_id: str, *, by: str | None = None, reason: str | None = None) -> truth.RetractResult:
        """Mark a fact retracted (kept with its history; reasoning ignores it from now on).

        Raises:
            InputError: unknown fact, or retracted already.
            StoreError: the store failed.
        """
        return self.maintenance.retract(fact_id, by=by, reason=reason)

    def retract_many(
        self, fact_ids: Sequence[str], *, by: str | None = None, reason: str | None = None
    ) -> list[truth.RetractResult]:
        """Retract several facts at once: all or none of them, with one truth-maintenance pass for all.

        Raises:
            InputError: an unknown fact, or one retracted already (then nothing is retracted).
            StoreError: the store failed.
        """
        return self.maintenance.retract_many(fact_ids, by=by, reason=reason)

    def explain(self, fact_id: str) -> Proof:
        """The derivation tree of a fact down to sourced facts, each step with its rule id.

        Raises:
            InputError: no fact has this id.
            StoreError: the store failed.
        """
        from kgbrain.reasoning.tms.proofs import explain

        proof = explain(self._current().store, fact_id)  # a fact out of time then reads `out_of_time`
        if proof is None:
            raise UnknownItem(f"Unknown fact {fact_id!r}; `kgbrain facts CONCEPT` shows fact ids.")
        return proof

    def rules(self) -> Program:
        """Every stored rule and superiority statement (from `.dl` files and ontologies).

        Raises:
            StoreError: the store failed.
        """
        from kgbrain.reasoning.rules.rulebase import stored_program

        return stored_program(self.store)

    def materialise(self, *, engine: str = "embedded", master: str | None = None) -> RunReport:
        """Run the stored rules to their fixpoint and store what they derive that is not stored yet (a load does
        this itself; after an interrupted one, this completes it). `engine="spark"` evaluates the joins on Spark
        (`master`, default local[*]) and stores the same facts and derivation records; strict rules only.

        Raises:
            InputError: an unknown engine, Spark without pyspark, or (NotOnEngine) defeasible rules on Spark.
            StoreError: the store failed.
            EngineError: Spark failed.
        """
        spec = _spark_spec(engine, master)
        if spec is None:
            from kgbrain.reasoning.rules.materialisation import materialise
            from kgbrain.reasoning.rules.rulebase import stored_program

            report = materialise(self.store, stored_program(self.store))
        else:
            from kgbrain.scale.materialise import materialise_on_spark

            report = materialise_on_spark(self.store, spec)
        self.changed()
        return report

    def scan_conflicts(self, *, engine: str = "embedded", master: str | None = None) -> truth.ScanResult:
        """Detect conflicts over the whole knowledge base and record the new ones; `engine="spark"` compares the
        facts on Spark (`master`, default local[*]) and records the same conflicts.

        Raises:
            InputError: an unknown engine, or Spark without pyspark.
            StoreError: the store failed.
            EngineError: Spark failed.
        """
        spec = _spark_spec(engine, master)
        if spec is None:
            return self.maintenance.scan()
        from kgbrain.scale.conflicts import pairwise_on_spark

        return self.maintenance.scan(partial(pairwise_on_spark, spec))

    def changed(self, report: LoadReport | None = None, *, delta: FactDelta | None = None) -> None:
        """Another connection to this database committed a write: bring what was built from the data up to date.

        `report` says what a load added (then only those concepts' names and vectors are re-read); None
        means statuses or confidences changed. `delta`, when recorded, is what the write did to the facts (the
        writing store's `take_delta`): the fact mirror applies it; otherwise it is re-read on next use.

        Raises:
            StoreError: the store failed.
        """
        from kgbrain.ingest.loader import LoadReport

        report = report or LoadReport(file="kgbrain:truth-maintenance")
        _forget_timeline(self, report)
        reasoner = self.__dict__.get("_reasoner")
        if reasoner is not None:
            reasoner.refresh(delta, report)
        if self.__dict__.get("_cognition") is not None:
            _names_changed(self, report)

    def _statuses_changed(self) -> None:
        # Statuses and confidences changed outside a load: caches built from the old ones must go, so a
        # conclusion drawn from a retracted premise disappears at once.
        self.__dict__.pop("_as_of", None)
        self.__dict__.pop("_now", None)
        reasoner = self.__dict__.get("_reasoner")
        if reasoner is not None:
            from kgbrain.ingest.loader import LoadReport

            reasoner.on_load(self, LoadReport(file="kgbrain:truth-maintenance"))


def _askable(question: str) -> None:
    if not question.strip():
        raise InputError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:  # linking costs grow faster than linearly with the length
        raise InputError(f"the question has {len(question):,} characters; ask at most {MAX_QUESTION_CHARS:,} at a time")


def _forget_timeline(brain: Brain, report: LoadReport | None) -> None:
    del report
    brain.__dict__.pop("_timeline_read", None)
    brain.__dict__.pop("_as_of", None)
    brain.__dict__.pop("_now", None)


# Knowledge bases as of a time kept per Brain (each holds a masked mirror and its own views).
AS_OF_KEPT = 4


def _as_of(brain: Brain, window: Window, timeline: Timeline) -> Brain:
    """The read-only Brain over `brain`'s store as of `window`, reused while the same facts are out of time."""
    from kgbrain.reasoning.answering.reasoner import Reasoner
    from kgbrain.reasoning.views.timed import TimedStore

    kept: dict[tuple[frozenset[str], str], Brain] = brain.__dict__.setdefault("_as_of", {})
    timed = TimedStore(brain.store, window, timeline)
    key = (timed.outside, window.text)
    found = kept.get(key)
    if found is not None:
        cast(TimedStore, found.store).window = window  # the same facts hold; "now" moved on
        return found
    full = brain.reasoner
    reasoner = Reasoner(cast(GraphStore, timed), mirror=lambda: full.graph().without(timed.outside))
    if not timed.outside:
        reasoner.adopt(full)  # nothing is out of time: the full views are the views as of it
    found = Brain(cast(GraphStore, timed))
    found.__dict__["_reasoner"] = reasoner
    found.__dict__["_config"] = brain.config
    found.record_actions = brain.record_actions
    found.__dict__["_whole"] = brain
    while len(kept) >= AS_OF_KEPT:
        kept.pop(next(iter(kept)))
    kept[key] = found
    return found


def _now(brain: Brain, timeline: Timeline) -> Brain:
    """`brain` as of now, worked out again only once an interval starts or ends (`Timeline.next_change`)."""
    from kgbrain.reasoning.views.timed import TimedStore
    from kgbrain.timeline import Window

    window = Window.now()
    kept: tuple[Brain, datetime] | None = brain.__dict__.get("_now")
    if kept is not None and window.start < kept[1]:
        cast(TimedStore, kept[0].store).window = window
        return kept[0]
    found = _as_of(brain, window, timeline)
    brain.__dict__["_now"] = (found, timeline.next_change(window.start))
    return found


def _think(brain: Brain, question: str, goal_type: str | None, priority: float) -> BrainOutput:
    """A question with a time in it ("in 2010", «до какого числа») is answered as of that time, or over all time
    for when a statement starts or stops holding, and its answer says so (output/time_words.py)."""
    from kgbrain.reasoning.nlu.valued import time_is_value
    from kgbrain.reasoning.nlu.when import read_time

    asked = read_time(question)
    if asked is not None and time_is_value(asked, lambda: brain.reasoner.understand(question)):
        asked = None  # "Was X founded in 1905?" claims a founding year; it is not asked as of 1905
    return _think_at(brain, question, asked, asked.question if asked else question, None, goal_type, priority)


def _think_at(
    brain: Brain,
    question: str,
    asked: TimeInQuestion | None,
    words: str,
    parsed: Question | None,
    goal_type: str | None,
    priority: float,
) -> BrainOutput:
    """`question` answered at the time `asked` names (None: this Brain's): its `words` without the time thought
    about, as `parsed` when it was understood already (a follow-up's slot replaced)."""
    if asked is None:
        return brain.cognition.think(words, goal_type=goal_type, priority=priority, parsed=parsed)
    from kgbrain.output.pipeline import answer_of
    from kgbrain.output.time_words import evidence_intervals, time_sentence
    from kgbrain.reasoning.nlu.when import Asks
    from kgbrain.reasoning.views.timed import TimedStore
    from kgbrain.timeline import Window

    whole: Brain = brain.__dict__.get("_whole", brain)
    if asked.asks in (Asks.BEFORE, Asks.AFTER):
        day = _next_to(whole, parsed or whole.reasoner.understand(words), asked)
        if day is None:  # "before" no stated value of the question's relation: the question as it was
            return _think_at(brain, question, None, question, None, goal_type, priority)
        asked = replace(asked, asks=Asks.AT, when=day)
    if asked.asks in (Asks.UNTIL, Asks.SINCE, Asks.WHEN):
        window = _own_window(whole, parsed or whole.reasoner.understand(words), asked.when)
        if asked.asks is Asks.SINCE and asked.when is None and window.end <= Window.now().start:
            # "Since when is X the mayor?" of a statement that has stopped holding: not "Yes", but the answer
            # as of now, and when it held
            return _no_longer(whole, question, words, window, goal_type, priority, parsed)
        timed = _as_of(whole, window, whole._timeline())
    else:
        timed = whole.at(asked.when if asked.asks is Asks.AT else None)
    output = timed.cognition.think(words, goal_type=goal_type, priority=priority, parsed=parsed)
    store = timed.store
    steps = answer_of(output).trace.steps
    spans = evidence_intervals(steps, store.timeline) if isinstance(store, TimedStore) else []
    if asked.asks is Asks.WHEN and not spans:  # "When was Moscow founded?" asks a value, not an interval
        return _think_at(brain, question, None, question, None, goal_type, priority)
    held = None
    if asked.asks in (Asks.AT, Asks.NOW):  # "Does permit 7 still permit night fishing?" of an ended one
        held = _held_then(whole, parsed or whole.reasoner.understand(words), output)
    words = time_sentence(asked, output.language, spans) + (f" {held}" if held else "")
    reading = f"{asked.phrase!r} read as {asked.asks.value}{' ' + asked.when if asked.when else ''}"
    return replace(output, text=f"{output.text} {words}", question=question, reading=reading)


def _held_then(whole: Brain, q: Question, output: BrainOutput) -> str | None:
    """When the statement a yes/no question asks about held, for an answer that found it only at another time
    ("It held from 2015-04-01 to 2022-10-31."); None when the answer decided it, or it states no interval."""
    from kgbrain.output.pipeline import answer_of
    from kgbrain.output.time_words import held_sentence
    from kgbrain.reasoning.results import Outcome
    from kgbrain.timeline import Window

    if answer_of(output).outcome is not Outcome.UNKNOWN:
        return None
    window = _own_window(whole, q, None)
    always = Window.always()
    if window.start == always.start and window.end == always.end:
        return None
    return held_sentence(window.start, window.end, output.language)


def _no_longer(
    whole: Brain,
    question: str,
    words: str,
    window: Window,
    goal_type: str | None,
    priority: float,
    parsed: Question | None,
) -> BrainOutput:
    """A "since when" question whose statement's latest stated interval has ended: answered as of now (so "No"
    where a successor holds), then the interval the statement held in."""
    from kgbrain.output.time_words import held_sentence

    output = whole.at(None).cognition.think(words, goal_type=goal_type, priority=priority, parsed=parsed)
    said = held_sentence(window.start, window.end, output.language)
    return replace(output, text=f"{output.text} {said}", question=question, reading="'since when' of a past statement")


def _next_to(whole: Brain, q: Question, asked: TimeInQuestion) -> str | None:
    """The day "before X" / "after X" names for a question for a relation's value ("Who coached Zenit before
    Spalletti?"): the last day of the latest other value that ended before X's stated interval started, or the first
    day of the earliest that started after it ended (a gap between them skipped); None when the words name no value
    of the question's relation with a stated interval, or none came before (after) it."""
    from kgbrain.reasoning.nlu.question import Intent
    from kgbrain.reasoning.nlu.when import Asks

    named = list(dict.fromkeys(whole.reasoner.linker.link(asked.when or "")))
    if q.intent is not Intent.WH or len(q.concepts) != 1 or len(named) != 1:
        return None
    terms = _terms(whole, q.concepts[0], named[0], q.verb)
    return _neighbour_day(*terms, before=asked.asks is Asks.BEFORE) if terms is not None else None


Span = tuple["datetime | None", "datetime | None"]


def _terms(whole: Brain, holder: str, value: str, verb: str) -> tuple[list[Span], list[Span]] | None:
    """The stated intervals of `holder`'s relation to `value` and of its other values (None: it has no stated
    interval with `value`); the relation is the one they share, the question's `verb` when they share several."""
    held = whole._timeline().intervals
    facts = [f for f in ConceptFacts.of(whole.store, holder).facts
             if f.subject == holder and f.object is not None and f.polarity and f.fact_id in held]  # fmt: skip
    own = [f for f in facts if f.object == value]
    if len({f.predicate for f in own}) > 1:
        own = [f for f in own if f.predicate == verb]
    if not own:
        return None
    predicate = own[0].predicate
    mine = [held[f.fact_id] for f in own if f.predicate == predicate]
    return mine, [held[f.fact_id] for f in facts if f.predicate == predicate and f.object != value]


def _neighbour_day(mine: list[Span], others: list[Span], *, before: bool) -> str | None:
    """The last day of the latest of `others` ending before `mine` start, or the first of the earliest starting
    after they end; a hand-over day belongs to both (the successor holds on it: Timeline.holding)."""
    from datetime import timedelta

    from kgbrain.timeline import Window, render_to

    always, day = Window.always(), timedelta(days=1)
    if before:
        start = min(s or always.start for s, _ in mine)
        ends = [e for _, e in others if e is not None and e <= start + day]
        return min(render_to(max(ends))[:10], (start - day).date().isoformat()) if ends else None
    end = max(e or always.end for _, e in mine)
    starts = [s for s, _ in others if s is not None and s >= end - day]
    return min(starts).date().isoformat() if starts else None


def _own_window(whole: Brain, q: Question, when: str | None) -> Window:
    """When a relation question's statement holds, for "since when" / "until when": the interval of its latest
    stated fact, so the values before and after it (successors of a functional predicate) are out of time; all
    time when it states none. A question for a value or a holder ("Who was the director of Acme in 2008?" then
    "Until when?") finds it as of `when` (the conversation's time; None: now), and the answer gives its interval."""
    from kgbrain.reasoning.nlu.question import Intent
    from kgbrain.timeline import Window

    always = Window.always()
    if q.intent in (Intent.WH, Intent.VALUE):
        return Window.parse(when) if when else Window.now()
    if q.intent is not Intent.DOES or len(q.concepts) != 2 or not q.verb:
        return always
    timeline = whole._timeline()
    held = timeline.holding if timeline.holding is not None else timeline.intervals
    s, o = q.concepts
    spans = [
        held[f.fact_id]
        for f in ConceptFacts.of(whole.store, s).facts
        if (f.subject, f.predicate, f.object) == (s, q.verb, o) and f.polarity and f.fact_id in held
    ]
    if not spans:
        return always
    start, end = max(spans, key=lambda span: span[0] or always.start)
    return Window(start or always.start, end or always.end, always.text)


def _converse(brain: Brain, question: str, session: str, goal_type: str | None, priority: float) -> BrainOutput:
    from kgbrain.reasoning.cognition.conversation import (
        Conversations,
        Focus,
        follow_up,
        is_correction,
        predicates_of,
        reading_sentence,
    )
    from kgbrain.reasoning.nlu.when import read_time

    whole: Brain = brain.__dict__.get("_whole", brain)
    talks: Conversations = whole.__dict__.setdefault("_conversations", Conversations())
    focus = talks.get(session)
    now = brain._current()
    if focus is not None and is_correction(question):
        return _correction_turn(now, question, focus.question, goal_type, priority)
    predicates = predicates_of(now.reasoner.vocabulary(), now.reasoner.graph().pred_names)
    concepts = _concepts_of(now.store)
    kb = _knowledge_of(now, concepts, predicates)
    read = follow_up(question, focus, now.reasoner.linker.link, predicates, concepts, kb)
    full = read.question if read is not None else question
    if read is not None and read.typed is not None:  # the last question with one slot replaced, as understood
        asked, typed = read.time, read.typed
        output = _think_at(now, full, asked, typed.text, typed, goal_type, priority)
    else:
        asked = read_time(full)
        output = now.think(full, goal_type=goal_type, priority=priority)
    names = tuple(output.result.retrieval.concepts.items())
    if names:
        result = output.result
        answered = _answered(output, result.parsed)
        talks.put(session, Focus(full, names, result.intent, output.language, result.parsed, asked, answered))
    if read is None:
        return output
    said = f"{read.said!r} read as {read.meant!r}"
    reading = f"{said}; {output.reading}" if output.reading else said
    text = f"{reading_sentence(read, output.language)} {output.text}"
    return replace(output, text=text, question=question, reading=reading)


# What an answer without a verdict found, by its kind (reasoning/answering/intents.py): nothing, or not understood.
_NOT_FOUND = frozenset({"not_understood", "unknown_concept", "no_answer", "ambiguous", "ambiguous_relation"})


def _found(data: Mapping[str, Any]) -> str:
    """An episode's outcome for an answer that has no verdict (a wh-, value, count or define question): `answered`
    when it found what was asked, `not_answered` when it found nothing or did not understand the question."""
    kind = str(data.get("kind", ""))
    return "not_answered" if not kind or kind in _NOT_FOUND or kind.startswith("no_") else "answered"


def _answered(output: BrainOutput, parsed: Question | None) -> tuple[str, ...]:
    """The concepts an answer named that its question did not: a wh-question's values ("Seaway")."""
    from kgbrain.output.pipeline import answer_of

    data = answer_of(output).data
    if data.get("kind") != "list" or parsed is None:
        return ()
    asked = set(parsed.concepts)
    named = [str(x) for fact in data.get("facts", []) for x in (fact[0], fact[2]) if str(x) not in asked]
    return tuple(dict.fromkeys(named))


def _knowledge_of(now: Brain, concepts: Concepts, predicates: Predicates) -> Knowledge:
    """What a follow-up's pronouns are resolved with: the question reader `ask` uses, labels, and whether the KB
    states a question's statement at any time (every stored fact, whatever its interval)."""
    from kgbrain.reasoning.cognition.referents import Knowledge

    whole: Brain = now.__dict__.get("_whole", now)

    def stated(q: Question) -> bool:
        from kgbrain.reasoning.nlu.question import Intent

        if q.intent is Intent.VALUE and len(q.concepts) == 2:
            holder, predicate, other = q.concepts[0], q.concepts[1], None
        elif q.intent is Intent.DOES and len(q.concepts) == 2 and q.verb:
            holder, predicate, other = q.concepts[0], q.verb, q.concepts[1]
        elif q.intent is Intent.WH and q.verb and q.concepts:
            holder, predicate, other = q.concepts[0], q.verb, None
        else:
            return True  # a statement of another kind (inherited, a norm): nothing to look up
        if not whole.store.run("concept_get", id=holder):
            return False
        facts = ConceptFacts.of(whole.store, holder).facts
        # "Who is the mayor of Harlow?" asks the holder's own value: Harlow being a mayor does not state it
        own = q.intent is Intent.WH and q.object == holder
        return any(
            f.predicate == predicate and f.polarity and holder in ((f.subject,) if own else (f.subject, f.object))
            and (other is None or (f.subject, f.object) == (holder, other))
            for f in facts
        )  # fmt: skip

    lexicon = now.reasoner.vocabulary()

    def names(text: str) -> str | None:
        from kgbrain.language import words

        found = lexicon.match(words(text))
        return found[0].predicate if found else None

    return Knowledge(now.reasoner.understand, concepts.label, stated, predicates.said, names)


def _concepts_of(store: GraphStore) -> Concepts:
    """A follow-up's view of the stored concepts: their kinds (`instance_of` / `is_a` parents) and labels."""
    from kgbrain.reasoning.cognition.conversation import Concepts

    seen: dict[str, ConceptFacts] = {}

    def of(cid: str) -> ConceptFacts | None:
        if cid not in seen and store.run("concept_get", id=cid):
            seen[cid] = ConceptFacts.of(store, cid)
        return seen.get(cid)

    def kinds(cid: str) -> frozenset[str]:
        found = of(cid)
        facts = found.facts if found is not None else []
        return frozenset(
            str(f.object) for f in facts if f.subject == cid and f.predicate in ("instance_of", "is_a") and f.polarity
        )

    def label(cid: str, lang: str) -> str:
        found = of(cid)
        labels = found.labels if found is not None else {}
        return labels.get(lang) or next(iter(labels.values()), cid)

    return Concepts(kinds, label)


def _correction_turn(now: Brain, said: str, last: str, goal_type: str | None, priority: float) -> BrainOutput:
    """A person's correction of the conversation's last answer (to `last`): that answer's reasoning again, with
    words saying it was understood as a correction (`Brain.record_turn` links it to the answer's episode). The
    conversation's focus stays on `last`."""
    from kgbrain.reasoning.cognition.conversation import correction_sentence

    output = now.think(last, goal_type=goal_type, priority=priority)
    text = correction_sentence(output.language, last, None, recorded=False)
    reading = f"{said!r} read as a correction of the answer to {last!r}"
    return replace(output, text=text, question=said, reading=reading, corrects=(said, last))


def _executor_as_of(as_of: str, path: Path) -> Brain:
    """A Spark executor's knowledge base as of the time the driver's is (`verify --engine spark --as-of`)."""
    import atexit

    base = Brain.open(path, read_only=True)
    atexit.register(base.close)  # the view's close leaves its store open: it belongs to `base`
    return base.at(None if as_of == "now" else as_of)


def _opened_as_of(opener: Callable[[], Brain], as_of: str) -> Brain:
    """A verification worker's knowledge base as of the time its parent's is."""
    return opener().at(None if as_of == "now" else as_of)


def _names_changed(brain: Brain, report: LoadReport) -> None:
    # The retriever's term index: add the names of the concepts this load touched (names are never removed).
    brain.cognition.retriever.invalidate(report.added.concepts() | report.annotated)


def _detect_conflicts(brain: Brain, report: LoadReport) -> tuple[Fact, ...]:
    from kgbrain.reasoning.tms.maintenance import detect_conflicts

    return detect_conflicts(brain.store, report)


def _read(
    store: GraphStore,
    found: Format,
    path: Path,
    *,
    source: str | None,
    trust: float | None,
    progress: Callable[[int], None],
) -> LoadBatch:
    """Read a facts file or ontology; an RDF reader gets the predicate IRIs the knowledge base holds."""
    from kgbrain.ingest.formats import Kind
    from kgbrain.ingest.loader import stored_predicate_iris, stored_same_iris, stored_with_parents

    read = found.read()  # imports the reader's module now: rdflib is slow to import, only ontologies need it
    known: dict[str, Any] = {}
    if found.kind is Kind.ONTOLOGY:
        from kgbrain.ingest.ontology import declaring_classes

        declaring = declaring_classes()
        parented = stored_with_parents(store, declaring.values())
        known = {
            "known_predicates": stored_predicate_iris(store),
            "known_concepts": stored_same_iris(store),
            "known_parented_types": {iri for iri, cid in declaring.items() if cid in parented},
        }
    batch: LoadBatch = read(path, source=source, trust=trust, fmt=found.name, progress=progress, **known)
    return batch


def _query_engine(
    reasoner: Reasoner, store: GraphStore, program: Callable[[], Program], folder: Path | None, counter: str | None
) -> QueryEngine:
    """A query engine over the closure of the active facts of the reasoner's mirror under the strict rules
    `program` gives; read from `folder` when it was saved there under the write counter `counter` (read before
    the facts), else built (and saved there)."""
    from kgbrain.ingest.rdf_mapping import RdfMapper
    from kgbrain.reasoning.rules import closure_file
    from kgbrain.reasoning.rules.executor import Closure, read_facts
    from kgbrain.reasoning.rules.query import QueryEngine, entailment_program

    def build() -> Closure:
        closure = Closure(read_facts(reasoner.graph(), store))
        closure.run(entailment_program(program()))
        return closure

    return QueryEngine(closure_file.load_or_build(folder, counter, build), cast(RdfMapper, _MapperOnUse(store)))


class _MapperOnUse:
    """The IRI mapping of ontology loading (`RdfMapper`), built when a query first names an IRI: building it
    imports rdflib and the loader and parses ontology/rdf_mapping.ttl, a third of a `kgbrain query` process on the
    demo, which most queries (rule bodies, SPARQL over prefixed names kgbrain made) never need."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._mapper: Any = None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        if self._mapper is None:
            from kgbrain.ingest.loader import stored_predicate_iris
            from kgbrain.ingest.ontology import load_mapping
            from kgbrain.ingest.rdf_mapping import RdfMapper

            known = stored_predicate_iris(self._store)
            self._mapper = RdfMapper(load_mapping(), file="", source="", trust=0.0, known_predicates=known)
        return getattr(self._mapper, name)


def _within_limits(**texts: tuple[str, int]) -> None:
    """Refuse a text longer than its limit, by name (a draft is checked claim by claim: keep the wait short).

    Raises:
        InputError: one is longer, named in the message.
    """
    for what, (text, limit) in texts.items():
        if len(text) > limit:
            raise InputError(f"the {what} has {len(text):,} characters; at most {limit:,} are checked at a time")


def _enum(kind: Any, value: str | None, what: str) -> Any:
    if value is None:
        return None
    try:
        return kind(value)
    except ValueError:
        raise InputError(f"Unknown {what} {value!r}; expected one of {', '.join(m.value for m in kind)}") from None


def _spark_spec(engine: str, master: str | None) -> SparkSpec | None:
    """Where an `engine` runs: None for the embedded engine, else Spark at `master` (default local[*]).

    Raises:
        InputError: an unknown engine.
    """
    if engine == "embedded":
        return None
    if engine != "spark":
        raise InputError(f"unknown engine {engine!r}: choose embedded or spark")
    from kgbrain.scale.session import DEFAULT_MASTER, SparkSpec

    return SparkSpec(master or DEFAULT_MASTER)


@contextmanager
def engine_started(engine: str, master: str | None) -> Iterator[None]:
    """Start `engine`'s session now, in the background, for the verification in this block (Spark: the driver JVM
    starts while the knowledge base opens and the claims are read); one nothing used is stopped at the end.

    Raises:
        InputError: an unknown engine.
    """
    spec = _spark_spec(engine, master)
    if spec is None:
        yield
        return
    from kgbrain.scale.session import started_early

    with started_early(spec):
        yield


def migrate(old: Path, new: Path, *, on_step: Callable[[str], None] | None = None) -> MigrationReport:
    """Copy the knowledge base `old`, written by Kùzu, into a new Ladybug file `new` (`kgbrain migrate`).

    Raises:
        InputError: `old` is missing or `new` exists.
        StoreError: Kùzu is not installed, `old` is no Kùzu knowledge base, or a step failed (no `new` then).
    """
    from kgbrain.store.engine_migration import migrate_from_kuzu

    return migrate_from_kuzu(old, new, on_step=on_step)


def demo_files() -> list[Path]:
    """The bundled demo knowledge base files."""
    return sorted(resource_dir("data/demo").glob("*.jsonl"))


def demo_path() -> Path:
    """Where the demo knowledge base is cached; built from the bundled files on first use."""
    files = demo_files()
    digest = hashlib.blake2b(digest_size=6)
    for f in files:
        digest.update(f.name.encode() + f.read_bytes())
    # A newer schema can mean a different build (e.g. conflicts recorded on load), so it is part of the key.
    digest.update(f"schema {latest_version()}".encode())
    # Built with a write counter, so its persisted indexes are found by it (a read-only open cannot add one).
    digest.update(b"write counter")
    # The engines cannot open each other's files (KGBRAIN_BACKEND), so each has its own demo.
    digest.update(f"engine {store_engine.backend()}".encode())
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kgbrain"
    path = cache / f"demo-{digest.hexdigest()}.kuzu"
    if not path.exists():
        _build_demo(path, files)
    return path


def _build_demo(path: Path, files: list[Path]) -> None:
    # Build beside the final name and move it into place, so a killed build never leaves half a demo.
    tmp = path.with_name(path.name + f".building-{os.getpid()}")
    with Brain.open(tmp) as brain:
        brain.load(files)
    if not path.exists():
        shutil.move(tmp, path)
    for leftover in tmp.parent.glob(tmp.name + "*"):
        leftover.unlink()
