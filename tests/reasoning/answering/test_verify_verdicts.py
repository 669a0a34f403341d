"""From the reasoner's Check to a verdict, and the verdicts file: contract rows, resume, torn lines."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgbrain.errors import InputError
from kgbrain.ingest.claims import Claim, ClaimError
from kgbrain.models import VerdictOut
from kgbrain.output.verdicts import (
    VerdictWriter,
    read_finished,
    run_verification,
    skip_finished,
    verdict_line,
    verdict_row,
)
from kgbrain.reasoning.answering.verify import (
    CLOSED_WORLD_RULE,
    ConflictNote,
    Verdict,
    VerdictKind,
    VerifyOptions,
    error_verdict,
    verdict_from_check,
)
from kgbrain.reasoning.results import Check, Mode, Outcome, Step, Trace

CLAIM = Claim("c1", "neuron", "has_property", "dna", line=4)
STEP = Step("ded.isa-transitive", "neuron is_a cell", ("f_1", "f_2"), ("textbook",), 0.95)


def check(outcome: Outcome, confidence: float = 0.9, polarity: bool = True) -> Check:
    return Check(
        "neuron", "has_property", "dna", polarity, outcome, confidence, Mode.DEDUCTIVE, Trace((STEP,)), ("k_1",), "why"
    )


@pytest.mark.parametrize(
    ("outcome", "kind"),
    [
        (Outcome.SUPPORTED, VerdictKind.SUPPORTED),
        (Outcome.REFUTED, VerdictKind.REFUTED),
        (Outcome.CONFLICTING, VerdictKind.CONFLICTING),
        (Outcome.UNKNOWN, VerdictKind.NOT_ENOUGH_INFO),
    ],
)
def test_every_outcome_maps_to_its_verdict(outcome: Outcome, kind: VerdictKind) -> None:
    v = verdict_from_check(CLAIM, check(outcome), VerifyOptions())
    assert (v.id, v.verdict, v.confidence, v.reasoning_type, v.proof, v.conflicts) == (
        "c1",
        kind,
        0.9,
        "deductive",
        (STEP,),
        (ConflictNote("k_1"),),
    )
    assert v.line == 4


def test_closed_world_refutes_only_what_is_unprovable() -> None:
    closed = VerifyOptions(closed_world=True)
    v = verdict_from_check(CLAIM, check(Outcome.UNKNOWN, 0.0), closed)
    assert v.verdict is VerdictKind.REFUTED
    assert v.confidence == 1.0
    assert v.proof[-1].rule == CLOSED_WORLD_RULE
    assert v.proof[-1].conclusion == "NOT (neuron has_property dna)"
    assert "closed world" in v.explanation
    for outcome in (Outcome.SUPPORTED, Outcome.CONFLICTING):
        assert verdict_from_check(CLAIM, check(outcome), closed).verdict.value == outcome.value.upper()


def test_min_confidence_turns_weak_conclusions_into_not_enough_info() -> None:
    options = VerifyOptions(min_confidence=0.8)
    weak = verdict_from_check(CLAIM, check(Outcome.SUPPORTED, 0.7), options)
    assert weak.verdict is VerdictKind.NOT_ENOUGH_INFO
    assert weak.proof == (STEP,)  # the weak proof is still shown
    assert "confidence 0.70 is below the required 0.80" in weak.explanation
    assert verdict_from_check(CLAIM, check(Outcome.REFUTED, 0.8), options).verdict is VerdictKind.REFUTED
    # Below the floor and unprovable are different things: the closed world does not refute a weak support.
    both = VerifyOptions(closed_world=True, min_confidence=0.8)
    assert verdict_from_check(CLAIM, check(Outcome.SUPPORTED, 0.7), both).verdict is VerdictKind.NOT_ENOUGH_INFO
    with pytest.raises(InputError, match=r"outside 0\.\.1"):
        VerifyOptions(min_confidence=1.5)


def test_verdict_rows_follow_the_contract() -> None:
    v = verdict_from_check(CLAIM, check(Outcome.SUPPORTED), VerifyOptions())
    row = verdict_row(v)
    assert row == {
        "id": "c1",
        "verdict": "SUPPORTED",
        "confidence": 0.9,
        "reasoning_type": "deductive",
        "proof": [
            {
                "rule": "ded.isa-transitive",
                "conclusion": "neuron is_a cell",
                "facts": ["f_1", "f_2"],
                "sources": ["textbook"],
                "confidence": 0.95,
            }
        ],
        "conflicts": [{"id": "k_1", "type": "", "status": "", "resolution": "", "facts": [], "kept": None}],
        "explanation": "why",
        "claim": {"subject": "neuron", "predicate": "has_property", "object": "dna", "polarity": True},
    }
    assert VerdictOut.model_validate(row).model_dump(exclude_unset=True) == row
    error = verdict_row(error_verdict("c9", "line 9: broken JSON"))
    assert error["verdict"] == "ERROR"
    assert error["error"] == "line 9: broken JSON"
    VerdictOut.model_validate(error)


def verdicts(n: int, start: int = 0) -> list[Verdict]:
    return [Verdict(f"c{i}", VerdictKind.SUPPORTED, 0.5, "direct") for i in range(start, start + n)]


def test_resume_cuts_a_torn_line_and_continues(tmp_path: Path) -> None:
    out, partial = tmp_path / "v.jsonl", tmp_path / "v.jsonl.partial"
    with VerdictWriter(out) as w:
        w.write(verdicts(3))  # killed before it finished: the verdicts are in the partial file only
    assert not out.exists()
    whole = partial.read_bytes()
    partial.write_bytes(whole + b'{"id": "c3", "verd')  # a kill in the middle of a line
    finished = read_finished(partial)
    assert (finished.ids, finished.size, finished.torn) == (["c0", "c1", "c2"], len(whole), True)
    rows = [Claim(f"c{i}", "a", "is_a", "b") for i in range(5)]
    with VerdictWriter(out, resume=True) as w:
        todo = list(skip_finished(rows, w.finished, out="v.jsonl", claims="claims.jsonl"))
        assert [r.id for r in todo] == ["c3", "c4"]
        summary = run_verification([verdicts(2, start=3)], w, total=5)
    fresh = tmp_path / "fresh.jsonl"
    with VerdictWriter(fresh) as w:
        w.write(verdicts(5))
        w.finish()
    assert out.read_bytes() == fresh.read_bytes()
    assert not partial.exists()
    assert (summary.claims, summary.resumed, summary.checked, summary.torn_line_rewritten) == (5, 3, 2, True)
    assert summary.counts["SUPPORTED"] == 5


def test_an_output_is_replaced_only_by_a_finished_run(tmp_path: Path) -> None:
    out, partial = tmp_path / "v.jsonl", tmp_path / "v.jsonl.partial"
    with VerdictWriter(out) as w:
        w.write(verdicts(2))
        w.finish()
    first = out.read_bytes()
    with VerdictWriter(out) as w:  # a second run, killed half-way: the first output is still whole
        w.write(verdicts(1, start=5))
    assert out.read_bytes() == first
    assert partial.read_bytes().count(b"\n") == 1
    # --resume continues the interrupted run, not the earlier finished one
    rows = [Claim(f"c{i}", "a", "is_a", "b") for i in range(5, 8)]
    with VerdictWriter(out, resume=True) as w:
        assert [r.id for r in skip_finished(rows, w.finished, out="v.jsonl", claims="c.jsonl")] == ["c6", "c7"]
        run_verification([verdicts(2, start=6)], w, total=3)
    assert [json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()] == ["c5", "c6", "c7"]
    assert not partial.exists()


def test_resuming_a_finished_output_keeps_it(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    with VerdictWriter(out) as w:
        w.write(verdicts(3))
        w.finish()
    whole = out.read_bytes()
    with VerdictWriter(out, resume=True) as w:
        assert w.finished.ids == ["c0", "c1", "c2"]
        summary = run_verification([], w, total=3)
    assert out.read_bytes() == whole
    assert (summary.resumed, summary.checked) == (3, 0)


def test_resume_refuses_the_verdicts_of_other_claims(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    with VerdictWriter(out) as w:
        w.write(verdicts(2))
        w.finish()
    other: list[Claim | ClaimError] = [Claim("c0", "a", "is_a", "b"), ClaimError("zz", "bad")]
    finished = read_finished(out)
    with pytest.raises(InputError, match=r"line 2 is the verdict on claim 'c1', but claim 2 of 'x.jsonl' is 'zz'"):
        list(skip_finished(other, finished, out=str(out), claims="x.jsonl"))
    with pytest.raises(InputError, match="is nothing"):
        list(skip_finished(other[:1], finished, out=str(out), claims="x.jsonl"))
    out.write_text('{"id": "c0", "verdict": "SUPPORTED"}\nnot json\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 2 is not a verdict; cannot resume"):
        VerdictWriter(out, resume=True)


def test_resume_without_an_existing_output_starts_fresh_and_needs_a_file(tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    with VerdictWriter(out, resume=True) as w:
        assert w.finished.ids == []
        w.write(verdicts(1))
        w.finish()
    assert json.loads(out.read_text(encoding="utf-8"))["id"] == "c0"
    with pytest.raises(InputError, match="--resume needs an output file"):
        VerdictWriter(None, resume=True, stream=io.StringIO())


def test_without_resume_an_old_output_is_replaced(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    out.write_text("old\n", encoding="utf-8")
    with VerdictWriter(out) as w:
        w.write(verdicts(1))
        w.finish()
    assert out.read_text(encoding="utf-8").count("\n") == 1


def test_stream_output() -> None:
    stream = io.StringIO()
    w = VerdictWriter(None, stream=stream)
    summary = run_verification([verdicts(2), [error_verdict("e", "bad")]], w, total=3)
    assert [json.loads(line)["verdict"] for line in stream.getvalue().splitlines()] == ["SUPPORTED"] * 2 + ["ERROR"]
    assert summary.counts == {
        "SUPPORTED": 2,
        "REFUTED": 0,
        "CONFLICTING": 0,
        "NOT_ENOUGH_INFO": 0,
        "ERROR": 1,
    }


def test_a_resume_must_use_the_options_of_the_interrupted_run(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    journal = tmp_path / "v.jsonl.run.json"
    w = VerdictWriter(out, options={"closed_world": True, "min_confidence": 0.0})
    w.write(verdicts(2))
    w.close()  # killed: never finished
    assert json.loads(journal.read_text(encoding="utf-8")) == {"closed_world": True, "min_confidence": 0.0}
    with pytest.raises(InputError, match=r"was started with closed_world=True; resume with the same options"):
        VerdictWriter(out, resume=True, options={"closed_world": False, "min_confidence": 0.0})
    with VerdictWriter(out, resume=True, options={"closed_world": True, "min_confidence": 0.0}) as w:
        run_verification([verdicts(1, start=2)], w, total=3)
    assert not journal.exists()
    assert out.read_text(encoding="utf-8").count("\n") == 3


_texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
_numbers = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), st.booleans())
_steps = st.builds(
    Step,
    rule=_texts,
    conclusion=_texts,
    facts=st.lists(_texts, max_size=3).map(tuple),
    sources=st.lists(_texts, max_size=3).map(tuple),
    confidence=_numbers,
    note=_texts,
)
_notes = st.builds(
    ConflictNote,
    id=_texts,
    type=_texts,
    status=_texts,
    resolution=_texts,
    facts=st.lists(_texts, max_size=3).map(tuple),
    kept=st.none() | _texts,
)
_verdicts = st.builds(
    Verdict,
    id=_texts,
    verdict=st.sampled_from(VerdictKind),
    confidence=_numbers,
    reasoning_type=st.none() | _texts,
    proof=st.lists(_steps, max_size=3).map(tuple),
    conflicts=st.lists(_notes, max_size=2).map(tuple),
    explanation=_texts,
    error=st.none() | _texts,
    subject=st.none() | _texts,
    predicate=st.none() | _texts,
    object=st.none() | _texts,
    polarity=st.booleans(),
    intervals=st.lists(st.tuples(_texts, _texts), max_size=2, unique_by=lambda t: t[0]).map(tuple),
)


@given(_verdicts)
def test_a_verdict_line_is_the_json_of_its_contract_row(v: Verdict) -> None:
    # verdict_line writes the row field by field for speed; it must be exactly what json.dumps makes of the row.
    assert verdict_line(v) == json.dumps(verdict_row(v), ensure_ascii=False) + "\n"
