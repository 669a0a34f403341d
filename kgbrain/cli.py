"""The kgbrain command line: parse arguments, call Brain, render. Logic lives in the library."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kgbrain.choices import ConflictStatus, ConflictType, GoalType, values
from kgbrain.errors import InputError, KgbrainError
from kgbrain.ingest import formats
from kgbrain.store.files import database_files, is_database, same_file

if TYPE_CHECKING:  # start-up counts: each command imports what it uses (pydantic, pyarrow, numpy are slow)
    from kgbrain.api import Brain, LoadProgress
    from kgbrain.output.verdicts import VerifySummary
    from kgbrain.reasoning.tms.resolution import ScanResult

DEFAULT_DB = Path("kgbrain.kuzu")  # kgbrain.api.DEFAULT_DB (a test keeps them equal)


class _Cli(click.Group):
    """Translates our errors once: InputError exits 2, any other KgbrainError exits 1, both as `Error: ...`."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        if parent is None:  # the whole command line: global options, the command, its arguments; and the environment
            from kgbrain.argv import not_text

            message = not_text(args, os.environ)
            if message is not None:
                raise click.UsageError(message)  # no context given: one `Error:` line, exit 2
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.BadParameter as exc:
            raise _one_line_usage(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return self._invoke(ctx)
        except BaseException:
            _failed(ctx)
            raise

    def _invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.BadParameter as exc:  # a command's own option: `export -o /tmp`
            raise _one_line_usage(exc) from None
        except InputError as exc:
            click.echo(f"Error: {_one_line(str(exc))}", err=True)
            _failed(ctx)  # before ctx.exit, which closes the session
            ctx.exit(2)
        except KgbrainError as exc:
            raise click.ClickException(_one_line(str(exc))) from exc
        except BrokenPipeError:  # `kgbrain export | head`: the reader has all it wanted
            sys.stderr.close()
            _failed(ctx)
            ctx.exit(1)
        except OSError as exc:  # a full disk, /dev/full, a path under a file: the environment, not a bug
            where = f"{exc.filename}: " if exc.filename else ""
            raise click.ClickException(_one_line(f"{where}{exc.strerror or exc}")) from exc


def _failed(ctx: click.Context) -> None:
    """Mark the command failed: a knowledge base it created is removed as its session closes."""
    if isinstance(ctx.obj, Session):
        ctx.obj.failed = True


def _one_line_usage(exc: click.BadParameter) -> click.BadParameter:
    # A bad value (`--db` naming a folder, also through KGBRAIN_DB) is one `Error:` line, exit 2, like any bad
    # input; click would print the usage and a hint above it. A missing argument keeps the usage: it says what to give.
    if not isinstance(exc, click.MissingParameter):
        exc.ctx = None
    return exc


def _one_line(message: str) -> str:
    """An error is one line (a parser's message may span several: rdflib's N-Quads errors quote the line)."""
    return " ".join(part.strip() for part in message.splitlines() if part.strip())


class Session:
    """Which knowledge base the command works on; opened lazily so `--help` never touches it."""

    def __init__(self, db: Path | None) -> None:
        self.db = db
        self.failed = False  # set when the command fails: a knowledge base it created is removed again
        self.demo = False
        self._brain: Brain | None = None
        self._created: list[Path] = []

    @property
    def path(self) -> Path:
        return self.db or DEFAULT_DB

    def brain(self, *, write: bool = False, create: bool = False) -> Brain:
        """The knowledge base; read-only unless the command writes (a reader never creates or changes one).

        Only `create` (init, load) makes a new one; any other write to a missing file fails, naming it, so a
        mistyped --db or a missing ./kgbrain.kuzu never becomes an empty knowledge base that hides the demo.
        """
        from kgbrain.api import Brain

        if self._brain is None:
            if self.db is None and not DEFAULT_DB.exists() and not write:
                click.echo("Using the bundled demo knowledge base (no --db given and no ./kgbrain.kuzu).", err=True)
                self.demo = True
                self._brain = Brain.demo(read_only=True, on_wait=_say_waiting)
            elif write and not create and not self.path.exists():
                raise InputError(
                    f"no knowledge base at {str(self.path)!r}: `kgbrain init` or `kgbrain load FILE` creates one, "
                    "--db names another (the bundled demo is read-only)"
                )
            else:
                existed, before = self.path.exists(), database_files(self.path)
                folder = next((p for p in reversed(self.path.parents) if not p.exists()), None)
                self._brain = Brain.open(self.path, read_only=not write, on_wait=_say_waiting)
                if write and not existed:
                    self._created = [folder] if folder else sorted(database_files(self.path) - before)
        return self._brain

    def target(self) -> tuple[Path | None, bool]:
        """The knowledge base file a long-running command opens itself, and whether it is the bundled demo."""
        if self.db is None and not DEFAULT_DB.exists():
            click.echo("Using the bundled demo knowledge base (no --db given and no ./kgbrain.kuzu).", err=True)
            return None, True
        return self.db or DEFAULT_DB, False

    def close(self) -> None:
        if self._brain is not None:
            self._brain.close()
        if self.failed:
            for created in self._created:
                _remove(created)
        elif self._created:
            click.echo(f"Created a new knowledge base at {self.path}.", err=True)


def _remove(path: Path) -> None:
    import shutil

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _say_waiting(message: str) -> None:
    click.echo(message, err=True)


def echo_json(data: Any) -> None:
    """Print one JSON document (UTF-8 kept readable)."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


@contextmanager
def progress_bar(label: str) -> Iterator[LoadProgress | None]:
    """A progress bar on stderr when it is a terminal; nothing otherwise (pipes stay machine-readable)."""
    if not sys.stderr.isatty():
        yield None
        return
    bars: dict[str, Any] = {}
    try:

        def update(name: str, done: int, total: int) -> None:
            if name not in bars:
                bars[name] = click.progressbar(
                    length=max(total, 1), label=f"{label} {Path(name).name}", file=sys.stderr
                )
                bars[name].__enter__()
            bar = bars[name]
            bar.update(max(0, min(done, total) - bar.pos))

        yield update
    finally:
        for bar in bars.values():
            bar.__exit__(None, None, None)


@click.group(cls=_Cli)
@click.option(
    "--db",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="KGBRAIN_DB",
    help="Knowledge base file (env KGBRAIN_DB; default ./kgbrain.kuzu, or the bundled demo when that is absent).",
)
@click.version_option(package_name="kgbrain")
@click.pass_context
def cli(ctx: click.Context, db: Path | None) -> None:
    """kgbrain: explainable reasoning over a knowledge graph, in Russian and English."""
    session = Session(db)
    ctx.obj = session
    ctx.call_on_close(session.close)


pass_session: Callable[..., Any] = click.pass_obj
F = TypeVar("F", bound=Callable[..., Any])


@cli.command()
@pass_session
def init(session: Session) -> None:
    """Create an empty knowledge base (or migrate an older one)."""
    brain = session.brain(write=True, create=True)
    click.echo(f"Knowledge base ready at {session.db or DEFAULT_DB} (schema version {brain.stats().schema_version}).")


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--source", help="Source name for rows without one (default: the file name; an ontology's without extensions)."
)
@click.option("--trust", type=float, help="Trust 0..1 for rows without one (default 0.5).")
@click.option(
    "--format",
    "fmt",
    help=f"Override the format taken from the extension ({', '.join(formats.load_names())}).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the load report as JSON.")
@pass_session
def load(
    session: Session, files: tuple[Path, ...], source: str | None, trust: float | None, fmt: str | None, as_json: bool
) -> None:
    """Load facts files (JSONL/CSV/TSV), ontologies and Parquet exports (a folder): all of FILES or none of them.

    A bad row, a parse error or a missing file anywhere leaves the knowledge base as it was, every file out.
    Without --db and ./kgbrain.kuzu, this creates ./kgbrain.kuzu (and says so); a failed load creates nothing.
    """
    with progress_bar("loading") as progress:
        brain = session.brain(write=True, create=True)
        try:
            reports = brain.load(files, source=source, trust=trust, fmt=fmt, progress=progress)
        except KgbrainError as exc:
            if len(files) == 1:
                raise
            kind = InputError if isinstance(exc, InputError) else KgbrainError
            raise kind(f"{exc}; none of the {len(files)} files was loaded (a load is all of them or none)") from exc
    if as_json:
        from kgbrain.models import LoadReportOut

        echo_json([LoadReportOut.from_report(r).model_dump() for r in reports])
        return
    for r in reports:
        if r.nothing:
            click.echo(f"{r.file}: nothing to load")
            continue
        click.echo(
            f"{r.file}: {r.facts_added} facts added, {r.duplicates_skipped} duplicates skipped, "
            f"{r.concepts_created} concepts created, {r.names_added} names, {r.predicates_declared} predicates declared"
        )
        if r.per_predicate:
            click.echo("  " + ", ".join(f"{p}={n}" for p, n in r.per_predicate.items()))
        if r.owl2rl:
            click.echo("  OWL 2 RL rules: " + ", ".join(f"{k}={n}" for k, n in r.owl2rl.items()))
        if r.skipped:
            click.echo("  skipped: " + ", ".join(f"{k}={n}" for k, n in sorted(r.skipped.items())))
        if r.extra:
            click.echo("  " + ", ".join(f"{k}={n}" for k, n in r.extra.items()))


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_session
def stats(session: Session, as_json: bool) -> None:
    """Count concepts, facts per predicate and status, and sources."""
    s = session.brain().stats()
    if as_json:
        from kgbrain.models import StatsOut

        echo_json(StatsOut.from_stats(s).model_dump())
        return
    click.echo(f"concepts: {s.concepts} ({s.individuals} individuals)")
    click.echo(f"facts: {s.facts} ({s.active_facts} active)  sources: {s.sources}  schema: v{s.schema_version}")
    click.echo("statuses: " + ", ".join(f"{k}={v}" for k, v in s.statuses.items()))
    for predicate, n in sorted(s.predicates.items(), key=lambda kv: (-kv[1], kv[0])):
        click.echo(f"  {predicate:<24} {n}")


def _checked_time(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`--as-of` read before the command runs, so that a bad one is an error naming the option."""
    from kgbrain.timeline import InvalidTime, Window

    if value is not None:
        try:
            Window.parse(value)
        except InvalidTime as exc:
            raise click.BadParameter(str(exc)) from None
    return value


as_of_option = click.option(
    "--as-of",
    "as_of",
    metavar="DATE",
    callback=_checked_time,
    help="Use only facts valid at this time: YYYY, YYYY-MM, YYYY-MM-DD or an ISO date-time (default: now).",
)


@cli.command()
@click.argument("concept")
@as_of_option
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_session
def facts(session: Session, concept: str, as_of: str | None, as_json: bool) -> None:
    """Show every fact about CONCEPT with its provenance and status."""
    c = session.brain().at(as_of).facts(concept)
    if as_json:
        from kgbrain.models import ConceptFactsOut

        echo_json(ConceptFactsOut.from_concept(c).model_dump())
        return
    from kgbrain.timeline import describe

    names = ", ".join(f"{n['text']}@{n['lang']}" if n["lang"] else n["text"] for n in c.names if n["kind"] != "id")
    click.echo(f"{c.id} ({c.kind}){': ' + names if names else ''}")
    for f in c.facts:
        sign = "" if f.polarity else "NOT "
        tier = f" {f.authority.value}" if f.authority else ""
        when = f" observed {f.observed_at:%Y-%m-%d}" if f.observed_at else ""
        when += f" valid {describe(f.valid_from, f.valid_to)}" if f.valid_from or f.valid_to else ""
        click.echo(
            f"  {f.subject} {sign}{f.predicate} {f.target}  [{f.status.value}, conf {f.confidence:.2f}, "
            f"{f.source} trust {f.trust:.2f}{tier}{when}] {f.fact_id}"
        )


@cli.command()
@pass_session
def compact(session: Session) -> None:
    """Merge the facts recent loads left in the delta tables into the main ones (for idle time; loads do it by
    themselves past KGBRAIN_DELTA_MERGE_ROWS facts). All or nothing; answers stay the same."""
    moved = session.brain(write=True).compact()
    click.echo(f"{moved} facts merged into the main tables." if moved else "Nothing to merge.")


@cli.command()
@click.argument("old", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("new", type=click.Path(path_type=Path, dir_okay=False))
def migrate(old: Path, new: Path) -> None:
    """Copy a knowledge base written by Kùzu (kgbrain before schema 6) into a new Ladybug file NEW.

    OLD is left as it was; NEW appears only when every table arrived whole. Needs `pip install 'kgbrain[kuzu]'`.
    """
    from kgbrain.api import migrate as migrate_database

    report = migrate_database(old, new, on_step=lambda step: click.echo(step, err=True))
    rows = sum(report.rows.values())
    click.echo(
        f"Migrated {old} to {new}: {rows} rows in {len(report.rows)} tables, schema version {report.schema_version}."
    )


@cli.command()
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True, path_type=Path),
    default="-",
    help="Output file (default stdout); written whole or not at all.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help="parquet: a folder of facts.parquet, records.parquet and manifest.json (`kgbrain load DIR` reads it).",
)
@click.argument("folder", required=False, type=click.Path(file_okay=False, path_type=Path))
@pass_session
def export(session: Session, output: Path, fmt: str, folder: Path | None) -> None:
    """Write the whole knowledge base as JSONL (or a Parquet folder) that `kgbrain load` reads back losslessly."""
    if fmt == "parquet":
        if folder is None or str(output) != "-":
            raise InputError("--format parquet writes a folder: `kgbrain export --format parquet DIR` (no -o)")
        refuse_overwrite(session, folder, "DIR")
        manifest = session.brain().export_parquet(folder)
        rows = sum(f["rows"] for f in manifest["files"].values())
        click.echo(f"{rows} rows written to {folder} (write counter {manifest['write_counter']})", err=True)
        return
    if folder is not None:
        raise InputError("a folder is written with --format parquet; JSONL goes to -o FILE or stdout")
    if str(output) == "-":
        session.brain().export(sys.stdout)
        sys.stdout.flush()
        return
    brain = session.brain()
    refuse_overwrite(session, output, "-o")
    with whole_file(output) as fh:
        n = brain.export(fh)
    click.echo(f"{n} rows written", err=True)


def refuse_overwrite(session: Session, output: Path, option: str, *inputs: Path) -> None:
    """Refuse an output file that is the knowledge base, one of its files, any database, or one of the inputs:
    writing it would destroy what the command reads."""
    if any(same_file(output, path) for path in inputs):
        raise InputError(f"{option} {str(output)!r} is the command's input; name another output file")
    if any(same_file(output, path) for path in database_files(session.path)):
        raise InputError(f"{option} {str(output)!r} is the knowledge base's own file; name another output file")
    if is_database(output):
        raise InputError(f"{option} {str(output)!r} is a knowledge base; it is not overwritten, name another file")


@contextmanager
def whole_file(path: Path) -> Iterator[Any]:
    """Write `path` through a temporary file beside it, moved into place only when everything was written: an
    export that fails half-way (a full disk, a killed process, a store error) leaves an earlier file as it was.
    A device or a pipe (/dev/null, /dev/full) is written directly."""
    if path.exists() and not path.is_file():
        with path.open("w", encoding="utf-8") as fh:
            yield fh
            fh.flush()  # a full device shows here, before the count is reported
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        temporary.replace(path)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def verify_progress() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar with rate and ETA on stderr when it is a terminal; nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    started = time.monotonic()
    state: dict[str, Any] = {}

    def rate(_: Any) -> str:
        elapsed = time.monotonic() - started
        return f"{state.get('fresh', 0) / elapsed:,.0f} claims/s" if elapsed > 0 else ""

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            state["first"] = done
            state["bar"] = click.progressbar(
                length=max(total, 1), label="verifying", file=sys.stderr, show_pos=True, item_show_func=rate
            )
            state["bar"].__enter__()
        bar = state["bar"]
        state["fresh"] = done - state["first"]
        bar.length = max(total, 1)
        bar.update(max(0, done - bar.pos), current_item=done)

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)


def engine_options(command: F) -> F:
    """--engine and --master: run the command's bulk work here or on Spark (kgbrain/scale)."""
    command = click.option(
        "--master", help="Spark master URL for --engine spark (default local[*]; spark://host:7077, yarn, ...)."
    )(command)
    return click.option(
        "--engine",
        type=click.Choice(["embedded", "spark"]),
        default="embedded",
        show_default=True,
        help="Where the work runs: in this process, or on Spark's executors (the same results).",
    )(command)


@cli.command()
@click.argument("claims", type=click.Path(path_type=Path, dir_okay=False))
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), help="Verdicts file (default stdout).")
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Processes, each reading the KB (at most the cores this process may use; more run as many as that).",
)
@click.option("--closed-world", is_flag=True, help="What cannot be proved is REFUTED (default: NOT_ENOUGH_INFO).")
@click.option(
    "--min-confidence", type=click.FloatRange(0, 1), default=0.0, show_default=True, help="Weaker is NOT_ENOUGH_INFO."
)
@click.option("--resume", is_flag=True, help="Keep the verdicts an interrupted run left in OUTPUT; verify the rest.")
@click.option("--format", "fmt", type=click.Choice(formats.claims_names()), help="Override the file extension.")
@click.option("--batch-size", type=click.IntRange(1), default=256, show_default=True, help="Claims per batch.")
@engine_options
@as_of_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@pass_session
def verify(
    session: Session,
    claims: Path,
    output: Path | None,
    workers: int,
    closed_world: bool,
    min_confidence: float,
    resume: bool,
    fmt: str | None,
    batch_size: int,
    engine: str,
    master: str | None,
    as_of: str | None,
    as_json: bool,
) -> None:
    """Verify each claim in CLAIMS: SUPPORTED, REFUTED, CONFLICTING or NOT_ENOUGH_INFO, with proof (JSONL).

    CLAIMS is a .jsonl, .csv or .tsv file of structured claims (subject, predicate, object) or sentences
    (text). Verdicts go to OUTPUT (default stdout) in input order; the summary goes to stdout, or to
    stderr when the verdicts do.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if workers > cores:  # more processes than cores only add memory and switching
        click.echo(f"--workers {workers}: using {cores}, the cores this process may use.", err=True)
        workers = cores
    from kgbrain.api import engine_started

    with engine_started(engine, master):  # Spark's JVM starts while the knowledge base opens
        brain = session.brain().at(as_of)
        if output is not None:
            refuse_overwrite(session, output, "-o", claims)
            from kgbrain.output.verdicts import side_files

            for side in side_files(output):  # written (and truncated) while the run goes on
                refuse_overwrite(session, side, f"-o {str(output)!r}: the file beside it", claims)
        with verify_progress() as progress:
            summary = brain.verify_file(
                claims,
                output,
                stream=None if output else sys.stdout,
                resume=resume,
                closed_world=closed_world,
                min_confidence=min_confidence,
                workers=workers,
                fmt=fmt,
                progress=progress,
                batch_size=batch_size,
                engine=engine,
                master=master,
            )
    # With the verdicts on stdout, the summary goes to stderr so the JSONL stays clean.
    to_err = output is None
    if as_json:
        from kgbrain.models import VerifySummaryOut

        data = VerifySummaryOut.from_summary(summary).model_dump()
        click.echo(json.dumps(data, ensure_ascii=False, indent=2), err=to_err)
        return
    for line in summary_table(summary):
        click.echo(line, err=to_err)


def summary_table(s: VerifySummary) -> list[str]:
    """The end-of-run table: claims per verdict, then totals and rate."""
    lines = [f"{'verdict':<16} {'claims':>9}"]
    lines += [f"{kind:<16} {n:>9,}" for kind, n in s.counts.items()]
    resumed = f" ({s.resumed:,} from an earlier run)" if s.resumed else ""
    lines.append(f"{'total':<16} {s.claims:>9,}{resumed}")
    lines.append(f"{s.checked:,} claims in {s.seconds:.2f} s: {s.rate:,.0f} claims/s with {s.workers} worker(s)")
    if s.torn_line_rewritten:
        lines.append("a torn last line left by the interrupted run was rewritten")
    return lines


@cli.command()
@click.option("--type", "kind", type=click.Choice(values(ConflictType)), help="Only conflicts of this type.")
@click.option("--status", type=click.Choice(values(ConflictStatus)), help="Only open or only resolved conflicts.")
@click.option("--scan", is_flag=True, help="Scan the whole knowledge base for new conflicts first.")
@engine_options
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_session
def conflicts(
    session: Session, kind: str | None, status: str | None, scan: bool, engine: str, master: str | None, as_json: bool
) -> None:
    """List recorded conflicts with their facts, resolution and explanation (--scan --engine spark: scan on Spark)."""
    from kgbrain.models import ConflictOut  # models imports pydantic; only --json needs it

    brain = session.brain(write=scan)
    if scan:
        click.echo(_scan_line(brain.scan_conflicts(engine=engine, master=master)), err=True)
    found = brain.conflicts(type=kind, status=status)
    if as_json:
        echo_json([ConflictOut.from_record(c).model_dump() for c in found])
        return
    for c in found:
        click.echo(f"{c.id}  {c.type.value}  {c.status.value} ({c.strategy.value})")
        for f in c.facts:
            kept = "  <- kept" if f.fact_id == c.kept_fact else ""
            sign = "" if f.polarity else "NOT "
            click.echo(
                f"  {f.fact_id}  {f.subject} {sign}{f.predicate} {f.target}  "
                f"[{f.status.value}, conf {f.confidence:.2f}, {f.source}]{kept}"
            )
        click.echo(f"  {c.explanation}")
    if not found:
        click.echo("No conflicts recorded." + ("" if scan else " (`kgbrain check-conflicts` scans the whole base.)"))


def _scan_line(result: ScanResult) -> str:
    return f"{result.found} conflicts in the knowledge base, {len(result.recorded)} newly recorded."


@cli.command()
@engine_options
@pass_session
def materialise(session: Session, engine: str, master: str | None) -> None:
    """Run the stored rules to their fixpoint and store what they derive that is not stored yet.

    A load runs them already; this completes an interrupted run, or runs the joins on Spark (--engine spark: strict,
    stratified rules; the same facts and derivation records as the embedded engine).
    """
    report = session.brain(write=True).materialise(engine=engine, master=master)
    click.echo(
        f"{report.derived:,} facts and {report.derivations:,} derivations added in {report.iterations} round(s)."
    )


@cli.command("check-conflicts")
@engine_options
@pass_session
def check_conflicts(session: Session, engine: str, master: str | None) -> None:
    """Scan the whole knowledge base for conflicts and record the new ones."""
    click.echo(_scan_line(session.brain(write=True).scan_conflicts(engine=engine, master=master)))


@cli.command()
@click.argument("conflict_id")
@click.option("--keep", required=True, help="Fact id to keep (one of the conflict's facts).")
@click.option("--by", default=lambda: os.environ.get("USER") or "user", show_default="$USER", help="Who decides.")
@pass_session
def resolve(session: Session, conflict_id: str, keep: str, by: str) -> None:
    """Record a person's decision on CONFLICT_ID: keep one fact, dispute its rivals."""
    c = session.brain(write=True).resolve_conflict(conflict_id, keep=keep, by=by)
    click.echo(f"{c.id} resolved by {c.resolved_by}: kept {c.kept_fact}.")


@cli.command()
@click.argument("fact_ids", metavar="FACT_ID...", nargs=-1, required=True)
@click.option("--by", default=lambda: os.environ.get("USER") or "user", show_default="$USER", help="Who retracts it.")
@click.option("--reason", help="Why (kept with the retraction record).")
@pass_session
def retract(session: Session, fact_ids: tuple[str, ...], by: str, reason: str | None) -> None:
    """Mark facts retracted: they stay with their history, but reasoning no longer uses them.

    Several FACT_IDs are retracted together, all or none, with one truth-maintenance pass.
    """
    brain = session.brain(write=True)
    if len(fact_ids) == 1:
        results = [brain.retract(fact_ids[0], by=by, reason=reason)]
    else:
        results = brain.retract_many(fact_ids, by=by, reason=reason)
    for r in results:
        closed = f"; closed {len(r.closed)} open conflict(s)" if r.closed else ""
        click.echo(f"{r.fact.fact_id} retracted (was {r.previous_status.value}){closed}.")


@cli.command()
@click.option("--cypher", is_flag=True, help="Print each rule's compiled Cypher statement and parameters.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_session
def rules(session: Session, cypher: bool, as_json: bool) -> None:
    """List the stored rules (from .dl files and ontologies) and superiority statements."""
    from kgbrain.reasoning.rules.compile import compile_rule

    program = session.brain().rules()
    if as_json:
        out = [
            {
                "id": r.id,
                "text": str(r),
                "kind": r.kind.value,
                "origin": r.origin,
                "authority": r.authority,
                **({"cypher": compile_rule(r).text, "params": compile_rule(r).params} if cypher else {}),
            }
            for r in program.rules
        ]
        echo_json({"rules": out, "superiority": [str(s).rstrip(".") for s in program.superiority]})
        return
    for r in program.rules:
        click.echo(f"{r}  % {r.origin}" if r.origin else str(r))
        if cypher:
            compiled = compile_rule(r)
            click.echo("  " + compiled.text.replace("\n", "\n  "))
            click.echo(f"  params: {json.dumps(compiled.params, ensure_ascii=False, default=str)}")
    for sup in program.superiority:
        click.echo(str(sup))
    if not program.rules:
        click.echo("No rules stored. (`kgbrain load rules.dl` adds some.)")


@cli.command()
@click.argument("fact_id")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@as_of_option
@pass_session
def explain(session: Session, fact_id: str, as_json: bool, as_of: str | None) -> None:
    """Show how FACT_ID holds: its derivation tree down to sourced facts, each step with its rule id.

    With --json: the fact with its provenance and status, that tree, and the conflicts it is part of (the body of
    HTTP's GET /v1/facts/{id}/explain and MCP's `explain`).
    """
    from kgbrain.reasoning.tms.proofs import proof_lines

    if as_json:
        from kgbrain.models import ExplanationOut

        echo_json(ExplanationOut.of(session.brain().at(as_of), fact_id).model_dump())
        return
    for line in proof_lines(session.brain().at(as_of).explain(fact_id)):
        click.echo(line)


_config_option = click.option(
    "--config",
    "config_file",
    type=click.Path(path_type=Path, dir_okay=False),
    envvar="KGBRAIN_CONFIG",
    help="TOML file overriding the loop's weights and thresholds (env KGBRAIN_CONFIG).",
)


def _cognitive_brain(
    session: Session, config_file: Path | None, log_dir: Path | None = None, *, record: bool = False
) -> Any:
    from dataclasses import replace

    from kgbrain.config import load_config

    # A question only reads (so it never waits for, or locks out, a writer) unless its outcome is recorded.
    brain = session.brain(write=record)
    brain.record_actions = record
    config = load_config(config_file)
    brain.config = replace(config, logs=replace(config.logs, directory=str(log_dir))) if log_dir else config
    return brain


@cli.command()
@click.argument("question")
@click.option(
    "--trace", "show_trace", is_flag=True, help="Also print the digest: goal, hypotheses, action, why, alternatives."
)
@click.option("--json", "as_json", is_flag=True, help="Print the full structured result as JSON.")
@click.option(
    "--goal", type=click.Choice(values(GoalType)), help="Goal type (default: verify_claim for yes/no questions)."
)
@click.option("--priority", type=click.FloatRange(0.0, 1.0), default=0.5, show_default=True, help="Goal priority 0..1.")
@click.option(
    "--log-dir", type=click.Path(path_type=Path, file_okay=False), help="Write brain.jsonl, errors.jsonl, digests here."
)
@click.option(
    "--record",
    is_flag=True,
    help="Store the question and answer as an episode and count the chosen action (writes to the KB).",
)
@as_of_option
@_config_option
@pass_session
def ask(
    session: Session,
    question: str,
    show_trace: bool,
    as_json: bool,
    goal: str | None,
    priority: float,
    log_dir: Path | None,
    record: bool,
    as_of: str | None,
    config_file: Path | None,
) -> None:
    """Answer QUESTION (Russian or English) through the cognitive loop: hedged, sourced, traced."""
    from kgbrain.language import prepare

    prepare(question)  # Russian morphology loads while the knowledge base opens
    brain = _cognitive_brain(session, config_file, log_dir, record=record)
    output = brain.at(as_of).think(question, goal_type=goal, priority=priority)
    if record:
        brain.record_episode(output, channel="cli")
    if as_json:
        from kgbrain.models import AskOut

        echo_json(AskOut.from_output(output).model_dump())
        return
    click.echo(output.text)
    _say_which_base(session, brain, output)
    if show_trace:
        click.echo(output.digest)
        if output.result.selected is not None:
            click.echo("  Chain:")
            _echo_steps(output.result.selected.trace.steps)


def _say_which_base(session: Session, brain: Brain, output: Any) -> None:
    """An unknown concept asked of an empty or a user's knowledge base: say which one answered (on stderr), since
    the same question answered from the demo before ./kgbrain.kuzu existed."""
    result = output.result
    unknown = result.uncertainty.missing_concepts or any(
        a.data.get("kind") == "unknown_concept" for a in result.answers
    )
    if not unknown or session.demo:
        return
    facts = brain.stats().facts
    if facts == 0:
        click.echo(
            f"Note: the knowledge base {str(session.path)!r} holds no facts (`kgbrain load FILE` adds some); "
            "the bundled demo answers only when there is no --db and no ./kgbrain.kuzu.",
            err=True,
        )
    else:
        click.echo(f"Note: asked of {str(session.path)!r} ({facts:,} facts), not the bundled demo.", err=True)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print each answer as one JSON line.")
@click.option(
    "--record",
    is_flag=True,
    help="Store each answer as an episode of this conversation, and a correction ('No, that is wrong: ...') "
    "linked to the last one (writes to the KB).",
)
@as_of_option
@_config_option
@pass_session
def chat(session: Session, as_json: bool, record: bool, as_of: str | None, config_file: Path | None) -> None:
    """A conversation: one question per line (a prompt on a terminal); follow-ups ("Does it divide?",
    «А глиальные клетки?», "Why?") are read against the last question."""
    import uuid

    from kgbrain.errors import InputError

    brain = _cognitive_brain(session, config_file, record=record)
    talk = f"chat-{uuid.uuid4().hex[:12]}" if record else "chat"  # its episodes, apart from other chats'
    interactive = sys.stdin.isatty()
    while True:
        line = click.prompt("?", default="", show_default=False) if interactive else sys.stdin.readline()
        if not interactive and not line:
            return
        if not line.strip():
            continue
        try:
            output = brain.at(as_of).converse(line.strip(), session=talk)
        except InputError as exc:
            click.echo(f"Error: {exc}", err=True)
            continue
        if record:
            output = brain.record_turn(output, channel="cli", session=talk)
        if as_json:
            from kgbrain.models import AskOut

            click.echo(json.dumps(AskOut.from_output(output).model_dump(), ensure_ascii=False))
        else:
            click.echo(output.text)


@cli.command()
@click.option("--concept", help="Only episodes about this concept (id, label or alias).")
@click.option("--since", metavar="DATE", help="Only episodes asked at or after this date or date-time.")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@pass_session
def history(session: Session, concept: str | None, since: str | None, as_json: bool) -> None:
    """List the recorded episodes (questions asked and answered, with corrections), oldest first."""
    found = session.brain().history(concept=concept, since=since)
    if as_json:
        echo_json([e.as_dict() for e in found])
        return
    for e in found:
        click.echo(f"{e.id}  {e.asked_at:%Y-%m-%d %H:%M:%S}  [{e.channel}{' ' + e.session if e.session else ''}]")
        click.echo(f"  Q: {e.question}\n  A: {e.answer}")
        for c in e.correction_records:
            click.echo(f"  corrected by {c.by} at {c.made_at:%Y-%m-%d %H:%M:%S}: {c.text}")
    click.echo(f"({len(found)} episode{'s' if len(found) != 1 else ''})", err=True)


@cli.command("forget-episodes")
@click.option("--before", required=True, metavar="DATE", help="Delete the episodes asked before this time.")
@pass_session
def forget_episodes(session: Session, before: str) -> None:
    """Delete recorded episodes asked before DATE, with their corrections (facts are never deleted)."""
    count = session.brain(write=True).forget_episodes(before)
    click.echo(f"Forgot {count} episode{'s' if count != 1 else ''} asked before {before}.")


@cli.command()
@click.argument("episode_id")
@click.argument("text")
@click.option("--by", default="cli", show_default=True, help="Who corrects.")
@pass_session
def correct(session: Session, episode_id: str, text: str, by: str) -> None:
    """Record a person's correction TEXT of the episode EPISODE_ID (see kgbrain history)."""
    click.echo(session.brain(write=True).correct_episode(episode_id, text, by=by))


@cli.command("check-answer")
@click.argument("draft", type=click.File("r", encoding="utf-8"))
@click.option("--question", "-q", default="", help="The question the draft answers (triggers rules, sets language).")
@click.option("--rules", type=click.Path(path_type=Path, dir_okay=False), help="Reasoning rules (TOML, seed 003).")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@as_of_option
@_config_option
@pass_session
def check_answer(
    session: Session,
    draft: Any,
    question: str,
    rules: Path | None,
    as_json: bool,
    as_of: str | None,
    config_file: Path | None,
) -> None:
    """Check DRAFT (a file, or - for stdin): rules, claims against the knowledge base, unbacked citations."""
    brain = _cognitive_brain(session, config_file).at(as_of)
    report = brain.check_answer(draft.read(), question=question, rules=rules)
    if as_json:
        from kgbrain.models import CheckAnswerOut

        echo_json(CheckAnswerOut.from_report(report).model_dump())
        return
    click.echo(report.text)


def _echo_steps(steps: Any) -> None:
    for n, s in enumerate(steps, start=1):
        facts = f"  facts: {', '.join(s.facts)}" if s.facts else ""
        note = f"  ({s.note})" if s.note else ""
        click.echo(f"  {n}. [{s.rule}] {s.conclusion}  conf {s.confidence:.2f}{note}{facts}")


@cli.command()
@click.argument("concept")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@as_of_option
@pass_session
def why(session: Session, concept: str, as_json: bool, as_of: str | None) -> None:
    """Show the causal chains that lead to CONCEPT, strongest first."""
    _echo_paths(session.brain().at(as_of).why(concept), as_json)


@cli.command()
@click.argument("source")
@click.argument("target")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@as_of_option
@pass_session
def path(session: Session, source: str, target: str, as_json: bool, as_of: str | None) -> None:
    """Show causal paths from SOURCE to TARGET (product of confidences; prevents flips the sign).

    Without one, show how the two are associated (a chain of facts in either direction).
    """
    brain = session.brain().at(as_of)
    paths = brain.path(source, target)
    _echo_paths(paths, as_json)
    if not paths and not as_json:
        link = brain.connect(source, target)
        if link is not None:
            chain = " ; ".join(f"{e.subject} -{e.predicate}-> {e.object}" for e in link.facts)
            click.echo(f"Associated ({link.confidence:.3f}): {chain}")


def _echo_paths(paths: Any, as_json: bool) -> None:
    from kgbrain.models import CausalPathOut

    if as_json:
        echo_json([CausalPathOut.from_path(p).model_dump() for p in paths])
        return
    if not paths:
        click.echo("No causal path found.")
    for p in paths:
        chain = p.links[0].subject + "".join(f" -{lk.predicate}-> {lk.object}" for lk in p.links)
        sign = "" if p.polarity else "  (works against)"
        click.echo(f"{p.confidence:.3f}  {chain}{sign}")


@cli.command()
@click.argument("concept")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
@as_of_option
@pass_session
def like(session: Session, concept: str, as_json: bool, as_of: str | None) -> None:
    """Show concepts structurally similar to CONCEPT and what they share (hypotheses, not proofs)."""
    from kgbrain.models import AnalogyOut

    found = session.brain().at(as_of).like(concept)
    if as_json:
        echo_json([AnalogyOut.from_analogy(a).model_dump() for a in found])
        return
    if not found:
        click.echo("No analogy found.")
    for a in found:
        tag = "supported" if a.supported else "hypothesis"
        shared = ", ".join(f"{p} {o}" if o == o2 else f"{p} {o}/{o2}" for p, o, o2 in a.shared[:6])
        # The first column is the score the list is ranked by (similarity x shared relations).
        click.echo(
            f"{a.score:.3f}  {a.other}  [{tag}, conf {a.confidence:.2f}, sim {a.similarity:.3f}]  shared: {shared}"
        )


@cli.command()
@click.argument("text")
@click.option("--json", "as_json", is_flag=True, help="Print the solutions as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the solutions as CSV (a header row, then one row each).")
@as_of_option
@pass_session
def query(session: Session, text: str, as_json: bool, as_csv: bool, as_of: str | None) -> None:
    """Answer a SPARQL SELECT or a rule body ('student(X), takes_course(X, c0)') over the facts with reasoning."""
    result = session.brain().at(as_of).query(text)
    if as_json:
        from kgbrain.models import QueryOut

        echo_json(QueryOut.from_result(result).model_dump())
        return
    cells = [[_cell(v) for v in row] for row in result.rows]
    if as_csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(result.columns)
        writer.writerows(cells)
        return
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(result.columns)]
    table = [list(result.columns), *cells]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in table]
    click.echo("\n".join(lines))  # (one write: an echo per row was a sixth of a 20k-row query process)
    click.echo(f"({len(cells)} row{'s' if len(cells) != 1 else ''})", err=True)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def time_limit_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """`--timeout` and `--write-timeout` of the servers (serve, mcp)."""
    command = click.option(
        "--write-timeout",
        type=click.FloatRange(0.1),
        default=300.0,
        show_default=True,
        help="Seconds a write may take before it commits (then refused and rolled back).",
    )(command)
    return click.option(
        "--timeout", type=click.FloatRange(0.1), default=60.0, show_default=True, help="Seconds a read may take."
    )(command)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address (beyond loopback: KGBRAIN_TOKEN).")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--read-only", is_flag=True, help="Refuse every write (loads, facts, retract, resolve).")
@click.option(
    "--max-body-mb", type=click.FloatRange(0.001), default=64.0, show_default=True, help="Largest request body."
)
@time_limit_options
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    help="Another host name clients may address (Host/Origin); loopback names always. Also KGBRAIN_ALLOWED_HOSTS.",
)
@pass_session
def serve(
    session: Session,
    host: str,
    port: int,
    read_only: bool,
    max_body_mb: float,
    timeout: float,
    write_timeout: float,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the knowledge base over HTTP (JSON API under /v1, OpenAPI at /openapi.json) until interrupted.

    The server owns the knowledge base: it answers from memory, queues writes, and other kgbrain commands on
    the same file fail at once naming its address. Binding beyond 127.0.0.1 requires a token (KGBRAIN_TOKEN:
    admin, KGBRAIN_WRITE_TOKEN, KGBRAIN_READ_TOKEN); requests must address a loopback name or an --allow-host.
    """
    from kgbrain.service.run import serve as run_server

    db, demo = session.target()
    run_server(
        db,
        host=host,
        port=port,
        read_only=read_only or demo,
        demo=demo,
        max_body=int(max_body_mb * 2**20),
        read_timeout_s=timeout,
        write_timeout_s=write_timeout,
        allow_hosts=frozenset(allow_hosts),
    )


@cli.command()
@click.option(
    "--transport", type=click.Choice(["stdio", "http"]), default="stdio", show_default=True, help="How clients talk."
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address for --transport http.")
@click.option("--port", type=click.IntRange(0, 65535), default=8766, show_default=True, help="Port for http.")
@click.option("--read-only", is_flag=True, help="Leave out the tools that write (remember, forget).")
@time_limit_options
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    help="Another host name clients may address (Host/Origin); loopback names always. Also KGBRAIN_ALLOWED_HOSTS.",
)
@pass_session
def mcp(
    session: Session,
    transport: str,
    host: str,
    port: int,
    read_only: bool,
    timeout: float,
    write_timeout: float,
    allow_hosts: tuple[str, ...],
) -> None:
    """Serve the knowledge base to AI agents over the Model Context Protocol (stdio, or streamable HTTP at /mcp)."""
    from kgbrain.service.mcp_tools import run_mcp

    db, demo = session.target()
    run_mcp(
        db,
        transport=transport,
        host=host,
        port=port,
        read_only=read_only or demo,
        demo=demo,
        allow_hosts=frozenset(allow_hosts),
        read_timeout_s=timeout,
        write_timeout_s=write_timeout,
    )


def main() -> None:
    """Console-script entry point."""
    os.environ.setdefault("PYTHONIOENCODING", "utf-8")
    cli(prog_name="kgbrain")
