"""`not` and defeasible conclusions follow later loads and retractions (reasoning/tms/settle.py)."""

from __future__ import annotations

import json
from pathlib import Path

from kgbrain.api import Brain

NAF = "[lone] childless(Y) :- parent(X, Y), not parent(Y, _).\n[sad] lonely(Y) :- childless(Y), not friend(Y, _).\n"
DEFEASIBLE = """\
[fl] flies(X) :~ bird(X).
[nfl] ~flies(X) :~ penguin(X).
[glide] glides(X) :- flies(X).
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _facts(tmp_path: Path, name: str, rows: list[dict[str, object]]) -> Path:
    return _write(tmp_path, name, "".join(json.dumps(r) + "\n" for r in rows))


def _derived(brain: Brain, subject: str | None = None) -> set[tuple[str, str, str, bool]]:
    rows = brain.store.run_generated(
        "MATCH (s:Concept)-[r]->(o:Concept) WHERE r.source STARTS WITH $p AND r.status = $a "
        "RETURN s.id AS s, r.predicate AS p, o.id AS o, r.polarity AS pol",
        p="rule:",
        a="active",
    )
    return {(r["s"], r["p"], r["o"], r["pol"]) for r in rows if subject in (None, r["s"])}


def _fact_id(brain: Brain, subject: str, predicate: str, target: str) -> str:
    facts = brain.facts(subject).facts
    return next(f.fact_id for f in facts if (f.predicate, f.target, f.source) == (predicate, target, "t"))


def test_a_later_fact_withdraws_a_not_conclusion_and_its_retraction_revives_it(brain: Brain, tmp_path: Path) -> None:
    brain.load([_facts(tmp_path, "a.jsonl", [{"subject": "ann", "predicate": "parent", "object": "bob"}])], source="t")
    brain.load([_write(tmp_path, "naf.dl", NAF)])
    first = {("bob", "instance_of", "childless", True), ("bob", "instance_of", "lonely", True)}
    assert _derived(brain) == first
    brain.load([_facts(tmp_path, "b.jsonl", [{"subject": "bob", "predicate": "parent", "object": "cid"}])], source="t")
    # bob has a child now: childless(bob) and lonely(bob), which rested on it, are withdrawn; cid is childless
    assert _derived(brain) == {("cid", "instance_of", "childless", True), ("cid", "instance_of", "lonely", True)}
    brain.load([_facts(tmp_path, "c.jsonl", [{"subject": "cid", "predicate": "friend", "object": "ann"}])], source="t")
    assert _derived(brain) == {("cid", "instance_of", "childless", True)}  # a second stratum's `not`
    brain.retract(_fact_id(brain, "bob", "parent", "cid"), by="test")
    assert _derived(brain) == first  # bob's conclusions come back; cid's go (no longer anyone's child)


def test_a_later_stronger_fact_blocks_a_defeasible_conclusion_until_it_is_retracted(
    brain: Brain, tmp_path: Path
) -> None:
    rows = [{"subject": "tweety", "predicate": "instance_of", "object": "bird"}]
    rows.append({"subject": "penguin", "predicate": "is_a", "object": "bird"})
    brain.load([_facts(tmp_path, "a.jsonl", rows)], source="t")
    brain.load([_write(tmp_path, "fly.dl", DEFEASIBLE)])
    flying = {("tweety", "instance_of", "flies", True), ("tweety", "instance_of", "glides", True)}
    assert _derived(brain, "tweety") == flying
    brain.load(
        [_facts(tmp_path, "b.jsonl", [{"subject": "tweety", "predicate": "instance_of", "object": "penguin"}])],
        source="t",
    )
    # nfl is more specific than fl (penguin is_a bird): flies(tweety) and glides(tweety) go, ~flies comes
    assert _derived(brain, "tweety") == {("tweety", "instance_of", "flies", False)}
    brain.retract(_fact_id(brain, "tweety", "instance_of", "penguin"), by="test")
    assert _derived(brain, "tweety") == flying
    brain.load(
        [
            _facts(
                tmp_path,
                "c.jsonl",
                [{"subject": "tweety", "predicate": "instance_of", "object": "flies", "polarity": False}],
            )
        ],
        source="t",
    )
    assert _derived(brain, "tweety") == set()  # a stored opposite fact blocks the defeasible conclusion
