"""The store layer: the only code that imports kuzu."""

from kgbrain.store.kuzu_store import KuzuStore, Row
from kgbrain.store.protocol import GraphStore

__all__ = ["GraphStore", "KuzuStore", "Row"]
