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
    assert json.loads(run(db_path, "explain", flies, "--json"))["proof"]["status"] == "retracted"

    run(db_path, "resolve", conflict["id"], "--keep", facts["zoo"], "--by", "ann")
    assert run(db_path, "explain", flies).splitlines() == [
        f"{flies}  tweety instance_of flies  [by rule fl, conf 1.00, active]",
        f"  {facts['zoo']}  tweety instance_of bird  [from zoo, conf 1.00, active]",
    ]


def test_a_derived_fact_a_person_retracted_stays_retracted_when_derived_again_one_withdrawn_comes_back(
    db_path: Path, tmp_path: Path
) -> None:
    bird = {"subject": "tweety", "predicate": "instance_of", "object": "bird"}
    rules = tmp_path / "fly.dl"
    rules.write_text("[fl] flies(X) :- bird(X).\n[sw] swims(X) :- bird(X).\n", encoding="utf-8")
    run(db_path, "load", str(write_jsonl(tmp_path / "zoo.jsonl", [bird])), "--source", "zoo")
    run(db_path, "load", str(rules))

    def fact(what: str) -> str:
        [line] = [line for line in run(db_path, "facts", "tweety").splitlines() if f"instance_of {what} " in line]
        return line.split()[-1]

    flies, swims, zoo = fact("flies"), fact("swims"), fact("bird")
    run(db_path, "retract", flies, "--by", "ann", "--reason", "penguin")
    run(db_path, "retract", zoo, "--by", "bob")  # truth maintenance withdraws swims (and flies is retracted already)
    assert "[retracted," in run(db_path, "facts", "tweety").split(swims)[0].splitlines()[-1]

    # Another source says tweety is a bird: both rules derive their conclusions again.
    run(db_path, "load", str(write_jsonl(tmp_path / "park.jsonl", [bird])), "--source", "park")
    lines = {line.split()[-1]: line for line in run(db_path, "facts", "tweety").splitlines()[1:]}
    assert "[retracted," in lines[flies]  # a person's decision sticks
    assert "[active," in lines[swims]  # withdrawn by truth maintenance, back with its support
    assert run(db_path, "explain", flies).splitlines()[0].endswith("retracted]")
    assert run(db_path, "explain", swims).splitlines()[0].endswith("active]")
