"""The locks every kgbrain process that opens one database file takes on sidecar files beside it.

Kùzu refuses a second writer at once ("Could not set lock on file") instead of waiting. We take an
advisory lock on `<db>.lock` first, waiting up to a timeout, so two `kgbrain load` runs queue up
instead of failing, and a clear message names the holder when the wait runs out.

On Ladybug a reader does not wait for a writer: an all-or-nothing write works on a copy of the file, so the file
itself is the snapshot from before the write. Readers hold `<db>.readers` shared; a writer takes it exclusive only
while it changes the file in place (a migration, `init`, a library caller's own transaction), from its first such
write until the file holds it all (closed, or handed to a working copy). See `Database`.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from kgbrain.errors import DatabaseLocked

LOCK_SUFFIX = ".lock"  # writers: exclusive; readers on Kùzu: shared
READERS_SUFFIX = ".readers"  # readers on Ladybug: shared; a writer changing the file in place: exclusive


class FileLock:
    """An exclusive (writer) or shared (reader) advisory lock on a sidecar file."""

    def __init__(
        self,
        db_path: Path,
        *,
        shared: bool,
        timeout_s: float,
        on_wait: Callable[[str], None] | None = None,
        suffix: str = LOCK_SUFFIX,
    ) -> None:
        self.db_path = db_path
        self.path = db_path.with_name(db_path.name + suffix)
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
                        f"database {str(self.db_path)!r} is served by {served}; "
                        "send requests there, or stop the server first"
                    ) from None
                if not told and self.on_wait is not None:
                    told = True
                    self.on_wait(
                        f"Waiting for {self._holder(fd)} that is using {str(self.db_path)!r}; "
                        f"giving up after {self.timeout_s:g} s."
                    )
                if time.monotonic() >= deadline:
                    holder = self._holder(fd)
                    os.close(fd)
                    raise DatabaseLocked(
                        f"database {str(self.db_path)!r} is in use by {holder}; "
                        f"waited {self.timeout_s:g} s. Try again when it has finished."
                    ) from None
                time.sleep(0.05)
        if not self.shared:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def _holder(self, fd: int) -> str:
        if self.path.name.endswith(READERS_SUFFIX) and not self.shared:
            return "another process reading it"  # many readers may hold it; the pid in the file is a writer's
        holder = os.pread(fd, 32, 0).decode(errors="replace").split(maxsplit=1)
        return f"another process (pid {holder[0] if holder else 'unknown'})"

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


def refuse_if_served(db_path: Path) -> None:
    """Fail at once when a server holds the database for good (a reader beside a plain writer just reads on).

    Raises:
        DatabaseLocked: `kgbrain serve` (or mcp) owns the database; the message names its address.
    """
    try:
        fd = os.open(db_path.with_name(db_path.name + LOCK_SUFFIX), os.O_RDONLY)
    except OSError:
        return  # no writer ever ran here, or we may not read its lock file: nothing to say
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return  # nobody writes now
        except BlockingIOError:
            served = _served_by(fd)
        if served is not None:
            raise DatabaseLocked(
                f"database {str(db_path)!r} is served by {served}; send requests there, or stop the server first"
            )
    finally:
        os.close(fd)  # (closing drops the probe's shared lock too)


def _served_by(fd: int) -> str | None:
    # The lock file holds "<pid>" for a command and "<pid> <server>" for a server (see `announce`): the server
    # says what it is, e.g. "`kgbrain serve` at http://127.0.0.1:8765".
    parts = os.pread(fd, 512, 0).decode(errors="replace").split(maxsplit=1)
    return parts[1].strip() if len(parts) == 2 else None
