"""Find the files kgbrain ships beside its code: queries/, ontology/ and the demo knowledge base.

In a wheel they are force-included under the package; in a source checkout (or an editable
install) they sit at the repository root, one level above the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """Return the directory `name` (e.g. 'queries', 'ontology', 'data/demo'), wherever it was installed."""
    for base in (_PACKAGE, _PACKAGE.parent):
        candidate = base / name
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"kgbrain resource directory {name!r} is missing from the installation")
