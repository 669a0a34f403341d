"""The CLI's start-up: a plain question imports neither pydantic nor pyarrow, and its constants match the library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

from kgbrain import api, cli
from kgbrain.choices import ConflictStatus, ConflictType, GoalType, values
from kgbrain.reasoning.tms.contradictions import ConflictType as ReasoningConflictType
from tests.service.conftest import env_with


def _choices(command: str, option: str) -> list[str]:
    [param] = [p for p in cli.cli.commands[command].params if p.name == option]
    assert isinstance(param.type, click.Choice)
    return list(param.type.choices)


def test_cli_constants_match_the_library() -> None:
    assert cli.DEFAULT_DB == api.DEFAULT_DB
    # The CLI's choices are the library's enums (kgbrain/choices.py), not copies of their values.
    assert ReasoningConflictType is ConflictType
    assert _choices("conflicts", "kind") == values(ConflictType)
    assert _choices("conflicts", "status") == values(ConflictStatus)
    assert _choices("ask", "goal") == values(GoalType)


def test_a_plain_question_skips_the_loading_and_json_modules(demo_db: Path, no_block: Path) -> None:
    # A yes/no question reaches the rule proofs (which once brought pyarrow), an analogy reaches numpy's set
    # operations (numpy.ma), and kuzu's package imports asyncio for a class the CLI never uses.
    unwanted = ("pyarrow", "pydantic", "rdflib", "kgbrain.models", "asyncio", "numpy.ma", "gzip")
    probe = (
        "import sys\n"
        "from kgbrain.cli import main\n"
        f"for q in ('What is a neuron?', 'Is a neuron a cell?', 'What is a neuron like?'):\n"
        f"    sys.argv = ['kgbrain', '--db', {str(demo_db)!r}, 'ask', q]\n"
        "    try:\n        main()\n    except SystemExit:\n        pass\n"
        f"print(sorted(m for m in {unwanted!r} if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env_with(no_block), capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_port_in_use_is_a_clear_message(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    """Issue #22: `kgbrain serve` on a busy port ended with uvicorn's `SystemExit: 3`."""
    import socket
    import subprocess
    import sys

    from tests.service.conftest import copy_kb, env_with

    kb = copy_kb(demo_db, tmp_path / "busy")
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(kb), "serve", "--port", str(port)],
            env=env_with(no_block),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode != 0
    assert f"port {port} on 127.0.0.1 is already in use" in done.stderr
    assert "Traceback" not in done.stderr
    assert "SystemExit" not in done.stderr
