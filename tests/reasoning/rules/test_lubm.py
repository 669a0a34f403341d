"""LUBM's 14 queries through `kgbrain query` on a trimmed LUBM department, with the ontology's OWL 2 RL rules.

Expected counts: `reasonable` (OWL 2 RL) + pyoxigraph SPARQL on the same triples (tests/fixtures/lubm/README.md).
The full LUBM(1,0) and its published counts are bench/rules.py's job (University0 is 100k triples).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
_BLOCKS = re.split(r"^# (Q\d+)\n", (FIXTURES / "lubm" / "queries.rq").read_text(encoding="utf-8"), flags=re.M)[1:]
QUERIES = dict(zip(_BLOCKS[::2], _BLOCKS[1::2], strict=True))
EXPECTED = {
    "Q1": 1, "Q2": 0, "Q3": 1, "Q4": 34, "Q5": 161, "Q6": 120, "Q7": 12,
    "Q8": 120, "Q9": 3, "Q10": 1, "Q11": 10, "Q12": 1, "Q13": 1, "Q14": 60,
}  # fmt: skip


@pytest.fixture(scope="module")
def lubm_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lubm") / "kb.kuzu"
    with Brain.open(path) as brain:
        brain.load([FIXTURES / "ontology" / "univ-bench.owl", FIXTURES / "lubm" / "lubm_dept0_trimmed.nt.gz"])
    return path


@pytest.fixture
def lubm(lubm_db: Path) -> Iterator[Brain]:
    with Brain.open(lubm_db, read_only=True) as brain:
        yield brain


def test_the_14_lubm_queries_give_the_owl2rl_counts(lubm: Brain) -> None:
    assert {name: len(lubm.query(text).rows) for name, text in QUERIES.items()} == EXPECTED


def test_inferred_answers_come_from_rules(lubm: Brain) -> None:
    # Q13 (University0 hasAlumnus X) holds only through sub-property (doctoralDegreeFrom ⊑ degreeFrom) and
    # inverse (hasAlumnus ≡ degreeFrom⁻); the data states neither hasAlumnus nor degreeFrom.
    [(alumnus,)] = lubm.query(QUERIES["Q13"]).rows
    stated = [f for f in lubm.facts(str(alumnus)).facts if f.predicate in ("has_alumnus", "degree_from")]
    assert stated
    assert all(f.source.startswith("rule:") for f in stated)


def test_cli_counts_match(lubm_db: Path) -> None:
    out = CliRunner().invoke(cli, ["--db", str(lubm_db), "query", QUERIES["Q12"], "--csv"])
    assert out.exit_code == 0, out.output
    assert len(out.stdout.splitlines()) == 1 + EXPECTED["Q12"]
