"""The knowledge base as a Parquet dataset (`kgbrain export --format parquet DIR`, `kgbrain load DIR`).

A folder of three files:
- `facts.parquet`: one row per stored fact, any status, with its provenance (the facts contract's fields as
  columns, `value` as JSON text so a number stays a number), the table a Spark or DuckDB job reads;
- `records.parquet`: everything else `kgbrain export` writes (concept kinds, names and descriptions, predicate
  declarations, source trust, conflict, retraction, rule and derivation records), same columns;
- `manifest.json`: what the files hold and where they came from: each file's rows and blake2b digest, the
  knowledge base's write counter and schema version at the export, a digest of its rule program, the facts per
  source, and the kgbrain version.

The rows are those of the JSONL export (ingest/export.py), each keeping its position (`row`), so `load DIR` reads
back exactly what `load` of the JSONL export reads: a lossless round trip. A run over the files can be repeated
from the manifest, and `load` refuses a folder whose files are not the ones the manifest describes (changed,
missing, or from another export): stale inputs are never read.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from kgbrain.errors import InputError
from kgbrain.ingest.batch import LoadBatch
from kgbrain.ingest.export import export_rows
from kgbrain.store.protocol import GraphStore

FORMAT = "kgbrain-parquet"
VERSION = 1
MANIFEST = "manifest.json"
FACTS, RECORDS = "facts.parquet", "records.parquet"
TEXT = ("subject", "predicate", "object", "value", "datatype", "unit", "source", "authority", "observed_at")
TEXT_MORE = ("loaded_at", "status", "lang", "valid_from", "valid_to", "fact_id")
RECORD_PREDICATES = ("rule_record", "rule_order_record")
ROWS_PER_GROUP = 100_000


def export_parquet(store: GraphStore, folder: Path) -> dict[str, Any]:
    """Write the knowledge base as a Parquet dataset in `folder` (replacing an earlier export there, whole); its
    manifest.

    Raises:
        InputError: `folder` is a file, or a folder holding something else than a kgbrain export.
        StoreError: the store failed (then `folder` is as it was).
    """
    import pyarrow.parquet as pq

    _check_target(folder)
    counter = store.write_counter()
    work = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    try:
        program = hashlib.blake2b(digest_size=16)
        sources: dict[str, int] = {}
        writers = {name: pq.ParquetWriter(work / name, _schema()) for name in (FACTS, RECORDS)}
        pending: dict[str, list[dict[str, Any]]] = {FACTS: [], RECORDS: []}
        counts = {FACTS: 0, RECORDS: 0}
        try:
            for n, row in enumerate(export_rows(store)):
                name = FACTS if "fact_id" in row else RECORDS
                if name == FACTS:
                    sources[row["source"]] = sources.get(row["source"], 0) + 1
                elif row["predicate"] in RECORD_PREDICATES:
                    program.update(f"{row['predicate']}\t{row['value']}\n".encode())
                pending[name].append({**row, "row": n})
                if len(pending[name]) >= ROWS_PER_GROUP:
                    counts[name] += _flush(writers[name], pending[name])
            for name, rows in pending.items():
                counts[name] += _flush(writers[name], rows)
        finally:
            for writer in writers.values():
                writer.close()
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "kgbrain": _kgbrain_version(),
            "schema_version": store.schema_version,
            "write_counter": counter,
            "program": program.hexdigest(),
            "sources": dict(sorted(sources.items())),
            "files": {name: {"rows": counts[name], "blake2b": _digest(work / name)} for name in (FACTS, RECORDS)},
        }
        (work / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        work.replace(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return manifest


def _check_target(folder: Path) -> None:
    if folder.is_file():
        raise InputError(f"{str(folder)!r} is a file; a Parquet export is written to a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MANIFEST).is_file():
        raise InputError(f"folder {str(folder)!r} holds other files, not a kgbrain export; name a new folder")
    if not folder.parent.is_dir():
        raise InputError(f"folder {str(folder.parent)!r} does not exist")


def _schema() -> Any:
    import pyarrow as pa

    fields = [pa.field(name, pa.string()) for name in TEXT]
    fields += [pa.field("polarity", pa.bool_()), pa.field("confidence", pa.float64()), pa.field("trust", pa.float64())]
    fields += [pa.field(name, pa.string()) for name in TEXT_MORE]
    return pa.schema([*fields, pa.field("row", pa.int64())])


def _flush(writer: Any, rows: list[dict[str, Any]]) -> int:
    import pyarrow as pa

    if not rows:
        return 0
    schema = _schema()
    unknown = {k for r in rows for k in r} - set(schema.names)
    assert not unknown, f"export rows carry fields the Parquet schema lacks: {sorted(unknown)}"
    columns = {}
    for field in schema:
        if field.name == "value":
            columns["value"] = [json.dumps(r["value"], ensure_ascii=False) if "value" in r else None for r in rows]
        else:
            columns[field.name] = [r.get(field.name) for r in rows]
    writer.write_table(pa.table(columns, schema=schema))
    n = len(rows)
    rows.clear()
    return n


def _digest(path: Path) -> str:
    h = hashlib.blake2b(digest_size=16)
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _kgbrain_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("kgbrain")
    except PackageNotFoundError:  # run from a source tree that is not installed
        return "unknown"


def is_export(path: Path) -> bool:
    """Whether `path` is a folder holding a Parquet export (its manifest)."""
    return path.is_dir() and (path / MANIFEST).is_file()


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of the export in `folder`, once every file it names is checked to be the one exported.

    Raises:
        InputError: no manifest, an unknown format or version, or a file missing or changed since the export.
    """
    where = folder / MANIFEST
    if not folder.is_dir():
        raise InputError(f"{str(folder)!r} is not a folder: a Parquet export is what `export --format parquet` writes")
    if not where.is_file():
        raise InputError(f"{str(folder)!r} is a folder without {MANIFEST}: not a kgbrain Parquet export")
    try:
        manifest = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{str(where)!r} cannot be read as a manifest: {exc}") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{str(where)!r} is not a {FORMAT} manifest")
    if manifest.get("version") != VERSION:
        raise InputError(f"{str(where)!r} is version {manifest.get('version')!r}; this kgbrain reads version {VERSION}")
    files = manifest.get("files")
    if not isinstance(files, dict) or set(files) != {FACTS, RECORDS}:
        raise InputError(f"{str(where)!r} must name {FACTS} and {RECORDS}")
    for name, expected in files.items():
        path = folder / name
        if not path.is_file():
            raise InputError(f"{str(path)!r} is missing; the export is incomplete, export again")
        if _digest(path) != expected.get("blake2b"):
            raise InputError(
                f"{str(path)!r} is not the file exported with {str(where)!r} (its digest differs): it changed "
                "since the export; export again"
            )
    return manifest


def read_export(
    path: Path,
    *,
    source: str | None = None,
    trust: float | None = None,
    fmt: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> LoadBatch:
    """The rows of a Parquet export as one load batch, checked as the JSONL export's lines are (`load DIR`).

    Raises:
        InputError: the folder is not a complete, unchanged export (see `read_manifest`).
        InvalidRow: a row is malformed.
    """
    import pyarrow.parquet as pq

    from kgbrain.ingest.tabular import read_rows

    del fmt  # one format: a folder
    manifest = read_manifest(path)
    tables = {name: pq.read_table(path / name) for name in (FACTS, RECORDS)}
    for name, table in tables.items():
        if table.num_rows != manifest["files"][name]["rows"]:
            raise InputError(f"{str(path / name)!r} holds {table.num_rows} rows, its manifest says otherwise")
    batch = read_rows(_in_order(tables[FACTS], tables[RECORDS]), str(path / FACTS), source=source, trust=trust)
    if progress is not None:
        progress(sum((path / name).stat().st_size for name in (FACTS, RECORDS)))
    return batch


def _in_order(*tables: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    import pyarrow as pa

    merged = pa.concat_tables(tables).sort_by("row")
    for record in merged.to_pylist():
        position = record.pop("row")
        row = {k: v for k, v in record.items() if v is not None}
        if "value" in row:
            row["value"] = json.loads(row["value"])
        yield position + 1, row  # 1-based, as a line number
