"""`kgbrain migrate OLD NEW`: a knowledge base written by Kùzu 0.11.3 comes out of Ladybug the same.

The Kùzu side runs in processes of their own (KGBRAIN_BACKEND=kuzu): Kùzu and Ladybug cannot share one. Kùzu comes
with the test extra (`kgbrain[test]` pins it, as `kgbrain[kuzu]` does).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kgbrain.api import demo_files
from kgbrain.store.schema import latest_version
from tests.conftest import write_jsonl


def _kgbrain(backend: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KGBRAIN_BACKEND": backend}
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", *args], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


# What a kgbrain from before the switch left: schema version 5, no storage_format row.
_AS_BEFORE_THE_SWITCH = textwrap.dedent(
    """
    import sys
    import kuzu
    db = kuzu.Database(sys.argv[1])
    conn = kuzu.Connection(db)
    conn.execute("MATCH (m:Meta {key: 'schema_version'}) SET m.value = '5'")
    conn.execute("MATCH (m:Meta {key: 'storage_format'}) DELETE m")
    conn.close()
    db.close()
    """
)


@pytest.fixture(scope="module")
def kuzu_kb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, dict[str, object]]:
    """A real Kùzu knowledge base (the demo plus a retraction), its export and its stats, made on Kùzu."""
    folder = tmp_path_factory.mktemp("kuzu_kb")
    old = folder / "old.kuzu"
    _kgbrain("kuzu", "--db", str(old), "load", *map(str, demo_files()))
    extra = write_jsonl(
        folder / "extra.jsonl",
        [{"subject": "ёж", "predicate": "is_a", "object": "animal", "confidence": 0.123456789012345}],
    )
    _kgbrain("kuzu", "--db", str(old), "load", str(extra))
    facts = json.loads(_kgbrain("kuzu", "--db", str(old), "facts", "ёж", "--json").stdout)
    _kgbrain("kuzu", "--db", str(old), "retract", facts["facts"][0]["fact_id"], "--by", "test")
    export = _kgbrain("kuzu", "--db", str(old), "export").stdout
    stats = json.loads(_kgbrain("kuzu", "--db", str(old), "stats", "--json").stdout)
    env = {**os.environ, "KGBRAIN_BACKEND": "kuzu"}
    subprocess.run([sys.executable, "-c", _AS_BEFORE_THE_SWITCH, str(old)], env=env, check=True, timeout=120)
    return old, export, stats


def test_a_kuzu_knowledge_base_migrates_to_ladybug_unchanged(
    kuzu_kb: tuple[Path, str, dict[str, object]], tmp_path: Path
) -> None:
    old, export, stats = kuzu_kb
    before = old.read_bytes()
    new = tmp_path / "new.kuzu"
    done = _kgbrain("ladybug", "migrate", str(old), str(new))
    assert f"schema version {latest_version()}" in done.stdout
    assert old.read_bytes() == before  # OLD left as it was
    assert _kgbrain("ladybug", "--db", str(new), "export").stdout == export
    after = json.loads(_kgbrain("ladybug", "--db", str(new), "stats", "--json").stdout)
    assert after == stats
    assert after["schema_version"] == latest_version()  # migrated from 5 as it opened
    assert not list(tmp_path.glob("*.migrating*"))
    assert not list(tmp_path.glob(".kgbrain-migrate-*"))
    # And the new file is a Ladybug one: Kùzu cannot read it.
    refused = _kgbrain("kuzu", "--db", str(new), "stats", check=False)
    assert refused.returncode == 1
    assert "not a valid" in refused.stderr


def test_migrate_refuses_to_overwrite_and_to_migrate_twice(
    kuzu_kb: tuple[Path, str, dict[str, object]], tmp_path: Path
) -> None:
    old, _, _ = kuzu_kb
    taken = tmp_path / "taken.kuzu"
    taken.write_bytes(b"keep me")
    done = _kgbrain("ladybug", "migrate", str(old), str(taken), check=False)
    assert done.returncode == 2
    assert "exists; give `kgbrain migrate` a new file" in done.stderr
    assert taken.read_bytes() == b"keep me"
    new = tmp_path / "new.kuzu"
    _kgbrain("ladybug", "migrate", str(old), str(new))
    again = _kgbrain("ladybug", "migrate", str(new), str(tmp_path / "again.kuzu"), check=False)
    assert again.returncode == 2
    assert "is a Ladybug database already" in again.stderr
    assert not (tmp_path / "again.kuzu").exists()


def test_migrating_something_else_fails_clearly_and_writes_nothing(tmp_path: Path) -> None:
    junk = tmp_path / "junk.kuzu"
    junk.write_bytes(b"not a database" * 500)
    new = tmp_path / "new.kuzu"
    done = _kgbrain("ladybug", "migrate", str(junk), str(new), check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith(f"Error: cannot export '{junk}' with Kùzu:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.kuzu", "junk.kuzu.lock"]
