"""Database: one knowledge base file opened by this process, with its lock, its engine handle and its working copy.

Connections (`KuzuStore`) run queries on it; the database owns what they share (as Kùzu's own Python API
separates `Database` and `Connection`):
- the buffer pool defaults to 80% of RAM, so it is capped;
- a second writer is refused by the engine instead of waiting, so a file lock (lock.py) serialises processes;
- on Ladybug, readers in other processes read the file while a writer works on its working copy (the file is the
  snapshot from before the write); they only wait for a writer changing the file in place (`hold_readers_off`).
  Kùzu refuses a read-only open while another process has the file open read-write, so there readers wait;
- a killed writer leaves a log beside the file that a read-only open refuses to replay (kuzu; ladybug: a killed
  checkpoint's shadow pages, "recovery is pending"), so a reader replays it;
- the engine's own recovery loses data when a big transaction is killed while it commits, so an all-or-nothing
  write goes to a working copy that replaces the file when it completes (`working_copy`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, StoreError
from kgbrain.store import engine
from kgbrain.store.lock import READERS_SUFFIX, FileLock, refuse_if_served
from kgbrain.store.rollback import finish_rollback, pending_rollback, snapshot
from kgbrain.store.working_copy import WORK_SUFFIX, check_space, copy_file, fsync, remove_leftovers

DEFAULT_BUFFER_POOL_MB = 1024
LOCK_TIMEOUT_S = 30.0


def env_number(name: str, default: float, *, low: float, high: float) -> float:
    """A number from the environment, checked when a store opens (not at import, so a bad value is a message).

    Raises:
        InputError: the variable is set to something that is not a number in low..high.
    """
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:  # NaN fails too
        raise InputError(f"environment variable {name}={raw[:40]!r} must be a number from {low:.10g} to {high:.10g}")
    return value


class Database:
    """The open database file (or an in-memory database) and the engine sessions connected to it."""

    def __init__(
        self,
        path: Path | None,
        *,
        read_only: bool,
        buffer_pool_mb: int | None = None,
        lock_timeout_s: float | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        """Lock and open the database at `path` (creating its folder if needed), or an in-memory one.

        Raises:
            DatabaseLocked: another process holds the database.
            StoreError: the file cannot be opened (or a killed writer's log cannot be replayed).
        """
        if buffer_pool_mb is None:
            buffer_pool_mb = int(env_number("KGBRAIN_BUFFER_POOL_MB", DEFAULT_BUFFER_POOL_MB, low=16, high=2**20))
        if lock_timeout_s is None:
            lock_timeout_s = env_number("KGBRAIN_LOCK_TIMEOUT", LOCK_TIMEOUT_S, low=0, high=10**7)
        self.path = path
        self.read_only = read_only
        self.schema_version = 0  # set by the owning connection once the schema is checked (migrations.py)
        self.shared = False  # it gave out reader connections (then `working_copy` cannot swap it under them)
        self.in_working_copy = False  # inside `working_copy`: the open file is the copy
        self._buffer_pool_mb = buffer_pool_mb
        self._lock_timeout_s = lock_timeout_s
        self._on_wait = on_wait
        self._lock: FileLock | None = None
        self._readers_lock: FileLock | None = None  # readers: shared; a writer changing the file in place: exclusive
        self._handle: Any = None
        self._open_path: Path | None = None  # the file the engine has open (the working copy inside `working_copy`)
        self._sessions: list[engine.Session] = []
        if path is not None:
            self._lock_file(path)
        if path is not None and not read_only:
            finish_rollback(path)  # a `discard_uncommitted` a kill cut short
            remove_leftovers(path)  # a copy an interrupted `atomic` write left behind
        try:
            self._open(path)
        except StoreError:
            self._release_lock()
            raise

    def _lock_file(self, path: Path) -> None:
        if self.read_only and not path.exists():
            raise StoreError(f"database {str(path)!r} does not exist (`kgbrain init` or `load` creates one)")
        try:
            if not self.read_only:
                parent = next((p for p in path.parents if p.exists()), None)
                if parent is not None and not parent.is_dir():
                    raise NotADirectoryError(20, "Not a directory", str(parent))
                path.parent.mkdir(parents=True, exist_ok=True)
            if self.read_only and engine.readers_beside_writer():
                refuse_if_served(path)
                self._readers_lock = self._file_lock(path, shared=True, suffix=READERS_SUFFIX)
                self._readers_lock.acquire()
            else:
                self._lock = self._file_lock(path, shared=self.read_only)
                self._lock.acquire()
        except OSError as exc:
            self._lock = self._readers_lock = None
            where = f" ({exc.filename} is not a directory)" if isinstance(exc, NotADirectoryError) else ""
            raise StoreError(f"cannot open database {str(path)!r}: {exc.strerror or exc}{where}") from exc

    def _file_lock(self, path: Path, *, shared: bool, suffix: str = ".lock") -> FileLock:
        return FileLock(path, shared=shared, timeout_s=self._lock_timeout_s, on_wait=self._on_wait, suffix=suffix)

    def hold_readers_off(self) -> None:
        """Before a write that changes the file in place: wait for the readers of other processes to finish, and
        keep new ones out until the file holds the write (the database closes, or `working_copy` takes over).

        A write in place goes through the engine's log and checkpoint, which a reader in another process does not
        see consistently; a write on the working copy leaves the file as it was, so readers read on beside it.

        Raises:
            DatabaseLocked: readers kept the file for the whole lock timeout.
            StoreError: the lock file cannot be created.
        """
        if self.path is None or self.read_only or self.in_working_copy or self._readers_lock is not None:
            return
        if not engine.readers_beside_writer():
            return  # Kùzu: readers wait on the writer's own lock
        lock = self._file_lock(self.path, shared=False, suffix=READERS_SUFFIX)
        try:
            lock.acquire()
        except OSError as exc:
            raise StoreError(f"cannot write database {str(self.path)!r}: {exc.strerror or exc}") from exc
        self._readers_lock = lock

    def _open(self, path: Path | None) -> None:
        if self.read_only and path is not None and pending_rollback(path):
            self._replay_killed_write(path)  # (which finishes the rollback's reopen first)
        try:
            self._open_engine(path)
        except StoreError as exc:
            if not (self.read_only and path is not None and engine.needs_replay(exc)):
                raise
            self._replay_killed_write(path)
            self._open_engine(path)

    def _replay_killed_write(self, path: Path) -> None:
        """Replay the log a killed writer left beside the file, which Kùzu refuses to do read-only.

        Kùzu writes a log and shadow pages even while it opens a database read-write; a writer killed then leaves
        them, and every read-only open fails until a read-write open replays them. Ladybug writes none as it
        opens, but a checkpoint killed half-way leaves its shadow pages, with the same refusal. A reader holding
        the shared lock knows no writer is running, so it takes the writer's lock, opens the file read-write once,
        and reads on.

        Raises:
            StoreError: the log cannot be replayed here (read-only media, or a writer kept the lock).
        """
        self._release_lock()
        try:
            with (
                self._file_lock(path, shared=False),
                self._file_lock(path, shared=False, suffix=READERS_SUFFIX),
            ):
                finish_rollback(path)
                engine.replay_log(path, buffer_pool_mb=self._buffer_pool_mb)
        except (OSError, RuntimeError) as exc:
            raise StoreError(
                f"database {str(path)!r} holds the log of a write that was killed, and it could not be replayed "
                f"({exc}); run `kgbrain init` on it where it is writable"
            ) from exc
        if engine.readers_beside_writer():
            self._readers_lock = self._file_lock(path, shared=True, suffix=READERS_SUFFIX)
            self._readers_lock.acquire()
        else:
            self._lock = self._file_lock(path, shared=True)
            self._lock.acquire()

    def _open_engine(self, path: Path | None) -> None:
        self._handle = engine.open_database(path, buffer_pool_mb=self._buffer_pool_mb, read_only=self.read_only)
        self._open_path = path
        for session in self._sessions:
            session.attach(self._handle, path)

    def _close_engine(self) -> None:
        for session in self._sessions:
            session.close()
        if self._handle is not None:
            engine.close_database(self._handle)
            self._handle = None

    def discard_uncommitted(self) -> None:
        """Reopen the engine on what has been committed, dropping what it holds in memory (after a rollback that
        inserted nodes; every session is reconnected, so no statement of any may run meanwhile).

        Ladybug 0.22.0 (and Kùzu 0.11.3): rolling back a transaction whose inserts opened a new node group (one
        every 131,072 rows of a node table; 100 rows past the boundary suffice) leaves the table's primary-key index
        pointing past the table. The next insert in the process fails ("Index contains an invalid node offset"),
        and once a checkpoint (every close) has written the index, the next checkpoint writes a shadow file without
        end (40 GB in 11 minutes, measured). The file and its log hold only committed transactions, so a copy of
        both taken now is the database without the damage; it replaces the file once the engine has closed (a kill
        at any moment leaves the file or the copy to finish with: `finish_rollback` at the next open). An in-memory
        database has no such copy and is left as it is.

        Raises:
            StoreError: the copy or the reopen failed (the next open of the file finishes it).
        """
        current = self._open_path
        if current is None or self.read_only:
            return
        try:
            snapshot(current)
            self._close_engine()
            finish_rollback(current)
        except OSError as exc:
            why = exc.strerror or exc
            raise StoreError(f"cannot restore database {str(current)!r} after a rollback: {why}") from exc
        self._open_engine(current)

    # -- connections -------------------------------------------------------------------------

    def session(self) -> engine.Session:
        """A new engine connection to this database; it follows the database through `working_copy`.

        Raises:
            StoreError: the engine refused the connection.
        """
        session = engine.Session(self._handle, self.path)
        self._sessions.append(session)
        return session

    def end_session(self, session: engine.Session) -> None:
        """Close a session `session` gave out (idempotent)."""
        session.close()
        if session in self._sessions:
            self._sessions.remove(session)

    # -- all-or-nothing writes ---------------------------------------------------------------

    @contextmanager
    def working_copy(self, *, expected_bytes: int) -> Iterator[None]:
        """Run the block on `<db>.writing`, a copy of the file that replaces it when the block completes.

        Every session is moved to the copy for the block and back to the file afterwards. The caller holds the
        write lock and has checked that no reader connection shares the database.

        Raises:
            StoreError: too little disk space, or the copy, the write or the swap failed; the file is as it was.
        """
        assert self.path is not None
        path = self.path
        work = path.with_name(path.name + WORK_SUFFIX)
        check_space(path, expected_bytes)
        self._close_engine()  # (which checkpoints: the file now holds every write made in place)
        self._release_readers_lock()  # readers read the file while the write goes to the copy
        self.in_working_copy = True
        try:
            remove_leftovers(path)
            copy_file(path, work)
            self._open_engine(work)
            yield
            self._close_engine()
            fsync(work)
            work.replace(path)
            fsync(path.parent)
        except OSError as exc:
            raise StoreError(f"cannot write database {str(path)!r}: {exc.strerror or exc}") from exc
        finally:
            self.in_working_copy = False
            self._close_engine()
            remove_leftovers(path)
            self._open_engine(path)

    # -- lifetime ----------------------------------------------------------------------------

    def announce(self, address: str) -> None:
        """Name the server that owns this database: other processes then fail at once with its address."""
        if self._lock is not None:
            self._lock.announce(address)

    def close(self) -> None:
        """Close every session and the engine database, then release the file lock (idempotent)."""
        self._close_engine()
        self._sessions = []
        self._release_lock()

    def _release_lock(self) -> None:
        self._release_readers_lock()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def _release_readers_lock(self) -> None:
        if self._readers_lock is not None:
            self._readers_lock.release()
            self._readers_lock = None
