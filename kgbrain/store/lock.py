"""A write lock shared by every kgbrain process that opens one database file.

Kùzu refuses a second writer at once ("Could not set lock on file") instead of waiting. We take an
advisory lock on `<db>.lock` first, waiting up to a timeout, so two `kgbrain load` runs queue up
instead of failing, and a clear message names the holder when the wait runs out.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from kgbrain.errors import DatabaseLocked


class FileLock:
    """An exclusive (writer) or shared (reader) advisory lock on a sidecar file."""

    def __init__(
        self, db_path: Path, *, shared: bool, timeout_s: float, on_wait: Callable[[str], None] | None = None
    ) -> None:
        self.path = db_path.with_name(db_path.name + ".lock")
        self.shared = shared
        self.timeout_s = timeout_s
        self.on_wait = on_wait
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, waiting up to the timeout (and saying so through `on_wait` as the wait begins).

        Raises:
            DatabaseLocked: another process kept the lock for the whole timeout.
            OSError: the lock file cannot be created (a writer needs it; a reader then goes without).
        """
        fd = self._open()
        if fd is None:  # a reader on read-only media: nobody can be writing there
            return
        mode = (fcntl.LOCK_SH if self.shared else fcntl.LOCK_EX) | fcntl.LOCK_NB
        deadline = time.monotonic() + self.timeout_s
        told = False
        while True:
            try:
                fcntl.flock(fd, mode)
                break
            except BlockingIOError:
                served = _served_by(fd)
                if served is not None:  # a server keeps it for good: waiting would only delay the message
                    os.close(fd)
                    raise DatabaseLocked(
                        f"database {str(self.path)[:-5]!r} is served by {served}; "
                        "send requests there, or stop the server first"
                    ) from None
                if not told and self.on_wait is not None:
                    told = True
                    holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
                    self.on_wait(
                        f"Waiting for another process (pid {holder}) that is using {str(self.path)[:-5]!r}; "
                        f"giving up after {self.timeout_s:g} s."
                    )
                if time.monotonic() >= deadline:
                    holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
                    os.close(fd)
                    raise DatabaseLocked(
                        f"database {str(self.path)[:-5]!r} is in use by another process (pid {holder}); "
                        f"waited {self.timeout_s:g} s. Try again when it has finished."
                    ) from None
                time.sleep(0.05)
        if not self.shared:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def announce(self, address: str) -> None:
        """Record, beside the holder's pid, which server holds the lock for good ("`kgbrain serve` at <url>")."""
        if self._fd is not None and not self.shared:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{os.getpid()} {address}".encode(), 0)

    def _open(self) -> int | None:
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError:
            if not self.shared:
                raise
        try:  # a reader may lock a lock file it cannot write
            return os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return None

    def release(self) -> None:
        """Drop the lock (idempotent)."""
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


def _served_by(fd: int) -> str | None:
    # The lock file holds "<pid>" for a command and "<pid> <server>" for a server (see `announce`): the server
    # says what it is, e.g. "`kgbrain serve` at http://127.0.0.1:8765".
    parts = os.pread(fd, 512, 0).decode(errors="replace").split(maxsplit=1)
    return parts[1].strip() if len(parts) == 2 else None
