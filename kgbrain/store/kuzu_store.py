"""KuzuStore: a connection to a kgbrain database, with named queries, transactions, bulk COPY and the write counter.

The store is three parts, as Kùzu's own Python API separates `Database` and `Connection`:
- database.py: the file, its lock, the engine handle, the working copy of an all-or-nothing write, and
  migrations.py, which creates or migrates the schema as the file opens;
- this module: a connection (`KuzuStore`) that runs queries, transactions and `atomic` blocks on a database, and
  keeps the read and prepared-statement caches and the write counter. `KuzuStore(path)` opens a database and owns
  it; `connect()` is a second, read-only connection on the same database (a server's reader);
- delta.py: what writes did to the facts, recorded for a server's reader.
Every call into the engine is in engine.py (the only module that uses kuzu).

Traps handled here, found on kuzu 0.11.3 (shared/research/kuzu_probe.md) and re-checked on ladybug 0.22.0
(ladybug_probe.md §5 and issue #25's note); the guards stay while the Kùzu backend does:
- a missing `$param` silently binds to NULL (both engines), so `run` checks parameters against the query text;
- a failing statement inside an explicit transaction rolls the transaction back by itself (both);
- a COPY that fails on a duplicate primary key can leave the primary-key index unusable for the rest
  of the session (kuzu; not reproduced on ladybug), so callers must de-duplicate before `copy` (the loaders do);
- rolling back a transaction that COPYed into a non-empty relationship table wipes that table's
  existing relationships, permanently (kuzu; ladybug rolls back cleanly). So `append_rels` COPYs only into empty
  relationship tables (or a working copy) and otherwise appends with LOAD FROM + CREATE, which rolls back cleanly;
- a label-free `()-[r]->()` scan in a transaction that has just appended to NAMES segfaults (on a
  reopened on-disk database), and repeats a new relationship once per table (kuzu; fixed in ladybug), so fact
  queries anchor the subject: `(:Concept)-[r]->()`, and queries inside a write de-duplicate;
- a NULL parameter used as a list (`IN $x`, `list_contains($x, ...)`) segfaults (kuzu; ladybug treats it as
  empty), so `run` refuses it;
- after a ROLLBACK that updated rows, updating them again can fail ("Write-write conflict of updating the same
  row") or segfault (kuzu; not reproduced on ladybug), so the write counter is never updated inside a
  transaction that may roll back.
Still true on both: `recursive_pattern_semantic='TRAIL'` has no effect (use SHORTEST forms), var-length bounds
cannot be parameters, every engine error is a bare RuntimeError, `id IN $list` scans where `{id: $id}` looks up.

Every write transaction also bumps a write counter in Meta (`write_counter`: count and a random token), so
caches built from the data (the reasoning mirror, the term index) are keyed by it instead of a scan.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from kgbrain.errors import QueryError, StoreError
from kgbrain.store import batches, engine, schema
from kgbrain.store.database import Database, env_number
from kgbrain.store.delta import DeltaRecorder, FactDelta
from kgbrain.store.engine import Session
from kgbrain.store.migrations import WRITE_COUNTER, ensure_schema
from kgbrain.store.queries import load_query, load_template
from kgbrain.store.working_copy import WORK_SUFFIX

__all__ = ["WORK_SUFFIX", "KuzuStore", "Row"]

_template = load_template


def _table_statement(template: str, table: str) -> tuple[str, str]:
    """queries/templates/<template>.cypher for one relationship table (`@TABLE@`, `@FROM@`, `@TO@` filled from
    the schema), and the name errors give it.

    Raises:
        QueryError: unknown template or table.
    """
    if table not in schema.REL_TABLES:
        raise QueryError(f"{template}: unknown relationship table {table!r}")
    source, target, _ = schema.REL_TABLES[table]
    text = _template(template).replace("@TABLE@", table).replace("@FROM@", source).replace("@TO@", target)
    return text, f"query {template!r} on {table}"


_GENERATED_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")

Row = dict[str, Any]


def _nothing() -> None:
    pass


# The deltas are merged into the fact tables when an `atomic` block leaves at least this many facts in them
# (KGBRAIN_DELTA_MERGE_ROWS): a merge costs about as much as loading them (6-8 CPU s per 100k on a 1M-fact
# table), and reads of the two tables slow down as the delta grows.
DELTA_MERGE_ROWS = 150_000
_BYTES_PER_FACT = 400  # what a merged fact adds to the file and its log, for `atomic`'s disk-space check
READ_CACHE_ENTRIES = 20_000  # named-query results a server's reader keeps between writes
# A named query that changes fact edges (they take `$subjects`): SET on the relationship of a `-[r]->` pattern.
_FACT_UPDATE = re.compile(r"-\[r(:[^\]]*)?\]->.*\bSET\s+r\.", re.S)
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|COPY)\b")
_INSERTS = re.compile(r"\b(CREATE|MERGE)\s*\(")  # (relationships too: a statement that may insert nodes)


class KuzuStore:
    """A connection to one Kùzu database (opened once per process) with named queries, transactions and bulk COPY.

    `KuzuStore(path)` opens the database and owns it (closing the store closes it); `connect()` gives a second,
    read-only connection on the same database.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        read_only: bool = False,
        buffer_pool_mb: int | None = None,
        lock_timeout_s: float | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> None:
        """Open (creating if needed) the database at `path`, or an in-memory one when `path` is None.

        Raises:
            DatabaseLocked: another process holds the database.
            SchemaVersionError: the file was written by a newer kgbrain.
            StoreError: Kùzu could not open the file.
        """
        database = Database(
            Path(path) if path is not None else None,
            read_only=read_only,
            buffer_pool_mb=buffer_pool_mb,
            lock_timeout_s=lock_timeout_s,
            on_wait=on_wait,
        )
        try:
            self._attach(database, read_only=read_only, owns=True)
        except BaseException:
            database.close()
            raise
        try:
            database.schema_version = ensure_schema(self)
        except BaseException:
            self.close()
            raise

    @classmethod
    def on(cls, database: Database) -> KuzuStore:
        """A read-only connection on an open database, which stays its opener's to close.

        Raises:
            StoreError: the engine refused the connection.
        """
        store = cls.__new__(cls)
        store._attach(database, read_only=True, owns=False)
        return store

    def _attach(self, database: Database, *, read_only: bool, owns: bool) -> None:
        self.database = database
        self.read_only = read_only
        self._owns_database = owns
        self._session: Session = database.session()
        self._write_lock = threading.RLock()
        self._in_tx = False
        self._inserted_nodes = False  # the open transaction inserted node rows (a rollback then reopens: see below)
        self._counting = False  # bump the write counter (once the Meta table exists)
        # Held around each COMMIT and the `on_commit` hooks: a server holds its readers off for that moment, so a
        # reader sees the data and the caches built from it either before a write or after it, never between.
        self.commit_guard: Callable[[], AbstractContextManager[object]] = nullcontext
        self.on_commit: list[Callable[[], None]] = []
        # Called at the end of each outermost transaction, before its COMMIT: raising rolls the transaction back
        # (a server refuses to commit a write whose request it has answered as timed out).
        self.before_commit: Callable[[], None] = _nothing
        # Called before each statement inside a write transaction: raising rolls the transaction back there (a
        # server stops a write whose request timed out or whose client went away, at its next statement).
        self.before_statement: Callable[[], None] = _nothing
        self._session.before_statement = self._before_statement
        self._read_cache: dict[tuple[str, str], list[Row]] | None = None
        self._recorder = DeltaRecorder()  # what committed writes did to the facts (`track_facts`)

    @property
    def path(self) -> Path | None:
        """The database file (None: in memory)."""
        return self.database.path

    @property
    def schema_version(self) -> int:
        """The schema version of the database."""
        return self.database.schema_version

    # -- all-or-nothing writes ---------------------------------------------------------------

    @contextmanager
    def atomic(self, *, expected_bytes: int = 0) -> Iterator[None]:
        """Run the block on a copy of the database file, which replaces it only when the block completes.

        Kùzu's own recovery loses data when a big transaction is killed while it is being committed or
        checkpointed (measured on 0.11.3: concepts gone, facts half there), and it aborts the process on a
        full disk at commit time. So a write goes to `<db>.writing`, is checkpointed by closing it, and is
        renamed over the database: a kill or a crash at any moment leaves the old file or the new one, never a
        mix. The block opens its own transactions, as many as it needs (a load, its hooks, every round of rule
        materialisation): all of them land, or none. The write lock is held throughout. Nested use joins the
        outer block. An in-memory database, a block inside a transaction, and a database that gave out reader
        connections (a server's: it cannot be swapped under them) run the block as it is, each of its
        transactions all-or-nothing on its own.

        `expected_bytes` is about what the write adds (its write-ahead log is about as big): without room
        for the copy and that, the write is refused before it starts, since Kùzu aborts the whole process
        when the disk fills up while it commits.

        Raises:
            StoreError: the copy, the write or the swap failed; the database is as it was.
        """
        threshold = int(env_number("KGBRAIN_DELTA_MERGE_ROWS", DELTA_MERGE_ROWS, low=1, high=10**12))
        with self._atomic(expected_bytes=expected_bytes) as outermost:
            yield
            if outermost and not self.read_only:  # (a block that joined an outer one leaves the merge to it)
                self.merge_deltas(threshold=threshold)

    @contextmanager
    def _atomic(self, *, expected_bytes: int) -> Iterator[bool]:
        """`atomic` without the merge: yields whether this is the outermost block."""
        database = self.database
        gave_out_connections = self._owns_database and database.shared
        if self._in_tx or database.in_working_copy:
            yield False
            return
        if self.path is None or gave_out_connections:
            yield True
            return
        if self.read_only:
            raise StoreError("the database is open read-only; writing needs a read-write open")
        with self._write_lock, database.working_copy(expected_bytes=expected_bytes):
            yield True

    # -- delta tables (schema.DELTA_TABLES) ------------------------------------------------------

    def delta_rows(self) -> dict[str, int]:
        """How many facts wait in each fact table's delta (by fact table; the empty ones left out).

        Raises:
            StoreError: the store failed.
        """
        counts = {}
        for table in schema.FACT_TABLES:
            text, what = _table_statement("delta_count", table)
            counts[table] = int(self._session.first_value(text, what=what) or 0)
        return {t: n for t, n in counts.items() if n}

    def merge_deltas(self, *, threshold: int = 1) -> int:
        """Move the facts of the delta tables into their main tables, all or nothing (through `atomic`), when
        together they hold at least `threshold`; how many facts moved (0: fewer, nothing done).

        Queries read both tables, so what they answer is the same before and after. On a working copy the move is
        a COPY per table; otherwise (in memory, a server's database) row by row, which rolls back cleanly.

        Raises:
            StoreError: the store failed or is read-only; the database is as it was.
        """
        waiting = self.delta_rows()
        total = sum(waiting.values())
        if total == 0 or total < threshold:
            return 0
        with self._atomic(expected_bytes=total * _BYTES_PER_FACT), self.transaction():
            template = "delta_merge_copy" if self.database.in_working_copy else "delta_merge_create"
            for table in waiting:
                for step in (template, "delta_clear"):
                    text, what = _table_statement(step, table)
                    self._session.run(text, {}, what=what)  # (facts only move: nothing for the delta recorder)
        return total

    # -- queries -----------------------------------------------------------------------------

    def run(self, name: str, /, **params: Any) -> list[Row]:
        """Run queries/<name>.cypher with exactly the parameters it uses.

        A write query outside a transaction runs in one of its own, so it bumps the write counter too.

        Raises:
            QueryError: unknown query name or parameter mismatch.
            StoreError: Kùzu rejected or failed the query.
        """
        if not self._in_tx and not self.read_only and _WRITES.search(load_query(name).text):
            with self.transaction():
                return list(self.iterate(name, **params))
        cache = self._read_cache
        if cache is None:
            return list(self.iterate(name, **params))
        key = (name, repr(sorted(params.items())))
        rows = cache.get(key)
        if rows is None:
            rows = list(self.iterate(name, **params))
            if len(cache) >= READ_CACHE_ENTRIES:
                cache.clear()
            cache[key] = rows
        return [dict(r) for r in rows]  # callers may change the rows they get

    def track_facts(self) -> None:
        """Record what every write does to the facts between two concepts (see `take_delta`)."""
        self._recorder.track()

    def take_delta(self) -> FactDelta | None:
        """What writes did to the facts since the last call (None: not tracking)."""
        return self._recorder.take()

    def cache_reads(self) -> None:
        """Keep the rows of named queries until `forget_reads` (a server's reader: its owner calls that at every
        commit, while no read runs, so a cached row is always what the query would return now)."""
        self._read_cache = {}

    def forget_reads(self) -> None:
        """Drop the rows `cache_reads` kept (the data changed)."""
        if self._read_cache is not None:
            self._read_cache = {}

    def iterate(self, name: str, /, **params: Any) -> Iterator[Row]:
        """Stream the rows of a named query (see `run`).

        Raises:
            QueryError: unknown query name or parameter mismatch.
            StoreError: Kùzu rejected or failed the query.
        """
        query = load_query(name)
        if set(params) != query.params:  # Kùzu would bind a missing $param to NULL without a word
            raise QueryError(f"{name}: expected params {sorted(query.params)}, got {sorted(params)}")
        null_lists = sorted(p for p in query.list_params if params[p] is None)
        if null_lists:
            raise QueryError(f"{name}: parameters {null_lists} are used with IN and must be lists, not None")
        if self._recorder.tracking and _FACT_UPDATE.search(query.text):
            self._recorder.update(params)  # (a write query runs inside a transaction: see `run`)
        self._note_inserts(query.text)
        # A named query's statement is prepared once per connection, but not inside a transaction (see engine.py).
        yield from self._rows(query.text, params, what=f"query {name!r}", prepared=not self._in_tx)

    def _rows(self, text: str, params: dict[str, Any], *, what: str, prepared: bool = False) -> Iterator[Row]:
        """The rows of a statement; a long key list in parts (store/batches.py)."""
        key = batches.batched_key(text, params)
        if key is None:
            yield from self._session.rows(text, params, what=what, prepared=prepared)
            return

        def part(keys: list[Any]) -> list[Row]:
            return list(self._session.rows(text, {**params, key: keys}, what=what, prepared=prepared))

        yield from batches.rows_in_parts(params[key], part)

    def run_generated(self, text: str, /, **params: Any) -> list[Row]:
        """Run a statement generated from schema names and parameter names only (compiled rules).

        The sanctioned exception to "one file per query": `kgbrain.reasoning.rules.compile` builds rule
        bodies from the schema's table names and `$param` names; every constant is a parameter. Text
        holding a quote could carry a user's string, so it is refused.

        Raises:
            QueryError: the text holds a quote, or its parameters do not match.
            StoreError: Kùzu rejected or failed the statement.
        """
        if "'" in text or '"' in text or "`" in text:
            raise QueryError("generated statements must not contain quotes; constants go in as parameters")
        wanted = set(_GENERATED_PARAM.findall(text))
        if set(params) != wanted:
            raise QueryError(f"generated statement: expected params {sorted(wanted)}, got {sorted(params)}")
        if self._recorder.tracking and _WRITES.search(text):
            self._recorder.unknown()
        self._note_inserts(text)
        return list(self._session.rows(text, params, what="generated statement"))

    def iterate_table(self, template: str, table: str, /, **params: Any) -> Iterator[Row]:
        """Stream the rows of queries/templates/<template>.cypher filled with one relationship table's names.

        `@TABLE@`, `@FROM@` and `@TO@` are replaced by the table and its end tables, all from the schema.

        Raises:
            QueryError: unknown template or table.
            StoreError: Kùzu rejected or failed the query.
        """
        text, what = _table_statement(template, table)
        if self._recorder.tracking and _WRITES.search(text):
            self._recorder.unknown()
        self._note_inserts(text)
        yield from self._rows(text, params, what=what)

    def arrow_table(self, template: str, table: str, /, **params: Any) -> Any:
        """The rows of queries/templates/<template>.cypher on one relationship table (as `iterate_table`) as one
        pyarrow Table: many rows without a Python object per value.

        Raises:
            QueryError: unknown template or table.
            StoreError: Kùzu rejected or failed the query.
        """
        text, what = _table_statement(template, table)
        if _WRITES.search(text):
            raise QueryError(f"{what}: arrow_table is for reads")
        key = batches.batched_key(text, params)
        if key is None:
            return self._session.arrow(text, params, what=what)
        parts: list[Any] = []

        def part(keys: list[Any]) -> int:
            parts.append(self._session.arrow(text, {**params, key: keys}, what=what))
            return int(parts[-1].num_rows)

        batches.in_parts(params[key], part)
        import pyarrow as pa  # (the engine's results are pyarrow tables already)

        return pa.concat_tables(parts, promote_options="default")

    def explain(self, name: str) -> None:
        """Bind and plan a named query without running it (contract tests use this).

        Raises:
            QueryError: unknown query name.
            StoreError: the query does not bind against the schema.
        """
        query = load_query(name)
        params: dict[str, Any] = {p: ([] if p in query.list_params else None) for p in query.params}
        self._session.run("EXPLAIN " + query.text, params, what=f"query {name!r}")

    # -- writes ------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the block as one write transaction; roll back when it raises.

        Nested use joins the outer transaction.

        Raises:
            StoreError: the database is read-only, or the commit failed.
        """
        if self.read_only:
            raise StoreError("the database is open read-only; writing needs a read-write open")
        with self._write_lock:
            if self._in_tx:
                yield
                return
            self.database.hold_readers_off()  # (a no-op on a working copy: readers read on beside it)
            before = self._bump_write_counter(writing=True) if self._counting else None
            self._session.run("BEGIN TRANSACTION", {}, what="BEGIN")
            self._in_tx = True
            self._recorder.begin()  # what this transaction does; dropped if it rolls back
            try:
                yield
                self.before_commit()
            except BaseException:
                try:
                    self._session.rollback()
                except StoreError:
                    # The engine could not roll back (its buffer pool full): what it holds in memory is dropped by
                    # reopening it on the committed state, as after a rollback that inserted nodes; the error that
                    # made this transaction fail is the one the caller gets.
                    self._inserted_nodes = True
                self._in_tx = False
                if self._inserted_nodes:
                    # The engine's primary-key indexes may now point past their tables (`discard_uncommitted`): the
                    # engine is reopened on the committed state, with readers held off, before anything else runs.
                    with self.commit_guard():
                        self.database.discard_uncommitted()
                if self._counting:
                    # The data is as it was, so the counter is too: the indexes a server or another process keyed
                    # by it stay valid (a new value here left a stopped server's saved indexes all rebuilt).
                    self._restore_write_counter(before)
                raise
            else:
                self._in_tx = False
                with self.commit_guard():
                    self._session.run("COMMIT", {}, what="COMMIT")
                    if self._counting:
                        self._bump_write_counter(writing=False)
                    self._recorder.commit()
                    for hook in self.on_commit:
                        hook()
            finally:
                self._in_tx = False
                self._inserted_nodes = False

    def whole_write(self) -> AbstractContextManager[None]:
        """Run a write of many steps as one transaction where the engine reads its own appends (Ladybug): its
        transactions join this one, so it commits once, or is rolled back whole at any statement before that.

        On Kùzu 0.11.3 each rule round must commit before the next reads it (`materialise_cypher`), so there the
        block runs as it is, each of its transactions all-or-nothing on its own.

        Raises:
            StoreError: the database is read-only, or the commit failed.
        """
        return self.transaction() if engine.reads_own_appends() else nullcontext()

    def _before_statement(self) -> None:
        if self._in_tx:
            self.before_statement()

    def _note_inserts(self, text: str) -> None:
        if self._in_tx and _INSERTS.search(text):
            self._inserted_nodes = True

    def _bump_write_counter(self, *, writing: bool) -> str | None:
        # Bumped in statements of their own, before and after each write transaction, never inside one: Kùzu 0.11.3
        # can refuse ("Write-write conflict") or crash on updating a row again after a ROLLBACK that updated it,
        # and this row would be updated by every transaction. While a write is under way (or after a crash in
        # one) the counter is marked `writing`, and nothing is keyed by it; the random token means no number is
        # ever reused for other data.
        rows = list(self.iterate("meta_get", key=WRITE_COUNTER))
        count = int(str(rows[0]["value"]).split(":")[0]) if rows else 0
        value = f"{count + 1}:{secrets.token_hex(6)}" + (":writing" if writing else "")
        list(self.iterate("meta_set", key=WRITE_COUNTER, value=value))
        return str(rows[0]["value"]) if rows else None

    def _restore_write_counter(self, value: str | None) -> None:
        # After a rollback: the value from before the transaction, unless that was itself unfinished or missing.
        if value is None or value.endswith(":writing"):
            self._bump_write_counter(writing=False)
        else:
            list(self.iterate("meta_set", key=WRITE_COUNTER, value=value))

    def write_counter(self) -> str | None:
        """The write counter (`count:token`), changed by every write; None before the first one, or while a
        write is under way (or was cut short by a crash), when caches must not be keyed by it.

        Raises:
            StoreError: the store failed.
        """
        # Past the read cache: a write that rolled back changes nothing a cached row shows, but it did mark the
        # counter while it ran, and a reader must not keep a marked value.
        rows = list(self.iterate("meta_get", key=WRITE_COUNTER))
        value = str(rows[0]["value"]) if rows else None
        return None if value is None or value.endswith(":writing") else value

    def copy(self, table: str, rows: Any) -> None:
        """Bulk-insert a pyarrow Table into a node or relationship table through COPY.

        Relationship tables take `from` and `to` primary keys as their first two columns.

        Raises:
            StoreError: COPY failed (the enclosing transaction is then rolled back).
        """
        if engine.writes_to_deltas():
            table = schema.DELTA_TABLES.get(table, table)  # new facts go to the delta table
        if table not in self.tables():
            raise QueryError(f"copy into unknown table {table!r}")
        if rows.num_rows == 0:
            return
        with self.transaction():
            if table in schema.REL_TABLES:
                self._recorder.rows(table, rows)
            else:
                self._inserted_nodes = True
            self._session.copy(table, rows, what=f"COPY into {table}")

    def append_rels(self, table: str, rows: Any) -> None:
        """Append relationships (a pyarrow Table: `from`, `to`, then the table's properties) safely.

        Raises:
            QueryError: `table` is not a relationship table of the schema.
            StoreError: the insert failed (the enclosing transaction is then rolled back).
        """
        if engine.writes_to_deltas():
            table = schema.DELTA_TABLES.get(table, table)  # new facts go to the delta table
        if table not in schema.REL_TABLES:
            raise QueryError(f"append into unknown relationship table {table!r}")
        if rows.num_rows == 0:
            return
        with self.transaction():
            # On an `atomic` block's working copy a failure discards the whole copy, so the rollback trap of COPY
            # into a non-empty table cannot cost older rows: COPY (several times faster than CREATE per row).
            if self.database.in_working_copy or not self._rel_table_has_rows(table):
                self.copy(table, rows)
                return
            self._recorder.rows(table, rows)
            source, target, props = schema.REL_TABLES[table]
            text = _template("append_rels").replace("@TABLE@", table).replace("@FROM@", source).replace("@TO@", target)
            text = text.replace("@FROM_KEY@", schema.PRIMARY_KEYS[source]).replace(
                "@TO_KEY@", schema.PRIMARY_KEYS[target]
            )
            text = text.replace(" {@PROPS@}" if not props else "@PROPS@", ", ".join(f"{p}: {p}" for p in props))
            renamed = rows.rename_columns(["from_key", "to_key", *rows.column_names[2:]])
            self._session.run(text, {"rows": renamed}, what=f"append to {table}")

    def _rel_table_has_rows(self, table: str) -> bool:
        text = _template("count_rels").replace("@TABLE@", table)
        return bool(self._session.first_value(text, what=f"count {table}"))

    # -- schema (migrations.py runs through these as the database opens) ----------------------

    def tables(self) -> set[str]:
        """Names of every table in the database.

        Raises:
            StoreError: the store failed.
        """
        return set(self._session.column("CALL show_tables() RETURN name", what="show_tables"))

    def ddl(self, statement: str, *, what: str) -> None:
        """Run one schema statement (creation or migration; inside `transaction`).

        Raises:
            StoreError: Kùzu rejected or failed it.
        """
        self._session.run(statement, {}, what=what)

    def count_writes(self) -> None:
        """From now on every write transaction bumps the write counter (the Meta table exists)."""
        self._counting = True

    def mark_written(self) -> None:
        """Bump the write counter once, in statements of its own (outside a transaction).

        Raises:
            StoreError: the store failed.
        """
        self.database.hold_readers_off()
        self._bump_write_counter(writing=False)

    # -- lifetime ----------------------------------------------------------------------------

    def announce(self, address: str) -> None:
        """Name the server that owns this database: other processes then fail at once with its address."""
        if self._owns_database:
            self.database.announce(address)

    @property
    def in_transaction(self) -> bool:
        """A write transaction of this connection is open."""
        return self._in_tx

    def interrupt(self) -> bool:
        """Stop the statement this connection runs, from another thread (a server cancelling a read); False when
        it runs none."""
        return self._session.interrupt()

    def connect(self) -> KuzuStore:
        """Another connection to the same open database, flagged read-only (a server's reader).

        It sees every committed write of this one (Kùzu: one database, many connections, snapshot reads).

        Raises:
            StoreError: the engine refused the connection.
        """
        reader = KuzuStore.on(self.database)
        self.database.shared = True
        return reader

    def close(self) -> None:
        """Close the connection; a store that opened its database closes it and releases the file lock
        (idempotent)."""
        if self._owns_database:
            self.database.close()
        else:
            self.database.end_session(self._session)

    def __enter__(self) -> KuzuStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
