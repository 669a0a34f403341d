"""Running a verification: claims on this process or on several, into a list or a verdicts file.

`Brain.verify` and `Brain.verify_file` call these with the Brain as the checker. Several workers need the
knowledge base opened read-only from its file; `opener` says how a worker opens it, and is asked only when
there are several (it raises when the knowledge base cannot be shared).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kgbrain.errors import InputError
from kgbrain.ingest.claims import ClaimLine, ClaimRow, claims_format, count_claims, read_claim_lines, read_claims
from kgbrain.output.verdicts import (
    EncodedBatch,
    VerdictWriter,
    VerifyProgress,
    VerifySummary,
    encode_batch,
    run_verification,
    skip_finished,
)
from kgbrain.reasoning.answering.verify import (
    CheckerOpener,
    SharingChecker,
    Verdict,
    VerifyOptions,
    WorkItem,
    verify_parallel,
    verify_parallel_encoded,
    verify_stream,
)
from kgbrain.scale.session import SparkSpec
from kgbrain.scale.verify import PathOpener

# Asked for a worker's opener when verification runs on several processes.
WorkerOpener = Callable[[], CheckerOpener]


@dataclass(frozen=True, slots=True)
class SparkRun:
    """Verification on Spark (kgbrain/scale): where, the database file, and how an executor opens it read-only."""

    spec: SparkSpec
    db: Path
    opener: PathOpener
    shared_path: bool = False  # every executor reads `db` at this path (else it is shipped to them)


@dataclass(frozen=True, slots=True)
class Spread:
    """How claims are spread: over `workers` processes (1: this one), `batch_size` claims at a time; `opener` is
    asked how a worker opens the knowledge base only when there are several."""

    workers: int
    batch_size: int
    opener: WorkerOpener
    spark: SparkRun | None = None  # run on Spark instead of local processes


def verify_batches(
    checker: SharingChecker, rows: Iterable[ClaimRow], options: VerifyOptions, spread: Spread
) -> Iterable[list[Verdict]]:
    """Verdicts of `rows` in batches, in input order: on this process, or on several.

    Raises:
        InputError: a batch size below 1, or several workers on a knowledge base they cannot open.
    """
    _check_batch_size(spread.batch_size)
    if spread.workers == 1:
        return verify_stream(checker, rows, options, batch_size=spread.batch_size)
    return verify_parallel(
        spread.opener(), rows, options, workers=spread.workers, batch_size=spread.batch_size, shared=checker
    )


def verify_file(
    checker: SharingChecker,
    claims: Path,
    out: str | Path | None,
    options: VerifyOptions,
    spread: Spread,
    *,
    stream: IO[str] | None,
    resume: bool,
    fmt: str | None,
    progress: VerifyProgress | None,
) -> VerifySummary:
    """Verify a claims file into a verdicts file (or `stream`), written as it goes, in input order.

    Raises:
        InputError: a missing or unreadable claims file, bad options, or an output that is not a verdicts
            file for these claims.
        StoreError: the store failed (everything verified so far is on disk).
    """
    total, workers = count_claims(claims, fmt), spread.workers
    decisive = {"closed_world": options.closed_world, "min_confidence": options.min_confidence}
    writer = VerdictWriter(Path(out) if out is not None else None, resume=resume, stream=stream, options=decisive)
    with writer:
        if spread.spark is not None:
            items = _items(claims, fmt, writer, out)
            encoded = _on_spark(checker, items, options, spread.spark, spread.batch_size)
            return run_verification(encoded, writer, total=total, progress=progress, workers=workers)
        if workers > 1 and claims_format(claims, fmt) == "jsonl":
            # Workers parse their own lines and encode their own verdicts; this process only splits the
            # file and writes what comes back, so it does not hold the workers up.
            lines = skip_finished(read_claim_lines(claims), writer.finished, out=str(out), claims=str(claims))
            encoded = _encoded(checker, lines, options, spread)
            return run_verification(encoded, writer, total=total, progress=progress, workers=workers)
        rows = skip_finished(read_claims(claims, fmt), writer.finished, out=str(out), claims=str(claims))
        batches = verify_batches(checker, rows, options, spread)
        return run_verification(batches, writer, total=total, progress=progress, workers=workers)


def _items(claims: Path, fmt: str | None, writer: VerdictWriter, out: str | Path | None) -> Iterable[WorkItem]:
    # JSONL lines go out unparsed (executors parse them); other formats are read here.
    if claims_format(claims, fmt) == "jsonl":
        return skip_finished(read_claim_lines(claims), writer.finished, out=str(out), claims=str(claims))
    return skip_finished(read_claims(claims, fmt), writer.finished, out=str(out), claims=str(claims))


def _on_spark(
    checker: SharingChecker, items: Iterable[WorkItem], options: VerifyOptions, run: SparkRun, batch_size: int
) -> Iterator[EncodedBatch]:
    _check_batch_size(batch_size)
    from kgbrain.scale.verify import verify_on_spark

    return verify_on_spark(
        run.opener,
        run.db,
        items,
        encode_batch,
        options,
        run.spec,
        batch_size=batch_size,
        shared_path=run.shared_path,
        prepare=checker.persist_views,  # the mirror and labels cached beside the database, for the executors
    )


def _encoded(
    checker: SharingChecker, lines: Iterable[ClaimLine], options: VerifyOptions, spread: Spread
) -> Iterator[Any]:
    _check_batch_size(spread.batch_size)
    opener, workers, size = spread.opener(), spread.workers, spread.batch_size
    return verify_parallel_encoded(
        opener, lines, encode_batch, options, workers=workers, batch_size=size, shared=checker
    )


def _check_batch_size(batch_size: int) -> None:
    if batch_size < 1:
        raise InputError(f"batch size {batch_size!r} must be at least 1")
