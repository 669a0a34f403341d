"""Files built to hurt a load: duplicate fields, overlong identifiers, truncated Turtle, gzip bombs. Each is one
clear error naming the file (and the line where there is one), and the knowledge base stays as it was."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.ingest import ntriples
from kgbrain.ingest.cells import MAX_IDENTIFIER_CHARS, MAX_VALUE_CHARS

SUBCLASS = "http://www.w3.org/2000/01/rdf-schema#subClassOf"


@pytest.fixture
def kb(tmp_path: Path) -> Brain:
    brain = Brain.open(tmp_path / "kb.kuzu")
    seed = tmp_path / "seed.jsonl"
    seed.write_text(json.dumps({"subject": "neuron", "predicate": "is_a", "object": "cell"}) + "\n", encoding="utf-8")
    brain.load([seed])
    return brain


def dump(brain: Brain) -> str:
    out = io.StringIO()
    brain.export(out)
    return out.getvalue()


def refused(brain: Brain, path: Path) -> str:
    before = dump(brain)
    with pytest.raises(InputError) as caught:
        brain.load([path])
    assert dump(brain) == before
    return str(caught.value)


def test_a_duplicate_json_field_is_refused(kb: Brain, tmp_path: Path) -> None:
    bad = tmp_path / "dup.jsonl"
    bad.write_text(
        '{"subject": "a", "predicate": "is_a", "object": "b"}\n'
        '{"subject": "a", "predicate": "is_a", "object": "b", "object": "c"}\n',
        encoding="utf-8",
    )
    assert refused(kb, bad) == "dup.jsonl:2: field 'object': the field appears twice in the row"


@pytest.mark.parametrize("field", ["subject", "object", "source"])
def test_an_overlong_identifier_in_jsonl_names_line_and_field(kb: Brain, tmp_path: Path, field: str) -> None:
    row = {"subject": "a", "predicate": "is_a", "object": "b", field: "x" * (MAX_IDENTIFIER_CHARS + 1)}
    bad = tmp_path / "long.jsonl"
    bad.write_text(json.dumps({"subject": "a", "predicate": "is_a", "object": "c"}) + "\n" + json.dumps(row) + "\n")
    message = refused(kb, bad)
    assert message.startswith(f"long.jsonl:2: field '{field}': an identifier of 4,097 characters is too long")


def test_a_value_may_be_longer_than_an_identifier_but_not_unbounded(kb: Brain, tmp_path: Path) -> None:
    ok = tmp_path / "ok.jsonl"
    ok.write_text(
        json.dumps({"subject": "a", "predicate": "comment", "value": "v" * (MAX_IDENTIFIER_CHARS * 2)}) + "\n"
    )
    kb.load([ok])
    assert "v" * (MAX_IDENTIFIER_CHARS * 2) in dump(kb)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"subject": "a", "predicate": "comment", "value": "v" * (MAX_VALUE_CHARS + 1)}) + "\n")
    assert refused(kb, bad).startswith("bad.jsonl:1: field 'value': a value of 100,001 characters is too long")


def test_an_overlong_identifier_in_csv_and_ntriples_names_the_field(kb: Brain, tmp_path: Path) -> None:
    long = "x" * (MAX_IDENTIFIER_CHARS + 10)
    csv = tmp_path / "long.csv"
    csv.write_text(f"subject,predicate,object\na,is_a,b\n{long},is_a,b\n", encoding="utf-8")
    assert refused(kb, csv).startswith("long.csv: fact 2: field 'subject': an identifier of")
    nt = tmp_path / "long.nt"
    nt.write_text(f"<http://x/{long}> <{SUBCLASS}> <http://x/b> .\n", encoding="utf-8")
    assert "long.nt: fact 1: field 'subject': an identifier of" in refused(kb, nt)


@pytest.mark.parametrize(
    "tail",
    ["ex:d ex:e ex:f", 'ex:d ex:e """long', 'ex:d ex:e "x"^^', "@prefix", 'ex:d ex:e "x', "ex:d ex:e [ ex:f ex:g ;"],
)
def test_truncated_turtle_is_one_error_naming_file_and_line(kb: Brain, tmp_path: Path, tail: str) -> None:
    bad = tmp_path / "cut.ttl"
    bad.write_text(f"@prefix ex: <http://x/> .\nex:a ex:b ex:c .\n{tail}", encoding="utf-8")
    message = refused(kb, bad)
    assert message.startswith(("cut.ttl:3: ", "cut.ttl:4: ")), message
    assert "\n" not in message.strip()


def _bomb(path: Path, megabytes: int, *, small_tail: bool = False) -> Path:
    line = f"<http://x/a> <{SUBCLASS}> <http://x/b> .\n".encode()
    with path.open("wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9) as fh:
            chunk = line * (2**20 // len(line))
            for _ in range(megabytes):
                fh.write(chunk)
        if small_tail:  # a second member: the trailer then states only its small size
            raw.write(gzip.compress(line))
    return path


@pytest.mark.parametrize("small_tail", [False, True], ids=["trailer", "streamed"])
def test_a_gzip_bomb_is_refused_naming_the_file(
    kb: Brain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_tail: bool
) -> None:
    monkeypatch.setattr(ntriples, "GZIP_FREE_BYTES", 2**20)
    for suffix in (".nt.gz", ".ttl.gz"):
        bomb = _bomb(tmp_path / f"bomb{suffix}", 8, small_tail=small_tail)
        assert bomb.stat().st_size * ntriples.MAX_GZIP_RATIO < 8 * 2**20
        message = refused(kb, bomb)
        assert message.startswith(f"bomb{suffix}: decompresses to more than ")
        assert "gzip bomb" in message


def test_a_well_compressed_real_file_loads(kb: Brain, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ntriples, "GZIP_FREE_BYTES", 2**10)
    good = tmp_path / "good.nt.gz"
    lines = "".join(f"<http://x/c{i}> <{SUBCLASS}> <http://x/k{i % 7}> .\n" for i in range(2000))
    good.write_bytes(gzip.compress(lines.encode()))
    assert len(lines) < ntriples.MAX_GZIP_RATIO * good.stat().st_size
    [report] = kb.load([good])
    assert report.facts_added == 2000


def test_a_multi_file_load_that_fails_leaves_no_trace_in_the_open_brain(kb: Brain, tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"subject": "glia", "predicate": "is_a", "object": "cell"}) + "\n", encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"subject": "x", "predicate": "is_a", "object": "y", "confidence": 3}) + "\n")
    assert refused(kb, tmp_path / "missing.jsonl") == f"{str(tmp_path / 'missing.jsonl')!r}: no such file"
    before = dump(kb)
    with pytest.raises(InputError, match="confidence"):
        kb.load([good, bad])
    assert dump(kb) == before
    assert kb.check("glia", "is_a", "cell").outcome.value == "unknown"  # the reasoner's view rolled back too
    kb.load([good])
    assert kb.check("glia", "is_a", "cell").outcome.value == "supported"
