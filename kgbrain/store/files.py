"""Which files on disk are a knowledge base: the database file, the files the engine keeps beside it, and any file
that starts like one. Commands that write a file the user names check against these before they write."""

from __future__ import annotations

from pathlib import Path

# The first bytes of a database file: LadybugDB's and Kùzu 0.11.3's.
MAGIC = (b"LBUG", b"KUZU")


def database_files(db: Path) -> set[Path]:
    """The database file and the files beside it that carry its name (`kb.kuzu.wal`, `kb.kuzu.lock`, ...)."""
    folder = db.parent
    if not folder.is_dir():
        return set()
    return {p for p in folder.iterdir() if p.name == db.name or p.name.startswith(f"{db.name}.")}


def is_database(path: Path) -> bool:
    """Whether `path` is a regular file that starts like a database file."""
    try:
        if not path.is_file():
            return False
        with path.open("rb") as fh:
            return fh.read(4) in MAGIC
    except OSError:
        return False


def same_file(a: Path, b: Path) -> bool:
    """Whether the two paths name one file (through symlinks and hard links); False when either is missing."""
    try:
        return a.exists() and b.exists() and a.samefile(b)
    except OSError:
        return False
