"""KuzuStore: the Kùzu adapter, and the only module that imports kuzu.

Traps handled here (measured on kuzu 0.11.3, see shared/research/kuzu_probe.md):
- a missing `$param` silently binds to NULL, so `run` checks parameters against the query text;
- every engine error is a bare RuntimeError, translated to StoreError once, here;
- the buffer pool defaults to 80% of RAM, so it is capped;
- a second writer is refused instead of waiting, so a file lock serialises processes;
- a failing statement inside an explicit transaction rolls the transaction back by itself;
- a COPY that fails on a duplicate primary key can leave the primary-key index unusable for the rest
  of the session, so callers must de-duplicate before `copy` (the loaders do);
- rolling back a transaction that COPYed into a non-empty relationship table wipes that table's
  existing relationships, permanently. So `append_rels` COPYs only into empty relationship tables and
  otherwise appends with LOAD FROM + CREATE, which rolls back cleanly (measured: 100k rows in 0.6 s);
- a label-free `()-[r]->()` scan in a transaction that has just appended to NAMES segfaults (on a
  reopened on-disk database), so fact queries anchor the subject: `(:Concept)-[r]->()`;
- a NULL parameter used as a list (`IN $x`, `list_contains($x, ...)`) segfaults, so `run` refuses it;
- after a ROLLBACK that updated rows, updating them again can fail ("Write-write conflict of updating the same
  row") or segfault, so the write counter is never updated inside a transaction that may roll back.

Every write transaction also bumps a write counter in Meta (`write_counter`: count and a random token), so
caches built from the data (the reasoning mirror, the term index) are keyed by it instead of a scan.
"""

from __future__ import annotations

import fcntl
import importlib.util  # noqa: F401  kuzu 0.11.3 uses importlib.util without importing it
import os
import re
import resource
import secrets
import shutil
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError, QueryError, SchemaVersionError, StoreError
from kgbrain.store import schema
from kgbrain.store.delta import FactDelta
from kgbrain.store.kuzu_import import PreparedStatement, kuzu
from kgbrain.store.lock import FileLock
from kgbrain.store.queries import load_query, load_template

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

DEFAULT_BUFFER_POOL_MB = 1024
LOCK_TIMEOUT_S = 30.0
WRITE_COUNTER = "write_counter"
READ_CACHE_ENTRIES = 20_000  # named-query results a server's reader keeps between writes
PREPARED_STATEMENTS = 1_000  # per connection
# A named query that changes fact edges (they take `$subjects`): SET on the relationship of a `-[r]->` pattern.
_FACT_UPDATE = re.compile(r"-\[r(:[^\]]*)?\]->.*\bSET\s+r\.", re.S)
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|COPY)\b")


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


class KuzuStore:
    """One Kùzu database, opened once per process, with named queries, transactions and bulk COPY."""

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
        if buffer_pool_mb is None:
            buffer_pool_mb = int(env_number("KGBRAIN_BUFFER_POOL_MB", DEFAULT_BUFFER_POOL_MB, low=16, high=2**20))
        if lock_timeout_s is None:
            lock_timeout_s = env_number("KGBRAIN_LOCK_TIMEOUT", LOCK_TIMEOUT_S, low=0, high=10**7)
        self.path = Path(path) if path is not None else None
        self.read_only = read_only
        self._lock: FileLock | None = None
        self._write_lock = threading.RLock()
        self._in_tx = False
        self._connected = False  # `connect` gave out connections to this database (then `atomic` cannot swap it)
        self._in_atomic = False  # inside an `atomic` block: the open database is its working copy
        self._counting = False  # bump the write counter (once the Meta table exists)
        self._shares_db = False  # a second connection (`connect`) leaves the database to its owner
        # Held around each COMMIT and the `on_commit` hooks: a server holds its readers off for that moment, so a
        # reader sees the data and the caches built from it either before a write or after it, never between.
        self.commit_guard: Callable[[], AbstractContextManager[object]] = nullcontext
        self.on_commit: list[Callable[[], None]] = []
        self._read_cache: dict[tuple[str, str], list[Row]] | None = None
        self._prepared: tuple[Any, dict[str, Any]] | None = None
        self._delta: FactDelta | None = None  # what committed writes did to the facts (`track_facts`)
        self._pending_delta = FactDelta()  # what the running transaction did
        if self.path is not None:
            if read_only and not self.path.exists():
                raise StoreError(f"database {str(self.path)!r} does not exist (`kgbrain init` or `load` creates one)")
            try:
                if not read_only:
                    parent = next((p for p in self.path.parents if p.exists()), None)
                    if parent is not None and not parent.is_dir():
                        raise NotADirectoryError(20, "Not a directory", str(parent))
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                self._lock = FileLock(self.path, shared=read_only, timeout_s=lock_timeout_s, on_wait=on_wait)
                self._lock.acquire()
            except OSError as exc:
                self._lock = None
                where = f" ({exc.filename} is not a directory)" if isinstance(exc, NotADirectoryError) else ""
                raise StoreError(f"cannot open database {str(self.path)!r}: {exc.strerror or exc}{where}") from exc
        self._buffer_pool_mb = buffer_pool_mb
        if self.path is not None and not read_only:
            _remove_leftovers(self.path)  # a copy an interrupted `atomic` write left behind
        try:
            try:
                self._open_kuzu(self.path)
            except StoreError as exc:
                if not (read_only and self.path is not None and "replay" in str(exc)):
                    raise
                self._replay_killed_write(lock_timeout_s, on_wait)
                self._open_kuzu(self.path)
        except StoreError:
            self._release_lock()
            raise
        try:
            self.schema_version = self._ensure_schema()
        except BaseException:
            self.close()
            raise

    def _open_kuzu(self, path: Path | None) -> None:
        try:
            self._db: Any = kuzu.Database(
                str(path) if path is not None else ":memory:",
                buffer_pool_size=self._buffer_pool_mb * 2**20,
                read_only=self.read_only,
            )
            self._conn: Any = kuzu.Connection(self._db)
        except RuntimeError as exc:
            raise StoreError(f"cannot open database {str(path)!r}: {exc}") from exc

    def _replay_killed_write(self, lock_timeout_s: float, on_wait: Callable[[str], None] | None) -> None:
        """Replay the log a killed writer left beside the file, which Kùzu refuses to do read-only.

        Kùzu writes a log and shadow pages even while it opens a database read-write; a writer killed then leaves
        them, and every read-only open fails until a read-write open replays them. A reader holding the shared lock
        knows no writer is running, so it takes the writer's lock, opens the file read-write once, and reads on.

        Raises:
            StoreError: the log cannot be replayed here (read-only media, or a writer kept the lock).
        """
        assert self.path is not None
        self._release_lock()
        try:
            with FileLock(self.path, shared=False, timeout_s=lock_timeout_s, on_wait=on_wait):
                kuzu.Database(str(self.path), buffer_pool_size=self._buffer_pool_mb * 2**20).close()
        except (OSError, RuntimeError) as exc:
            raise StoreError(
                f"database {str(self.path)!r} holds the log of a write that was killed, and it could not be replayed "
                f"({exc}); run `kgbrain init` on it where it is writable"
            ) from exc
        self._lock = FileLock(self.path, shared=True, timeout_s=lock_timeout_s, on_wait=on_wait)
        self._lock.acquire()

    def _close_kuzu(self) -> None:
        conn = getattr(self, "_conn", None)
        if conn is not None:
            conn.close()
            self._conn = None
        db = getattr(self, "_db", None)
        if db is not None and not getattr(self, "_shares_db", False):
            db.close()  # checkpoints: the file then holds everything, with no write-ahead log beside it
        self._db = None

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
        if self.path is None or self._in_tx or self._connected or self._in_atomic:
            yield
            return
        if self.read_only:
            raise StoreError("the database is open read-only; writing needs a read-write open")
        with self._write_lock:
            work = self.path.with_name(self.path.name + WORK_SUFFIX)
            _check_space(self.path, expected_bytes)
            self._close_kuzu()
            self._in_atomic = True
            try:
                _remove_leftovers(self.path)
                _copy_file(self.path, work)
                self._open_kuzu(work)
                yield
                self._close_kuzu()
                _fsync(work)
                work.replace(self.path)
                _fsync(self.path.parent)
            except OSError as exc:
                raise StoreError(f"cannot write database {str(self.path)!r}: {exc.strerror or exc}") from exc
            finally:
                self._in_atomic = False
                self._close_kuzu()
                _remove_leftovers(self.path)
                self._open_kuzu(self.path)

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
        self._delta = FactDelta()

    def take_delta(self) -> FactDelta | None:
        """What writes did to the facts since the last call (None: not tracking)."""
        delta = self._delta
        if delta is not None:
            self._delta = FactDelta()
        return delta

    def _record_rows(self, table: str, rows: Any) -> None:
        source, target, props = schema.REL_TABLES[table]
        if (source, target) != ("Concept", "Concept") or "fact_id" not in props:
            return
        columns = rows.rename_columns(["subject", "object", *rows.column_names[2:]]).to_pylist()
        self._pending_delta.added += columns

    def _record_update(self, params: dict[str, Any]) -> None:
        delta = self._pending_delta
        subjects, ids = params.get("subjects"), params.get("ids")
        statuses, confidences = params.get("statuses"), params.get("confidences")
        if not isinstance(subjects, list) or not isinstance(ids, list):
            delta.unknown = True
        elif isinstance(statuses, list) and isinstance(confidences, list):
            for fact_id, status, confidence in zip(ids, statuses, confidences, strict=True):
                delta.updated[fact_id] = (status, float(confidence))
            delta.update_subjects.update(subjects)
        else:  # a revival: the facts come back with all their columns, read again
            delta.reread.update(subjects)

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
        if self._delta is not None and _FACT_UPDATE.search(query.text):
            self._record_update(params)  # (a write query runs inside a transaction: see `run`)
        yield from _rows(self._execute(query.text, params, what=f"query {name!r}", keep=True), f"query {name!r}")

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
        if self._delta is not None and _WRITES.search(text):
            self._pending_delta.unknown = True
        return list(_rows(self._execute(text, params, what="generated statement"), "generated statement"))

    def iterate_table(self, template: str, table: str, /, **params: Any) -> Iterator[Row]:
        """Stream the rows of queries/templates/<template>.cypher filled with one relationship table's names.

        `@TABLE@`, `@FROM@` and `@TO@` are replaced by the table and its end tables, all from the schema.

        Raises:
            QueryError: unknown template or table.
            StoreError: Kùzu rejected or failed the query.
        """
        text, what = _table_statement(template, table)
        if self._delta is not None and _WRITES.search(text):
            self._pending_delta.unknown = True
        yield from _rows(self._execute(text, params, what=what), what)

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
        result = self._execute(text, params, what=what)
        try:
            return result.get_as_arrow()
        except RuntimeError as exc:
            raise StoreError(f"{what} failed: {exc}") from exc
        finally:
            result.close()

    def explain(self, name: str) -> None:
        """Bind and plan a named query without running it (contract tests use this).

        Raises:
            QueryError: unknown query name.
            StoreError: the query does not bind against the schema.
        """
        query = load_query(name)
        params: dict[str, Any] = {p: ([] if p in query.list_params else None) for p in query.params}
        self._execute("EXPLAIN " + query.text, params, what=f"query {name!r}").close()

    def _statement(self, text: str) -> Any:
        # Planning a statement costs about as much as running a key-bound one (~0.7 ms each on kuzu 0.11.3), so
        # each connection keeps its prepared statements; one that fails to prepare runs as text (same error).
        cache = self._prepared
        if cache is None or cache[0] is not self._conn:
            cache = self._prepared = (self._conn, {})
        statement = cache[1].get(text)
        if statement is None:
            statement = PreparedStatement(self._conn, text)
            if not statement.is_success():
                return text
            if len(cache[1]) < PREPARED_STATEMENTS:
                cache[1][text] = statement
        return statement

    def _execute(self, text: str, params: dict[str, Any], *, what: str, keep: bool = False) -> Any:
        # `keep`: a named query's statement is prepared once per connection. Not inside a transaction (one prepared
        # outside ended a transaction it ran in), nor generated rule statements (a reused one lost a parameter).
        try:
            prepared = keep and params and not self._in_tx
            result = self._conn.execute(self._statement(text) if prepared else text, params)
        except RuntimeError as exc:  # Kùzu reports every failure as RuntimeError("<Stage> exception: ...")
            raise StoreError(f"{what} failed: {exc}") from exc
        if isinstance(result, list):
            for r in result:
                r.close()
            raise QueryError(f"{what} must hold exactly one statement")
        return result

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
            before = self._bump_write_counter(writing=True) if self._counting else None
            self._execute("BEGIN TRANSACTION", {}, what="BEGIN").close()
            self._in_tx = True
            if self._delta is not None:
                self._pending_delta = FactDelta()  # what this transaction does; dropped if it rolls back
            try:
                yield
            except BaseException:
                self._rollback()
                if self._counting:
                    # The data is as it was, so the counter is too: the indexes a server or another process keyed
                    # by it stay valid (a new value here left a stopped server's saved indexes all rebuilt).
                    self._restore_write_counter(before)
                raise
            else:
                self._in_tx = False
                with self.commit_guard():
                    self._execute("COMMIT", {}, what="COMMIT").close()
                    if self._counting:
                        self._bump_write_counter(writing=False)
                    if self._delta is not None:
                        self._delta.merge(self._pending_delta)
                    for hook in self.on_commit:
                        hook()
            finally:
                self._in_tx = False

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

    def _rollback(self) -> None:
        try:
            result = self._conn.execute("ROLLBACK")
            for r in result if isinstance(result, list) else [result]:
                r.close()
        except RuntimeError as exc:
            # A failed statement already made Kùzu roll the transaction back by itself.
            if "No active transaction" not in str(exc):
                raise StoreError(f"ROLLBACK failed: {exc}") from exc

    def copy(self, table: str, rows: Any) -> None:
        """Bulk-insert a pyarrow Table into a node or relationship table through COPY.

        Relationship tables take `from` and `to` primary keys as their first two columns.

        Raises:
            StoreError: COPY failed (the enclosing transaction is then rolled back).
        """
        if table not in self._tables:
            raise QueryError(f"copy into unknown table {table!r}")
        if rows.num_rows == 0:
            return
        with self.transaction():
            if self._delta is not None and table in schema.REL_TABLES:
                self._record_rows(table, rows)
            self._execute(f"COPY {table} FROM $rows", {"rows": rows}, what=f"COPY into {table}").close()

    def append_rels(self, table: str, rows: Any) -> None:
        """Append relationships (a pyarrow Table: `from`, `to`, then the table's properties) safely.

        Raises:
            QueryError: `table` is not a relationship table of the schema.
            StoreError: the insert failed (the enclosing transaction is then rolled back).
        """
        if table not in schema.REL_TABLES:
            raise QueryError(f"append into unknown relationship table {table!r}")
        if rows.num_rows == 0:
            return
        with self.transaction():
            # On an `atomic` block's working copy a failure discards the whole copy, so the rollback trap of COPY
            # into a non-empty table cannot cost older rows: COPY (several times faster than CREATE per row).
            if self._in_atomic or not self._rel_table_has_rows(table):
                self.copy(table, rows)
                return
            if self._delta is not None:
                self._record_rows(table, rows)
            source, target, props = schema.REL_TABLES[table]
            text = _template("append_rels").replace("@TABLE@", table).replace("@FROM@", source).replace("@TO@", target)
            text = text.replace("@FROM_KEY@", schema.PRIMARY_KEYS[source]).replace(
                "@TO_KEY@", schema.PRIMARY_KEYS[target]
            )
            text = text.replace(" {@PROPS@}" if not props else "@PROPS@", ", ".join(f"{p}: {p}" for p in props))
            renamed = rows.rename_columns(["from_key", "to_key", *rows.column_names[2:]])
            self._execute(text, {"rows": renamed}, what=f"append to {table}").close()

    def _rel_table_has_rows(self, table: str) -> bool:
        result = self._execute(_template("count_rels").replace("@TABLE@", table), {}, what=f"count {table}")
        try:
            return bool(result.get_next()[0])
        finally:
            result.close()

    # -- schema ------------------------------------------------------------------------------

    @property
    def _tables(self) -> set[str]:
        result = self._execute("CALL show_tables() RETURN name", {}, what="show_tables")
        try:
            return {row[0] for row in result.get_all()}
        finally:
            result.close()

    def _ensure_schema(self) -> int:
        latest = schema.latest_version()
        tables = self._tables
        if "Meta" not in tables:
            if tables:  # someone else's Kùzu database: never add our tables to it
                raise StoreError(
                    f"database {str(self.path)!r} is a Kùzu database but not a kgbrain knowledge base "
                    f"(it has tables {', '.join(sorted(tables)[:5])}); use another path"
                )
            if self.read_only:
                raise StoreError(f"database {str(self.path)!r} has no kgbrain schema; run `kgbrain init` first")
            with self.transaction():
                for stmt in schema.create_statements():
                    self._execute(stmt, {}, what="schema creation").close()
                self._set_version(1)
            self._bump_write_counter(writing=False)
            current = 1
        else:
            rows = self.run("meta_get", key="schema_version")
            text = str(rows[0]["value"]) if rows else "0"
            if not text.isdigit():
                raise SchemaVersionError(
                    f"database {str(self.path)!r} has an unreadable schema version {text[:40]!r}; it is damaged"
                )
            current = int(text)
            self._counting = True
        if current > latest:
            raise SchemaVersionError(
                f"database {str(self.path)!r} has schema version {current}, but this kgbrain knows only up to "
                f"{latest}; upgrade kgbrain to open it"
            )
        if current < latest:
            if self.read_only:
                raise SchemaVersionError(
                    f"database {str(self.path)!r} has schema version {current} and needs migrating to {latest}; "
                    "run `kgbrain init` on it once"
                )
            for version, statements in schema.migration_statements(current):
                with self.transaction():
                    for stmt in statements:
                        self._execute(stmt, {}, what=f"migration to schema version {version}").close()
                    self._set_version(version)
            current = latest
        self._counting = True
        if not self.read_only and not self.run("meta_get", key=WRITE_COUNTER):
            self._bump_write_counter(writing=False)  # written by a kgbrain without one: caches can key on it now
        return current

    def _set_version(self, version: int) -> None:
        self.run("meta_set", key="schema_version", value=str(version))

    # -- lifetime ----------------------------------------------------------------------------

    def announce(self, address: str) -> None:
        """Name the server that owns this database: other processes then fail at once with its address."""
        if self._lock is not None:
            self._lock.announce(address)

    def connect(self) -> KuzuStore:
        """Another connection to the same open database, flagged read-only (a server's reader).

        It sees every committed write of this one (Kùzu: one database, many connections, snapshot reads).
        """
        other = object.__new__(KuzuStore)
        other.path = self.path
        other.read_only = True
        other._lock = None
        other._write_lock = threading.RLock()
        other._in_tx = False
        other._counting = False
        other.commit_guard = nullcontext
        other.on_commit = []
        other._db = self._db
        other._conn = kuzu.Connection(self._db)
        other.schema_version = self.schema_version
        other._shares_db = True
        other._connected = False
        other._read_cache = None
        other._prepared = None
        other._delta = None
        other._pending_delta = FactDelta()
        other._in_atomic = False
        self._connected = True
        return other

    def close(self) -> None:
        """Close the connection and database, then release the file lock (idempotent)."""
        self._close_kuzu()
        self._release_lock()

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> KuzuStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# The copy an `atomic` write works on, beside the database; Kùzu adds its own .wal/.shadow to it.
WORK_SUFFIX = ".writing"


def _remove_leftovers(path: Path) -> None:
    """Delete what an interrupted `atomic` write left (only ever called with the write lock held)."""
    for leftover in path.parent.glob(path.name + WORK_SUFFIX + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)


def _copy_file(source: Path, target: Path) -> None:
    """Copy a database file (a reflink where the file system has them: instant, and no extra space)."""
    if source.is_dir():
        raise StoreError(f"database {str(source)!r} is a directory; kgbrain expects a single-file Kùzu database")
    with source.open("rb") as src, target.open("wb") as dst:
        try:
            fcntl.ioctl(dst.fileno(), _FICLONE, src.fileno())
            return
        except OSError:
            pass  # no reflinks here (ext4, tmpfs): copy the bytes
        size = os.fstat(src.fileno()).st_size
        offset = 0
        while offset < size:
            sent = os.copy_file_range(src.fileno(), dst.fileno(), size - offset)
            if sent == 0:
                break
            offset += sent


_FICLONE = 0x40049409


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _check_space(path: Path, expected_bytes: int) -> None:
    """Refuse a write the disk (or the process's file size limit) has no room for.

    Raises:
        StoreError: not enough room for a copy of the database plus `expected_bytes`.
    """
    size = path.stat().st_size
    need = size + 2 * expected_bytes  # the copy, the write-ahead log, and the pages it checkpoints into
    stats = os.statvfs(path.parent)
    free = stats.f_bavail * stats.f_frsize
    limit, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    largest = size + expected_bytes  # the biggest single file: the grown copy (or its log)
    if need > free or (limit != resource.RLIM_INFINITY and largest > limit):
        room = free if need > free else limit
        raise StoreError(
            f"not enough disk space to write {str(path)!r}: this needs about {need / 2**20:,.0f} MB "
            f"and there is room for {room / 2**20:,.0f} MB; nothing was changed"
        )


def _rows(result: Any, what: str) -> Iterator[Row]:
    """Stream a Kùzu result as dicts and close it; a failure while reading becomes a StoreError naming `what`."""
    try:
        cols = result.get_column_names()
        while result.has_next():
            yield dict(zip(cols, result.get_next(), strict=True))
    except RuntimeError as exc:
        raise StoreError(f"{what} failed: {exc}") from exc
    finally:
        result.close()
