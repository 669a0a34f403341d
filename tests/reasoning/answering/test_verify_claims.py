"""Reading claims: the claims file contract (JSONL/CSV/TSV, row errors) and claim sentences in RU and EN."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgbrain.errors import InputError
from kgbrain.ingest.claims import Claim, ClaimError, checked_claim, claim_from_row, count_claims, read_claims
from kgbrain.reasoning.answering.verify import claim_statement
from kgbrain.reasoning.nlu.sentences import parse_claim_sentence

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "claims"


def test_jsonl_rows_become_claims_or_row_errors_in_order() -> None:
    rows = list(read_claims(FIXTURES / "mixed.jsonl"))
    assert [r.id for r in rows] == ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "line-8", "line-9", "8"]
    assert rows[0] == Claim("c1", "neuron", "has_property", "DNA", True, line=1)
    assert rows[1] == Claim("c2", text="Нейрон — это клетка", line=2)
    assert isinstance(rows[4], ClaimError)
    assert rows[4].error.startswith("line 5: broken JSON")
    assert isinstance(rows[5], ClaimError)
    assert rows[5].error == "line 6: field 'predicate': 'Is A' is not a snake_case predicate name"
    assert isinstance(rows[6], Claim)  # an unreadable sentence is the verifier's business, not the reader's
    assert isinstance(rows[7], ClaimError)
    assert rows[7].error == "line 8: field 'polarity': 'maybe' is not true or false"
    assert rows[8] == ClaimError("line-9", "line 9: expected a JSON object", 9)
    assert rows[9] == Claim("8", "neuron", "is_a", "cell", False, line=10)
    assert count_claims(FIXTURES / "mixed.jsonl") == len(rows)


def test_csv_rows_with_a_short_row() -> None:
    rows = list(read_claims(FIXTURES / "mixed.csv"))
    assert [r.id for r in rows] == ["c1", "c2", "line-4", "c4"]
    assert rows[1] == Claim("c2", text="Нейрон — это клетка", line=3)
    assert rows[2] == ClaimError("line-4", "line 4: expected 6 cells, found 3", 4)
    assert rows[3] == Claim("c4", "neuron", "is_a", "cell", False, line=5)


def test_a_byte_order_mark_and_crlf_line_ends_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"id": "a", "text": "Neurons contain DNA"}\r\n{"id": "b", "text": "x is a y"}\r\n')
    assert [r.id for r in read_claims(path) if isinstance(r, Claim)] == ["a", "b"]


def test_tsv_ignores_unknown_columns_such_as_a_gold_label() -> None:
    assert list(read_claims(FIXTURES / "simple.tsv")) == [Claim("t1", "neuron", "is_a", "cell", line=2)]


def test_whole_file_problems_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"unknown claims format '\.txt'"):
        list(read_claims(tmp_path / "claims.txt"))
    with pytest.raises(InputError, match="no such file"):
        list(read_claims(tmp_path / "missing.jsonl"))
    bad = tmp_path / "bad.csv"
    bad.write_text("who,what\nx,y\n", encoding="utf-8")
    with pytest.raises(InputError, match="the header needs a 'text' column"):
        list(read_claims(bad))


@pytest.mark.parametrize(
    ("row", "error"),
    [
        ({"id": "x", "subject": "a", "predicate": "is_a"}, "line 3: field 'object': missing"),
        ({"id": "x", "subject": "a", "predicate": "is_a", "object": 5}, "line 3: field 'object': expected text, got 5"),
        ({"id": "x", "text": "a is b", "subject": "a"}, "line 3: field 'subject': give either 'text' or"),
        ({"id": "x"}, "line 3: a claim needs 'text' or"),
        ({"id": ["x"], "text": "a is b"}, "line 3: field 'id': expected text or a number"),
        ({"id": "x", "subject": "a", "predicate": "p", "object": "b", "value": 3}, "line 3: field 'object': give only"),
    ],
)
def test_bad_rows(row: dict[str, object], error: str) -> None:
    result = claim_from_row(row, 3)
    assert isinstance(result, ClaimError)
    assert result.error.startswith(error)


def test_value_claims_carry_the_value_as_text() -> None:
    row = {"id": "v", "subject": "human_brain", "predicate": "neuron_count", "value": 86000000000}
    assert claim_from_row(row) == Claim("v", "human_brain", "neuron_count", "86000000000")
    row = {"id": "v", "subject": "axon", "predicate": "conduction_speed", "value": 120, "unit": "m/s"}
    assert claim_from_row(row) == Claim("v", "axon", "conduction_speed", "120 m/s")


@pytest.mark.parametrize(
    ("sentence", "triple"),
    [
        ("Нейрон — это клетка", ("Нейрон", "is_a", "клетка", True)),
        ("Нейрон - не клетка", ("Нейрон", "is_a", "клетка", False)),
        ("Нейрон является клеткой.", ("Нейрон", "is_a", "клеткой", True)),
        ("Аксон является частью нейрона", ("Аксон", "part_of", "нейрона", True)),
        ("Аксон — часть нейрона", ("Аксон", "part_of", "нейрона", True)),
        ("Пингвины умеют летать", ("Пингвины", "can", "летать", True)),
        ("Пингвины не умеют летать", ("Пингвины", "can", "летать", False)),
        ("Нейроны содержат ДНК", ("Нейроны", "contains", "ДНК", True)),
        ("У эритроцита нет ДНК", ("эритроцита", "has_property", "ДНК", False)),
        ("Демиелинизация вызывает рассеянный склероз", ("Демиелинизация", "causes", "рассеянный склероз", True)),
        ("Neurons contain DNA", ("Neurons", "contains", "DNA", True)),
        ("A neuron is a cell", ("neuron", "is_a", "cell", True)),
        ("Neurons aren't cells", ("Neurons", "is_a", "cells", False)),
        ("The axon is part of the neuron", ("axon", "part_of", "neuron", True)),
        ("Penguins can fly", ("Penguins", "can", "fly", True)),
        ("Penguins cannot fly!", ("Penguins", "can", "fly", False)),
        ("Penguins are able to fly", ("Penguins", "can", "fly", True)),
        ("Erythrocytes don't have DNA", ("Erythrocytes", "has_property", "DNA", False)),
        ("Smoking does not cause cancer", ("Smoking", "causes", "cancer", False)),
        ("Multiple sclerosis leads to demyelination", ("Multiple sclerosis", "leads_to", "demyelination", True)),
        ("Myelin enables fast signal conduction", ("Myelin", "enables", "fast signal conduction", True)),
        ("Henry Molaison is an instance of human", ("Henry Molaison", "instance_of", "human", True)),
    ],
)
def test_sentences_in_both_languages(sentence: str, triple: tuple[str, str, str, bool]) -> None:
    parsed = parse_claim_sentence(sentence)
    assert parsed is not None
    assert (parsed.subject, parsed.predicate, parsed.object, parsed.polarity) == triple


@pytest.mark.parametrize("sentence", ["blah", "Нейрон", "is a cell", "— это клетка"])
def test_sentences_no_template_reads(sentence: str) -> None:
    assert parse_claim_sentence(sentence) is None


def test_row_polarity_combines_with_the_sentence_negation() -> None:
    assert claim_statement(Claim("a", text="Penguins cannot fly")) == ("Penguins", "can", "fly", False)
    assert claim_statement(Claim("a", text="Penguins cannot fly", polarity=False)) == ("Penguins", "can", "fly", True)
    message = claim_statement(Claim("a", text="blah", line=7))
    assert isinstance(message, str)
    assert message.startswith("line 7: cannot read 'blah' as a claim")


_cells = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "neuron", " cell ", "is_a", "has_property", "Not A Predicate", "x1", "true", "en"]),
    st.text(max_size=6),
    st.integers(-2, 2),
    st.booleans(),
    st.lists(st.text(max_size=2), max_size=1),
)
_rows = st.dictionaries(
    st.sampled_from(["id", "subject", "predicate", "object", "value", "unit", "polarity", "text", "lang", "kind"]),
    _cells,
    max_size=9,
)


@given(_rows, st.integers(0, 9))
def test_the_usual_row_shortcut_reads_every_row_as_the_field_checks_do(row: dict[str, object], line: int) -> None:
    assert claim_from_row(row, line) == checked_claim(row, line)


@given(
    st.sampled_from(["q1", " q1 ", ""]),
    st.sampled_from(["c1", " c 2 ", "", " "]),
    st.sampled_from(["is_a", " has_property", "Is A", ""]),
    st.sampled_from(["c3", "x ", ""]),
)
def test_the_shortcut_on_rows_it_takes(ident: str, s: str, p: str, o: str) -> None:
    row = {"id": ident, "subject": s, "predicate": p, "object": o, "kind": "isa_true"}
    assert claim_from_row(row, 3) == checked_claim(row, 3)


@pytest.mark.parametrize(
    "row",
    [
        '{"id": "c2", "text": "' + "Neurons have DNA " * 61681 + '"}',  # a 1 MB text (blind attack B25)
        '{"id": "c2", "subject": "\\ud800", "predicate": "is_a", "object": "cell"}',  # a lone surrogate
        '{"id": "c2", "subject": "a", "subject": "b", "predicate": "is_a", "object": "cell"}',  # a field twice
        '{"id": "c2", "subject": "a", "predicate": "is_a", "object": "cell", "confidence": 1' + "0" * 5000 + "}",
    ],
)
def test_a_row_refused_after_parsing_keeps_its_own_id(tmp_path: Path, row: str) -> None:
    path = tmp_path / "claims.jsonl"
    path.write_text('{"id": "c1", "text": "Neurons are cells"}\n' + row + "\n", encoding="utf-8")
    rows = list(read_claims(path))
    assert isinstance(rows[1], ClaimError)
    assert rows[1].id == "c2", rows[1]
    assert len(rows[1].error) < 2_000
