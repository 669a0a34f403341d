"""Which engine package the store runs on (`KGBRAIN_BACKEND`), imported without asyncio.

kgbrain runs on LadybugDB (`ladybug`, pinned; the maintained Kùzu fork) by default. `KGBRAIN_BACKEND=kuzu` runs
it on Kùzu 0.11.3 instead (`pip install 'kgbrain[kuzu]'`; kept for one release so a Ladybug regression can be
sidestepped). The two engines cannot open each other's files: `kgbrain migrate` converts a Kùzu file.

Both packages import their AsyncConnection, and with it asyncio, ssl and socket, at import time (0.1-0.3 s of
every CLI call, none of which uses it). Here the package is imported with that one submodule held back;
`<package>.AsyncConnection` still works, importing it (and asyncio) when first used.

Never import both engines in one process: `import kuzu` then `import ladybug` segfaults or fails ("type Database
is already registered"). A process imports only the package its backend names (`kgbrain migrate` runs the Kùzu
side in a subprocess).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from typing import Any

from kgbrain.errors import InputError, StoreError

BACKEND_ENV = "KGBRAIN_BACKEND"
DEFAULT_BACKEND = "ladybug"
# backend name -> (the package it imports, the pip line that installs it)
BACKENDS: dict[str, tuple[str, str]] = {
    "ladybug": ("ladybug", "pip install kgbrain"),
    "kuzu": ("kuzu", "pip install 'kgbrain[kuzu]'"),
}

_loaded: dict[str, Any] = {}


def backend_name() -> str:
    """The backend this process runs on: `KGBRAIN_BACKEND`, else ladybug.

    Raises:
        InputError: the variable names no backend.
    """
    raw = os.environ.get(BACKEND_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_BACKEND
    if raw not in BACKENDS:
        raise InputError(
            f"environment variable {BACKEND_ENV}={raw[:40]!r} must be one of {', '.join(sorted(BACKENDS))}"
        )
    return raw


def load(name: str | None = None) -> Any:
    """The engine package of backend `name` (default: `backend_name()`), imported once.

    Raises:
        InputError: unknown backend.
        StoreError: its package is not installed, or the other engine is already imported in this process.
    """
    name = name or backend_name()
    if name not in BACKENDS:
        raise InputError(f"unknown storage backend {name!r}; use one of {', '.join(sorted(BACKENDS))}")
    package = _loaded.get(name)
    if package is None:
        package = _loaded[name] = _import(name)
    return package


def _import(name: str) -> Any:
    module, install = BACKENDS[name]
    others = [m for m, _ in BACKENDS.values() if m != module and m in sys.modules]
    if others:
        raise StoreError(
            f"cannot use the {name} engine: this process already imported {others[0]}, and the two engines "
            "cannot share one process"
        )
    if importlib.util.find_spec(module) is None:
        raise StoreError(f"the {name} storage engine is not installed; `{install}` installs it")
    return _without_asyncio(module)


def _without_asyncio(module: str) -> Any:
    if module in sys.modules:
        return sys.modules[module]
    held_back = f"{module}.async_connection"
    placeholder = types.ModuleType(held_back)
    placeholder.AsyncConnection = None  # type: ignore[attr-defined]
    sys.modules[held_back] = placeholder
    try:
        package: Any = importlib.import_module(module)
    finally:
        if sys.modules.get(held_back) is placeholder:
            del sys.modules[held_back]
    if getattr(package, "AsyncConnection", None) is None:
        del package.AsyncConnection
        fallback = vars(package).get("__getattr__")

        def lazy(attr: str) -> Any:
            if attr == "AsyncConnection":
                real = importlib.import_module(held_back).AsyncConnection
                package.AsyncConnection = real
                return real
            if fallback is None:
                raise AttributeError(f"module {module!r} has no attribute {attr!r}")
            return fallback(attr)

        package.__getattr__ = lazy
    return package
