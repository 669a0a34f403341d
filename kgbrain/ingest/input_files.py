"""What `load` checks of an input before reading any of it: that it is a file (or a Parquet folder), and that
reading it in one piece fits in the memory there is.

A file is parsed whole before its one transaction (all or nothing), so the peak memory grows with the text it
holds: about 30 bytes per byte of N-Triples (13.6 MB: 410 MB over the process's start, with a 64 MB buffer pool)
and 25 per byte of JSONL, measured. A file whose text would need more than the memory available is refused
before it is read (a gzip file is decompressed, without parsing, only as far as that limit), instead of growing
the process until the kernel kills it.
"""

from __future__ import annotations

from pathlib import Path

from kgbrain.errors import InputError
from kgbrain.store.database import DEFAULT_BUFFER_POOL_MB, env_number

BYTES_PER_TEXT_BYTE = 32  # peak memory per byte of (decompressed) input text, rounded up from the measures above
MEMORY_ENV = "KGBRAIN_MEMORY_MB"
_GZIP_MAGIC = b"\x1f\x8b"


def check_loadable(path: Path) -> None:
    """Refuse an input that is missing, not a regular file or folder, or too big to read in one piece here.

    Raises:
        InputError: says which, and what to do.
    """
    if path.is_dir():
        return  # a Parquet export: read a column group at a time (ingest/parquet.py)
    if not path.exists():
        raise InputError(f"{str(path)!r}: no such file")
    if not path.is_file():
        raise InputError(
            f"{str(path)!r} is not a regular file (a device, a pipe or a socket); kgbrain loads files and "
            "Parquet folders: save the data to a file first"
        )
    check_memory(path)


def memory_budget() -> int | None:
    """The bytes a load may use: KGBRAIN_MEMORY_MB, else the memory available now less the engine's buffer pool
    (None: unknown, no limit).

    Raises:
        InputError: KGBRAIN_MEMORY_MB is not a number.
    """
    configured = env_number(MEMORY_ENV, 0, low=0, high=2**40)
    if configured:
        return int(configured * 2**20)
    available = _available()
    if available is None:
        return None
    pool = env_number("KGBRAIN_BUFFER_POOL_MB", DEFAULT_BUFFER_POOL_MB, low=16, high=2**20)
    return max(available - int(pool * 2**20), 64 * 2**20)


def _available() -> int | None:
    try:
        with Path("/proc/meminfo").open(encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_memory(path: Path) -> None:
    """Refuse a file whose text is too big to load in one piece within `memory_budget`.

    Raises:
        InputError: it is; the message gives the size parts may have.
    """
    budget = memory_budget()
    if budget is None:
        return
    limit = budget // BYTES_PER_TEXT_BYTE
    size = text_size(path, limit)
    if size <= limit:
        return
    measured = f"more than {_size(limit)}" if size == limit + 1 else _size(size)
    raise InputError(
        f"{path.name}: {measured} of text, and loading it in one piece needs about {BYTES_PER_TEXT_BYTE} bytes of "
        f"memory per byte of text: more than the {_size(budget)} available ({MEMORY_ENV} sets the limit). "
        f"Split it into parts of at most {_size(limit)} and load them in one command (`kgbrain load part1 "
        "part2 ...` reads one part at a time and keeps all of them or none)"
    )


def _size(n: int) -> str:
    for unit, scale in (("GB", 2**30), ("MB", 2**20)):
        if n >= scale:
            return f"{n / scale:,.1f} {unit}" if n < 10 * scale else f"{n / scale:,.0f} {unit}"
    return f"{n / 1024:,.0f} KB"


def text_size(path: Path, limit: int) -> int:
    """The bytes of text in `path` (decompressed, for a gzip file), counted up to `limit` + 1."""
    try:
        with path.open("rb") as raw:
            gzipped = raw.read(2) == _GZIP_MAGIC
    except OSError:
        gzipped = False  # unreadable: reading it says why
    if not gzipped:
        return path.stat().st_size
    import gzip  # (here: a question never loads it)
    import zlib

    counted = 0
    try:
        with gzip.open(path, "rb") as unpacked:
            while counted <= limit:
                chunk = unpacked.read(1 << 20)
                if not chunk:
                    break
                counted += len(chunk)
    except (OSError, EOFError, zlib.error):
        pass  # a cut or corrupt file: its parse says so
    return min(counted, limit + 1)
