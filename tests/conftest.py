"""Shared fixtures: real Kùzu databases (in memory or on disk), the demo KB, golden files, hypothesis profile."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from kgbrain.api import Brain, demo_files

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GOLDEN = Path(__file__).resolve().parent / "golden"

settings.register_profile(
    "ci", derandomize=True, max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("ci")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/*.json from current output")


@pytest.fixture
def brain() -> Iterator[Brain]:
    """An empty in-memory knowledge base."""
    with Brain.open(None) as b:
        yield b


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A path for an on-disk knowledge base."""
    return tmp_path / "kb.kuzu"


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled demo knowledge base, built once per test session on disk."""
    path = tmp_path_factory.mktemp("demo") / "demo.kuzu"
    with Brain.open(path) as b:
        b.load(demo_files())
    return path


@pytest.fixture
def demo(demo_db: Path) -> Iterator[Brain]:
    """The demo knowledge base opened read-only (tests must not change it)."""
    with Brain.open(demo_db, read_only=True) as b:
        yield b


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    """Write rows as a JSONL facts file."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, Any], None]:
    """Compare data with tests/golden/<name>.json (sorted keys); `pytest --update-golden` rewrites it."""

    def check(name: str, data: Any) -> None:
        path = GOLDEN / f"{name}.json"
        text = json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        if request.config.getoption("--update-golden") or not path.exists():
            if not request.config.getoption("--update-golden"):
                pytest.fail(f"golden file {path.name} is missing; run pytest --update-golden and review it")
            path.write_text(text, encoding="utf-8")
            return
        assert json.loads(text) == json.loads(path.read_text(encoding="utf-8")), f"differs from golden {path.name}"

    return check
