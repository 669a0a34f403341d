"""The fuzz contract on the write routes and the MCP write tools (issue #22): any bytes, any JSON, any fields, any
uploaded file under any name give a result or a short JSON error; a refused write leaves the facts as they were;
every request ends well within the budget and the server still answers /healthz and reads afterwards.

The writes go to a knowledge base of their own (they change it), through the one Service the HTTP app and the
MCP server share, as `kgbrain serve` and `kgbrain mcp` would.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from kgbrain.service.core import Service
from kgbrain.service.http import SPECS
from kgbrain.service.mcp_tools import TOOLS, build
from kgbrain.service.replies import MAX_ERROR_CHARS
from tests.security.conftest import client, small_kb
from tests.security.test_fuzz_service import JSON

BUDGET_S = 30.0  # far beyond any of these requests; a hang or a runaway write fails here, not at the CI timeout
WRITES = [spec for spec in SPECS if spec.writes]
NAMES = st.sampled_from(["neuron", "cell", "thing", "zork", "нейрон"]) | st.text(max_size=20)
PREDICATES = st.sampled_from(["is_a", "has_part", "part_of", "label", "alias", "disjoint_with", "same_as"])
VALID_ROW = st.fixed_dictionaries(
    {"subject": NAMES, "predicate": PREDICATES, "object": NAMES},
    optional={"polarity": st.booleans(), "confidence": st.floats(0, 1), "source": NAMES},
)
ROW = VALID_ROW | st.fixed_dictionaries(
    {"subject": NAMES, "predicate": PREDICATES | st.text(max_size=12)},
    optional={
        "object": NAMES,
        "value": JSON,
        "unit": st.text(max_size=5),
        "polarity": JSON,
        "confidence": JSON,
        "lang": st.text(max_size=4),
        "observed_at": st.text(max_size=12),
        "valid_from": st.text(max_size=12),
    },
)
FACTS_BODY = st.fixed_dictionaries(
    {"facts": st.lists(ROW, min_size=1, max_size=4) | st.lists(ROW | JSON, max_size=4)},
    optional={"source": NAMES | JSON, "trust": st.floats(0, 1) | JSON, "extra": JSON},
)
# Files as an upload may hold them: well-formed and broken rows of every format, and raw bytes.
FILE_BODY = st.one_of(
    st.lists(ROW, min_size=1, max_size=4).map(lambda rows: "".join(json.dumps(r) + "\n" for r in rows).encode()),
    st.sampled_from(
        [
            b"subject,predicate,object\nneuron,is_a,cell\n",
            b"subject\tpredicate\tobject\nzork\tis_a\tneuron\n",
            b"<http://x/a> <http://x/p> <http://x/b> .\n",
            b'@prefix ex: <http://x/> . ex:a a ex:B ; ex:p "v"@en .',
            b'{"@context": "/etc/passwd", "@id": "http://x/a", "http://x/p": "v"}',
            b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><r>&e;</r>',
            b'{"subject": "a", "predicate": "is_a", "value": ' + b"[" * 5000 + b"]" * 5000 + b"}\n",
            b"\xff\xfe\x00 not text",
        ]
    ),
    st.binary(max_size=300),
)
FILE_NAMES = st.sampled_from(["f.jsonl", "f.csv", "f.tsv", "f.nt", "f.ttl", "f.jsonld", "f.owl", "f.dl", "f"]) | (
    st.text(max_size=40)
)


@pytest.fixture(scope="module")
def writable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    service = Service(small_kb(tmp_path_factory.mktemp("fuzz-writes")))
    yield service
    service.close()


_APPS: dict[int, TestClient] = {}


def _app(service: Service) -> TestClient:
    if id(service) not in _APPS:
        app = client(service)
        app.__dict__["raise_server_exceptions"] = False  # as a real server: answer, never raise
        _APPS[id(service)] = app
    return _APPS[id(service)]


def _facts(app: TestClient) -> int:
    return int(app.get("/v1/stats").json()["facts"])


def _fact_ids(app: TestClient) -> list[str]:
    return [f["fact_id"] for f in app.get("/v1/facts", params={"concept": "neuron"}).json()["facts"]]


def _check_error(r: Any) -> None:
    assert r.status_code < 500 or r.status_code == 503, (r.status_code, r.text[:300])
    if r.status_code >= 400:
        assert r.headers["content-type"].startswith("application/json"), r.text[:200]
        assert set(r.json()) == {"error"}
        assert len(r.json()["error"]) <= MAX_ERROR_CHARS + 60
        assert "kgbrain-upload-" not in r.json()["error"]  # an upload is named by its name, not the server's folder


def _after(app: TestClient, before: int, r: Any, took: float) -> None:
    _check_error(r)
    assert took < BUDGET_S, took
    if r.status_code >= 400:
        assert _facts(app) == before, r.text[:300]  # all or nothing
    assert app.get("/healthz").status_code == 200
    assert app.post("/v1/ask", json={"question": "Is a neuron a cell?"}).status_code == 200


DECISION_BODY = st.fixed_dictionaries({}, optional={"by": NAMES | JSON, "reason": NAMES | JSON, "keep": JSON})
RESOLVE_BODY = st.fixed_dictionaries({"keep": st.just("known") | NAMES}, optional={"by": NAMES})
BODIES = {
    "/v1/facts": FACTS_BODY.map(json.dumps).map(str.encode),
    "/v1/load": FILE_BODY,
    "/v1/facts/{fact_id}/retract": DECISION_BODY.map(json.dumps).map(str.encode),
    "/v1/conflicts/{conflict_id}/resolve": RESOLVE_BODY.map(json.dumps).map(str.encode),
}
ANY_BODY = st.one_of(FILE_BODY, JSON.map(json.dumps).map(str.encode))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=st.data(),
    spec=st.sampled_from(WRITES),
    name=FILE_NAMES,
    params=st.just({}) | st.dictionaries(st.sampled_from(["format", "source", "trust", "name"]), st.text(max_size=20)),
    target=st.one_of(st.just("known"), st.text(max_size=30)),
    content_type=st.sampled_from(["application/json", "application/octet-stream", "text/turtle"]),
)
def test_any_write_request_is_a_result_or_a_json_error_and_all_or_nothing(
    writable: Service,
    data: st.DataObject,
    spec: Any,
    name: str,
    params: dict[str, str],
    target: str,
    content_type: str,
) -> None:
    app = _app(writable)
    body = data.draw(BODIES[spec.path] | ANY_BODY)
    ids = _fact_ids(app) if target == "known" or b'"known"' in body else []
    known = ids[0] if ids else "f_x"
    target = known if target == "known" else target
    body = body.replace(b'"known"', json.dumps(known).encode())
    quoted = quote(target, safe="")  # (any text, as a client would send it)
    path = spec.path.replace("{fact_id}", quoted).replace("{conflict_id}", quoted)
    query = {"name": name, **params} if spec.raw_body else params
    if not spec.raw_body and content_type != "application/json":
        content_type = "application/json"  # (a write of another type is refused by the guard: tested apart)
    before = _facts(app)
    started = time.monotonic()
    r = app.request(spec.method, path, params=query, content=body, headers={"content-type": content_type})
    event(f"{spec.path} {r.status_code}")
    _after(app, before, r, time.monotonic() - started)


TOOL_ARGS = {
    "remember": st.fixed_dictionaries(
        {"facts": st.lists(ROW | JSON, max_size=4) | JSON}, optional={"source": JSON, "trust": JSON, "x": JSON}
    ),
    "forget": st.fixed_dictionaries({"fact_id": st.just("known") | JSON}, optional={"reason": JSON, "x": JSON}),
}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), tool=st.sampled_from([t.name for t in TOOLS if t.writes]))
def test_any_arguments_to_an_mcp_write_tool_are_a_result_or_a_short_error(
    writable: Service, data: st.DataObject, tool: str
) -> None:
    from mcp import Client

    app = _app(writable)
    args = data.draw(TOOL_ARGS[tool] | st.dictionaries(st.text(max_size=8), JSON, max_size=3))
    if args.get("fact_id") == "known":
        ids = _fact_ids(app)
        args["fact_id"] = ids[0] if ids else "f_x"
    before = _facts(app)

    async def run() -> Any:
        async with Client(build(writable)) as mcp:
            return await mcp.call_tool(tool, args)

    started = time.monotonic()
    result = asyncio.run(run())
    took = time.monotonic() - started
    text = str(result.content[0].text) if result.content else ""
    event(f"{tool} {'error' if result.is_error else 'ok'}")
    if result.is_error:
        assert len(text) <= MAX_ERROR_CHARS + 120, text[:200]
        assert "kgbrain-upload-" not in text
        assert _facts(app) == before, text[:300]
    else:
        json.loads(text)
    assert took < BUDGET_S, took
    assert app.get("/healthz").status_code == 200
