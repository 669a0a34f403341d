"""The schema of a database as it opens: created on a new file, migrated on an older one, refused when newer.

It runs through the database's first connection (`SchemaConnection`: a `KuzuStore`), before anything else reads.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

from kgbrain.errors import SchemaVersionError, StoreError
from kgbrain.store import engine, schema

Row = dict[str, Any]

WRITE_COUNTER = "write_counter"


class SchemaConnection(Protocol):
    """What checking and migrating the schema needs from a connection."""

    @property
    def path(self) -> Path | None:
        """The database file."""
        ...

    @property
    def read_only(self) -> bool:
        """Writes are refused."""
        ...

    def tables(self) -> set[str]:
        """Names of every table in the database."""
        ...

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """Run a named query."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction."""
        ...

    def ddl(self, statement: str, *, what: str) -> None:
        """Run one schema statement."""
        ...

    def count_writes(self) -> None:
        """From now on every write transaction bumps the write counter (Meta exists)."""
        ...

    def mark_written(self) -> None:
        """Bump the write counter once, outside any transaction."""
        ...


def ensure_schema(conn: SchemaConnection) -> int:
    """Create, check or migrate the schema; the schema version the database then has.

    Raises:
        SchemaVersionError: newer than this kgbrain, unreadable, or (read-only) in need of migrating.
        StoreError: not a kgbrain database, no schema on a read-only open, or the engine failed.
    """
    latest = schema.latest_version()
    tables = conn.tables()
    if "Meta" not in tables:
        current = _create(conn, tables)
    else:
        current = _stored_version(conn)
        conn.count_writes()
    if current > latest:
        raise SchemaVersionError(
            f"database {str(conn.path)!r} has schema version {current}, but this kgbrain knows only up to "
            f"{latest}; upgrade kgbrain to open it"
        )
    if current < latest:
        _migrate(conn, current, latest)
        current = latest
    conn.count_writes()
    if not conn.read_only and not conn.run("meta_get", key=WRITE_COUNTER):
        conn.mark_written()  # written by a kgbrain without one: caches can key on it now
    return current


def _create(conn: SchemaConnection, tables: set[str]) -> int:
    if tables:  # someone else's database: never add our tables to it
        raise StoreError(
            f"database {str(conn.path)!r} is a {engine.display_name()} database but not a kgbrain knowledge base "
            f"(it has tables {', '.join(sorted(tables)[:5])}); use another path"
        )
    if conn.read_only:
        raise StoreError(f"database {str(conn.path)!r} has no kgbrain schema; run `kgbrain init` first")
    with conn.transaction():
        for stmt in schema.create_statements():
            conn.ddl(stmt, what="schema creation")
        _set_version(conn, 1)
    conn.mark_written()
    return 1


def _stored_version(conn: SchemaConnection) -> int:
    rows = conn.run("meta_get", key="schema_version")
    text = str(rows[0]["value"]) if rows else "0"
    if not text.isdigit():
        raise SchemaVersionError(
            f"database {str(conn.path)!r} has an unreadable schema version {text[:40]!r}; it is damaged"
        )
    return int(text)


def _migrate(conn: SchemaConnection, current: int, latest: int) -> None:
    if conn.read_only:
        raise SchemaVersionError(
            f"database {str(conn.path)!r} has schema version {current} and needs migrating to {latest}; "
            "run `kgbrain init` on it once"
        )
    for version, statements in schema.migration_statements(current):
        with conn.transaction():
            for stmt in statements:
                conn.ddl(stmt, what=f"migration to schema version {version}")
            _set_version(conn, version)


def _set_version(conn: SchemaConnection, version: int) -> None:
    conn.run("meta_set", key="schema_version", value=str(version))
