"""The CLI's start-up: a plain question imports neither pydantic nor pyarrow, and its constants match the library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from kgbrain import api, cli
from kgbrain.reasoning.contradictions import ConflictType
from tests.service.conftest import env_with


def test_cli_constants_match_the_library() -> None:
    assert cli.DEFAULT_DB == api.DEFAULT_DB
    assert tuple(t.value for t in ConflictType) == cli.CONFLICT_TYPES


def test_a_plain_question_skips_the_loading_and_json_modules(demo_db: Path, no_block: Path) -> None:
    probe = (
        "import sys\n"
        "from kgbrain.cli import main\n"
        f"sys.argv = ['kgbrain', '--db', {str(demo_db)!r}, 'ask', 'What is a neuron?']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pyarrow', 'pydantic', 'rdflib', 'kgbrain.models') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env_with(no_block), capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"
