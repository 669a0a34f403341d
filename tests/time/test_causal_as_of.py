"""`why`, `path`, `like` and `explain` as of a time (#24): a causal link outside its interval is no path then, and
its proof reads it out of time with its interval; the CLI's --as-of, HTTP's and MCP's `as_of` give what the
library's `Brain.at` gives."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK, Server, env_with
from tests.time.seasons import cli

ROWS: list[dict[str, Any]] = [
    {"subject": "leaded_fuel", "predicate": "causes", "object": "lead_emissions", "valid_from": "1925",
     "valid_to": "2000"},
    {"subject": "lead_emissions", "predicate": "causes", "object": "lead_poisoning"},
    {"subject": "coal_burning", "predicate": "causes", "object": "smog"},
]  # fmt: skip
# as of -> the causes of lead poisoning along a path (the first link holds 1925..2000 only)
CAUSES = {"1990": {"leaded_fuel", "lead_emissions"}, "2010": {"lead_emissions"}}


def _starts(paths: list[dict[str, Any]]) -> set[str]:
    return {p["concepts"][0] for p in paths}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("causal_as_of")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "causes.jsonl", ROWS)])
    return db, config


def test_why_and_path_as_of_a_time(kb: tuple[Path, Path]) -> None:
    from kgbrain.models import CausalPathOut

    db, config = kb
    with Brain.open(db, read_only=True) as brain:
        library = {
            w: [CausalPathOut.from_path(p).model_dump() for p in brain.at(w).why("lead_poisoning")] for w in CAUSES
        }
        assert {w: _starts(p) for w, p in library.items()} == CAUSES
        assert brain.at("1990").path("leaded_fuel", "lead_poisoning")
        assert not brain.at("2010").path("leaded_fuel", "lead_poisoning")
    for when in CAUSES:
        got = json.loads(cli(db, config, "why", "lead_poisoning", "--as-of", when, "--json"))
        assert got == library[when]
    assert json.loads(cli(db, config, "path", "leaded_fuel", "lead_poisoning", "--as-of", "2010", "--json")) == []
    assert json.loads(cli(db, config, "path", "leaded_fuel", "lead_poisoning", "--as-of", "1990", "--json"))
    server = Server(db, env_with(config))
    try:
        served = {
            w: server.client.get("/v1/why", params={"concept": "lead_poisoning", "as_of": w}).json() for w in CAUSES
        }
        none = server.client.get(
            "/v1/path", params={"source": "leaded_fuel", "target": "lead_poisoning", "as_of": "2010"}
        )
        bad = server.client.get("/v1/why", params={"concept": "lead_poisoning", "as_of": "soon"})
    finally:
        server.stop()
    assert served == library
    assert none.json() == []
    assert bad.status_code == 400


def test_explain_reads_a_fact_as_of_a_time_with_its_interval(kb: tuple[Path, Path]) -> None:
    import asyncio

    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    from kgbrain.models import ExplanationOut

    db, config = kb
    with Brain.open(db, read_only=True) as brain:
        [link] = [f for f in brain.facts("leaded_fuel").facts if f.predicate == "causes"]
        library = {w: ExplanationOut.of(brain.at(w), link.fact_id).model_dump() for w in ("1990", "2010")}
        now = ExplanationOut.of(brain, link.fact_id).model_dump()
    statuses = {w: (e["fact"]["status"], e["proof"]["status"]) for w, e in library.items()}
    assert statuses == {"1990": ("active", "active"), "2010": ("out_of_time", "out_of_time")}
    assert now == library["2010"]  # without a time: as of now, when the 1925..2000 link no longer holds
    assert (library["1990"]["proof"]["valid_from"], library["1990"]["proof"]["valid_to"]) == (
        "1925-01-01",
        "2000-12-31",
    )
    for when, expected in library.items():
        assert json.loads(cli(db, config, "explain", link.fact_id, "--as-of", when, "--json")) == expected
    text = cli(db, config, "explain", link.fact_id, "--as-of", "2010")
    assert "out_of_time, valid 1925-01-01..2000-12-31" in text
    server = Server(db, env_with(config))
    try:
        served = {
            w: server.client.get(f"/v1/facts/{link.fact_id}/explain", params={"as_of": w}).json() for w in library
        }
    finally:
        server.stop()
    assert served == library
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(db), "mcp"], env=env_with(config)
    )

    async def run() -> dict[str, Any]:
        out = {}
        async with Client(params, read_timeout_seconds=120) as client:
            for when in library:
                result = await client.call_tool("explain", {"fact_id": link.fact_id, "as_of": when})
                assert not result.is_error, result.content
                out[when] = json.loads(result.content[0].text)  # type: ignore[union-attr]
        return out

    assert asyncio.run(run()) == library
