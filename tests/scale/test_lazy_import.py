"""pyspark is imported only by the work that runs on Spark: asking and verifying here never load it."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import FIXTURES

PROBE = f"""
import sys
from kgbrain.api import Brain
import kgbrain.cli, kgbrain.output.verify_runs, kgbrain.scale.verify, kgbrain.scale.conflicts
with Brain.open(None) as b:
    b.load([{str(FIXTURES / "claims" / "penguins_kb.jsonl")!r}])
    b.ask("Is a penguin a bird?")
    b.verify([{{"id": "a", "subject": "penguin", "predicate": "is_a", "object": "bird"}}])
    b.scan_conflicts()
print(sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j")))
"""


def test_ask_and_verify_do_not_import_pyspark() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.strip().splitlines()[-1] == "[]"
