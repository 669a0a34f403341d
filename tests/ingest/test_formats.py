"""The format registry (ingest/formats.py): every suffix and name selects one format, the CLI offers what it
lists, the messages for unknown formats name what it holds, and looking a format up imports no reader."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from kgbrain.cli import cli
from kgbrain.errors import InputError, InvalidRow
from kgbrain.ingest import formats
from kgbrain.ingest.formats import FORMATS, Kind, claims_format, facts_format, load_format, of_file, ontology_format


def test_every_suffix_and_every_name_selects_one_format() -> None:
    endings = [e for f in FORMATS for e in f.endings]
    assert len(endings) == len(set(endings))
    assert all(e == e.lower() and e.startswith(".") for e in endings)
    spellings = [s for f in FORMATS for s in f.spellings]
    assert len(spellings) == len(set(spellings))
    for f in FORMATS:
        for ending in f.endings:
            assert of_file(Path(f"data{ending.upper()}")) is f
            assert load_format(Path(f"x/data.v2{ending}")) is f
        for spelling in f.spellings:
            assert formats.named(spelling) is f
            assert load_format(Path("data.xyz"), spelling) is f


def test_each_kind_has_its_reader_and_the_readers_take_what_load_passes() -> None:
    for f in FORMATS:
        module, _, function = f.reader.partition(":")
        assert module.startswith("kgbrain.ingest.")
        assert function
        assert callable(f.read())
        assert (f.parser is not None) == (f.kind is Kind.ONTOLOGY)
        assert f.delimiter is None or f.kind is Kind.FACTS
    assert {f.kind for f in FORMATS} == set(Kind)


def test_compressed_names_and_case() -> None:
    assert of_file(Path("lubm.nt.gz")) is formats.named("nt")
    assert of_file(Path("ONTO.TTL.GZ")) is formats.named("ttl")
    assert of_file(Path("facts.jsonl.gz")) is None  # facts tables are not read compressed
    assert of_file(Path("rules.dl.gz")) is None
    assert of_file(Path("archive.gz")) is None
    assert of_file(Path("README")) is None
    assert formats.named("TURTLE") is formats.named("ttl")  # RDF names in any case, as rdflib takes them
    assert formats.named("JSONL") is None  # the others only as written
    assert load_format(Path("x.ttl"), ".dl").kind is Kind.RULES


def test_the_cli_offers_what_the_registry_lists() -> None:
    verify = cli.commands["verify"]
    [fmt] = [p for p in verify.params if p.name == "fmt"]
    assert isinstance(fmt.type, click.Choice)
    assert list(fmt.type.choices) == [f.name for f in FORMATS if f.claims] == ["jsonl", "csv", "tsv"]
    [load_fmt] = [p for p in cli.commands["load"].params if p.name == "fmt"]
    assert isinstance(load_fmt, click.Option)
    assert load_fmt.help is not None
    assert load_fmt.help.endswith("(jsonl, csv, tsv, ttl, nt, xml, json-ld, n3, trig, nq).")
    assert formats.load_names() == [f.name for f in FORMATS if f.listed]


def test_unknown_suffix_and_unknown_name_messages() -> None:
    with pytest.raises(InputError) as exc:
        load_format(Path("dir/data.xyz"))
    assert str(exc.value) == (
        "'data.xyz': unknown file format; use an extension (.csv, .json, .jsonl, .jsonld, .n3, .nq, .nt, .owl, "
        ".rdf, .trig, .tsv, .ttl, .xml, optionally .gz) or --format"
    )
    with pytest.raises(InputError) as exc:
        load_format(Path("data.ttl"), "yaml")
    assert str(exc.value) == (
        "unknown format 'yaml'; use one of jsonl, csv, tsv, json-ld, jsonld, n-triples, n3, nq, nquads, nt, "
        "ntriples, owl, rdf, rdf/xml, rdfxml, trig, ttl, turtle, xml"
    )
    with pytest.raises(InputError, match=r"^unknown format 'jsonl'; use one of jsonl, csv"):
        ontology_format(Path("data.ttl"), "jsonl")
    with pytest.raises(InputError, match=r"^'data.jsonl': unknown file format"):
        ontology_format(Path("data.jsonl"))
    with pytest.raises(InvalidRow) as row:
        facts_format(Path("onto.ttl"))
    assert str(row.value) == "onto.ttl:0: unknown facts format '.ttl'; use .jsonl, .csv or .tsv"
    with pytest.raises(InputError) as exc:
        claims_format(Path("claims.txt"))
    assert str(exc.value) == "'claims.txt': unknown claims format '.txt'; use .jsonl, .csv or .tsv"
    assert claims_format(Path("c.ndjson")).name == "jsonl"
    assert claims_format(Path("c.txt"), "tsv").delimiter == "\t"


def test_looking_formats_up_imports_no_reader() -> None:
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from kgbrain.ingest import formats\n"
        "formats.load_format(Path('x.nt.gz')); formats.claims_format(Path('c.csv'))\n"
        "print(sorted(m for m in sys.modules if m.startswith(('rdflib', 'pyarrow', 'kgbrain.ingest.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['kgbrain.ingest.formats']"
