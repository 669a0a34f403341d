"""A read-only knowledge base file opened at its first use.

A forked verification worker adopts its parent's in-memory views (mirror, hierarchy, labels, conflict records)
and then decides most claims without a single query; opening Kùzu would cost it about as much as verifying
ten thousand claims of a small knowledge base. It still gets a store: the first query (a claim about a
concept with inactive facts, an attribute value, a long causal chain) opens the file then.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kgbrain.store.kuzu_store import KuzuStore


class OpenOnUse:
    """A read-only `KuzuStore` on `path`, opened when any of its methods or attributes (but `path`, `read_only`)
    is first used; `close` closes it if it was opened."""

    def __init__(self, path: str | Path) -> None:
        """Remember the file; nothing is opened or locked yet."""
        self.path = Path(path)
        self.read_only = True
        self._store: KuzuStore | None = None

    def _opened(self) -> KuzuStore:
        if self._store is None:
            self._store = KuzuStore(self.path, read_only=True)
        return self._store

    def __getattr__(self, name: str) -> Any:
        # Only called for what this object lacks: every GraphStore method and KuzuStore attribute.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._opened(), name)

    def close(self) -> None:
        """Close the store if it was opened."""
        if self._store is not None:
            self._store.close()
            self._store = None
