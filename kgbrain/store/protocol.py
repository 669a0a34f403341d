"""The narrow interface the layers above use to talk to the graph store."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

Row = dict[str, Any]


class GraphStore(Protocol):
    """What reasoning, ingest and the API need from a graph store."""

    read_only: bool

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

    def close(self) -> None:
        """Release the database."""
        ...
