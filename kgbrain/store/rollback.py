"""The committed state of an open database file, kept aside while the engine closes and put back after it
(`Database.discard_uncommitted`: what a rollback leaves in the engine's memory must never reach the file).

`<db>.rollback/` holds a copy of the file (`db`) and of its write-ahead log (`db.wal`, when there is one), written
under `<db>.rollback.tmp/` and renamed when complete, so a folder without `.tmp` is always a whole copy. Putting
it back moves the file first, then the log; a kill between two steps leaves a state `finish_rollback` completes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from kgbrain.store.working_copy import copy_file, fsync

ROLLBACK_SUFFIX = ".rollback"
_FILE = "db"
_LOG = "db.wal"
# What the engines keep beside a database file: the log, and a checkpoint's shadow pages.
_LOG_SUFFIX = ".wal"
_SHADOW_SUFFIX = ".shadow"


def _folder(path: Path) -> Path:
    return path.with_name(path.name + ROLLBACK_SUFFIX)


def pending_rollback(path: Path) -> bool:
    """A copy `snapshot` took is waiting to replace `path` (a kill cut `Database.discard_uncommitted` short)."""
    return _folder(path).is_dir()


def snapshot(path: Path) -> None:
    """Copy the database file and its log into `<db>.rollback/` (synced; the folder appears only when whole).

    Raises:
        OSError: the copy failed (nothing is left behind).
    """
    folder = _folder(path)
    work = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        copy_file(path, work / _FILE)
        fsync(work / _FILE)
        log = path.with_name(path.name + _LOG_SUFFIX)
        if log.exists():
            copy_file(log, work / _LOG)
            fsync(work / _LOG)
        fsync(work)
        work.rename(folder)
        fsync(path.parent)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


def finish_rollback(path: Path) -> None:
    """Put a complete `snapshot` back over `path` (its engine closed) and remove it; drop an incomplete one.

    Raises:
        OSError: the file system refused a step (the next open tries again).
    """
    folder = _folder(path)
    shutil.rmtree(folder.with_name(folder.name + ".tmp"), ignore_errors=True)  # incomplete: the file is as it was
    if not folder.is_dir():
        return
    log = path.with_name(path.name + _LOG_SUFFIX)
    if (folder / _FILE).exists():
        # What the closing engine wrote beside the file belongs to the state being dropped.
        log.unlink(missing_ok=True)
        path.with_name(path.name + _SHADOW_SUFFIX).unlink(missing_ok=True)
        (folder / _FILE).replace(path)
    if (folder / _LOG).exists():
        (folder / _LOG).replace(log)
    fsync(path.parent)
    shutil.rmtree(folder, ignore_errors=True)
