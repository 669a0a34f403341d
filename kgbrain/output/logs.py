"""Logs (seed 000 Observability): brain.jsonl, errors.jsonl and daily digests, rotated and pruned.

    <dir>/brain.jsonl            every cycle's machine record
    <dir>/errors.jsonl           error records only
    <dir>/digests/YYYY-MM-DD.txt human digests of the day
    <dir>/archive/brain_YYYY-MM-DD[_N].jsonl.gz   rotated files

A JSONL file is rotated (gzipped into archive/) before a write would take it past `max_bytes`; archives
and digests older than `retention_days` are deleted when the logger opens.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from kgbrain.config import LogConfig

Clock = Callable[[], datetime]
_DATED = re.compile(r"(\d{4}-\d{2}-\d{2})")


class BrainLogger:
    """Appends records and digests under one directory."""

    def __init__(self, directory: str | Path, config: LogConfig | None = None, clock: Clock | None = None) -> None:
        """Log under `directory` with `config`'s rotation size and retention; `clock` gives the time (UTC)."""
        self.dir = Path(directory)
        self.config = config or LogConfig()
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        (self.dir / "digests").mkdir(parents=True, exist_ok=True)
        (self.dir / "archive").mkdir(exist_ok=True)
        self.prune()

    def log(self, record: dict[str, Any]) -> None:
        """Append a record to brain.jsonl (and to errors.jsonl when its level is ERROR)."""
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        self._append("brain.jsonl", line)
        if str(record.get("level", "")).upper() == "ERROR":
            self._append("errors.jsonl", line)

    def error(self, event: str, message: str, **fields: Any) -> None:
        """Record an error."""
        self.log(
            {
                "ts": self.clock().isoformat(timespec="milliseconds"),
                "level": "ERROR",
                "event": event,
                "error": message,
                **fields,
            }
        )

    def digest(self, text: str) -> Path:
        """Append a human digest to today's digest file; returns its path."""
        path = self.dir / "digests" / f"{self.clock():%Y-%m-%d}.txt"
        with path.open("a", encoding="utf-8") as f:
            f.write(text.rstrip("\n") + "\n\n")
        return path

    def _append(self, name: str, line: str) -> None:
        path = self.dir / name
        size = path.stat().st_size if path.exists() else 0
        if size and size + len(line.encode("utf-8")) > self.config.max_bytes:
            self.rotate(name)
        with path.open("a", encoding="utf-8") as f:
            f.write(line)

    def rotate(self, name: str) -> Path | None:
        """Gzip `name` into archive/<stem>_<date>[_N].jsonl.gz and start it afresh; returns the archive."""
        path = self.dir / name
        if not path.exists():
            return None
        stem = path.name.removesuffix(".jsonl")
        day = f"{self.clock():%Y-%m-%d}"
        target = self.dir / "archive" / f"{stem}_{day}.jsonl.gz"
        n = 1
        while target.exists():
            target = self.dir / "archive" / f"{stem}_{day}_{n}.jsonl.gz"
            n += 1
        import gzip  # only a rotation needs it

        with path.open("rb") as src, gzip.open(target, "wb") as dst:
            shutil.copyfileobj(src, dst)
        path.unlink()
        return target

    def prune(self) -> list[Path]:
        """Delete archives and digests dated more than `retention_days` ago; returns what was deleted."""
        cutoff = (self.clock() - timedelta(days=self.config.retention_days)).date()
        removed = []
        for folder in (self.dir / "archive", self.dir / "digests"):
            for path in sorted(folder.iterdir()):
                m = _DATED.search(path.name)
                if m and datetime.strptime(m.group(1), "%Y-%m-%d").date() < cutoff:
                    path.unlink()
                    removed.append(path)
        return removed
