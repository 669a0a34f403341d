"""DRed withdrawal over the derivation records: cycles, alternative support, one transaction with the retraction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.ingest.export import stored_fact_rows

CYCLE = """\
[base] p(X, Y) :- q(X, Y).
[sym] p(X, Y) :- p(Y, X).
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _facts(tmp_path: Path, rows: list[dict[str, object]], name: str = "facts.jsonl") -> Path:
    return _write(tmp_path, name, "".join(json.dumps(r) + "\n" for r in rows))


def _active_derived(brain: Brain) -> set[tuple[str, str, str, str]]:
    rows = brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o:Concept) WHERE r.source STARTS WITH $p AND r.status = $a "
        "RETURN s.id AS s, r.predicate AS p, o.id AS o, r.source AS src",
        p="rule:",
        a="active",
    )
    return {(r["s"], r["p"], r["o"], r["src"]) for r in rows}


def _fact_id(brain: Brain, subject: str, predicate: str, target: str) -> str:
    return next(f.fact_id for f in brain.facts(subject).facts if (f.predicate, f.target) == (predicate, target))


def test_facts_that_only_support_each_other_through_a_cycle_are_withdrawn(brain: Brain, tmp_path: Path) -> None:
    brain.load([_facts(tmp_path, [{"subject": "a", "predicate": "q", "object": "b"}])])
    brain.load([_write(tmp_path, "cycle.dl", CYCLE)])
    derived = _active_derived(brain)
    assert ("b", "p", "a", "rule:sym") in derived
    assert ("a", "p", "b", "rule:sym") in derived  # p(a,b) also from p(b,a): a cycle through `sym`
    brain.retract(_fact_id(brain, "a", "q", "b"), by="test")
    assert _active_derived(brain) == set()  # counting would keep the cycle alive
    statuses = {r["status"] for r in stored_fact_rows(brain.store) if r["source"].startswith("rule:")}
    assert statuses == {"retracted"}  # kept, never deleted
    brain.load([_facts(tmp_path, [{"subject": "a", "predicate": "q", "object": "b"}], "again.jsonl")])
    assert _active_derived(brain) == derived  # the premise back: everything revives


def test_a_fact_with_another_well_founded_derivation_stays(brain: Brain, tmp_path: Path) -> None:
    rows = [{"subject": "a", "predicate": "q", "object": "b"}, {"subject": "b", "predicate": "q", "object": "a"}]
    brain.load([_facts(tmp_path, rows)])
    brain.load([_write(tmp_path, "cycle.dl", CYCLE)])
    brain.retract(_fact_id(brain, "a", "q", "b"), by="test")
    derived = _active_derived(brain)
    # p(b,a) still holds from q(b,a), and p(a,b) by symmetry from it; p(a,b) by `base` is gone
    assert derived == {("b", "p", "a", "rule:base"), ("a", "p", "b", "rule:sym"), ("b", "p", "a", "rule:sym")}


def test_a_long_cycle_of_transitive_facts_is_withdrawn_when_its_entry_goes(brain: Brain, tmp_path: Path) -> None:
    ring = [{"subject": f"n{i}", "predicate": "next", "object": f"n{(i + 1) % 4}"} for i in range(4)]
    brain.load([_facts(tmp_path, ring)])
    brain.load([_write(tmp_path, "tc.dl", "[t1] r(X, Y) :- next(X, Y).\n[t2] r(X, Z) :- r(X, Y), r(Y, Z).\n")])
    assert len(_active_derived(brain)) == 4 + 16
    brain.retract(_fact_id(brain, "n0", "next", "n1"), by="test")
    left = {(s, o) for s, p, o, src in _active_derived(brain) if p == "r"}
    # the ring is a chain n1 -> n2 -> n3 -> n0 now: its 6 pairs, nothing around the old cycle
    assert left == {("n1", "n2"), ("n1", "n3"), ("n1", "n0"), ("n2", "n3"), ("n2", "n0"), ("n3", "n0")}


def test_retract_many_is_all_or_nothing_with_one_withdrawal(brain: Brain, tmp_path: Path) -> None:
    from kgbrain.errors import InputError

    rows = [{"subject": "a", "predicate": "q", "object": "b"}, {"subject": "b", "predicate": "q", "object": "a"}]
    brain.load([_facts(tmp_path, rows)])
    brain.load([_write(tmp_path, "cycle.dl", CYCLE)])
    before = _active_derived(brain)
    ids = [_fact_id(brain, "a", "q", "b"), _fact_id(brain, "b", "q", "a")]
    with pytest.raises(InputError):
        brain.retract_many([*ids, "no-such-fact"], by="test")
    assert _active_derived(brain) == before  # nothing retracted, nothing withdrawn
    assert {f.status.value for f in brain.facts("a").facts if f.source == "facts.jsonl"} == {"active"}
    results = brain.retract_many(ids, by="test")
    assert [r.fact.fact_id for r in results] == ids
    assert _active_derived(brain) == set()


def test_a_failing_withdrawal_leaves_the_retraction_undone(
    brain: Brain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kgbrain.errors import StoreError
    from kgbrain.reasoning.tms import withdraw as dred

    brain.load([_facts(tmp_path, [{"subject": "a", "predicate": "q", "object": "b"}])])
    brain.load([_write(tmp_path, "cycle.dl", CYCLE)])
    before = _active_derived(brain)
    fid = _fact_id(brain, "a", "q", "b")

    def fail(*args: object, **kwargs: object) -> None:
        raise StoreError("disk gone")

    monkeypatch.setattr(dred, "_retract_facts", fail)  # after the derivations were marked lost
    with pytest.raises(StoreError):
        brain.retract(fid, by="test")
    assert next(f for f in brain.facts("a").facts if f.fact_id == fid).status.value == "active"
    assert _active_derived(brain) == before
    lost = brain.store.run_generated("MATCH (d:Derivation) WHERE d.status = $l RETURN d.id AS id", l="lost")
    assert lost == []  # the whole retraction rolled back, derivation statuses too


def test_retract_many_closes_conflicts_as_retract_does(brain: Brain, tmp_path: Path) -> None:
    rows = [
        {"subject": "x", "predicate": "q", "object": "y", "source": "s1"},
        {"subject": "x", "predicate": "q", "object": "y", "polarity": False, "source": "s2"},
        {"subject": "y", "predicate": "q", "object": "z", "source": "s1"},
    ]
    brain.load([_facts(tmp_path, rows)])
    open_before = [c for c in brain.conflicts(status="open")]
    assert open_before  # opposite polarity on x q y
    ids = [f.fact_id for f in brain.facts("x").facts if f.source == "s2"] + [_fact_id(brain, "y", "q", "z")]
    results = brain.retract_many(ids, by="test")
    assert [r.fact.status.value for r in results] == ["retracted", "retracted"]
    assert brain.conflicts(status="open") == []  # closed by the retraction, as `retract` closes it
    assert {f.status.value for f in brain.facts("y").facts if f.predicate == "q" and f.subject == "y"} == {"retracted"}


def test_cli_retracts_several_facts_at_once(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kgbrain.cli import cli

    db = tmp_path / "kb.kuzu"
    rows = [{"subject": "a", "predicate": "q", "object": "b"}, {"subject": "b", "predicate": "q", "object": "a"}]
    runner = CliRunner()
    for path in (_facts(tmp_path, rows), _write(tmp_path, "cycle.dl", CYCLE)):
        assert runner.invoke(cli, ["--db", str(db), "load", str(path)]).exit_code == 0
    with Brain.open(db) as brain:
        ids = [_fact_id(brain, "a", "q", "b"), _fact_id(brain, "b", "q", "a")]
    bad = runner.invoke(cli, ["--db", str(db), "retract", *ids, "f_nope"])
    assert bad.exit_code == 2  # nothing retracted
    done = runner.invoke(cli, ["--db", str(db), "retract", *ids])
    assert done.exit_code == 0
    assert done.stdout == "".join(f"{i} retracted (was active).\n" for i in ids)
    with Brain.open(db) as brain:
        assert _active_derived(brain) == set()
