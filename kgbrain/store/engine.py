"""The engine adapter: every call into the graph engine goes through here (replacing it means replacing this module).

The engine is LadybugDB 0.22.0 by default, or Kùzu 0.11.3 with `KGBRAIN_BACKEND=kuzu` (engine_package.py); both
have the same Python API. Traps of the engines (kuzu 0.11.3 in shared/research/kuzu_probe.md, ladybug 0.22.0 in
ladybug_probe.md; "both" = still holds on ladybug):
- every engine error is a bare RuntimeError("<Stage> exception: ..."), translated to StoreError once, here (both);
- planning a statement costs about as much as running a key-bound one (~0.7 ms), so a session keeps its
  prepared statements; one that fails to prepare runs as text (and fails with the same error);
- a statement prepared outside a transaction ended a transaction it later ran in, and a reused generated rule
  statement lost a parameter, so only named queries outside a transaction are prepared (`prepared=True`);
- ladybug: while a PreparedStatement object lives, `Database.close()` neither checkpoints nor releases the file
  (the working copy then lacked the log's data), so a session drops its statements before its connection closes;
- ladybug: with `auto_checkpoint` off, a committed COPY is written to neither the log nor the file (lost on a
  kill; a transaction that CREATEs nodes and COPYs rels comes back torn), so databases open with it on and `copy`
  refuses to run while it is off;
- ladybug: a read-only open of a file whose checkpoint was killed is refused ("recovery is pending") until a
  read-write open recovers it (`needs_replay` recognises both engines' messages);
- ladybug: its Python binding defaults `throw_on_wal_replay_failure=True`, the C++ one to False. It is set True
  explicitly: a log that cannot be replayed fails the open with a message naming the file, instead of silently
  dropping committed transactions. kgbrain's all-or-nothing writes only ever swap in a closed, checkpointed
  copy, so a log beside the main file comes only from a server's in-place writes killed mid-way.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, QueryError, StoreError
from kgbrain.store import engine_package

Row = dict[str, Any]

PREPARED_STATEMENTS = 1_000  # per session


# What the engines say when a read-only open meets a killed writer's log (kuzu) or checkpoint (ladybug).
_REPLAY_NEEDED = ("replay", "recovery is pending")


def backend() -> str:
    """The engine this process runs on ("ladybug" or "kuzu").

    Raises:
        InputError: KGBRAIN_BACKEND names no engine.
    """
    return engine_package.backend_name()


def display_name() -> str:
    """The engine's name for messages ("Ladybug" or "Kùzu")."""
    return {"ladybug": "Ladybug", "kuzu": "Kùzu"}[engine_package.backend_name()]


def readers_beside_writer() -> bool:
    """Another process may open the file read-only while this one has it open read-write (Ladybug; Kùzu refuses
    with a lock error)."""
    return engine_package.backend_name() == "ladybug"


def reads_own_appends() -> bool:
    """A transaction reads back what it appended earlier, with the right endpoints and once each (Ladybug; Kùzu
    0.11.3 reads such relationships with wrong endpoints and once per relationship table), so a write of many
    steps (a load, the rules it sets off, withdrawal and settling) can run in one transaction."""
    return engine_package.backend_name() == "ladybug"


def writes_to_deltas() -> bool:
    """New facts go to the delta tables (schema.DELTA_TABLES; Ladybug). On Kùzu 0.11.3 they stay in the main tables:
    in a transaction that created a concept, a label-free scan repeats its new relationship once per table, and
    `WITH DISTINCT r` stops collapsing the repeats once the relationship is in a delta table (measured), so every
    query that de-duplicates them would miscount. The deltas then stay empty, and merging has nothing to do."""
    return engine_package.backend_name() == "ladybug"


# The most a database file may grow to. The engines' default, 8 TiB, is reserved as virtual address space at every
# open (VmSize 8.6 TB per process, measured on both); under load an open at test setup failed once with "Mmap for
# size 8796093022208 failed". 256 GiB is ~1,000x the 1M-fact KB (~300 MB) and leaves room for Ladybug #924's
# checkpoint leak (~9 MiB per checkpoint, 0.17-0.19: ~29,000 checkpoints in one process).
MAX_DB_SIZE = 256 * 2**30


def _database(path: Path | None, *, buffer_pool_mb: int, read_only: bool) -> Any:
    package = engine_package.load()
    options: dict[str, Any] = {
        "buffer_pool_size": buffer_pool_mb * 2**20,
        "max_db_size": MAX_DB_SIZE,
        "read_only": read_only,
        "auto_checkpoint": True,  # never off: see the COPY trap above
    }
    if engine_package.backend_name() == "ladybug":
        options["throw_on_wal_replay_failure"] = True
    return package.Database(str(path) if path is not None else ":memory:", **options)


def open_database(path: Path | None, *, buffer_pool_mb: int, read_only: bool) -> Any:
    """The engine's database on `path` (None: in memory), its buffer pool capped at `buffer_pool_mb`.

    Raises:
        StoreError: the engine could not open it (`needs_replay` tells a killed writer's leftovers).
    """
    try:
        return _database(path, buffer_pool_mb=buffer_pool_mb, read_only=read_only)
    except RuntimeError as exc:
        raise StoreError(f"cannot open database {str(path)!r}: {exc}{_wal_hint(path, exc)}") from exc


def engine_error(what: str, exc: RuntimeError) -> StoreError:
    """The engine's failure of `what` in words a user can act on (most are passed on as the engine gave them)."""
    if "Buffer manager exception" in str(exc):
        # Ladybug's buffer pool holds what one statement works on (a COPY's key index, a big result) whole.
        pool = os.environ.get("KGBRAIN_BUFFER_POOL_MB", "").strip() or "1024 (the default)"
        return StoreError(
            f"{what} failed: the engine's buffer pool (KGBRAIN_BUFFER_POOL_MB={pool} MB) is too small for this "
            "much at once; nothing of the write was stored. Give it more memory (KGBRAIN_BUFFER_POOL_MB) or send "
            "less at a time"
        )
    return StoreError(f"{what} failed: {exc}")


def _wal_hint(path: Path | None, exc: RuntimeError) -> str:
    text = str(exc).lower()
    if path is None or "wal" not in text or not any(w in text for w in ("replay", "corrupt", "checksum")):
        return ""
    return (
        f"; the write-ahead log {str(path) + '.wal'!r} of a write that was cut short cannot be replayed: move it "
        "aside to open the database without the transactions it holds"
    )


def needs_replay(error: StoreError) -> bool:
    """`open_database` failed read-only because a killed writer left a log or checkpoint to recover."""
    return any(marker in str(error) for marker in _REPLAY_NEEDED)


def replay_log(path: Path, *, buffer_pool_mb: int) -> None:
    """Open `path` read-write once and close it: the engine replays (and removes) a killed writer's log.

    Raises:
        RuntimeError: the engine could not (the caller says why in its own words).
    """
    _database(path, buffer_pool_mb=buffer_pool_mb, read_only=False).close()


def close_database(handle: Any) -> None:
    """Close an engine database (which checkpoints: the file then holds everything, with no log beside it)."""
    handle.close()


class Session:
    """One engine connection with its prepared statements; `attach` (re)connects it to a database handle."""

    def __init__(self, handle: Any, where: Path | None) -> None:
        """Connect to `handle` (the database on `where`).

        Raises:
            StoreError: the engine refused the connection.
        """
        self._conn: Any = None
        self._prepared: dict[str, Any] = {}
        # Called before each statement: raising stops the caller there (a server stops a write whose client is gone).
        self.before_statement: Callable[[], None] | None = None
        self.in_engine = 0  # statements under way in the engine (a canceller interrupts those, never interrupts Python)
        self.attach(handle, where)

    def attach(self, handle: Any, where: Path | None) -> None:
        """Connect (again) to `handle`, dropping what the previous connection had prepared.

        Raises:
            StoreError: the engine refused the connection.
        """
        self.close()
        try:
            self._conn = engine_package.load().Connection(handle)
        except RuntimeError as exc:
            raise StoreError(f"cannot open database {str(where)!r}: {exc}") from exc

    def close(self) -> None:
        """Close the connection (idempotent), its prepared statements first (ladybug keeps a database with a live
        statement open through `close`)."""
        self._prepared = {}
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def interrupt(self) -> bool:
        """Ask the engine to stop the statement this connection runs (from another thread); False when it runs
        none. Measured on ladybug 0.22.0: a MATCH stops within milliseconds ("Interrupted."), an `UNWIND
        range(...)` runs to its end, and an interrupt that arrives while a statement compiles is lost (repeat it)."""
        conn = self._conn
        if conn is None or not self.in_engine:
            return False
        conn.interrupt()
        return True

    def execute(self, text: str, params: dict[str, Any], *, what: str, prepared: bool = False) -> Any:
        """Run one statement and return the engine's result (the caller closes it, or uses the methods below).

        Raises:
            QueryError: `text` holds more than one statement.
            StoreError: the engine rejected or failed it.
        """
        if self.before_statement is not None:
            self.before_statement()
        self.in_engine += 1
        try:
            result = self._conn.execute(self._statement(text) if prepared and params else text, params)
        except RuntimeError as exc:
            bad = _not_utf8(params)
            if bad is not None:  # the engine's own words: "Unable to cast Python instance of type <class 'str'>"
                raise InputError(
                    f"{bad[:60]!r} is not valid text: it holds bytes that are not UTF-8 (or a lone surrogate); "
                    "give it in UTF-8"
                ) from None
            raise engine_error(what, exc) from exc
        finally:
            self.in_engine -= 1
        if isinstance(result, list):
            for r in result:
                r.close()
            raise QueryError(f"{what} must hold exactly one statement")
        return result

    def run(self, text: str, params: dict[str, Any], *, what: str) -> None:
        """Run one statement, ignoring its rows.

        Raises:
            QueryError, StoreError: as `execute`.
        """
        self.execute(text, params, what=what).close()

    def rows(self, text: str, params: dict[str, Any], *, what: str, prepared: bool = False) -> Iterator[Row]:
        """Run one statement and stream its rows as dicts (a failure while reading is a StoreError too).

        Raises:
            QueryError, StoreError: as `execute`.
        """
        result = self.execute(text, params, what=what, prepared=prepared)
        try:
            cols = result.get_column_names()
            while result.has_next():
                yield dict(zip(cols, result.get_next(), strict=True))
        except RuntimeError as exc:
            raise engine_error(what, exc) from exc
        finally:
            result.close()

    def column(self, text: str, *, what: str) -> list[Any]:
        """The first column of every row of a parameterless statement.

        Raises:
            QueryError, StoreError: as `execute`.
        """
        result = self.execute(text, {}, what=what)
        try:
            return [row[0] for row in result.get_all()]
        finally:
            result.close()

    def first_value(self, text: str, *, what: str) -> Any:
        """The first value of the first row of a parameterless statement.

        Raises:
            QueryError, StoreError: as `execute`.
        """
        result = self.execute(text, {}, what=what)
        try:
            return result.get_next()[0]
        finally:
            result.close()

    def arrow(self, text: str, params: dict[str, Any], *, what: str) -> Any:
        """All rows of a statement as one pyarrow Table.

        Raises:
            QueryError, StoreError: as `execute`.
        """
        result = self.execute(text, params, what=what)
        try:
            return result.get_as_arrow()
        except RuntimeError as exc:
            raise engine_error(what, exc) from exc
        finally:
            result.close()

    def copy(self, table: str, rows: Any, *, what: str) -> None:
        """COPY a pyarrow Table into `table` (inside the caller's transaction).

        Raises:
            StoreError: checkpoints are off (ladybug would then lose the COPY on a kill), or the COPY failed.
        """
        setting = str(self.first_value("CALL current_setting('auto_checkpoint') RETURN *", what=what))
        if setting.lower() != "true":
            raise StoreError(
                f"{what} refused: auto_checkpoint is off, and the engine does not make a COPY durable then; "
                "turn it back on (CALL auto_checkpoint=true)"
            )
        self.run(f"COPY {table} FROM $rows", {"rows": rows}, what=what)

    def rollback(self) -> None:
        """Roll the open transaction back (one a failed statement already rolled back is fine).

        Raises:
            StoreError: the rollback failed.
        """
        try:
            result = self._conn.execute("ROLLBACK")
            for r in result if isinstance(result, list) else [result]:
                r.close()
        except RuntimeError as exc:
            # A failed statement already made the engine roll the transaction back by itself.
            if "No active transaction" not in str(exc):
                raise engine_error("ROLLBACK", exc) from exc

    def _statement(self, text: str) -> Any:
        statement = self._prepared.get(text)
        if statement is None:
            statement = engine_package.load().PreparedStatement(self._conn, text)
            if not statement.is_success():
                return text
            if len(self._prepared) < PREPARED_STATEMENTS:
                self._prepared[text] = statement
        return statement


def _not_utf8(value: Any, depth: int = 0) -> str | None:
    """The first string in a statement's parameters that cannot be encoded as UTF-8 (a command-line argument with
    bytes that are not UTF-8 arrives as lone surrogates), or None. Only looked at once the engine has refused."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value
        return None
    if depth > 4:
        return None
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list | tuple) else ()
    for item in items:
        found = _not_utf8(item, depth + 1)
        if found is not None:
            return found
    return None
