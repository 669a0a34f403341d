"""The HTTP API against a web page in the user's browser (cross-site writes, DNS rebinding) and against
tokens of the wrong scope."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kgbrain.service.core import Service
from tests.security.conftest import client

FACT = {"facts": [{"subject": "blorp", "predicate": "is_a", "object": "cell"}]}


def _facts(app: TestClient) -> int:
    return int(app.get("/v1/stats").json()["facts"])


def test_a_cross_site_simple_request_cannot_write(open_app: TestClient) -> None:
    import json

    before = _facts(open_app)
    body = json.dumps(FACT)
    for headers in (
        {"content-type": "text/plain", "origin": "http://evil.example"},
        {"content-type": "text/plain"},
        {"content-type": "application/x-www-form-urlencoded"},
        {"content-type": "multipart/form-data; boundary=x"},
        {},
    ):
        r = open_app.post("/v1/facts", content=body, headers=headers)
        assert r.status_code in (403, 415), (headers, r.status_code, r.text)
        assert set(r.json()) == {"error"}
    r = open_app.post(
        "/v1/load?name=x.jsonl",
        content=b'{"subject":"a","predicate":"is_a","object":"b"}\n',
        headers={"content-type": "text/plain"},
    )
    assert r.status_code == 415
    assert _facts(open_app) == before


def test_a_foreign_origin_is_refused_even_with_json(open_app: TestClient) -> None:
    before = _facts(open_app)
    r = open_app.post("/v1/facts", json=FACT, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert "origin" in r.json()["error"].lower()
    r = open_app.post("/v1/ask", json={"question": "Is a neuron a cell?"}, headers={"origin": "null"})
    assert r.status_code == 403
    assert _facts(open_app) == before
    # A page served from this machine may use the API.
    r = open_app.post("/v1/ask", json={"question": "Is a neuron a cell?"}, headers={"origin": "http://localhost:3000"})
    assert r.status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "0x7f.1", "[::2]"])
def test_a_foreign_host_header_is_refused(open_app: TestClient, host: str) -> None:
    """DNS rebinding: the attacker's name resolves to 127.0.0.1 and the browser sends it as Host."""
    for path in ("/healthz", "/v1/stats", "/openapi.json"):
        r = open_app.get(path, headers={"host": host})
        assert r.status_code == 421, (path, host, r.status_code)
        assert set(r.json()) == {"error"}


MALFORMED_HOSTS = [
    "localhost:80@evil.example",  # blind attacker: served (200) as localhost
    "[::1].evil",  # blind attacker: served (200) as ::1
    "[::1]evil.example",
    "[::1]:80:81",
    "[::1",
    "[localhost]",
    "[0:0:0:0:0:0:0:1]:x",
    "::1",  # an IPv6 address only in brackets
    "localhost:",
    "localhost:99999",
    "localhost:80:80",
    "localhost:-1",
    "user@localhost",
    "localhost/evil",
    "localhost evil",
    "local%68ost",
    ".localhost",
    "localhost..",
    "",
]


@pytest.mark.parametrize("host", MALFORMED_HOSTS)
def test_a_malformed_host_header_is_refused(open_app: TestClient, host: str) -> None:
    """A Host that only looks like a loopback name once trimmed (RFC 9112 §3.2: 400 for an invalid Host)."""
    for path in ("/healthz", "/v1/stats", "/openapi.json"):
        r = open_app.get(path, headers={"host": host})
        assert r.status_code == 400, (path, host, r.status_code)
        assert "Host" in r.json()["error"]


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8765", "localhost:8765", "[::1]:8765", "localhost", "LOCALHOST", "[0:0::1]", "localhost:0"]
)
def test_loopback_host_names_are_served(open_app: TestClient, host: str) -> None:
    assert open_app.get("/healthz", headers={"host": host}).status_code == 200


def test_configured_host_names_are_served(service: Service) -> None:
    app = client(service, hosts=frozenset({"kb.internal"}))
    assert app.get("/healthz", headers={"host": "kb.internal:8765"}).status_code == 200
    r = app.post("/v1/ask", json={"question": "x"}, headers={"origin": "https://kb.internal"})
    assert r.status_code == 200
    assert app.get("/healthz", headers={"host": "evil.example"}).status_code == 421


def test_tokens_have_scopes(token_app: TestClient) -> None:
    def auth(token: str) -> dict[str, str]:
        return {"authorization": f"Bearer {token}"}

    assert token_app.get("/v1/stats").status_code == 401
    assert token_app.get("/v1/stats", headers=auth("nope")).status_code == 401
    for token in ("r-token", "w-token", "a-token"):
        assert token_app.get("/v1/stats", headers=auth(token)).status_code == 200
        assert (
            token_app.post("/v1/ask", json={"question": "Is a neuron a cell?"}, headers=auth(token)).status_code == 200
        )
    r = token_app.post("/v1/facts", json=FACT, headers=auth("r-token"))
    assert r.status_code == 403
    assert "write" in r.json()["error"]
    r = token_app.post("/v1/facts", json=FACT, headers=auth("w-token"))
    assert r.status_code == 201, r.text
    fact = token_app.get("/v1/facts", params={"concept": "blorp"}, headers=auth("r-token")).json()["facts"][0]
    r = token_app.post(f"/v1/facts/{fact['fact_id']}/retract", json={"by": "t"}, headers=auth("w-token"))
    assert r.status_code == 403
    assert "admin" in r.json()["error"]
    r = token_app.post(f"/v1/facts/{fact['fact_id']}/retract", json={"by": "t"}, headers=auth("a-token"))
    assert r.status_code == 200, r.text
