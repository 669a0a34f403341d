"""Temporary folders for what a request hands to a file-reading call (an uploaded file, a rules file).

Each is named with the server's process id and removed when the request is done. A server killed in the middle of
one (kill -9 runs no clean-up) leaves its folder behind; the next server to start removes every such folder whose
process is gone, so they do not pile up in the temporary directory.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from kgbrain.errors import KgbrainError

KINDS = ("upload", "rules")


@contextmanager
def request_folder(kind: str) -> Iterator[Path]:
    """A new empty folder for one request's files, removed (with them) when the block ends.

    An error raised inside names a file in it by its own name only: the client sent a name, and the server's
    temporary folder is none of its business.
    """
    with tempfile.TemporaryDirectory(prefix=f"kgbrain-{kind}-{os.getpid()}-") as folder:
        try:
            yield Path(folder)
        except KgbrainError as exc:
            exc.args = tuple(_unfold(arg, folder) for arg in exc.args)
            raise


def _unfold(arg: object, folder: str) -> object:
    return arg.replace(folder + os.sep, "").replace(folder, "") if isinstance(arg, str) else arg


def remove_orphans(root: Path | None = None) -> list[Path]:
    """Remove the request folders in `root` (default: the temporary directory) of processes that are gone."""
    base = root if root is not None else Path(tempfile.gettempdir())
    removed = []
    for kind in KINDS:
        prefix = f"kgbrain-{kind}-"
        for folder in base.glob(prefix + "*"):
            pid = folder.name[len(prefix) :].split("-", 1)[0]
            if pid.isdigit() and folder.is_dir() and not _alive(int(pid)):
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder)
    return removed


def _alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive, and not ours to judge
        return True
    except OverflowError:
        return False
    return True
