"""One Brain per knowledge base of the QA set, for the whole session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kgbrain.api import Brain
from tests.qa.judge import KB_FILES


@pytest.fixture(scope="session")
def qa_brains(demo_db: Path) -> Iterator[dict[str, Brain]]:
    """One Brain per knowledge base of the QA set."""
    brains = {"demo": Brain.open(demo_db, read_only=True)}
    for name, files in KB_FILES.items():
        brains[name] = Brain.open(None)
        brains[name].load(list(files))
    yield brains
    for b in brains.values():
        b.close()
