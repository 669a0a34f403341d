"""The store layer: the only code that imports the graph engine (ladybug or kuzu; engine.py holds every call).

database.py (file, lock, engine handle, working copy) and migrations.py (schema) are the database;
kuzu_store.py (`KuzuStore`) is a connection on it; delta.py records what writes did to the facts;
protocol.py is what the layers above may use.
"""

from kgbrain.store.kuzu_store import KuzuStore, Row
from kgbrain.store.protocol import GraphStore, ServedStore

__all__ = ["GraphStore", "KuzuStore", "Row", "ServedStore"]
