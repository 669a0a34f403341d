"""Every 400 names the field it is about (README: "a 400 names the field"). Issue #22, blind attacker: `/v1/ask` with
`"as_of": "NaN"` answered 400 with a message that did not say `as_of`; the date was read only deep in the library.
Now every route's and MCP tool's date is read at the model boundary, and so are the choice fields the library used
to read (`type`, `status`, `format`)."""

from __future__ import annotations

import pytest
from pydantic import BaseModel
from starlette.testclient import TestClient

from kgbrain import models
from kgbrain.errors import InvalidRequest
from kgbrain.service.http import SPECS, Spec

BAD_TIMES = ["NaN", "2010-13", "2010-02-30", "yesterday", "1e9", ""]
GOOD_TIMES = ["2010", "2010-05", "2010-05-03", "2010-05-03T12:00:00Z", "now"]
# The smallest valid request of each route with a body or query model.
MINIMAL: dict[str, dict[str, object]] = {
    "/v1/ask": {"question": "Is a neuron a cell?"},
    "/v1/verify": {"claims": ["A neuron is a cell."]},
    "/v1/verify/one": {"claims": ["A neuron is a cell."]},
    "/v1/check-answer": {"draft": "A neuron is a cell."},
    "/v1/facts": {"concept": "neuron"},
    "/v1/query": {"query": "is_a(X, Y)"},
    "/v1/why": {"concept": "neuron"},
    "/v1/path": {"source": "neuron", "target": "cell"},
    "/v1/like": {"concept": "neuron"},
    "/v1/facts/{fact_id}/explain": {},  # a fact of the demo's neuron in the path (_send)
}


def _dated(spec: Spec) -> bool:
    model = spec.body or spec.query
    return model is not None and "as_of" in model.model_fields


DATED = [spec for spec in SPECS if _dated(spec)]


def _send(app: TestClient, spec: Spec, data: dict[str, object]) -> tuple[int, str]:
    path = spec.path
    if "{fact_id}" in path:
        facts = app.get("/v1/facts", params={"concept": "neuron"}).json()["facts"]
        path = path.replace("{fact_id}", facts[0]["fact_id"])
    if spec.body is not None:
        r = app.request(spec.method, path, json=data)
    else:
        r = app.request(spec.method, path, params=data)  # type: ignore[arg-type]
    return r.status_code, r.json()["error"] if r.status_code >= 400 else ""


def test_every_dated_route_is_covered() -> None:
    assert {s.path for s in DATED} == set(MINIMAL)  # a new dated route gets a minimal request here


@pytest.mark.parametrize("spec", DATED, ids=lambda s: f"{s.method} {s.path}")
def test_a_bad_as_of_is_a_400_naming_the_field(open_app: TestClient, spec: Spec) -> None:
    for bad in BAD_TIMES:
        status, error = _send(open_app, spec, {**MINIMAL[spec.path], "as_of": bad})
        assert status == 400, (spec.path, bad, status)
        assert error.startswith("field 'as_of': "), (spec.path, bad, error)
    for good in GOOD_TIMES:
        status, error = _send(open_app, spec, {**MINIMAL[spec.path], "as_of": good})
        assert status == 200, (spec.path, good, status, error)


def _models_with(field: str) -> list[type[BaseModel]]:
    found = []
    for value in vars(models).values():
        if isinstance(value, type) and issubclass(value, models._In) and field in value.model_fields:
            found.append(value)
    return found


def test_every_request_and_tool_model_names_a_bad_as_of() -> None:
    dated = _models_with("as_of")
    assert {m.__name__ for m in dated} >= {"AskIn", "AskTool", "RecallTool", "VerifyClaimsTool", "CheckAnswerTool"}
    for model in dated:
        with pytest.raises(InvalidRequest, match=r"(^|; )field 'as_of': 'NaN' is not a date or date-time"):
            models.validated(model, {"as_of": "NaN"})


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/v1/conflicts", {"type": "bogus"}, "type"),
        ("/v1/conflicts", {"status": "bogus"}, "status"),
        ("/v1/conflicts", {"limit": "0"}, "limit"),
        ("/v1/conflicts", {"cursor": "bogus"}, "cursor"),
        ("/v1/facts", {"concept": "neuron", "limit": "x"}, "limit"),
        ("/v1/concepts", {"q": ""}, "q"),
    ],
)
def test_query_string_choices_name_the_field(
    open_app: TestClient, path: str, params: dict[str, str], field: str
) -> None:
    r = open_app.get(path, params=params)
    assert r.status_code == 400
    assert r.json()["error"].startswith(f"field {field!r}: "), r.json()


def test_an_upload_of_an_unknown_format_names_the_field(open_app: TestClient) -> None:
    r = open_app.post(
        "/v1/load",
        params={"name": "x.jsonl", "format": "bogus"},
        content=b'{"subject": "a", "predicate": "is_a", "object": "b"}\n',
        headers={"content-type": "application/octet-stream"},
    )
    assert r.status_code == 400
    assert r.json()["error"].startswith("field 'format': unknown format 'bogus'; use one of jsonl")


@pytest.mark.parametrize(
    ("rules", "problem"),
    [
        ("[[rule]\n", "is not valid TOML"),
        ('title = "no rule tables"\n', "has no [[rule]] tables"),
        ('[[rule]]\nid = "r1"\ncorrection = "x"\n', "rule 'r1': field 'violation_patterns' is required"),
        ('[[rule]]\nid = "r2"\nviolation_patterns = ["(a"]\ncorrection = "x"\n', "bad regular expression '(a'"),
    ],
)
def test_a_bad_rules_text_is_a_400_naming_the_field(open_app: TestClient, rules: str, problem: str) -> None:
    r = open_app.post("/v1/check-answer", json={"draft": "A neuron is a cell.", "rules": rules})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error.startswith("field 'rules': "), error
    assert problem in error
    assert "kgbrain-rules" not in error  # the server's temporary folder is none of the client's business
