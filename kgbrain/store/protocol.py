"""The narrow interfaces the layers above use to talk to the graph store.

`GraphStore` is what reasoning, ingest and the API need; `ServedStore` adds what a server needs to run one writer
and one reader on the same database (`served` checks that a store has it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from kgbrain.errors import InputError
from kgbrain.store.delta import FactDelta

Row = dict[str, Any]


class Lookups(Protocol):
    """Named read queries and nothing else: what a verification decision reads beyond its in-memory views
    (see `kgbrain.reasoning.views.lookups`). A `GraphStore` is one; so is a gathered copy of the answers."""

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """The rows of the named read query."""
        ...

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Like `run`, streaming rows instead of collecting them."""
        ...


class GraphStore(Protocol):
    """What reasoning, ingest and the API need from a graph store."""

    @property
    def path(self) -> Path | None:
        """The database file (None: in memory); caches beside it are named after it."""
        ...

    @property
    def read_only(self) -> bool:
        """Writes are refused."""
        ...

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        ...

    def write_counter(self) -> str | None:
        """`count:token`, changed by every write; None when caches must not be keyed by it (see KuzuStore)."""
        ...

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """Run the named query from queries/ with exactly its parameters."""
        ...

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Like `run`, streaming rows instead of collecting them."""
        ...

    def run_generated(self, text: str, /, **params: Any) -> list[Row]:
        """Run a compiled rule statement (schema names and `$params` only, never a quote)."""
        ...

    def iterate_table(self, template: str, table: str, /, **params: Any) -> Iterator[Row]:
        """Stream the rows of a query template filled with one relationship table (a schema name)."""
        ...

    def arrow_table(self, template: str, table: str, /, **params: Any) -> Any:
        """Like `iterate_table`, all rows at once as a pyarrow Table."""
        ...

    def transaction(self) -> AbstractContextManager[None]:
        """Hold the write lock and run the block as one transaction, rolled back on error."""
        ...

    def atomic(self, *, expected_bytes: int = 0) -> AbstractContextManager[None]:
        """Run the block so a kill or crash at any moment leaves all of its transactions' writes or none."""
        ...

    def copy(self, table: str, rows: Any) -> None:
        """Bulk-insert a pyarrow table into `table` (inside the current transaction, if any)."""
        ...

    def append_rels(self, table: str, rows: Any) -> None:
        """Append relationships (pyarrow Table: from, to, properties) so a rollback cannot harm older rows."""
        ...

    def merge_deltas(self, *, threshold: int = 1) -> int:
        """Move the facts waiting in the delta tables into the main ones (all or nothing) when there are at least
        `threshold`; how many moved."""
        ...

    def close(self) -> None:
        """Release the database."""
        ...


@runtime_checkable
class ServedStore(GraphStore, Protocol):
    """What a server needs beyond `GraphStore`: a reader connection beside the writer, the reader's row cache,
    the commit window, and what each commit did to the facts."""

    # Held around each COMMIT and the `on_commit` hooks (a server holds its readers off meanwhile).
    commit_guard: Callable[[], AbstractContextManager[object]]
    on_commit: list[Callable[[], None]]
    # Called before each outermost COMMIT; raising rolls that transaction back instead.
    before_commit: Callable[[], None]
    # Called before each statement inside a write transaction; raising rolls that transaction back there.
    before_statement: Callable[[], None]

    @property
    def in_transaction(self) -> bool:
        """A write transaction of this connection is open."""
        ...

    def whole_write(self) -> AbstractContextManager[None]:
        """Run a write of many steps as one transaction (where the engine allows: see `KuzuStore.whole_write`)."""
        ...

    def connect(self) -> ServedStore:
        """Another, read-only connection to the same open database (it sees every committed write)."""
        ...

    def interrupt(self) -> bool:
        """Stop the statement this connection runs, from another thread; False when it runs none."""
        ...

    def cache_reads(self) -> None:
        """Keep the rows of named queries until `forget_reads`."""
        ...

    def forget_reads(self) -> None:
        """Drop the rows `cache_reads` kept."""
        ...

    def announce(self, address: str) -> None:
        """Name the server that owns the database, for other processes' messages."""
        ...

    def track_facts(self) -> None:
        """Record what every write does to the facts (see `take_delta`)."""
        ...

    def take_delta(self) -> FactDelta | None:
        """What writes did to the facts since the last call (None: not tracking)."""
        ...


def served(store: GraphStore) -> ServedStore:
    """`store` as a `ServedStore`.

    Raises:
        InputError: the store cannot be served (it lacks a `ServedStore` member).
    """
    if not isinstance(store, ServedStore):
        raise InputError("the service needs a Kùzu store")
    return store
