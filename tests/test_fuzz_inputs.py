"""Fuzzing every input the command line reads: whatever the bytes, the contract holds.

The contract: exit 0, or exit 2 with exactly one `Error:` line on stderr (no traceback), and after a failed
load the knowledge base is byte-identical (via `export`) to what it was. Generated facts files (JSONL, CSV,
TSV), ontologies (Turtle, N-Triples, N-Quads, N3, TriG, RDF/XML, JSON-LD: valid seeds mutated), rule files
(generated from the grammar, and a valid seed mutated; a refusal names file:line:column), claims files (JSONL and
CSV) and questions.

The normal suite runs a few examples per format (about a minute in all); KGBRAIN_FUZZ_EXAMPLES=500 (the
bench profile) runs more.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgbrain.api import Brain
from kgbrain.cli import cli
from kgbrain.ingest.tabular import FIELDS
from tests.conftest import write_jsonl

pytestmark = pytest.mark.slow  # kills, fuzzing or LUBM: `-m 'not slow'` for a quick run; CI runs them

EXAMPLES = int(os.environ.get("KGBRAIN_FUZZ_EXAMPLES", "8"))
# The knowledge base is shared by a test's examples on purpose: loads that succeed grow it, as in real use.
fuzz = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

BASE = [
    {"subject": "neuron", "predicate": "is_a", "object": "cell"},
    {"subject": "neuron", "predicate": "label", "value": "нейрон", "lang": "ru"},
    {"subject": "cell", "predicate": "mass", "value": 3, "unit": "ng"},
]


@pytest.fixture(scope="module")
def template_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    db = root / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(root / "base.jsonl", BASE)])
    return db


@pytest.fixture
def kb(template_kb: Path, tmp_path: Path) -> Path:
    db = tmp_path / "kb.kuzu"
    shutil.copy(template_kb, db)
    return db


def export_of(db: Path) -> str:
    out = io.StringIO()
    with Brain.open(db, read_only=True) as brain:
        brain.export(out)
    return out.getvalue()


def holds_contract(db: Path, *args: str) -> tuple[int, str]:
    """Run the command; assert exit 0, or 2 with one `Error:` line. Returns (code, stdout)."""
    result = CliRunner().invoke(cli, ["--db", str(db), *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{args}: raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout


def load_holds_contract(db: Path, path: Path, *extra: str) -> None:
    before = export_of(db)
    code, _ = holds_contract(db, "load", str(path), *extra)
    if code != 0:
        assert export_of(db) == before, "a failed load changed the knowledge base"


# -- values and rows ---------------------------------------------------------------------------------------

texts = st.one_of(
    st.text(max_size=20),
    st.sampled_from(["neuron", "cell", "нейрон", "is_a", "label", " ", "", "\ud800", "x\udfffy", "\x00", "é" * 3]),
)
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 1, 0, -1]),
    st.sampled_from([999, 1001, 1200]).map(lambda digits: -(10**digits)),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3))
field_names = st.one_of(st.sampled_from(sorted(FIELDS)), st.text(max_size=8))
good_row = st.fixed_dictionaries(
    {
        "subject": st.sampled_from(["neuron", "cell", "glia", "нейрон"]),
        "predicate": st.sampled_from(["is_a", "part_of", "mass", "label"]),
    },
    optional={
        "object": st.sampled_from(["cell", "thing", "нейрон"]),
        "value": scalars,
        "datatype": st.sampled_from(["integer", "decimal", "boolean", "string", "date", ""]),
        "confidence": numbers,
        "trust": numbers,
        "polarity": scalars,
        "lang": texts,
        "status": texts,
        "authority": texts,
        "observed_at": texts,
    },
)
rows = st.one_of(good_row, st.dictionaries(field_names, values, max_size=6))


def _json_line(row: Any) -> str:
    return json.dumps(row, ensure_ascii=True, allow_nan=True)


jsonl_lines = st.one_of(
    rows.map(_json_line),
    values.map(_json_line),
    st.text(max_size=40),
    st.integers(min_value=1, max_value=200_000).map(lambda n: '{"subject": ' + "[" * n),
    st.integers(min_value=900, max_value=6000).map(
        lambda n: '{"subject": "a", "predicate": "mass", "value": ' + "9" * n + "}"
    ),
)


@fuzz
@given(lines=st.lists(jsonl_lines, max_size=6), raw=st.one_of(st.none(), st.binary(max_size=60)))
def test_jsonl_facts(kb: Path, tmp_path: Path, lines: list[str], raw: bytes | None) -> None:
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + (b"\n" + raw if raw is not None else b"")
    path = tmp_path / "facts.jsonl"
    path.write_bytes(data)
    load_holds_contract(kb, path)


@fuzz
@given(
    header=st.lists(field_names, min_size=0, max_size=6),
    cells=st.lists(st.lists(st.one_of(texts, numbers.map(str)), max_size=7), max_size=6),
    delimiter=st.sampled_from([",", "\t"]),
)
def test_csv_and_tsv_facts(kb: Path, tmp_path: Path, header: list[str], cells: list[list[str]], delimiter: str) -> None:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter)
    for row in [header, *cells]:
        writer.writerow(row)
    path = tmp_path / ("facts.csv" if delimiter == "," else "facts.tsv")
    path.write_bytes(out.getvalue().encode("utf-8", "surrogatepass"))
    load_holds_contract(kb, path)


# -- ontologies: valid seeds, mutated ------------------------------------------------------------------------

SEEDS = {
    "ttl": """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
ex:Neuron a owl:Class ; rdfs:subClassOf ex:Cell ; rdfs:label "Neuron"@en, "нейрон"@ru .
ex:Cell a owl:Class ; ex:mass "3"^^<http://www.w3.org/2001/XMLSchema#integer> .
""",
    "nt": """<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/Cell> .
<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#label> "Neuron"@en .
<http://example.org/Cell> <http://example.org/mass> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .
""",
    "rdf": """<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [ <!ENTITY ex "http://example.org/"> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">
 <rdf:Description rdf:about="&ex;Neuron"><rdfs:subClassOf rdf:resource="&ex;Cell"/>
  <rdfs:label xml:lang="en">Neuron</rdfs:label></rdf:Description>
</rdf:RDF>
""",
    "nq": "<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/Cell> "
    "<http://example.org/g> .\n"
    '<http://example.org/Neuron> <http://www.w3.org/2000/01/rdf-schema#label> "Neuron"@en <http://example.org/g> .\n',
    "n3": """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Neuron rdfs:subClassOf ex:Cell ; rdfs:label "Neuron"@en .
{ ?x a ex:Neuron } => { ?x a ex:Cell } .
""",
    "trig": """@prefix ex: <http://example.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:g { ex:Neuron rdfs:subClassOf ex:Cell ; rdfs:label "Neuron"@en . }
""",
    "jsonld": json.dumps(
        {
            "@context": {"rdfs": "http://www.w3.org/2000/01/rdf-schema#", "ex": "http://example.org/"},
            "@id": "ex:Neuron",
            "rdfs:subClassOf": {"@id": "ex:Cell"},
            "rdfs:label": {"@value": "Neuron", "@language": "en"},
        }
    ),
}
PIECES = [
    "<",
    ">",
    '"',
    "@",
    ".",
    ";",
    "{",
    "}",
    "[",
    "]",
    "&",
    "&ex;",
    "\\u",
    "\\uD800",
    "^^",
    "<!ENTITY a '&a;&a;'>",
    '"@context": "http://example.org/ctx"',
    "\x00",
    "\ufeff",
    "é",
    "\n",
    "",
]


@st.composite
def mutated(draw: st.DrawFn, seed: str) -> bytes:
    text = seed
    for _ in range(draw(st.integers(min_value=0, max_value=4))):
        at = draw(st.integers(min_value=0, max_value=len(text)))
        cut = draw(st.integers(min_value=0, max_value=8))
        piece = draw(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)))
        text = text[:at] + piece + text[at + cut :]
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("suffix", sorted(SEEDS))
def test_ontologies(kb: Path, tmp_path: Path, suffix: str) -> None:
    @fuzz
    @given(data=mutated(SEEDS[suffix]))
    def check(data: bytes) -> None:
        path = tmp_path / f"onto.{suffix}"
        path.write_bytes(data)
        load_holds_contract(kb, path)

    check()


# -- claims and questions ----------------------------------------------------------------------------------

claim_rows = st.one_of(
    st.fixed_dictionaries(
        {"id": texts, "subject": texts, "predicate": texts, "object": texts}, optional={"polarity": scalars}
    ),
    st.fixed_dictionaries({"id": texts, "text": st.text(max_size=80)}),
    st.dictionaries(field_names, values, max_size=5),
)


def _csv_claims(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    header = sorted({key for row in rows for key in row})
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([row.get(key, "") for key in header])
    return out.getvalue()


claims_files = st.one_of(
    st.lists(st.one_of(claim_rows.map(_json_line), st.text(max_size=30)), max_size=5).map(
        lambda lines: ("claims.jsonl", "\n".join(lines))
    ),
    st.lists(claim_rows, max_size=5).map(lambda rows: ("claims.csv", _csv_claims(rows))),
)


@fuzz
@given(claims=claims_files)
def test_claims(kb: Path, tmp_path: Path, claims: tuple[str, str]) -> None:
    name, text = claims
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    before = export_of(kb)
    holds_contract(kb, "verify", str(path), "-o", str(tmp_path / "verdicts.jsonl"))
    assert export_of(kb) == before  # verifying never writes


@fuzz
@given(question=st.one_of(st.text(max_size=200), st.text(min_size=990, max_size=1100)))
def test_questions(kb: Path, question: str) -> None:
    holds_contract(kb, "ask", question)


# -- rule files ----------------------------------------------------------------------------------------------

RULE_SEED = """% ancestors, defeasible flying
[t] bird(tweety).
[gp]   grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
[fly]  flies(X) :~ bird(X), not abnormal(X).
[nfly] ~flies(X) :~ penguin(X).
[hurt] ~flies(X) ~> injured(X).
[adult] adult(X) :- age(X, A), A >= 18, X != bob.
nfly > fly.
@authority NORM
[r6] @authority GUIDANCE safe(X) :- checked(X, "ok").
"""
rule_terms = st.sampled_from(
    ["X", "Y", "Z", "A", "_", "tweety", "neuron", "'Нейрон'", '"ok"', "3", "-2.5", "true", "a:B"]
)
rule_predicates = st.sampled_from(["parent", "is_a", "mass", "bird", "flies", "anc", "p", "Bad", "p-q", "label"])
rule_atoms = st.builds(
    lambda neg, p, args: f"{'~' if neg else ''}{p}({', '.join(args)})",
    st.booleans(),
    rule_predicates,
    st.lists(rule_terms, max_size=3),
)
rule_literals = st.one_of(
    rule_atoms,
    rule_atoms.map(lambda a: "not " + a),
    st.builds(
        lambda a, op, b: f"{a} {op} {b}",
        rule_terms,
        st.sampled_from(["<", "<=", ">", ">=", "=", "!=", "=="]),
        rule_terms,
    ),
)
rule_lines = st.one_of(
    st.builds(
        lambda rid, head, arrow, body: f"{rid}{head} {arrow} {', '.join(body)}.",
        st.sampled_from(["", "[r1] ", "[r2] ", "[gp] ", "[x y] ", "[] "]),
        rule_atoms,
        st.sampled_from([":-", ":~", "~>", "<-"]),
        st.lists(rule_literals, max_size=3),
    ),
    st.builds(lambda rid, head: f"{rid}{head}.", st.sampled_from(["", "[t] ", "[r1] "]), rule_atoms),  # body-less
    st.builds(lambda a, b: f"{a} > {b}.", st.sampled_from(["r1", "r2", "gp", "nope"]), st.sampled_from(["r1", "r2"])),
    st.sampled_from(["@authority NORM", "@authority NOPE", "% comment", "// comment", "", "[r1]", "p(X) :- ."]),
    st.text(max_size=20),
)


def rules_load_holds_contract(db: Path, path: Path) -> None:
    """A rule file loads (exit 0), or is refused with one `Error:` naming file:line:column, the KB unchanged."""
    before = export_of(db)
    result = CliRunner().invoke(cli, ["--db", str(db), "load", str(path)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert len(lines) == 1, result.stderr
        assert re.match(rf"Error: .*{re.escape(path.name)}'?:\d+:\d+: ", lines[0]), lines[0]
        assert export_of(db) == before, "a refused rule file changed the knowledge base"


@fuzz
@given(lines=st.lists(rule_lines, max_size=6))
def test_rule_files(kb: Path, tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "rules.dl"
    path.write_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))
    rules_load_holds_contract(kb, path)


@fuzz
@given(data=mutated(RULE_SEED))
def test_rule_files_mutated(kb: Path, tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "mutated.dl"
    path.write_bytes(data)
    rules_load_holds_contract(kb, path)
