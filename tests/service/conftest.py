"""Real servers for the service tests: `kgbrain serve` / `kgbrain mcp` processes on copies of the demo KB."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

# Never blocks Ring 2 and never runs out of time, so answers do not depend on the machine's load.
NO_BLOCK = "[resources]\nhard_on = 101.0\nhard_off = 100.0\nsoft_on = 101.0\nsoft_off = 100.0\n" + "".join(
    f"[goal_limits.{goal}]\nstep_limit = {steps}\ntime_limit_ms = 1e9\nconfidence_threshold = {threshold}\n"
    f"stability_window = {window}\n"
    for goal, steps, threshold, window in (
        ("answer_question", 3, 0.75, 2),
        ("verify_claim", 7, 0.80, 2),
        ("explore_topic", 10, 0.70, 3),
        ("learn_fact", 3, 0.70, 1),
    )
)


def copy_kb(source: Path, folder: Path) -> Path:
    """A private copy of a knowledge base file and its sidecars."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in source.parent.iterdir():
        if f.name.startswith(source.name) and f.is_file() and not f.name.endswith(".lock"):
            shutil.copy2(f, folder / f.name)
    return folder / source.name


@pytest.fixture(scope="session")
def no_block(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A config that never blocks Ring 2, so answers do not depend on the machine's load."""
    path = tmp_path_factory.mktemp("config") / "kgbrain.toml"
    path.write_text(NO_BLOCK, encoding="utf-8")
    return path


def env_with(config: Path, **extra: str) -> dict[str, str]:
    """The environment for a kgbrain child process."""
    env = {k: v for k, v in os.environ.items() if k != "KGBRAIN_TOKEN"}
    env.update(KGBRAIN_CONFIG=str(config), PYTHONIOENCODING="utf-8", **extra)
    return env


class Server:
    """A `kgbrain serve` process on a free loopback port."""

    def __init__(self, db: Path, env: dict[str, str], *args: str) -> None:
        self.db = db
        command = [sys.executable, "-m", "kgbrain", "--db", str(db), "serve", "--port", "0", *args]
        self.process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        line = self.process.stderr.readline()
        if "kgbrain serving" not in line:
            self.process.kill()
            rest = self.process.stderr.read()
            raise AssertionError(f"the server did not start: {line}{rest}")
        self.url = line.rsplit(" at ", 1)[1].split()[0]
        self.client = httpx.Client(base_url=self.url, timeout=120)

    def stop(self) -> None:
        self.client.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()

    def kill(self) -> None:
        self.client.close()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()


@pytest.fixture(scope="module")
def served(demo_db: Path, no_block: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A read-write server on a private copy of the demo KB, shared by a module's tests."""
    db = copy_kb(demo_db, tmp_path_factory.mktemp("served"))
    server = Server(db, env_with(no_block))
    yield server
    server.stop()


def wait_until(predicate: object, timeout: float = 60.0) -> None:
    """Poll until `predicate()` holds (used for process state, never for timing assertions)."""
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached")
        time.sleep(0.05)
