"""An id the client names that is not in the knowledge base (a fact, a conflict) is 404 over HTTP, as an unknown
concept is, on every route that takes one; a malformed request stays 400. (Blind attack set D22: both were 400.)"""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from kgbrain.errors import InputError, UnknownItem


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/v1/facts/f_doesnotexist/retract", {"reason": "t"}),
        ("POST", "/v1/conflicts/c_doesnotexist/resolve", {"keep": "f_x"}),
        ("GET", "/v1/facts/f_doesnotexist/explain", None),
        ("GET", "/v1/facts", {"concept": "no-such-concept"}),
    ],
)
def test_an_unknown_id_is_404(open_app: TestClient, method: str, path: str, body: dict[str, str] | None) -> None:
    r = open_app.get(path, params=body) if method == "GET" else open_app.post(path, json=body)
    assert r.status_code == 404, r.text
    assert set(r.json()) == {"error"}
    assert "doesnotexist" in r.json()["error"] or "no-such-concept" in r.json()["error"]


def test_a_malformed_request_on_such_a_route_stays_400(open_app: TestClient) -> None:
    assert open_app.post("/v1/conflicts/c_x/resolve", json={"nope": 1}).status_code == 400


def test_an_unknown_id_is_still_an_input_error_for_the_cli_and_library() -> None:
    assert issubclass(UnknownItem, InputError)  # exit 2, as any bad argument
