"""`import kuzu` without asyncio: kuzu 0.11.3's package imports its AsyncConnection, and with it asyncio, ssl and
socket, at import time (0.1-0.3 s of every CLI call, none of which uses it). Here the package is imported with
that one submodule held back; `kuzu.AsyncConnection` still works, importing it (and asyncio) when first used.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from typing import Any


def _import_kuzu() -> Any:
    if "kuzu" in sys.modules:
        return sys.modules["kuzu"]
    placeholder = types.ModuleType("kuzu.async_connection")
    placeholder.AsyncConnection = None  # type: ignore[attr-defined]
    sys.modules["kuzu.async_connection"] = placeholder
    try:
        package: Any = importlib.import_module("kuzu")
    finally:
        if sys.modules.get("kuzu.async_connection") is placeholder:
            del sys.modules["kuzu.async_connection"]
    if getattr(package, "AsyncConnection", None) is None:
        del package.AsyncConnection
        fallback = vars(package).get("__getattr__")

        def lazy(name: str) -> Any:
            if name == "AsyncConnection":
                from kuzu.async_connection import AsyncConnection

                package.AsyncConnection = AsyncConnection
                return AsyncConnection
            if fallback is None:
                raise AttributeError(f"module 'kuzu' has no attribute {name!r}")
            return fallback(name)

        package.__getattr__ = lazy
    return package


kuzu = _import_kuzu()
PreparedStatement = kuzu.prepared_statement.PreparedStatement
