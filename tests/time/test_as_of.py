"""`--as-of` (issue #24 item 1): every answer, verdict, proof, listing and query uses only the facts valid then.

The expected results are computed in this file from the intervals written below (`_holds`), not by kgbrain.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.timeline import InvalidTime

# (subject, predicate, object, first day it held or None, last day it held or None)
TIMED = [
    ("pluto", "is_a", "planet", "1930-02-18", "2006-08-23"),
    ("pluto", "is_a", "dwarf_planet", "2006-08-24", None),
    ("saturn", "is_a", "planet", None, None),
    ("kepler_station", "is_a", "observatory", "1990-01-01", "1999-12-31"),
]
DATES = ["1920", "1950", "2000-06-01", "2006-08-23", "2006-08-24", "2010", "2026-01-15"]


def _day(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=timezone.utc)


def _window(text: str) -> tuple[datetime, datetime]:
    # The span a written time covers: a year or a day (only those are used above).
    if len(text) == 4:
        return _day(f"{text}-01-01"), _day(f"{int(text) + 1}-01-01")
    start = _day(text)
    return start, start.replace(day=start.day) + (_day("2000-01-02") - _day("2000-01-01"))


def _holds(first: str | None, last: str | None, when: str) -> bool:
    start, end = _window(when)
    after_start = first is None or _day(first) < end
    before_end = last is None or _day(last) + (_day("2000-01-02") - _day("2000-01-01")) > start
    return after_start and before_end


def _rows() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for s, p, o, first, last in TIMED:
        row: dict[str, Any] = {"subject": s, "predicate": p, "object": o}
        if first:
            row["valid_from"] = first
        if last:
            row["valid_to"] = last
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("as_of")
    facts = folder / "facts.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([facts], source="iau")
    return db


@pytest.mark.parametrize("when", DATES)
def test_checks_and_verdicts_use_the_facts_valid_then(kb: Path, when: str) -> None:
    with Brain.open(kb, read_only=True) as brain:
        at = brain.at(when)
        claims = [{"id": str(i), "subject": s, "predicate": p, "object": o} for i, (s, p, o, _, _) in enumerate(TIMED)]
        verdicts = at.verify(claims)
        for (s, p, o, first, last), v in zip(TIMED, verdicts, strict=True):
            expected = "SUPPORTED" if _holds(first, last, when) else "NOT_ENOUGH_INFO"
            assert v.verdict.value == expected, (s, p, o, when)
            if expected == "SUPPORTED" and (first or last):
                assert list(dict(v.intervals).values()) == [f"{first or ''}..{last or ''}"]
            assert at.check(s, p, o).outcome.value == ("supported" if expected == "SUPPORTED" else "unknown")


@pytest.mark.parametrize("when", DATES)
def test_fact_listings_mark_what_is_out_of_time(kb: Path, when: str) -> None:
    with Brain.open(kb, read_only=True) as brain:
        got = {(f.predicate, f.target): f.status.value for f in brain.at(when).facts("pluto").facts}
    expected = {
        (p, o): "active" if _holds(first, last, when) else "out_of_time"
        for s, p, o, first, last in TIMED
        if s == "pluto"
    }
    assert got == expected


@pytest.mark.parametrize("when", DATES)
def test_a_query_sees_the_facts_valid_then(kb: Path, when: str) -> None:
    with Brain.open(kb, read_only=True) as brain:
        result = brain.at(when).query("is_a(X, Y)")
    got = {(str(r[0]), str(r[1])) for r in result.rows}
    assert got == {(s, o) for s, p, o, first, last in TIMED if p == "is_a" and _holds(first, last, when)}


def test_an_answer_names_the_time_and_the_interval_of_each_fact_it_used(kb: Path) -> None:
    with Brain.open(kb, read_only=True) as brain:
        out = brain.at("2000").think("Is Pluto a planet?")
        later = brain.at("2010").think("Is Pluto a planet?")
    assert out.text.startswith("Yes")
    assert out.as_of == "2000"
    assert "1930-02-18..2006-08-23" in out.intervals.values()
    assert not later.text.startswith("Yes")
    assert later.as_of == "2010"


def test_without_as_of_the_present_decides(kb: Path) -> None:
    with Brain.open(kb, read_only=True) as brain:
        now = brain.at()
        assert now.check("pluto", "is_a", "dwarf_planet").outcome.value == "supported"
        assert now.check("pluto", "is_a", "planet").outcome.value == "unknown"
        assert now.check("kepler_station", "is_a", "observatory").outcome.value == "unknown"


def test_a_knowledge_base_without_intervals_is_itself_as_of_now(tmp_path: Path) -> None:
    facts = tmp_path / "f.jsonl"
    facts.write_text(json.dumps({"subject": "a", "predicate": "is_a", "object": "b"}) + "\n", encoding="utf-8")
    with Brain.open(None) as brain:
        brain.load([facts])
        assert brain.at() is brain
        assert brain.at("1900").check("a", "is_a", "b").outcome.value == "supported"


def test_a_later_load_is_seen_as_of_a_time(tmp_path: Path) -> None:
    first = tmp_path / "a.jsonl"
    first.write_text(json.dumps({"subject": "a", "predicate": "is_a", "object": "b", "valid_to": "2000"}) + "\n")
    second = tmp_path / "b.jsonl"
    second.write_text(json.dumps({"subject": "a", "predicate": "is_a", "object": "c", "valid_from": "2001"}) + "\n")
    with Brain.open(None) as brain:
        brain.load([first])
        assert brain.at("2010").check("a", "is_a", "b").outcome.value == "unknown"
        brain.load([second])
        assert brain.at("2010").check("a", "is_a", "c").outcome.value == "supported"
        assert brain.at("1999").check("a", "is_a", "c").outcome.value == "unknown"


def test_a_norm_applies_from_its_effective_date(tmp_path: Path) -> None:
    rows = [
        {"subject": "expired_ppe", "predicate": "permitted", "object": "work_at_height", "polarity": False,
         "valid_from": "2025-03-01", "authority": "NORM"},
    ]  # fmt: skip
    facts = tmp_path / "norms.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    with Brain.open(None) as brain:
        brain.load([facts], source="regulation")
        claim = [{"id": "1", "subject": "expired_ppe", "predicate": "permitted", "object": "work_at_height"}]
        assert brain.at("2025-02-28").verify(claim)[0].verdict.value == "NOT_ENOUGH_INFO"
        [after] = brain.at("2025-03-01").verify(claim)
        assert after.verdict.value == "REFUTED"
        assert dict(after.intervals).popitem()[1] == "2025-03-01.."


def test_an_unreadable_time_is_refused(kb: Path) -> None:
    with Brain.open(kb, read_only=True) as brain, pytest.raises(InvalidTime, match="'last spring' is not a date"):
        brain.at("last spring")
    assert issubclass(InvalidTime, InputError)


def _cli(kb: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kgbrain", "--db", str(kb), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_the_cli_takes_as_of_on_every_reading_command(kb: Path, tmp_path: Path) -> None:
    done = _cli(kb, "facts", "pluto", "--as-of", "2000")
    assert done.returncode == 0, done.stderr
    assert "is_a dwarf_planet  [out_of_time" in done.stdout
    assert "valid 1930-02-18..2006-08-23" in done.stdout
    claims = tmp_path / "c.jsonl"
    claims.write_text(json.dumps({"id": "1", "subject": "pluto", "predicate": "is_a", "object": "planet"}) + "\n")
    done = _cli(kb, "verify", str(claims), "--as-of", "2000")
    assert json.loads(done.stdout.splitlines()[0])["verdict"] == "SUPPORTED", done.stderr
    done = _cli(kb, "query", "is_a(pluto, Y)", "--as-of", "2010", "--json")
    assert json.loads(done.stdout)["rows"] == [{"Y": "dwarf_planet"}], done.stderr
    draft = tmp_path / "draft.txt"
    draft.write_text("Pluto is a planet.", encoding="utf-8")
    done = _cli(kb, "check-answer", str(draft), "--as-of", "1990", "--json")
    assert done.returncode == 0, done.stderr
    for command in (["ask", "Is Pluto a planet?"], ["facts", "pluto"], ["query", "is_a(pluto, Y)"]):
        done = _cli(kb, *command, "--as-of", "someday")
        assert done.returncode == 2
        assert "Invalid value for '--as-of': 'someday' is not a date" in done.stderr  # names the option
