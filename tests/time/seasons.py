"""A small knowledge base of football clubs in time, and one way to ask it on each channel (library, CLI, HTTP, MCP).

Clubs have coaches (a functional relation: one at a time) and a stadium capacity (a functional attribute) over
stated intervals; clubs and coaches are typed (`instance_of` club / person), and clubs are members of leagues.
Tests compute what holds in a year from the tables below, never from kgbrain.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kgbrain.models import AskOut
from tests.service.conftest import Server, env_with

# club -> [(coach, first year, last year)]
COACHES = {
    "zenit": [("advocaat", 2006, 2009), ("spalletti", 2010, 2014), ("villas_boas", 2015, 2016)],
    "spartak": [("karpin", 2008, 2011), ("emery", 2012, 2012), ("carrera", 2016, 2018)],
}
# club -> [(capacity, first year, last year)]
CAPACITY = {"zenit": [(210, 2006, 2016), (680, 2017, 2030)], "spartak": [(450, 2014, 2030)]}
# club -> [(league, first year, last year)]
LEAGUES = {"zenit": [("premier_league", 2001, 2030)], "spartak": [("premier_league", 2001, 2030)],
           "rotor": [("premier_league", 2001, 2004), ("first_league", 2005, 2030)]}  # fmt: skip
NAMES = {
    "zenit": ("Zenit", "Зенит"), "spartak": ("Spartak", "Спартак"), "rotor": ("Rotor", "Ротор"),
    "advocaat": ("Advocaat", "Адвокат"), "spalletti": ("Spalletti", "Спаллетти"),
    "villas_boas": ("Villas-Boas", "Виллаш-Боаш"), "karpin": ("Karpin", "Карпин"), "emery": ("Emery", "Эмери"),
    "carrera": ("Carrera", "Каррера"), "premier_league": ("Premier League", "Премьер-лига"),
    "first_league": ("First League", "Первая лига"),
}  # fmt: skip
TYPES = {"club": ("club", "клуб"), "person": ("person", "человек"), "league": ("league", "лига")}
PREDICATES = {"coach": ("coach", "тренер"), "stadium_capacity": ("stadium capacity", "вместимость стадиона"),
              "member_of": ("member of", "член")}  # fmt: skip
FUNCTIONAL = ("coach", "stadium_capacity")


def rows() -> list[dict[str, Any]]:
    """The facts file."""
    out: list[dict[str, Any]] = []
    for cid, (en, ru) in {**NAMES, **TYPES, **PREDICATES}.items():
        out += [{"subject": cid, "predicate": "label", "value": en, "lang": "en"},
                {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"}]  # fmt: skip
    out += [{"subject": p, "predicate": "property_type", "value": "functional"} for p in FUNCTIONAL]
    for cid in NAMES:
        kind = "club" if cid in LEAGUES else "league" if cid.endswith("league") else "person"
        out.append({"subject": cid, "predicate": "instance_of", "object": kind})
    for predicate, held, key in (("coach", COACHES, "object"), ("member_of", LEAGUES, "object")):
        for club, terms in held.items():
            for other, first, last in terms:
                out.append({"subject": club, "predicate": predicate, key: other, "valid_from": str(first),
                            "valid_to": str(last)})  # fmt: skip
    for club, values in CAPACITY.items():
        for value, first, last in values:
            out.append({"subject": club, "predicate": "stadium_capacity", "value": value, "valid_from": str(first),
                        "valid_to": str(last)})  # fmt: skip
    return out


def held(table: dict[str, list[tuple[Any, int, int]]], key: str, year: int) -> Any:
    """What `table` gives `key` in `year` (None: nothing then)."""
    return next((v for v, first, last in table.get(key, []) if first <= year <= last), None)


def name(cid: str, lang: str) -> str:
    """A concept's label in a language."""
    return NAMES[cid][lang == "ru"]


VOLATILE = {"latency_ms", "digest", "episodes"}


def same(data: dict[str, Any]) -> dict[str, Any]:
    """An answer without what differs between runs (timing, digest, the episodes a service session records)."""
    out = {k: v for k, v in AskOut.model_validate(data).model_dump().items() if k not in VOLATILE}
    return json.loads(json.dumps(out), parse_float=lambda x: round(float(x), 6))  # type: ignore[no-any-return]


def cli(db: Path, config: Path, *args: str, stdin: str | None = None) -> str:
    """`kgbrain --db DB ARGS...`'s output (exit 0 asserted)."""
    done = subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(db), *args],
        input=stdin,
        env=env_with(config),
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def http_posts(db: Path, config: Path, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The JSON of each (path, body) posted in order to one `kgbrain serve`."""
    server = Server(db, env_with(config))
    try:
        out = []
        for path, body in calls:
            response = server.client.post(path, json=body)
            assert response.status_code == 200, response.text
            out.append(response.json())
        return out
    finally:
        server.stop()


def mcp_calls(db: Path, config: Path, calls: Sequence[tuple[str, dict[str, Any]]]) -> list[Any]:
    """The JSON of each (tool, arguments) called in order on one `kgbrain mcp`."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "kgbrain", "--db", str(db), "mcp"], env=env_with(config)
    )

    async def run() -> list[Any]:
        out = []
        async with Client(params, read_timeout_seconds=240) as client:
            for tool, arguments in calls:
                result = await client.call_tool(tool, arguments)
                assert not result.is_error, result.content
                out.append(json.loads(result.content[0].text))  # type: ignore[union-attr]
        return out

    return asyncio.run(run())
