"""The Kùzu side of `kgbrain migrate` (engine_migration.py), run as `python -m kgbrain.store.kuzu_export DB FOLDER`
with KGBRAIN_BACKEND=kuzu: export DB as Parquet into FOLDER, then print the row count of every table as one JSON
line. It is a process of its own because Kùzu and Ladybug cannot share one."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from kgbrain.errors import KgbrainError, StoreError
from kgbrain.store import engine
from kgbrain.store.engine_migration import table_counts


def export(db: Path, folder: Path) -> dict[str, int]:
    """Write `db` into `folder` as Kùzu's Parquet export; the rows of every table.

    Raises:
        StoreError: `db` is no Kùzu knowledge base, or the export failed.
    """
    if engine.backend() != "kuzu":
        raise StoreError("kuzu_export runs with KGBRAIN_BACKEND=kuzu")
    handle = engine.open_database(db, buffer_pool_mb=1024, read_only=True)
    session = engine.Session(handle, db)
    try:
        counts = table_counts(session)
        if "Meta" not in counts:
            raise StoreError(f"{str(db)!r} is a Kùzu database but not a kgbrain knowledge base")
        session.run(f"EXPORT DATABASE '{folder}' (format='parquet')", {}, what="EXPORT DATABASE")
    finally:
        session.close()
        engine.close_database(handle)
    return counts


def main() -> None:
    """Command-line entry (see the module docstring); errors go to stderr as one `Error:` line, exit 1."""
    try:
        counts = export(Path(sys.argv[1]), Path(sys.argv[2]))
    except KgbrainError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        sys.exit(1)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
