"""An in-process HTTP app over a small knowledge base: fast enough to try many hostile requests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kgbrain.api import Brain
from kgbrain.service.core import Service
from kgbrain.service.guard import Tokens
from kgbrain.service.http import Limits, create_app
from tests.conftest import write_jsonl
from tests.service.conftest import no_block  # noqa: F401  (a fixture the MCP tests use)

ROWS = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "cell", "predicate": "is_a", "object": "thing"},
    {"subject": "neuron", "predicate": "is_a", "object": "thing", "polarity": False},
]
TOKENS = Tokens({"r-token": "read", "w-token": "write", "a-token": "admin"})


def small_kb(folder: Path) -> Path:
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "base.jsonl", ROWS)])
    return db


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = Service(small_kb(tmp_path_factory.mktemp("guarded")))
    yield service
    service.close()


def client(service: Service, **limits: object) -> TestClient:
    """A client of the app; it talks to `http://127.0.0.1` (a loopback name) unless told otherwise."""
    return TestClient(create_app(service, Limits(**limits)), base_url="http://127.0.0.1:8765")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def open_app(service: Service) -> TestClient:
    return client(service)


@pytest.fixture(scope="module")
def token_app(service: Service) -> TestClient:
    return client(service, tokens=TOKENS)
