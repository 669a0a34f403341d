"""The verdicts file (DESIGN.md contract): one JSON line per claim, in input order, resumable after a kill.

Lines go to `<out>.partial` as batches finish, flushed at once; only a finished run is synced and renamed to
`<out>`, so `<out>` is never a torn file: it is absent, the previous complete one, or this run's. A killed run
leaves every finished verdict in `<out>.partial`, with at most one torn line at its end. `--resume` reads that
file back (or `<out>` itself when there is none), cuts a torn tail, checks that the finished lines belong to
the claims being verified (same ids in the same places), and carries on after them; the result is byte for
byte what an uninterrupted run writes.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TypeVar

from kgbrain.errors import InputError
from kgbrain.ingest.claims import Claim, ClaimError, ClaimLine, ClaimRow, claim_from_line
from kgbrain.reasoning.answering.verify import ConflictNote, Verdict, VerdictKind

# Called with (claims done, claims in total) after each batch.
VerifyProgress = Callable[[int, int], None]
CONFIDENCE_DIGITS = 4  # rounding keeps the file stable across runs and readable


def verdict_row(v: Verdict) -> dict[str, Any]:
    """The verdicts-contract JSON object of a verdict (`error` only on ERROR, `claim` as checked)."""
    row: dict[str, Any] = {
        "id": v.id,
        "verdict": v.verdict.value,
        "confidence": round(v.confidence, CONFIDENCE_DIGITS),
        "reasoning_type": v.reasoning_type,
        "proof": [
            {
                "rule": s.rule,
                "conclusion": s.conclusion,
                "facts": list(s.facts),
                "sources": list(s.sources),
                "confidence": round(s.confidence, CONFIDENCE_DIGITS),
                **({"note": s.note} if s.note else {}),
            }
            for s in v.proof
        ],
        "conflicts": [conflict_row(c) for c in v.conflicts],
        "explanation": v.explanation,
    }
    if v.subject is not None:
        row["claim"] = {"subject": v.subject, "predicate": v.predicate, "object": v.object, "polarity": v.polarity}
    if v.error is not None:
        row["error"] = v.error
    if v.intervals:
        row["intervals"] = dict(v.intervals)
    return row


def conflict_row(c: ConflictNote) -> dict[str, Any]:
    """A conflict touching a verdict, as `kgbrain conflicts --json` names its fields."""
    return {
        "id": c.id,
        "type": c.type,
        "status": c.status,
        "resolution": c.resolution,
        "facts": list(c.facts),
        "kept": c.kept,
    }


_ENCODER = json.JSONEncoder(ensure_ascii=False)
_TEXT = json.encoder.encode_basestring  # the C function json.dumps(ensure_ascii=False) quotes a string with


def verdict_line(v: Verdict) -> str:
    """One line of the verdicts file: `json.dumps(verdict_row(v), ensure_ascii=False)`, byte for byte.

    Written out field by field, since building the dicts and walking them in the encoder cost about as much as
    deciding the claims of a small knowledge base (tests/output compare it with the dict form on random verdicts).
    """
    proof = ", ".join(
        f'{{"rule": {_TEXT(s.rule)}, "conclusion": {_TEXT(s.conclusion)}, "facts": {_texts(s.facts)}, '
        f'"sources": {_texts(s.sources)}, "confidence": {_value(round(s.confidence, CONFIDENCE_DIGITS))}'
        + (f', "note": {_TEXT(s.note)}}}' if s.note else "}")
        for s in v.proof
    )
    conflicts = ", ".join(
        f'{{"id": {_TEXT(c.id)}, "type": {_value(c.type)}, "status": {_value(c.status)}, '
        f'"resolution": {_value(c.resolution)}, "facts": {_texts(c.facts)}, "kept": {_value(c.kept)}}}'
        for c in v.conflicts
    )
    line = (
        f'{{"id": {_TEXT(v.id)}, "verdict": {_value(v.verdict.value)}, '
        f'"confidence": {_value(round(v.confidence, CONFIDENCE_DIGITS))}, '
        f'"reasoning_type": {_value(v.reasoning_type)}, "proof": [{proof}], "conflicts": [{conflicts}], '
        f'"explanation": {_TEXT(v.explanation)}'
    )
    if v.subject is not None:
        line += (
            f', "claim": {{"subject": {_value(v.subject)}, "predicate": {_value(v.predicate)}, '
            f'"object": {_value(v.object)}, "polarity": {_value(v.polarity)}}}'
        )
    if v.error is not None:
        line += f', "error": {_TEXT(v.error)}'
    if v.intervals:
        line += f', "intervals": {{{", ".join(f"{_TEXT(f)}: {_TEXT(i)}" for f, i in v.intervals)}}}'
    return line + "}\n"


def _value(x: object) -> str:
    # Written as the encoder writes them (it too quotes any str, and writes floats and ints by their own type's
    # repr); NaN, infinities and anything else go to the encoder itself. (Fields typed `str` are quoted with
    # _TEXT straight away: it writes any str as the encoder does, and raises on anything else.)
    if isinstance(x, str):
        return _TEXT(x)
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float) and x == x and x not in (_INF, -_INF):
        return float.__repr__(x)
    if isinstance(x, int):
        return int.__repr__(x)
    return _ENCODER.encode(x)


def _texts(items: tuple[str, ...]) -> str:
    return f"[{', '.join(map(_TEXT, items))}]"


_INF = float("inf")


@dataclass(frozen=True, slots=True)
class EncodedBatch:
    """A batch of verdicts as the verdicts file holds them (encoded by a worker), with their verdict counts."""

    data: bytes
    counts: dict[str, int]
    size: int


def encode_batch(verdicts: list[Verdict]) -> EncodedBatch:
    """The verdict lines of a batch, encoded, and how many of each verdict (run in verification workers)."""
    counts = Counter(v.verdict.value for v in verdicts)
    text = "".join(verdict_line(v) for v in verdicts)
    return EncodedBatch(text.encode("utf-8"), dict(counts), len(verdicts))


@dataclass(frozen=True, slots=True)
class Finished:
    """What an earlier, interrupted run left in the verdicts file."""

    ids: list[str]  # claim ids of the complete lines, in order
    counts: Counter[str]  # verdicts among them
    size: int  # bytes of complete lines; anything after is a torn line
    torn: bool


def read_finished(path: Path) -> Finished:
    """Read back the complete lines of a verdicts file (a torn last line is reported, not parsed).

    Raises:
        InputError: a complete line is not a verdict (the file is not ours, or was edited).
    """
    data = path.read_bytes() if path.exists() else b""
    size = data.rfind(b"\n") + 1
    ids: list[str] = []
    counts: Counter[str] = Counter()
    for n, raw in enumerate(data[:size].splitlines(), start=1):
        try:
            row = json.loads(raw)
            ids.append(str(row["id"]))
            counts[str(row["verdict"])] += 1
        except (json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError):
            raise InputError(
                f"{str(path)!r}: line {n} is not a verdict; cannot resume (run without --resume to start over)"
            ) from None
    return Finished(ids, counts, size, torn=size < len(data))


@dataclass(slots=True)
class VerifySummary:
    """What a verification run did: verdict counts (including resumed ones), time and rate of this run."""

    claims: int = 0  # verdicts in the output, resumed ones included
    resumed: int = 0  # verdicts an earlier run had written
    checked: int = 0  # claims verified by this run
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=dict)
    output: str | None = None
    workers: int = 1
    torn_line_rewritten: bool = False

    @property
    def rate(self) -> float:
        """Claims verified per second by this run."""
        return self.checked / self.seconds if self.seconds > 0 else 0.0


def side_files(out: Path) -> tuple[Path, Path]:
    """The files a run writes beside its output `out`: the verdicts so far (`<out>.partial`) and the options of the
    unfinished run (`<out>.run.json`)."""
    return out.with_name(out.name + ".partial"), out.with_name(out.name + ".run.json")


class VerdictWriter:
    """Appends verdict lines to `<out>.partial` (or a stream) in order, flushing after each batch; `finish` moves
    the whole file to `<out>`."""

    def __init__(
        self,
        out: Path | None,
        *,
        resume: bool = False,
        stream: IO[str] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Start `<out>.partial` (afresh, or continuing an interrupted run with `resume`); None writes to `stream`.

        `options` are the settings that decide verdicts (closed world, confidence floor). While a run is
        unfinished they are kept in `<out>.run.json`, so a resumed run cannot mix verdicts made two ways.

        Raises:
            InputError: `resume` without an output file, an output that cannot be resumed, or a resume with
                other options than the interrupted run.
        """
        if out is None and resume:
            raise InputError("--resume needs an output file (-o OUT)")
        special = out is not None and out.exists() and not out.is_file()
        if special and resume:
            raise InputError(f"--resume needs a regular output file, and {str(out)!r} is not one")
        self.path = out
        self.options = dict(options or {})
        # A device or pipe (/dev/null, /dev/stdout) is written as a stream: no journal beside it, no renaming.
        regular = out is not None and not special
        sides = side_files(out) if out is not None and regular else None
        self.partial: Path | None = sides[0] if sides else None
        self.journal: Path | None = sides[1] if sides else None
        self.finished = Finished([], Counter(), 0, False)
        if resume and out is not None and self.partial is not None:
            self.finished = read_finished(self.partial if self.partial.exists() else out)
            self._check_options()
        self._own: IO[bytes] | None = None
        self._stream = stream
        if out is not None and self.partial is not None and self.journal is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            self.journal.write_text(json.dumps(self.options, sort_keys=True) + "\n", encoding="utf-8")
            self._own = self._open_partial(out, self.partial, resume)
        elif out is not None:
            self._own = out.open("wb")

    def _open_partial(self, out: Path, partial: Path, resume: bool) -> IO[bytes]:
        if resume and partial.exists():
            kept = partial.open("r+b")
            # A kill can leave half a line at the end: cut it, so the rewrite neither duplicates nor corrupts.
            kept.truncate(self.finished.size)
            kept.seek(self.finished.size)
            return kept
        own = partial.open("wb")
        if resume and self.finished.size:
            # Resuming a complete (or older, written-in-place) output: its finished lines start the new file.
            with out.open("rb") as old:
                _copy(old, own, self.finished.size)
        return own

    def _check_options(self) -> None:
        if self.journal is None or not self.journal.exists() or not self.finished.ids:
            return
        try:
            before = json.loads(self.journal.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError):
            return  # a journal torn by the kill says nothing; the ids check still guards the claims
        changed = sorted(k for k in before.keys() | self.options.keys() if before.get(k) != self.options.get(k))
        if changed:
            was = ", ".join(f"{k}={before.get(k)!r}" for k in changed)
            raise InputError(
                f"{str(self.path)!r} was started with {was}; resume with the same options "
                "(or run without --resume to start over)"
            )

    def finish(self) -> None:
        """Complete the run: `<out>.partial` is synced and renamed to `<out>`; its options journal goes."""
        if self._own is not None and self.partial is not None and self.path is not None:
            own, self._own = self._own, None
            with own:
                own.flush()
                os.fsync(own.fileno())
            self.partial.replace(self.path)
            _sync_folder(self.path.parent)
        if self.journal is not None:
            self.journal.unlink(missing_ok=True)

    def write(self, verdicts: Iterable[Verdict]) -> None:
        """Write a batch of verdicts and flush it."""
        text = "".join(verdict_line(v) for v in verdicts)
        if self._own is not None:
            self._own.write(text.encode("utf-8"))
            self._own.flush()
        elif self._stream is not None:
            self._stream.write(text)
            self._stream.flush()

    def write_encoded(self, batch: EncodedBatch) -> None:
        """Write a batch a worker has encoded already, and flush it."""
        if self._own is not None:
            self._own.write(batch.data)
            self._own.flush()
        elif self._stream is not None:
            self._stream.write(batch.data.decode("utf-8"))
            self._stream.flush()

    def close(self) -> None:
        """Close the file (a stream stays open)."""
        if self._own is not None:
            self._own.close()
            self._own = None

    def __enter__(self) -> VerdictWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _sync_folder(folder: Path) -> None:
    # The rename is durable only once the folder's entry is on disk.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with suppress(OSError):  # some file systems cannot sync a folder; the rename itself is still atomic
            os.fsync(fd)
    finally:
        os.close(fd)


def _copy(source: IO[bytes], target: IO[bytes], size: int) -> None:
    while size > 0:
        chunk = source.read(min(size, 1 << 20))
        if not chunk:
            return
        target.write(chunk)
        size -= len(chunk)


Item = TypeVar("Item", bound=ClaimRow | ClaimLine)


def skip_finished(rows: Iterable[Item], finished: Finished, *, out: str, claims: str) -> Iterator[Item]:
    """The rows (claims, or unparsed JSONL lines) still to verify: drops the first ones, checking they are the
    claims the finished lines name.

    Raises:
        InputError: the verdicts file was written for other claims.
    """
    it = iter(rows)
    for n, done_id in enumerate(finished.ids, start=1):
        item = next(it, None)
        row = item if item is None or isinstance(item, (Claim, ClaimError)) else claim_from_line(item)
        if row is None or row.id != done_id:
            found = "nothing" if row is None else repr(row.id)
            raise InputError(
                f"{out!r} line {n} is the verdict on claim {done_id!r}, but claim {n} of {claims!r} is {found}; "
                "it belongs to other claims (run without --resume to start over)"
            )
    yield from it


def run_verification(
    batches: Iterable[list[Verdict] | EncodedBatch],
    writer: VerdictWriter,
    *,
    total: int,
    progress: VerifyProgress | None = None,
    workers: int = 1,
) -> VerifySummary:
    """Write batches of verdicts as they come and count them.

    Raises:
        StoreError: the store failed (everything finished so far is on disk).
    """
    finished = writer.finished
    summary = VerifySummary(
        resumed=len(finished.ids),
        output=str(writer.path) if writer.path is not None else None,
        workers=workers,
        torn_line_rewritten=finished.torn,
    )
    counts: Counter[str] = Counter(finished.counts)
    started = time.perf_counter()
    done = summary.resumed
    if progress is not None:
        progress(done, total)
    for batch in batches:
        if isinstance(batch, EncodedBatch):
            writer.write_encoded(batch)
            counts.update(batch.counts)
            size = batch.size
        else:
            writer.write(batch)
            counts.update(v.verdict.value for v in batch)
            size = len(batch)
        summary.checked += size
        done += size
        if progress is not None:
            progress(done, max(total, done))
    writer.finish()
    summary.seconds = time.perf_counter() - started
    summary.claims = done
    summary.counts = {k.value: counts.get(k.value, 0) for k in VerdictKind}
    return summary
