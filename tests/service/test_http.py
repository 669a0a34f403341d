"""`kgbrain serve` over real HTTP: the routes, their errors and limits, paging, and the lock it holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError, UnknownConcept
from kgbrain.service.run import check_exposure
from tests.service.conftest import Server, copy_kb, env_with

OCTETS = {"content-type": "application/octet-stream"}  # a write is never a simple request


def test_health_and_openapi_describe_every_route(served: Server) -> None:
    health = served.client.get("/healthz").json()
    assert health["status"] == "ok"
    assert health["read_only"] is False
    assert ":" in health["write_counter"]
    doc = served.client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    for path in ("/v1/ask", "/v1/verify", "/v1/facts", "/v1/stats", "/v1/check-answer", "/v1/conflicts", "/v1/load"):
        assert path in doc["paths"]
    ask = doc["paths"]["/v1/ask"]["post"]
    assert ask["requestBody"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/AskIn"}
    # The response schema is the model `ask --json` prints.
    assert set(doc["components"]["schemas"]["AskOut"]["properties"]) >= {"answer", "confidence", "trace"}
    assert doc["paths"]["/v1/facts"]["get"]["responses"]["404"]["content"]["application/json"]
    # Query strings are described by their models: the limits a request is checked against are the ones published.
    limit = next(p for p in doc["paths"]["/v1/facts"]["get"]["parameters"] if p["name"] == "limit")
    assert limit["schema"] == {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}


def test_stats_is_the_body_stats_json_prints(served: Server) -> None:
    body = served.client.get("/v1/stats").json()
    assert body["facts"] > 100
    assert body["schema_version"] >= 1
    assert "is_a" in body["predicates"]


def test_verify_streams_one_verdict_line_per_claim_in_order(served: Server) -> None:
    claims = [
        {"id": "a", "subject": "neuron", "predicate": "is_a", "object": "cell"},
        "Neurons have DNA",
        {"id": "c", "subject": "neuron", "predicate": "is_a", "object": "cell", "polarity": False},
    ] + [{"subject": "neuron", "predicate": "is_a", "object": "cell"}] * 70
    with served.client.stream("POST", "/v1/verify", json={"claims": claims}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in r.iter_lines() if line]
    assert len(lines) == len(claims)
    assert [v["id"] for v in lines[:3]] == ["a", "2", "c"]
    assert lines[0]["verdict"] == "SUPPORTED"
    assert lines[2]["verdict"] == "REFUTED"
    one = served.client.post("/v1/verify/one", json={"claims": [claims[0]]}).json()
    assert one == lines[0]


def test_errors_are_json_with_the_cli_message_and_status(served: Server, demo: Brain) -> None:
    r = served.client.get("/v1/facts", params={"concept": "neuronn"})
    with pytest.raises(UnknownConcept) as raised:
        demo.facts("neuronn")
    assert r.status_code == 404
    assert r.json() == {"error": str(raised.value)}
    assert r.json()["error"].startswith("Unknown concept 'neuronn'. Did you mean 'neuron'")
    # Of two names, the unknown one is named by its field (both known: 200).
    for source, target, field in (("neuronn", "cell", "source"), ("neuron", "cel_x", "target")):
        r = served.client.get("/v1/path", params={"source": source, "target": target})
        assert r.status_code == 404, r.text
        assert r.json()["error"].startswith(f"field '{field}': Unknown concept"), r.text
    assert served.client.get("/v1/path", params={"source": "neuron", "target": "cell"}).status_code == 200
    r = served.client.post("/v1/ask", json={"questio": "x"})
    assert r.status_code == 400
    assert "field 'question'" in r.json()["error"]
    r = served.client.post("/v1/ask", content=b"{not json")
    assert r.status_code == 400
    assert r.json()["error"].startswith("request body is not JSON")
    r = served.client.get("/v1/facts")
    assert r.status_code == 400
    assert r.json()["error"] == "field 'concept': missing (add ?concept=...)"
    r = served.client.post("/v1/verify", json={"claims": [1]})
    assert r.status_code == 400
    assert "claims" in r.json()["error"]
    r = served.client.get("/v1/conflicts", params={"type": "nonsense"})
    assert r.status_code == 400
    assert r.json()["error"].startswith("field 'type': unknown conflict type 'nonsense'")
    r = served.client.get("/v1/concepts", params={"q": "neuron", "limit": 0})
    assert r.status_code == 400
    assert r.json()["error"] == "field 'limit': 0 is outside 1..100"
    r = served.client.post("/v1/ask", json={"question": "x", "priority": 2})
    assert r.status_code == 400
    assert r.json()["error"] == "field 'priority': 2 is outside 0..1"
    r = served.client.get("/v1/nowhere")
    assert r.status_code == 404
    assert "error" in r.json()


def test_facts_and_conflicts_are_paged_with_a_cursor(served: Server) -> None:
    whole = served.client.get("/v1/facts", params={"concept": "neuron", "limit": 1000}).json()
    assert whole["next_cursor"] is None
    assert whole["total_facts"] == len(whole["facts"]) > 3
    seen: list[str] = []
    cursor = None
    while True:
        params = {"concept": "neuron", "limit": 2} | ({"cursor": cursor} if cursor else {})
        page = served.client.get("/v1/facts", params=params).json()
        assert len(page["facts"]) <= 2
        seen += [f["fact_id"] for f in page["facts"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f["fact_id"] for f in whole["facts"]]
    # A cursor of one list does not page another.
    first = served.client.get("/v1/facts", params={"concept": "neuron", "limit": 1}).json()
    r = served.client.get("/v1/facts", params={"concept": "cell", "cursor": first["next_cursor"]})
    assert r.status_code == 400
    assert "belongs to another list" in r.json()["error"]
    conflicts = served.client.get("/v1/conflicts", params={"limit": 1}).json()
    assert len(conflicts["conflicts"]) == 1
    assert conflicts["total"] >= 1
    assert (conflicts["next_cursor"] is None) == (conflicts["total"] == 1)


def test_concept_search_finds_inflected_names(served: Server) -> None:
    found = served.client.get("/v1/concepts", params={"q": "Нейрон"}).json()["concepts"]
    assert found[0]["id"] == "neuron"
    assert found[0]["labels"]["ru"] == "нейрон"


def test_check_answer_takes_rules_as_text(served: Server) -> None:
    rules = (Path(__file__).resolve().parents[1] / "fixtures" / "rules" / "seed003.toml").read_text(encoding="utf-8")
    body = {
        "draft": "Нельзя использовать СИЗ с истёкшим сертификатом: выкиньте их.",
        "question": "Можно ли использовать СИЗ?",
        "rules": rules,
    }
    report = served.client.post("/v1/check-answer", json=body).json()
    assert report["critical"] is True
    assert report["rules"][0]["id"] == "tr_ts_019_certificate_vs_lifetime"
    r = served.client.post("/v1/check-answer", json={"draft": "  "})
    assert r.status_code == 400


def test_writes_are_all_or_nothing_and_seen_by_the_next_read(served: Server) -> None:
    before = served.client.get("/v1/stats").json()["facts"]
    # Asked before the write: the server keeps this answer only until the next commit.
    unknown = served.client.post("/v1/ask", json={"question": "Есть ли у зорка ДНК?"}).json()
    assert "zork" not in unknown["concepts"]
    bad = {"facts": [{"subject": "zork", "predicate": "is_a", "object": "neuron"}, {"subject": "zork"}]}
    r = served.client.post("/v1/facts", json=bad)
    assert r.status_code == 400
    assert r.json()["error"].startswith("facts:2: field 'predicate'")
    assert served.client.get("/v1/stats").json()["facts"] == before
    good = {
        "facts": [
            {"subject": "zork", "predicate": "is_a", "object": "neuron"},
            {"subject": "zork", "predicate": "label", "value": "Зорк", "lang": "ru"},
        ],
        "source": "test-suite",
        "trust": 0.9,
    }
    r = served.client.post("/v1/facts", json=good)
    assert r.status_code == 201
    assert r.json()["facts_added"] == 1
    assert served.client.get("/v1/stats").json()["facts"] == before + 1
    # The new name links at once (the reader's term index was updated, not rebuilt later).
    answer = served.client.post("/v1/ask", json={"question": "Есть ли у зорка ДНК?"}).json()
    assert "zork" in answer["concepts"]
    [fact] = [f for f in served.client.get("/v1/facts", params={"concept": "zork"}).json()["facts"]]
    assert fact["source"] == "test-suite"
    assert fact["trust"] == 0.9
    r = served.client.post(f"/v1/facts/{fact['fact_id']}/retract", json={"by": "tester", "reason": "made up"})
    assert r.status_code == 200
    assert r.json() == {"fact_id": fact["fact_id"], "previous_status": "active", "closed": []}
    again = served.client.post(f"/v1/facts/{fact['fact_id']}/retract", json={})
    assert again.status_code == 400
    assert "retracted" in again.json()["error"]
    [after] = served.client.get("/v1/facts", params={"concept": "zork"}).json()["facts"]
    assert after["status"] == "retracted"


def test_load_takes_an_uploaded_file(served: Server) -> None:
    body = '{"subject": "blorp", "predicate": "is_a", "object": "cell"}\n'
    r = served.client.post(
        "/v1/load", params={"name": "extra.jsonl", "source": "upload"}, content=body.encode(), headers=OCTETS
    )
    assert r.status_code == 201
    assert r.json()["file"] == "extra.jsonl"
    assert r.json()["facts_added"] == 1
    r = served.client.post("/v1/load", params={"name": "../x.jsonl"}, content=body.encode(), headers=OCTETS)
    assert r.status_code == 400


def test_a_cli_command_on_the_served_file_fails_at_once_naming_the_server(served: Server, no_block: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(served.db), "stats"],
        env=env_with(no_block, KGBRAIN_LOCK_TIMEOUT="600"),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0
    assert f"is served by `kgbrain serve` at {served.url}" in done.stderr


def test_body_size_limit_read_only_and_token(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    db = copy_kb(demo_db, tmp_path / "ro")
    server = Server(db, env_with(no_block, KGBRAIN_TOKEN="s3cret"), "--read-only", "--max-body-mb", "0.01")
    try:
        assert server.client.get("/healthz").status_code == 401
        auth = {"Authorization": "Bearer s3cret"}
        assert server.client.get("/healthz", headers={"Authorization": "Bearer wrong"}).status_code == 401
        assert server.client.get("/openapi.json").status_code == 401
        assert server.client.get("/healthz", headers=auth).json()["read_only"] is True
        r = server.client.post("/v1/facts", json={"facts": []}, headers=auth)
        assert r.status_code == 403
        assert "read-only" in r.json()["error"]
        r = server.client.post("/v1/ask", json={"question": "x" * 20_000}, headers=auth)
        assert r.status_code == 413
        assert r.json()["error"].startswith("request body is larger than")
        # A read-only server shares the file with read-only commands (`ask` only reads).
        done = subprocess.run(
            [sys.executable, "-m", "kgbrain", "--db", str(db), "ask", "What is a neuron?"],
            env=env_with(no_block),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "neuron" in done.stdout.lower()
    finally:
        server.stop()


def test_binding_beyond_loopback_needs_a_token() -> None:
    check_exposure("127.0.0.1", None)
    check_exposure("::1", None)
    check_exposure("0.0.0.0", "token")
    with pytest.raises(InputError, match="set KGBRAIN_TOKEN"):
        check_exposure("0.0.0.0", None)


def test_http_client_sees_connection_refused_after_stop(demo_db: Path, no_block: Path, tmp_path: Path) -> None:
    server = Server(copy_kb(demo_db, tmp_path / "stop"), env_with(no_block))
    url = server.url
    server.stop()
    assert server.process.returncode is not None
    with pytest.raises(httpx.ConnectError):
        httpx.get(url + "/healthz", timeout=5)


def test_query_is_read_only_and_paged(served: Server) -> None:
    text = "SELECT ?x WHERE { <neuron> <is_a> ?x }"
    whole = served.client.post("/v1/query", json={"query": text, "limit": 1000}).json()
    assert whole["columns"] == ["x"]
    assert "excitable_cell" in {r["x"] for r in whole["rows"]}
    assert whole["total_rows"] == len(whole["rows"]) >= 2
    first = served.client.post("/v1/query", json={"query": text, "limit": 1}).json()
    second = served.client.post("/v1/query", json={"query": text, "limit": 1, "cursor": first["next_cursor"]}).json()
    assert first["rows"] + second["rows"] == whole["rows"][:2]
    # Text that would be Cypher is only ever parsed as a query, never run.
    before = served.client.get("/v1/stats").json()["facts"]
    r = served.client.post("/v1/query", json={"query": "MATCH (n) DETACH DELETE n"})
    assert r.status_code == 400
    assert served.client.get("/v1/stats").json()["facts"] == before


def test_explain_gives_provenance_and_derivation(served: Server) -> None:
    fact = served.client.get("/v1/facts", params={"concept": "neuron", "limit": 1}).json()["facts"][0]
    explained = served.client.get(f"/v1/facts/{fact['fact_id']}/explain").json()
    assert explained["fact"]["fact_id"] == fact["fact_id"]
    assert explained["proof"]["fact_id"] == fact["fact_id"]
    r = served.client.get("/v1/facts/f_nope/explain")
    assert r.status_code == 404  # an unknown id, as an unknown concept
    assert "Unknown fact 'f_nope'" in r.json()["error"]
