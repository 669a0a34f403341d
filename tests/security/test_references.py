"""External references in an input file are read only from the allow-list: a bundled context, or (for a CLI
load) a file inside the input's own folder. Never the network, never another file of the machine, and over
HTTP/MCP no server file at all (an upload sits alone in its request folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import OntologyError
from tests.test_clean_errors import export_of, kb, one_error, run  # noqa: F401  (kb is a fixture)

SECRET = {"@context": {"leak": "http://x/leak"}, "leak": "TOP-SECRET-VALUE"}


def _doc(ref: str) -> str:
    return json.dumps({"@context": ref, "@id": "http://x/a", "http://x/p": "v"})


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A JSON context file outside the folder the input lies in."""
    path = tmp_path / "secret.jsonld"
    path.write_text(json.dumps(SECRET), encoding="utf-8")
    return path


def _refs(outside: Path) -> list[str]:
    return [
        "/etc/passwd",
        "file:///etc/passwd",
        "file:/etc/passwd",
        "/etc/shadow",
        str(outside),
        "file://" + str(outside),
        "../secret.jsonld",
        "sub/../../secret.jsonld",
        "link.jsonld",  # a symlink beside the input that points out of its folder
    ]


@pytest.mark.parametrize("which", range(9))
def test_a_context_outside_the_inputs_folder_is_refused(
    kb: Path,  # noqa: F811
    tmp_path: Path,
    outside: Path,
    which: int,
) -> None:
    folder = tmp_path / "input"
    (folder / "sub").mkdir(parents=True)
    (folder / "link.jsonld").symlink_to(outside)
    ref = _refs(outside)[which]
    path = folder / "doc.jsonld"
    path.write_text(_doc(ref), encoding="utf-8")
    before = export_of(kb)
    code, out, err = run(kb, "load", str(path))
    assert code == 2, out
    line = one_error(err)
    assert "is not a file in the input's folder" in line
    assert "TOP-SECRET" not in err + out
    assert "root:" not in err + out
    assert export_of(kb) == before


def test_a_context_beside_the_input_and_in_a_subfolder_is_read(kb: Path, tmp_path: Path) -> None:  # noqa: F811
    (tmp_path / "ctx").mkdir()
    (tmp_path / "ctx" / "c.jsonld").write_text(json.dumps({"@context": {"p": "http://x/p"}}), encoding="utf-8")
    path = tmp_path / "doc.jsonld"
    path.write_text(json.dumps({"@context": "ctx/c.jsonld", "@id": "http://x/a", "p": "v"}), encoding="utf-8")
    code, out, err = run(kb, "load", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)[0]["rows_read"] >= 1


def test_an_upload_reads_no_server_file(tmp_path: Path, outside: Path) -> None:
    """Over the service an upload's folder holds the upload alone: even a file in the server's working folder
    (or the upload naming itself) is no context."""
    import asyncio

    from kgbrain.service.core import Service

    (tmp_path / "ctx.jsonld").write_text(json.dumps(SECRET), encoding="utf-8")
    service = Service(tmp_path / "kb.kuzu")
    try:
        for ref in ("ctx.jsonld", str(outside), "file://" + str(outside), "../ctx.jsonld", "doc.jsonld"):
            cwd = Path.cwd()
            os.chdir(tmp_path)
            try:
                with pytest.raises(OntologyError) as raised:
                    asyncio.run(service.load_text(_doc(ref), name="doc.jsonld"))
            finally:
                os.chdir(cwd)
            assert "TOP-SECRET" not in str(raised.value)
    finally:
        service.close()


def test_bundled_contexts_resolve_without_the_network(tmp_path: Path) -> None:
    from kgbrain.ingest.rdf_guards import BUNDLED_CONTEXTS

    assert BUNDLED_CONTEXTS, "at least one bundled context"
    iri = next(iter(BUNDLED_CONTEXTS))
    path = tmp_path / "doc.jsonld"
    path.write_text(json.dumps({"@context": iri, "@id": "http://x/a", "http://x/p": "v"}), encoding="utf-8")
    with Brain.open(tmp_path / "kb.kuzu") as brain:
        [report] = brain.load([path])
    assert report.rows_read >= 1


def test_a_value_nested_100000_deep_in_jsonl_is_a_clean_error(tmp_path: Path) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "deep.jsonl"
    path.write_text('{"subject": "a", "predicate": "mass", "value": ' + deep + "}\n", encoding="utf-8")
    db = tmp_path / "kb.kuzu"
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(db), "load", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    assert done.stderr.strip().splitlines() == ["Error: deep.jsonl:1: JSON nested deeper than 8 levels"]


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("r.dl", "a(X) :- b(X),,\n"),  # the rule parser named the whole path of the upload
        ("doc.jsonld", _doc("../ctx.jsonld")),
        ("f.ttl", "@prefix ex: <http://x/> . ex:a ex:p"),
        ("f.jsonl", '{"subject": 1}\n'),
    ],
)
def test_an_upload_error_names_the_upload_never_the_servers_folder(tmp_path: Path, name: str, content: str) -> None:
    import asyncio
    import tempfile

    from kgbrain.errors import InputError
    from kgbrain.service.core import Service

    service = Service(tmp_path / "kb.kuzu")
    try:
        with pytest.raises(InputError) as raised:
            asyncio.run(service.load_text(content, name=name))
    finally:
        service.close()
    message = str(raised.value)
    assert name in message, message
    assert tempfile.gettempdir() not in message, message
    assert "kgbrain-upload-" not in message, message


def test_a_rules_error_in_check_answer_names_no_server_folder(tmp_path: Path) -> None:
    import asyncio
    import tempfile

    from kgbrain.errors import InputError
    from kgbrain.service.core import Service

    service = Service(tmp_path / "kb.kuzu")
    try:
        with pytest.raises(InputError) as raised:
            asyncio.run(service.check_answer("Neurons are cells.", rules="[[rule]\nid = 1\n"))
    finally:
        service.close()
    message = str(raised.value)
    assert "rules" in message, message
    assert tempfile.gettempdir() not in message, message
    assert "kgbrain-rules-" not in message, message
