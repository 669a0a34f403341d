"""The persisted query closure (reasoning/rules/closure_file.py) equals a fresh computation, is dropped by any
write, and a bad file only costs a recomputation (issue #25, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.reasoning.rules import closure_file, executor
from kgbrain.reasoning.rules.executor import Closure, FactRow
from kgbrain.reasoning.rules.query import entailment_program
from kgbrain.ruleset import Atom, Program, Rule, Var

X, Y, Z = Var("X"), Var("Y"), Var("Z")
PREDS = ("p", "q", "is_a", "instance_of")
RULES = (
    Rule("r1", Atom("q", (X, Y)), (Atom("p", (X, Y)),)),
    Rule("r2", Atom("q", (X, Z)), (Atom("q", (X, Y)), Atom("p", (Y, Z)))),
    Rule("r3", Atom("c", (X,)), (Atom("q", (X, Y)), Atom("age", (X, Z)))),
)
BODIES = (
    [Atom("q", (X, Y))],
    [Atom("is_a", (X, Y))],
    [Atom("c", (X,))],
    [Atom("q", (X, Y)), Atom("p", (Y, Z))],
    [Atom("age", (X, Y))],
)
names = st.sampled_from([f"n{i}" for i in range(6)])
concept_facts = st.tuples(names, st.sampled_from(PREDS), names, st.booleans())
literal_facts = st.tuples(names, st.one_of(st.integers(-3, 3), st.sampled_from(["a", "1.5", "x y"])))


def _closure(facts: list[tuple[str, str, str, bool]], literals: list[tuple[str, int | str]]) -> Closure:
    rows = [FactRow(f"f{i}", s, p, o, pol) for i, (s, p, o, pol) in enumerate(facts)]
    rows += [FactRow(f"l{i}", s, "age", None, True, v) for i, (s, v) in enumerate(literals)]
    closure = Closure(rows)
    closure.run(entailment_program(Program(RULES)))
    return closure


def _same(fresh: Closure, back: Closure) -> None:
    meta, arrays = fresh.state()
    meta2, arrays2 = back.state()
    assert meta == meta2
    assert arrays.keys() == arrays2.keys()
    for name, arr in arrays.items():
        assert np.array_equal(arr, arrays2[name], equal_nan=arr.dtype.kind == "f"), name
    for body in BODIES:
        assert fresh.match(body) == back.match(body)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(concept_facts, max_size=25), st.lists(literal_facts, max_size=6))
def test_a_closure_read_back_equals_the_fresh_one(
    tmp_path: Path, facts: list[tuple[str, str, str, bool]], literals: list[tuple[str, int | str]]
) -> None:
    fresh = _closure(facts, literals)
    path = tmp_path / closure_file.NAME
    closure_file.write(path, "k", fresh)
    back = closure_file.read(path, "k")
    assert back is not None
    assert back.restored
    _same(_closure(facts, literals), back)
    assert closure_file.read(path, "other key") is None


def _kb(tmp_path: Path) -> Path:
    rows = [
        {"subject": "rex", "predicate": "is_a", "object": "dog"},
        {"subject": "dog", "predicate": "is_a", "object": "mammal"},
        {"subject": "mammal", "predicate": "is_a", "object": "animal"},
        {"subject": "rex", "predicate": "owner", "object": "ann"},
        {"subject": "rex", "predicate": "weight", "value": 30},
    ]
    facts = tmp_path / "f.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    rules = tmp_path / "r.dl"
    rules.write_text("[heavy] heavy(X) :- weight(X, W), W >= 20.\n[kept] kept(Y) :- owner(X, Y).\n", encoding="utf-8")
    db = tmp_path / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts, rules])
    return db


QUERIES = ("is_a(rex, X)", "heavy(X)", "kept(X)", "weight(X, W)")


def _answers(db: Path) -> list[object]:
    with Brain.open(db, read_only=True) as brain:
        return [brain.query(q).rows for q in QUERIES]


def _no_recompute(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("the closure was recomputed")

    monkeypatch.setattr(executor, "read_facts", refuse)


def test_a_warm_query_reads_the_file_and_a_write_drops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _kb(tmp_path)
    cold = _answers(db)
    assert cold[0] == (("animal",), ("dog",), ("mammal",))
    assert cold[1] == (("rex",),)
    path = Path(f"{db}.reasoning") / closure_file.NAME
    assert path.is_file()
    with monkeypatch.context() as m:
        _no_recompute(m)
        assert _answers(db) == cold  # read back, not recomputed
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"subject": "tom", "predicate": "weight", "value": 25}) + "\n", encoding="utf-8")
    with Brain.open(db) as brain:
        brain.load([more])
    with monkeypatch.context() as m:
        _no_recompute(m)
        with pytest.raises(AssertionError, match="recomputed"):
            _answers(db)  # the write changed the counter: the file no longer applies
    after = _answers(db)
    assert after[1] == (("rex",), ("tom",))


@pytest.mark.parametrize("damage", ["truncate", "flip_body", "flip_head", "garbage", "empty"])
def test_a_bad_file_is_recomputed_never_answered_from(tmp_path: Path, damage: str) -> None:
    db = _kb(tmp_path)
    fresh = _answers(db)
    path = Path(f"{db}.reasoning") / closure_file.NAME
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip_body":
        data[-9] ^= 0x01  # inside the arrays: only the CRC tells
    elif damage == "flip_head":
        data[12] ^= 0xFF
    elif damage == "garbage":
        data = bytearray(b"\x07" * len(data))
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert closure_file.read(path, _key(db)) is None
    assert _answers(db) == fresh
    assert closure_file.read(path, _key(db)) is not None  # rewritten by the recomputation


def _key(db: Path) -> str:
    with Brain.open(db, read_only=True) as brain:
        counter = brain.store.write_counter()
    return f"{counter}:{closure_file.code_key()}"
