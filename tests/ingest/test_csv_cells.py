"""A CSV/TSV cell past the csv module's field limit is named by column, with the cap that column has (issue #22,
blind attacker: a 2 MB `object` cell gave `w.csv:3: broken CSV: field larger than field limit (131072)`, naming
neither the column nor the documented 4,096-character identifier limit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.errors import InvalidRow
from kgbrain.ingest.claims import ClaimError, read_claims
from kgbrain.ingest.csv_cells import cell_lengths

HUGE = 2_000_000


def _load_error(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "kb.kuzu"), "load", str(path)])
    assert result.exit_code == 2, result.output
    return result.output


@pytest.mark.parametrize(
    ("column", "problem"),
    [
        ("object", f"an identifier of {HUGE:,} characters is too long (at most 4,096)"),
        ("subject", f"an identifier of {HUGE:,} characters is too long (at most 4,096)"),
        ("value", f"a value of {HUGE:,} characters is too long (at most 100,000)"),
    ],
)
def test_a_cell_past_the_csv_limit_names_its_column_and_cap(tmp_path: Path, column: str, problem: str) -> None:
    header = ["subject", "predicate", "object"] if column != "value" else ["subject", "predicate", "value"]
    cells = {"subject": "a", "predicate": "likes", "object": "b", "value": "v"} | {column: "x" * HUGE}
    text = ",".join(header) + "\na,likes,b\n" if column != "value" else ",".join(header) + "\na,likes,1\n"
    text += ",".join(cells[h] for h in header) + "\n"
    output = _load_error(tmp_path, "w.csv", text)
    assert f"w.csv:3: field {column!r}: {problem}" in output, output


def test_a_quoted_cell_over_several_lines_is_found(tmp_path: Path) -> None:
    # The overlong cell is quoted, holds delimiters, doubled quotes and line breaks, and comes after another such cell.
    big = '"' + ('x,"" \n' * (HUGE // 6)) + '"'
    text = 'subject\tpredicate\tobject\n"a\tb\n""c"""\tlikes\t' + big.replace(",", "\t") + "\n"
    output = _load_error(tmp_path, "w.tsv", text)
    assert "w.tsv:2: field 'object': an identifier of " in output, output
    assert "(at most 4,096)" in output


def test_a_cell_under_the_csv_limit_but_over_the_cap_says_the_same(tmp_path: Path) -> None:
    output = _load_error(tmp_path, "w.csv", "subject,predicate,object\na,likes," + "x" * 5_000 + "\n")
    assert "field 'object': an identifier of 5,000 characters is too long (at most 4,096)" in output, output


def test_nothing_of_the_file_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text("subject,predicate,object\na,likes,b\n", encoding="utf-8")
    with Brain.open(tmp_path / "kb2.kuzu") as brain:
        brain.load([path])
        bad = tmp_path / "w2.csv"
        bad.write_text("subject,predicate,object\nc,likes,d\na," + "p" * HUGE + ",b\n", encoding="utf-8")
        with pytest.raises(InvalidRow, match=r"w2.csv:3: field 'predicate': an identifier of"):
            brain.load([bad])
        assert brain.stats().facts == 1


def test_a_claims_cell_past_the_csv_limit_names_its_column(tmp_path: Path) -> None:
    path = tmp_path / "claims.csv"
    path.write_text("id,text\nok,A neuron is a cell.\nbig," + "x" * HUGE + "\n", encoding="utf-8")
    rows = list(read_claims(path))
    assert not isinstance(rows[0], ClaimError)
    assert isinstance(rows[1], ClaimError)
    assert rows[1].error == f"line 3: column 'text': a cell of {HUGE:,} characters is too long (at most 131,072)"


@pytest.mark.parametrize(
    ("text", "lengths"),
    [
        ("a,bb,ccc\n", [1, 2, 3]),
        ('"a,b",c\n', [3, 1]),
        ('"say ""hi""",x', [8, 1]),
        ('"line\nbreak",y\r\nnext,row', [10, 1]),
        (",,\n", [0, 0, 0]),
        ('"open', [4]),
    ],
)
def test_cell_lengths_read_the_first_record_as_the_csv_module_does(text: str, lengths: list[int]) -> None:
    import csv
    import io

    assert cell_lengths(text, ",") == lengths
    if not text.startswith('"open'):
        assert [len(c) for c in next(csv.reader(io.StringIO(text, newline="")))] == lengths
