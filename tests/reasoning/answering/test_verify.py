"""Brain.verify on real Kùzu: every verdict, closed world, confidence floor, sentences, bad rows, ask agreement."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError, StoreError
from kgbrain.ingest.claims import Claim, ClaimError
from kgbrain.reasoning.answering.verify import (
    CLOSED_WORLD_RULE,
    ConflictNote,
    Statement,
    VerdictKind,
    Verifier,
    verify_parallel,
)
from kgbrain.reasoning.results import Check

CLAIMS = Path(__file__).resolve().parents[2] / "fixtures" / "claims"


@pytest.fixture(scope="module")
def penguins_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("penguins") / "kb.kuzu"
    with Brain.open(path) as b:
        b.load([CLAIMS / "penguins_kb.jsonl"])
    return path


@pytest.fixture
def penguins(penguins_db: Path) -> Iterator[Brain]:
    with Brain.open(penguins_db, read_only=True) as b:
        yield b


def test_every_verdict(penguins: Brain) -> None:
    verdicts = penguins.verify(
        [
            {"id": "s", "subject": "sparrow", "predicate": "can", "object": "fly"},
            {"id": "r", "subject": "penguin", "predicate": "can", "object": "fly"},
            {"id": "c", "subject": "sparrow", "predicate": "eats", "object": "seeds"},
            {"id": "n", "subject": "penguin", "predicate": "eats", "object": "seeds"},
            {"id": "e", "subject": "penguin", "predicate": "can"},
        ]
    )
    assert [(v.id, v.verdict) for v in verdicts] == [
        ("s", VerdictKind.SUPPORTED),
        ("r", VerdictKind.REFUTED),
        ("c", VerdictKind.CONFLICTING),
        ("n", VerdictKind.NOT_ENOUGH_INFO),
        ("e", VerdictKind.ERROR),
    ]
    supported, refuted, conflicting, unknown, error = verdicts
    assert supported.reasoning_type == "deductive"
    assert supported.confidence == 0.9
    assert supported.proof[0].rule == "ded.isa-transitive"
    assert all(s.facts and s.sources for s in supported.proof[:2])
    # The more specific statement wins, and the proof says which inherited one it overrode.
    assert refuted.confidence == 0.95
    assert [s.rule for s in refuted.proof] == ["dir.fact", "ded.specificity-override"]
    # Conflicting evidence names the stored conflict record that touches it.
    assert len(conflicting.conflicts) == 1
    record = conflicting.conflicts[0]
    assert (record.type, record.status, record.resolution) == ("opposite_polarity", "open", "deferred")
    assert set(record.facts) <= {f for s in conflicting.proof for f in s.facts}
    assert (unknown.confidence, unknown.proof, unknown.conflicts) == (0.0, (), ())
    assert error.error == "line 0: field 'object': missing"


def test_closed_world_refutes_the_unprovable_only(penguins: Brain) -> None:
    claims = [Claim("n", "penguin", "eats", "seeds"), Claim("s", "sparrow", "can", "fly")]
    open_world = penguins.verify(claims)
    closed = penguins.verify(claims, closed_world=True)
    assert [v.verdict for v in open_world] == [VerdictKind.NOT_ENOUGH_INFO, VerdictKind.SUPPORTED]
    assert [v.verdict for v in closed] == [VerdictKind.REFUTED, VerdictKind.SUPPORTED]
    assert closed[0].proof[-1].rule == CLOSED_WORLD_RULE
    assert closed[1] == open_world[1]


def test_min_confidence(penguins: Brain) -> None:
    claim = [Claim("f", "penguin", "has_property", "feathers")]
    assert penguins.verify(claim)[0].verdict is VerdictKind.SUPPORTED  # inherited at 0.6
    weak = penguins.verify(claim, min_confidence=0.8)[0]
    assert weak.verdict is VerdictKind.NOT_ENOUGH_INFO
    assert weak.proof
    with pytest.raises(InputError, match="outside"):
        penguins.verify(claim, min_confidence=2.0)


def test_sentence_claims_in_both_languages(penguins: Brain, demo: Brain) -> None:
    birds = penguins.verify(
        ["Пингвины умеют летать", "Пингвины не умеют летать", "Sparrows can fly", "Penguins cannot fly"]
    )
    assert [v.verdict for v in birds] == [
        VerdictKind.REFUTED,
        VerdictKind.SUPPORTED,
        VerdictKind.SUPPORTED,
        VerdictKind.SUPPORTED,
    ]
    assert (birds[0].subject, birds[0].predicate, birds[0].object, birds[0].polarity) == ("penguin", "can", "fly", True)
    assert birds[1].polarity is False
    neuro = demo.verify(
        ["Нейрон — это клетка", "Neurons contain DNA", "Нейроны содержат ДНК", "Транзистор — это клетка"]
    )
    assert [v.verdict for v in neuro] == [
        VerdictKind.SUPPORTED,
        VerdictKind.SUPPORTED,
        VerdictKind.SUPPORTED,
        VerdictKind.REFUTED,
    ]
    assert neuro[1].reasoning_type == "deductive"
    assert neuro[1].confidence == 0.9  # min along neuron → … → cell, cell has DNA
    assert (neuro[0].subject, neuro[0].object) == ("neuron", "cell")


def test_demo_refutations_disjointness_functional_and_outdated(demo: Brain) -> None:
    v = demo.verify(
        [
            Claim("disjoint", "neuron", "is_a", "glial_cell"),
            Claim("negative", "transistor", "is_a", "cell"),
            Claim("old", "human_brain", "neuron_count", "100000000000"),
            Claim("current", "human_brain", "neuron_count", "86000000000"),
            Claim("override", "erythrocyte", "has_property", "dna"),
        ]
    )
    assert [x.verdict for x in v] == [VerdictKind.REFUTED] * 3 + [VerdictKind.SUPPORTED, VerdictKind.REFUTED]
    assert "ded.disjoint" in {s.rule for s in v[0].proof}
    old_rules = {s.rule: s for s in v[2].proof}
    assert "ded.functional-value" in old_rules
    # The outdated value is shown as such, not silently dropped.
    assert "outdated" in old_rules["ctx.inactive-fact"].note
    assert "human_brain neuron_count 100000000000 neurons is outdated (f_" in v[2].explanation  # with its unit
    assert {c.type for c in v[2].conflicts} & {"stale_evidence", "conflicting_value"}


def test_bad_rows_become_errors_and_the_run_goes_on(penguins: Brain) -> None:
    rows: list[Claim | ClaimError] = [
        ClaimError("x", "line 1: broken JSON"),
        Claim("unreadable", text="blah blah"),
        Claim("unknown", "dodo", "can", "fly"),
        Claim("ok", "sparrow", "is_a", "animal"),
    ]
    v = penguins.verify(rows)
    assert [x.verdict for x in v] == [
        VerdictKind.ERROR,
        VerdictKind.ERROR,
        VerdictKind.NOT_ENOUGH_INFO,
        VerdictKind.SUPPORTED,
    ]
    assert v[0].error == "line 1: broken JSON"
    assert v[1].error is not None
    assert v[1].error.startswith("cannot read 'blah blah' as a claim")
    # An unknown concept is not a bad row: nothing is known about it, and the explanation says so.
    assert "unknown concept 'dodo'" in v[2].explanation


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("Can penguins fly?", ("penguin", "can", "fly")),
        ("Может ли пингвин летать?", ("penguin", "can", "fly")),
        ("Can sparrows fly?", ("sparrow", "can", "fly")),
        ("Является ли воробей животным?", ("sparrow", "is_a", "animal")),
        ("Does a penguin have feathers?", ("penguin", "has_property", "feathers")),
    ],
)
def test_verify_agrees_with_ask(penguins: Brain, question: str, claim: tuple[str, str, str]) -> None:
    answer = penguins.ask(question)
    verdict = penguins.verify([Claim("q", *claim)])[0]
    assert answer.outcome is not None
    assert verdict.verdict.value == answer.outcome.value.upper()
    assert verdict.proof == answer.trace.steps
    # The cognitive loop scores the answer (support minus risk) on top; the reasoner's own confidence for
    # the question is the verdict's.
    assert verdict.confidence == penguins.reasoner.ask(question).confidence


def test_parallel_workers_give_the_same_verdicts(penguins_db: Path) -> None:
    claims = [Claim(f"c{i}", *t) for i, t in enumerate([("sparrow", "can", "fly"), ("penguin", "can", "fly")] * 40)]
    with Brain.open(penguins_db, read_only=True) as b:
        one = b.verify(claims)
        two = b.verify(claims, workers=2, batch_size=8)
    assert one == two
    with Brain.open(None) as memory, pytest.raises(InputError, match="opened read-only"):
        memory.verify(claims, workers=2)


def test_a_worker_that_cannot_open_the_knowledge_base_fails_the_run(tmp_path: Path) -> None:
    # A multiprocessing Pool restarts a worker whose initializer raises, forever; the open must fail the run.
    opener = partial(Brain.open, tmp_path / "missing.kuzu", read_only=True)
    with pytest.raises(StoreError, match="does not exist"):
        list(verify_parallel(opener, [Claim("a", "x", "is_a", "y")], workers=2))


class _RefusesOneClaim:
    """The real reasoner, except that it rejects claims about 'bad' the way a failed validation would."""

    def __init__(self, brain: Brain) -> None:
        self.brain = brain

    def check_many(self, statements: Sequence[Statement]) -> list[Check]:
        if any(s[0] == "bad" for s in statements):
            raise InputError("'bad' is not a claim I can check")
        return self.brain.check_many(statements)

    def check(self, subject: str, predicate: str, object: str, polarity: bool = True) -> Check:
        return self.check_many([(subject, predicate, object, polarity)])[0]

    def conflict_notes(self) -> Sequence[ConflictNote]:
        return self.brain.conflict_notes()

    def close(self) -> None:
        self.brain.close()


def test_a_claim_the_reasoner_rejects_fails_alone_not_its_batch(penguins: Brain) -> None:
    verifier = Verifier(_RefusesOneClaim(penguins))
    v = verifier.verify([Claim("a", "sparrow", "can", "fly"), Claim("b", "bad", "can", "fly", line=7)])
    assert [x.verdict for x in v] == [VerdictKind.SUPPORTED, VerdictKind.ERROR]
    assert v[1].error == "line 7: 'bad' is not a claim I can check"


def test_workers_parse_and_encode_their_own_lines_byte_for_byte(penguins_db: Path, tmp_path: Path) -> None:
    # With several workers the parent only splits the JSONL file: each worker parses its lines and encodes its
    # verdicts. Broken rows, a byte-order mark, bad UTF-8 and a resumed run must still give the same file.
    claims = tmp_path / "claims.jsonl"
    good = [
        {"id": f"g{i}", "subject": s, "predicate": "can", "object": "fly"}
        for i, s in enumerate(["sparrow", "penguin"] * 20)
    ]
    lines = [json.dumps(r, ensure_ascii=False).encode() for r in good]
    lines[0] = b"\xef\xbb\xbf" + lines[0]
    lines[5:5] = [
        b'{"id": "broken", "subject": ',
        b"\xff\xfe not utf-8",
        b"",
        b"[1, 2]",
        '{"text": "пингвин — это птица"}'.encode(),
    ]
    claims.write_bytes(b"\n".join(lines) + b"\n")
    one, two, resumed = tmp_path / "one.jsonl", tmp_path / "two.jsonl", tmp_path / "resumed.jsonl"
    with Brain.open(penguins_db, read_only=True) as b:
        b.verify_file(claims, one)
        summary = b.verify_file(claims, two, workers=2, batch_size=4)
        assert summary.counts == json.loads(json.dumps(summary.counts))
        assert sum(summary.counts.values()) == summary.checked == 44
        resumed.write_bytes(b"".join(one.read_bytes().splitlines(keepends=True)[:9]) + b'{"id": "g7", "verd')
        again = b.verify_file(claims, resumed, workers=2, batch_size=4, resume=True)
    assert two.read_bytes() == one.read_bytes()
    assert resumed.read_bytes() == one.read_bytes()
    assert (again.resumed, again.checked) == (9, 35)
    assert b'"verdict": "ERROR"' in one.read_bytes()


def test_conflict_notes_are_the_conflict_records_a_verdict_reports(penguins: Brain) -> None:
    # Verification reads the records without the truth-maintenance modules; the fields must be theirs.
    records = penguins.conflicts()
    assert records
    assert penguins.conflict_notes() == [
        ConflictNote(r.id, r.type.value, r.status.value, r.strategy.value, tuple(r.fact_ids), r.kept_fact)
        for r in records
    ]
