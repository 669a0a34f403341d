"""`kgbrain migrate OLD NEW`: copy a knowledge base written by Kùzu 0.11.3 into a new LadybugDB file.

Neither engine opens the other's files. Kùzu's `EXPORT DATABASE … (format='parquet')` followed by Ladybug's
`IMPORT DATABASE` is lossless (measured on the demo: `kgbrain export` byte-identical; CSV would round DOUBLEs).

The two engines cannot be imported into one process in the order Kùzu then Ladybug (a segfault, or "type
Database is already registered"), so the Kùzu side runs in a child process (`python -m
kgbrain.store.kuzu_export`), which writes the Parquet files and the row count of every table. This process then
imports them into `<NEW>.migrating`, opens that as a knowledge base (which migrates its schema to the latest
version), checks every table holds as many rows as Kùzu had, and only then renames it to NEW. A failure at any
step leaves OLD as it was and no NEW.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kgbrain.errors import InputError, StoreError
from kgbrain.store import engine, engine_package
from kgbrain.store.lock import FileLock
from kgbrain.store.working_copy import fsync

MIGRATING_SUFFIX = ".migrating"
EXPORT_TIMEOUT_S = 6 * 3600


@dataclass(frozen=True)
class MigrationReport:
    """What a migration copied: rows per table, and the schema version the new file has."""

    source: Path
    target: Path
    rows: dict[str, int]
    schema_version: int


def migrate_from_kuzu(old: Path, new: Path, *, on_step: Callable[[str], None] | None = None) -> MigrationReport:
    """Copy the Kùzu knowledge base `old` into a new Ladybug file `new` (see the module docstring).

    Raises:
        InputError: `old` is missing or `new` exists.
        StoreError: this process is not on Ladybug, Kùzu is not installed, `old` is no Kùzu knowledge base, or a
            step failed (then nothing was written at `new`).
    """
    say = on_step or (lambda _: None)
    _check_paths(old, new)
    if engine.backend() != "ladybug":
        raise StoreError(
            f"`kgbrain migrate` writes a Ladybug database; unset {engine_package.BACKEND_ENV} (it is "
            f"{engine.backend()!r}) to run it"
        )
    work = new.with_name(new.name + MIGRATING_SUFFIX)
    _remove(work)
    parts = Path(tempfile.mkdtemp(prefix=".kgbrain-migrate-", dir=new.parent))
    try:
        with FileLock(old, shared=True, timeout_s=30.0):
            say(f"exporting {old} with Kùzu")
            exported = _export_with_kuzu(old, parts / "export")
        say(f"importing into {work} with Ladybug")
        imported, version = _import(parts / "export", work)
        _compare(exported, imported, old)
        fsync(work)
        work.replace(new)
        fsync(new.parent)
    finally:
        shutil.rmtree(parts, ignore_errors=True)
        _remove(work)
    say(f"{new} is ready (schema version {version})")
    return MigrationReport(source=old, target=new, rows=imported, schema_version=version)


def _check_paths(old: Path, new: Path) -> None:
    if not old.is_file():
        raise InputError(f"{str(old)!r} is not a knowledge base file")
    if new.exists() or new.resolve() == old.resolve():
        raise InputError(f"{str(new)!r} exists; give `kgbrain migrate` a new file to write")
    if not new.parent.is_dir():
        raise InputError(f"folder {str(new.parent)!r} does not exist")
    for path in (old, new):
        if "'" in str(path.resolve()) or "\\" in str(path.resolve()):
            raise InputError(f"{str(path)!r}: `kgbrain migrate` cannot handle quotes or backslashes in paths")
    try:
        engine.open_database(old, buffer_pool_mb=64, read_only=True).close()
    except StoreError as exc:
        if "not a valid" not in str(exc):
            raise
    else:
        raise InputError(f"{str(old)!r} is a Ladybug database already; there is nothing to migrate")


def _export_with_kuzu(old: Path, folder: Path) -> dict[str, int]:
    env = {**os.environ, engine_package.BACKEND_ENV: "kuzu"}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain.store.kuzu_export", str(old), str(folder)],
            env=env,
            capture_output=True,
            text=True,
            timeout=EXPORT_TIMEOUT_S,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise StoreError(f"exporting {str(old)!r} with Kùzu took more than {EXPORT_TIMEOUT_S} s") from exc
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        why = lines[-1] if lines else f"exit status {done.returncode}"
        raise StoreError(f"cannot export {str(old)!r} with Kùzu: {why.removeprefix('Error: ')}")
    counts: dict[str, int] = json.loads(done.stdout.splitlines()[-1])
    return counts


def _import(folder: Path, work: Path) -> tuple[dict[str, int], int]:
    from kgbrain.store.kuzu_store import KuzuStore

    handle = engine.open_database(work, buffer_pool_mb=1024, read_only=False)
    session = engine.Session(handle, work)
    try:
        session.run(f"IMPORT DATABASE '{folder.resolve()}'", {}, what="IMPORT DATABASE")
    finally:
        session.close()
        engine.close_database(handle)
    with KuzuStore(work) as store:  # migrates the schema to this kgbrain's version
        version = store.schema_version
        counts = table_counts(store.database.session())
    return counts, version


def table_counts(session: engine.Session) -> dict[str, int]:
    """Rows of every node and relationship table, by table name.

    Raises:
        StoreError: the engine failed.
    """
    counts: dict[str, int] = {}
    for row in session.rows("CALL show_tables() RETURN name, type", {}, what="show_tables"):
        name, kind = str(row["name"]), str(row["type"]).upper()
        pattern = f"(:{name})" if kind == "NODE" else f"()-[:{name}]->()"
        counts[name] = int(session.first_value(f"MATCH {pattern} RETURN count(*)", what=f"count {name}"))
    return counts


def _compare(exported: dict[str, int], imported: dict[str, int], old: Path) -> None:
    # The new file's schema may be newer (more tables, one more Meta row); every exported row must be there.
    short = {t: (n, imported.get(t, 0)) for t, n in exported.items() if imported.get(t, 0) < n}
    if short:
        detail = ", ".join(f"{t}: {want} exported, {got} imported" for t, (want, got) in sorted(short.items()))
        raise StoreError(f"migrating {str(old)!r} lost rows ({detail}); nothing was written")


def _remove(work: Path) -> None:
    for leftover in work.parent.glob(work.name + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)
