"""`kgbrain resolve` runs truth maintenance: a conclusion drawn from the fact a person decides against is withdrawn,
and comes back when the decision is reversed; `explain` shows each status."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kgbrain.cli import cli
from tests.conftest import write_jsonl


def run(db: Path, *args: str) -> str:
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_resolving_against_a_premise_withdraws_the_conclusion_and_resolving_back_restores_it(
    db_path: Path, tmp_path: Path
) -> None:
    bird = {"subject": "tweety", "predicate": "instance_of", "object": "bird"}
    rules = tmp_path / "fly.dl"
    rules.write_text("[fl] flies(X) :- bird(X).\n", encoding="utf-8")
    run(db_path, "load", str(write_jsonl(tmp_path / "zoo.jsonl", [bird])), "--source", "zoo")
    run(db_path, "load", str(rules))
    run(db_path, "load", str(write_jsonl(tmp_path / "rumor.jsonl", [bird | {"polarity": False}])), "--source", "rumor")
    [conflict] = json.loads(run(db_path, "conflicts", "--json"))
    facts = {f["source"]: f["fact_id"] for f in conflict["facts"]}
    flies = next(
        line.split()[-1] for line in run(db_path, "facts", "tweety").splitlines() if "instance_of flies" in line
    )
    assert run(db_path, "explain", flies).splitlines() == [
        f"{flies}  tweety instance_of flies  [by rule fl, conf 1.00, active]",
        f"  {facts['zoo']}  tweety instance_of bird  [from zoo, conf 0.85, active]",
    ]

    run(db_path, "resolve", conflict["id"], "--keep", facts["rumor"], "--by", "ann")
    assert run(db_path, "explain", flies).splitlines() == [
        f"{flies}  tweety instance_of flies  [by rule fl, conf 1.00, retracted] (support lost)",
        f"  {facts['zoo']}  tweety instance_of bird  [from zoo, conf 0.85, disputed]",
    ]
    assert json.loads(run(db_path, "explain", flies, "--json"))["status"] == "retracted"

    run(db_path, "resolve", conflict["id"], "--keep", facts["zoo"], "--by", "ann")
    assert run(db_path, "explain", flies).splitlines() == [
        f"{flies}  tweety instance_of flies  [by rule fl, conf 1.00, active]",
        f"  {facts['zoo']}  tweety instance_of bird  [from zoo, conf 1.00, active]",
    ]
