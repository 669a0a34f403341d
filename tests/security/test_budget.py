"""A budget per request (issue #22, items 4-7): inputs capped at the model boundary, replies and errors bounded,
every failure in the one JSON error shape."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from kgbrain.models import (
    MAX_CLAIM_CHARS,
    MAX_SERVED_DRAFT_CHARS,
    MAX_VALUE_CHARS,
    CheckAnswerIn,
    FactsIn,
    VerifyIn,
)
from kgbrain.service.core import Service
from kgbrain.service.replies import MAX_ERROR_CHARS

MEGABYTE = "x" * 2**20


def _refused(r: Any, status: int = 400) -> str:
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"}
    assert len(body["error"]) <= MAX_ERROR_CHARS + 60
    return str(body["error"])


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/v1/verify", {"claims": ["a neuron is a cell " + "x" * MAX_CLAIM_CHARS]}, "claims.0"),
        ("/v1/verify", {"claims": [{"subject": MEGABYTE, "predicate": "is_a", "object": "cell"}]}, "claims.0"),
        ("/v1/verify/one", {"claims": ["x" * 16_000]}, "claims.0"),
        ("/v1/check-answer", {"draft": "Neurons are cells. " * 600}, "draft"),
        ("/v1/check-answer", {"draft": "ok", "rules": MEGABYTE}, "rules"),
        ("/v1/facts", {"facts": [{"subject": "a", "predicate": "has_note", "value": MEGABYTE}]}, "facts.0"),
        ("/v1/facts", {"facts": [{"subject": "a", "predicate": "is_a", "object": "b"}], "source": MEGABYTE}, "source"),
        ("/v1/query", {"query": MEGABYTE}, "query"),
    ],
)
def test_an_oversized_input_is_refused_at_the_boundary(open_app: TestClient, path: str, body: Any, field: str) -> None:
    """A 1 MB claim grew a server to 17 GB; a 49,000-character draft took 182 s: refused before any work."""
    message = _refused(open_app.post(path, json=body))
    assert message.startswith(f"field {field!r}"), message


@pytest.mark.parametrize("path", ["/v1/why", "/v1/like"])
@pytest.mark.parametrize("limit", ["-1", "0", "101", "99999999999"])
def test_limits_outside_their_range_are_refused(open_app: TestClient, path: str, limit: str) -> None:
    assert "field 'limit'" in _refused(open_app.get(path, params={"concept": "neuron", "limit": limit}))
    r = open_app.get("/v1/path", params={"source": "neuron", "target": "cell", "limit": limit})
    assert "field 'limit'" in _refused(r)


def test_a_long_name_is_refused_and_an_unknown_one_quoted_short(open_app: TestClient) -> None:
    assert "field 'concept'" in _refused(open_app.get("/v1/facts", params={"concept": "n" * 5000}))
    # Under the cap the name is quoted, but an error never holds more than a prefix.
    message = _refused(open_app.get("/v1/facts", params={"concept": "n" * 499}), 404)
    assert "nnnn" in message


def test_the_schemas_publish_the_caps() -> None:
    assert VerifyIn.model_json_schema()["properties"]["claims"]["items"]["anyOf"][1]["maxLength"] == MAX_CLAIM_CHARS
    assert CheckAnswerIn.model_json_schema()["properties"]["draft"]["maxLength"] == MAX_SERVED_DRAFT_CHARS
    assert MAX_VALUE_CHARS == 10_000
    assert FactsIn.model_json_schema()["properties"]["facts"]["maxItems"] == 10_000


def test_mcp_errors_quote_a_prefix_of_a_huge_argument(service: Service) -> None:
    """A 1 MB argument came back whole in the error (~262k tokens), which the client then rejected."""
    from mcp import Client

    from kgbrain.service.mcp_tools import build

    async def run() -> list[str]:
        out = []
        async with Client(build(service)) as mcp:
            for name, args in (
                ("verify_claims", {"claims": [MEGABYTE]}),
                ("ask", {"question": MEGABYTE}),
                ("recall", {"concept": MEGABYTE}),
                ("explain", {"fact_id": MEGABYTE}),
                ("remember", {"facts": [{"subject": MEGABYTE, "predicate": "is_a", "object": "b"}]}),
                ("check_answer", {"draft": MEGABYTE}),
            ):
                result = await mcp.call_tool(name, args)
                assert result.is_error, name
                out.append(str(result.content[0].text))
        return out

    for text in asyncio.run(run()):
        assert len(text) <= MAX_ERROR_CHARS + 60, text[:200]
        assert "field" in text


def test_a_verdict_too_long_for_any_reply_is_not_sent_again_forever() -> None:
    from kgbrain.service.mcp_tools import MAX_RESULT_CHARS, _fit_verdicts

    small = {"id": "1", "proof": []}
    huge = {"id": "2", "proof": ["p" * MAX_RESULT_CHARS]}
    data = json.loads(_fit_verdicts([small, huge, {"id": "3", "proof": []}]))
    assert [v["id"] for v in data["verdicts"]] == ["1", "3"]
    assert data["too_long"] == ["2"]
    assert data["not_returned"] == []


def _json_error(r: Any, statuses: tuple[int, ...] = (400,)) -> str:
    assert r.status_code in statuses, (r.status_code, r.text[:300])
    assert r.headers["content-type"].startswith("application/json"), r.text[:200]
    assert set(r.json()) == {"error"}
    return str(r.json()["error"])


@pytest.mark.parametrize(
    ("method", "path", "content"),
    [
        ("POST", "/v1/ask", b'{"question": "Is a \\ud800 a cell?"}'),  # a lone surrogate
        ("POST", "/v1/facts", b'{"facts": [{"subject": "\\udfff", "predicate": "is_a", "object": "b"}]}'),
        ("POST", "/v1/ask", b'{"question": "Is a neuron\\u0000 a cell?"}'),  # a NUL
        ("POST", "/v1/ask", b"[" * 100_000 + b"]" * 100_000),  # 100k-deep JSON
        ("POST", "/v1/verify", b'{"claims": ' + b"[" * 50 + b"]" * 50 + b"}"),
        ("POST", "/v1/ask", b"\xff\xfe not utf-8"),
        ("POST", "/v1/load?name=a%00b.jsonl", b'{"subject":"a","predicate":"is_a","object":"b"}\n'),
        ("POST", "/v1/load?name=" + "x" * 300 + ".jsonl", b'{"subject":"a","predicate":"is_a","object":"b"}\n'),
        ("POST", "/v1/load?name=" + "ж" * 200 + ".jsonl", b'{"subject":"a","predicate":"is_a","object":"b"}\n'),
        ("GET", "/v1/facts?concept=%ED%A0%80", b""),
    ],
)
def test_every_failure_is_the_json_error_shape(service: Service, method: str, path: str, content: bytes) -> None:
    """These were plain-text `Internal Server Error` or a closed connection."""
    from tests.security.conftest import client

    app = client(service)
    app.__dict__["raise_server_exceptions"] = False  # as a real server would: answer, never raise
    before = app.get("/v1/stats").json()["facts"]
    headers = {"content-type": "application/octet-stream" if path.startswith("/v1/load") else "application/json"}
    r = app.request(method, path, content=content, headers=headers)
    _json_error(r, (400, 404))
    assert app.get("/v1/stats").json()["facts"] == before
    assert app.get("/healthz").status_code == 200


def test_a_bug_behind_a_route_is_still_a_json_error(service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.security.conftest import client

    async def broken() -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(service, "stats", broken)
    app = client(service)
    app.__dict__["raise_server_exceptions"] = False
    message = _json_error(app.get("/v1/stats"), (500,))
    assert "ZeroDivisionError" in message


def test_a_backtracking_rule_pattern_is_stopped_not_the_server(open_app: TestClient) -> None:
    """`(a+)+$`-style user patterns froze the whole server for 75 s; the rule engine now times out."""
    import time

    rules = '[[rule]]\nid = "evil"\nviolation_patterns = ["(a|aa)+$"]\ncorrection = "x"\n'  # exponential on "aaa...b"
    started = time.perf_counter()
    r = open_app.post("/v1/check-answer", json={"draft": "a" * 40 + "b", "rules": rules})
    took = time.perf_counter() - started
    message = _refused(r)
    assert "'evil'" in message
    assert "ran past" in message
    assert took < 20
    assert open_app.get("/healthz").status_code == 200
