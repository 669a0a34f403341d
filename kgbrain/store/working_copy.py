"""The working copy an all-or-nothing write goes to, beside the database file, and the file operations on it.

A write goes to `<db>.writing`, is checkpointed by closing it, and is renamed over the database (see
`Database.working_copy`); these helpers copy, sync, check room for and clean up after it.
"""

from __future__ import annotations

import fcntl
import os
import resource
import shutil
from pathlib import Path

from kgbrain.errors import StoreError

# The copy an `atomic` write works on, beside the database; Kùzu adds its own .wal/.shadow to it.
WORK_SUFFIX = ".writing"


def remove_leftovers(path: Path) -> None:
    """Delete what an interrupted `atomic` write left (only ever called with the write lock held)."""
    for leftover in path.parent.glob(path.name + WORK_SUFFIX + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)


def copy_file(source: Path, target: Path) -> None:
    """Copy a database file (a reflink where the file system has them: instant, and no extra space)."""
    if source.is_dir():
        raise StoreError(f"database {str(source)!r} is a directory; kgbrain expects a single-file Kùzu database")
    with source.open("rb") as src, target.open("wb") as dst:
        try:
            fcntl.ioctl(dst.fileno(), _FICLONE, src.fileno())
            return
        except OSError:
            pass  # no reflinks here (ext4, tmpfs): copy the bytes
        size = os.fstat(src.fileno()).st_size
        offset = 0
        while offset < size:
            sent = os.copy_file_range(src.fileno(), dst.fileno(), size - offset)
            if sent == 0:
                break
            offset += sent


_FICLONE = 0x40049409


def fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


ENGINE_HEADROOM_BYTES = 16 * 2**20


def engine_headroom(size: int) -> int:
    """Free space every write keeps beyond its estimate: 16 MiB, or a tenth of the database when that is more."""
    return max(ENGINE_HEADROOM_BYTES, size // 10)


def check_space(path: Path, expected_bytes: int) -> None:
    """Refuse a write the disk (or the process's file size limit) has no room for.

    Raises:
        StoreError: not enough room for a copy of the database plus `expected_bytes`.
    """
    size = path.stat().st_size
    # the copy, the write-ahead log and the pages it checkpoints into, and room for the engine's own log and shadow
    # pages of any write: with room for the copy and 64 KB more, a retract (expected 0) aborted the process inside
    # Ladybug (an IOException it does not catch, exit 134) where this check could have refused it
    need = size + 2 * expected_bytes + engine_headroom(size)
    stats = os.statvfs(path.parent)
    free = stats.f_bavail * stats.f_frsize
    limit, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    largest = size + expected_bytes  # the biggest single file: the grown copy (or its log)
    if need > free or (limit != resource.RLIM_INFINITY and largest > limit):
        room = free if need > free else limit
        raise StoreError(
            f"not enough disk space to write {str(path)!r}: this needs about {need / 2**20:,.0f} MB "
            f"and there is room for {room / 2**20:,.0f} MB; nothing was changed"
        )
