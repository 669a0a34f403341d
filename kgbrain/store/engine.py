"""The engine adapter: every call into Kùzu goes through here (replacing the engine means replacing this module).

Traps of the engine itself (measured on kuzu 0.11.3, see shared/research/kuzu_probe.md):
- every engine error is a bare RuntimeError("<Stage> exception: ..."), translated to StoreError once, here;
- planning a statement costs about as much as running a key-bound one (~0.7 ms), so a session keeps its
  prepared statements; one that fails to prepare runs as text (and fails with the same error);
- a statement prepared outside a transaction ended a transaction it later ran in, and a reused generated rule
  statement lost a parameter, so only named queries outside a transaction are prepared (`prepared=True`).
"""

from __future__ import annotations

import importlib.util  # noqa: F401  kuzu 0.11.3 uses importlib.util without importing it
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kgbrain.errors import QueryError, StoreError
from kgbrain.store.kuzu_package import PreparedStatement, kuzu

Row = dict[str, Any]

PREPARED_STATEMENTS = 1_000  # per session


def open_database(path: Path | None, *, buffer_pool_mb: int, read_only: bool) -> Any:
    """The engine's database on `path` (None: in memory), its buffer pool capped at `buffer_pool_mb`.

    Raises:
        StoreError: the engine could not open it (the message holds "replay" when a killed writer left its log).
    """
    try:
        return kuzu.Database(
            str(path) if path is not None else ":memory:", buffer_pool_size=buffer_pool_mb * 2**20, read_only=read_only
        )
    except RuntimeError as exc:
        raise StoreError(f"cannot open database {str(path)!r}: {exc}") from exc


def replay_log(path: Path, *, buffer_pool_mb: int) -> None:
    """Open `path` read-write once and close it: the engine replays (and removes) a killed writer's log.

    Raises:
        RuntimeError: the engine could not (the caller says why in its own words).
    """
    kuzu.Database(str(path), buffer_pool_size=buffer_pool_mb * 2**20).close()


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
        self.attach(handle, where)

    def attach(self, handle: Any, where: Path | None) -> None:
        """Connect (again) to `handle`, dropping what the previous connection had prepared.

        Raises:
            StoreError: the engine refused the connection.
        """
        self.close()
        try:
            self._conn = kuzu.Connection(handle)
        except RuntimeError as exc:
            raise StoreError(f"cannot open database {str(where)!r}: {exc}") from exc

    def close(self) -> None:
        """Close the connection (idempotent)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._prepared = {}

    def execute(self, text: str, params: dict[str, Any], *, what: str, prepared: bool = False) -> Any:
        """Run one statement and return the engine's result (the caller closes it, or uses the methods below).

        Raises:
            QueryError: `text` holds more than one statement.
            StoreError: the engine rejected or failed it.
        """
        try:
            result = self._conn.execute(self._statement(text) if prepared and params else text, params)
        except RuntimeError as exc:
            raise StoreError(f"{what} failed: {exc}") from exc
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
            raise StoreError(f"{what} failed: {exc}") from exc
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
            raise StoreError(f"{what} failed: {exc}") from exc
        finally:
            result.close()

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
            # A failed statement already made Kùzu roll the transaction back by itself.
            if "No active transaction" not in str(exc):
                raise StoreError(f"ROLLBACK failed: {exc}") from exc

    def _statement(self, text: str) -> Any:
        statement = self._prepared.get(text)
        if statement is None:
            statement = PreparedStatement(self._conn, text)
            if not statement.is_success():
                return text
            if len(self._prepared) < PREPARED_STATEMENTS:
                self._prepared[text] = statement
        return statement
