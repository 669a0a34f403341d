"""An argument or an environment variable with bytes that are not UTF-8 is one error saying so, exit 2, whichever
command and wherever it stands (issue #22: `kgbrain --db $'/tmp/x\\xff' stats` said the database did not exist)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.cli import cli

NOT_TEXT = "is not valid text: it holds bytes that are not UTF-8"
COMMANDS = sorted(cli.commands)  # type: ignore[attr-defined]


def one_error(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("Error: "), err
    return lines[0]


def invoke(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner(env=env).invoke(cli, args)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_an_argument_of_any_command_that_is_not_utf8_is_one_error(tmp_path: Path, command: str) -> None:
    # bytes that are not UTF-8 in argv arrive as lone surrogates (surrogateescape)
    code, err = invoke(["--db", str(tmp_path / "kb.kuzu"), command, "x\udcff"])
    assert code == 2
    assert f"the argument 'x\\xff' {NOT_TEXT}" in one_error(err)
    assert not (tmp_path / "kb.kuzu").exists()


@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in {"serve", "mcp"}])
def test_a_global_option_that_is_not_utf8_is_one_error(tmp_path: Path, command: str) -> None:
    code, err = invoke(["--db", str(tmp_path / "x\udcff.kuzu"), command])
    assert code == 2
    assert NOT_TEXT in one_error(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["facts", "neuron", "--as-of", "2020\udcfe"],
        ["retract", "f1", "--by", "me\udcff"],
        ["retract", "f1", "--by=me\udcff"],
        ["load", "facts.jsonl", "--source", "s\udcff"],
    ],
)
def test_an_option_value_that_is_not_utf8_is_one_error(tmp_path: Path, args: list[str]) -> None:
    code, err = invoke(["--db", str(tmp_path / "kb.kuzu"), *args])
    assert code == 2
    assert NOT_TEXT in one_error(err)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["KGBRAIN_DB", "KGBRAIN_CONFIG", "KGBRAIN_TOKEN", "KGBRAIN_MEMORY_MB", "HOME", "USER"])
def test_a_variable_kgbrain_reads_that_is_not_utf8_is_one_error(tmp_path: Path, name: str) -> None:
    code, err = invoke(["stats"], env={name: "/tmp/v\udcff"})
    assert code == 2
    assert f"environment variable {name}='/tmp/v\\xff' {NOT_TEXT}" in one_error(err)


def test_the_real_command_line_with_raw_bytes(tmp_path: Path) -> None:
    db = tmp_path.as_posix().encode() + b"/x\xff"
    for argv in ([b"--db", db, b"stats"], [b"ask", b"Is a neuron a cell\xff?"]):
        done = subprocess.run(
            [sys.executable.encode(), b"-m", b"kgbrain", *argv], capture_output=True, timeout=120, cwd=tmp_path
        )
        assert done.returncode == 2, done
        assert NOT_TEXT in one_error(done.stderr.decode("utf-8", "replace"))
    assert list(tmp_path.iterdir()) == []
