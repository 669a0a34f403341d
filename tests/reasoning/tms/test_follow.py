"""Derived facts follow conflict resolutions (reasoning/tms/follow.py): a premise a resolution takes out of the
active set takes its conclusions along, and a premise that comes back brings them back, whichever way the status
changed (a person's decision, an automatic resolution on load or on a scan, a retraction that frees a rival)."""

from __future__ import annotations

import json
from pathlib import Path

from kgbrain.api import Brain
from kgbrain.reasoning.tms.withdraw import WITHDRAWN_BY

RULES = "[fl] flies(X) :- bird(X).\n[gl] glides(X) :- flies(X).\n[wk] walks(X) :- animal(X), not flies(X).\n"
BIRD = {"subject": "tweety", "predicate": "instance_of", "object": "bird"}
ANIMAL = {"subject": "tweety", "predicate": "instance_of", "object": "animal"}
NOT_BIRD = BIRD | {"polarity": False}


def _file(tmp_path: Path, name: str, rows: list[dict[str, object]] | str) -> Path:
    path = tmp_path / name
    text = rows if isinstance(rows, str) else "".join(json.dumps(r) + "\n" for r in rows)
    path.write_text(text, encoding="utf-8")
    return path


def _classes(brain: Brain) -> dict[str, str]:
    """tweety's derived classes and their statuses."""
    return {
        f.object or "": f.status.value
        for f in brain.facts("tweety").facts
        if f.source.startswith("rule:") and f.polarity and f.predicate == "instance_of"
    }


def _id(brain: Brain, source: str, polarity: bool = True, cls: str = "bird") -> str:
    facts = brain.facts("tweety").facts
    return next(f.fact_id for f in facts if (f.source, f.polarity, f.object) == (source, polarity, cls))


def _bird(brain: Brain, tmp_path: Path) -> str:
    """tweety is a bird and an animal per `zoo`, and not a bird per `rumor` (as trusted): an open conflict."""
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD, ANIMAL])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    assert _classes(brain) == {"flies": "active", "glides": "active"}
    brain.load([_file(tmp_path, "rumor.jsonl", [NOT_BIRD])], source="rumor")
    [conflict] = brain.conflicts(status="open")
    return conflict.id


def test_a_decision_against_a_premise_withdraws_its_conclusions_and_the_opposite_decision_brings_them_back(
    brain: Brain, tmp_path: Path
) -> None:
    conflict = _bird(brain, tmp_path)
    brain.resolve_conflict(conflict, keep=_id(brain, "rumor", polarity=False), by="ann")
    # bird(tweety) is disputed: flies and glides lose all support; `not flies` now holds, so tweety walks
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted", "walks": "active"}
    proof = brain.explain(_id(brain, "rule:fl", cls="flies"))
    assert (proof.status, proof.fact.status.value, proof.premises[0].fact.status.value) == (
        "lost",
        "retracted",
        "disputed",
    )
    brain.resolve_conflict(conflict, keep=_id(brain, "zoo"), by="ann")  # ann changes her mind
    assert _classes(brain) == {"flies": "active", "glides": "active", "walks": "retracted"}
    proof = brain.explain(_id(brain, "rule:fl", cls="flies"))
    assert (proof.status, proof.fact.status.value, proof.premises[0].fact.status.value) == (
        "active",
        "active",
        "active",
    )


def test_retracting_the_fact_that_won_brings_back_what_the_loser_implies(brain: Brain, tmp_path: Path) -> None:
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD, ANIMAL])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    brain.load([_file(tmp_path, "expert.jsonl", [NOT_BIRD])], source="expert", trust=0.9)
    # the load's own source-trust resolution disputed bird(tweety): its conclusions went with it
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted", "walks": "active"}
    why = brain.store.run_generated(
        "MATCH (r:Retraction {fact_id: $id}) RETURN r.retracted_by AS by", id=_id(brain, "rule:fl", cls="flies")
    )
    assert why == [{"by": WITHDRAWN_BY}]
    brain.retract(_id(brain, "expert", polarity=False), by="ann")
    assert _classes(brain) == {"flies": "active", "glides": "active", "walks": "retracted"}


def test_a_scan_that_disputes_a_premise_withdraws_its_conclusions(brain: Brain, tmp_path: Path) -> None:
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD, ANIMAL])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    hooks = list(brain.load_hooks)
    brain.load_hooks.clear()  # loaded without detection: the conflict waits for a scan
    brain.load([_file(tmp_path, "expert.jsonl", [NOT_BIRD])], source="expert", trust=0.9)
    brain.load_hooks[:] = hooks
    assert _classes(brain) == {"flies": "active", "glides": "active"}
    assert len(brain.scan_conflicts().recorded) == 1
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted", "walks": "active"}


def test_a_derived_fact_disputed_by_a_trusted_denial_takes_its_own_conclusions_along(
    brain: Brain, tmp_path: Path
) -> None:
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    denial = {"subject": "tweety", "predicate": "instance_of", "object": "flies", "polarity": False}
    brain.load([_file(tmp_path, "expert.jsonl", [denial])], source="expert", trust=0.9)
    # flies(tweety) (trust 0.5, from zoo's premise) loses to the expert's denial and is disputed; glides rested on it
    assert _classes(brain) == {"flies": "disputed", "glides": "retracted"}


def test_a_conclusion_disputed_as_the_rules_load_takes_its_own_conclusions_along(brain: Brain, tmp_path: Path) -> None:
    denial = {"subject": "tweety", "predicate": "instance_of", "object": "flies", "polarity": False}
    brain.load([_file(tmp_path, "expert.jsonl", [denial])], source="expert", trust=0.9)
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    assert _classes(brain) == {"flies": "disputed", "glides": "retracted"}


def test_reloading_a_retracted_fact_leaves_it_retracted_and_another_source_brings_the_statement_back(
    brain: Brain, tmp_path: Path
) -> None:
    """A retraction is a person's decision (final, as `resolve` says): reloading the same file must not undo it.
    The same statement from another source is new evidence, a fact of its own."""
    zoo = _file(tmp_path, "zoo.jsonl", [BIRD])
    brain.load([zoo], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    brain.retract(_id(brain, "zoo"), by="ann")
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted"}
    [report] = brain.load([zoo], source="zoo")
    assert (report.facts_added, report.duplicates_skipped) == (0, 1)
    assert brain.fact(_id(brain, "zoo")).status.value == "retracted"
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted"}
    brain.load([_file(tmp_path, "atlas.jsonl", [BIRD])], source="atlas")
    assert _classes(brain) == {"flies": "active", "glides": "active"}


def test_a_person_can_retract_a_conclusion_that_was_withdrawn_once_and_derived_again(
    brain: Brain, tmp_path: Path
) -> None:
    """Its withdrawal left a Retraction record (one per fact id); the person's retraction replaces it."""
    brain.load([_file(tmp_path, "zoo.jsonl", [BIRD])], source="zoo")
    brain.load([_file(tmp_path, "r.dl", RULES)])
    brain.retract(_id(brain, "zoo"), by="ann")
    brain.load([_file(tmp_path, "atlas.jsonl", [BIRD])], source="atlas")
    flies = _id(brain, "rule:fl", cls="flies")
    assert brain.fact(flies).status.value == "active"
    brain.retract(flies, by="bob", reason="penguin")
    assert _classes(brain) == {"flies": "retracted", "glides": "retracted"}
    why = brain.store.run_generated(
        "MATCH (r:Retraction {fact_id: $id}) RETURN r.retracted_by AS by, r.reason AS reason", id=flies
    )
    assert why == [{"by": "bob", "reason": "penguin"}]
