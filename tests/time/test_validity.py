"""Validity intervals (issue #24 item 1): reading, storing, exporting, and succession versus overlap.

Expected instants are written out by hand from the rules in kgbrain/timeline.py's docstring (an end date is the
last day a fact held, stored as the next midnight), not computed with the code under test.
"""

from __future__ import annotations

import io
import json
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from kgbrain.api import Brain
from kgbrain.errors import InputError
from kgbrain.knowledge import Fact
from kgbrain.store import KuzuStore, schema
from kgbrain.store.queries import queries_dir
from kgbrain.timeline import InvalidTime, Window, holds, overlap, parse_from, parse_to, render_to


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=timezone.utc)  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("2010", utc(2010, 1, 1), utc(2011, 1, 1)),
        ("2010-12", utc(2010, 12, 1), utc(2011, 1, 1)),
        ("2010-02", utc(2010, 2, 1), utc(2010, 3, 1)),
        ("2012-02-29", utc(2012, 2, 29), utc(2012, 3, 1)),
        ("2010-05-03T12:30:00Z", utc(2010, 5, 3, 12, 30), utc(2010, 5, 3, 12, 30, 0, 1)),
        ("2010-05-03T14:30:00+02:00", utc(2010, 5, 3, 12, 30), utc(2010, 5, 3, 12, 30, 0, 1)),
    ],
)
def test_a_written_time_is_the_period_it_names(text: str, start: datetime, end: datetime) -> None:
    w = Window.parse(text)
    assert (w.start, w.end) == (start, end)
    assert parse_from(text) == start


def test_an_end_date_is_the_last_day_the_fact_held() -> None:
    assert parse_to("2019-12-31") == utc(2020, 1, 1)
    assert parse_to("2015") == utc(2016, 1, 1)
    assert parse_to("2020-01-01T06:00:00Z") == utc(2020, 1, 1, 6)
    assert render_to(utc(2020, 1, 1)) == "2019-12-31"


@pytest.mark.parametrize("text", ["2010-13", "2011-02-29", "yesterday", "20100", ""])
def test_an_unreadable_time_is_refused_with_the_text(text: str) -> None:
    with pytest.raises(InvalidTime, match="not a"):
        Window.parse(text)


def test_holding_is_overlap_with_the_window() -> None:
    start, end = utc(2019, 10, 7), utc(2023, 5, 2)  # "2019-10-07".."2023-05-01"
    assert holds(start, end, Window.parse("2023-05-01"))
    assert not holds(start, end, Window.parse("2023-05-02"))
    assert not holds(start, end, Window.parse("2019-10-06"))
    assert holds(start, end, Window.parse("2019"))  # part of 2019
    assert holds(None, None, Window.parse("1066"))
    assert holds(start, None, Window.parse("2999"))


def test_succession_touching_and_handover_are_not_overlap() -> None:
    assert not overlap((None, utc(2020, 1, 1)), (utc(2020, 1, 1), None))  # to 2019-12-31, from 2020-01-01
    assert not overlap((None, utc(2020, 1, 2)), (utc(2020, 1, 1), None))  # to 2020-01-01, from 2020-01-01
    assert overlap((None, utc(2020, 1, 3)), (utc(2020, 1, 1), None))
    assert overlap((None, None), (utc(2020, 1, 1), None))
    assert overlap((utc(2000, 1, 1), None), (utc(2010, 1, 1), None))


FACTS = [
    {"subject": "saturn", "predicate": "moon_count", "value": 82, "valid_from": "2019-10-07", "valid_to": "2023-05-01"},
    {"subject": "saturn", "predicate": "moon_count", "value": 146, "valid_from": "2023-05-02"},
    {"subject": "moon_count", "predicate": "property_type", "value": "functional"},
    {"subject": "pluto", "predicate": "is_a", "object": "planet", "valid_from": 1930, "valid_to": "2006-08-23"},
    {"subject": "pluto", "predicate": "is_a", "object": "dwarf_planet", "valid_from": "2006-08-24T12:00:00Z"},
]


def _write(tmp_path: Path, rows: list[dict[str, object]], name: str = "facts.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _intervals(brain: Brain) -> dict[tuple[str, str, str], tuple[str | None, str | None]]:
    out = io.StringIO()
    brain.export(out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    return {
        (r["subject"], r["predicate"], str(r.get("object", r.get("value")))): (r.get("valid_from"), r.get("valid_to"))
        for r in rows
        if "fact_id" in r
    }


EXPECTED = {
    ("saturn", "moon_count", "82"): ("2019-10-07", "2023-05-01"),
    ("saturn", "moon_count", "146"): ("2023-05-02", None),
    ("pluto", "is_a", "planet"): ("1930-01-01", "2006-08-23"),
    ("pluto", "is_a", "dwarf_planet"): ("2006-08-24T12:00:00Z", None),
}


def test_intervals_survive_export_and_load(tmp_path: Path) -> None:
    with Brain.open(None) as brain:
        brain.load([_write(tmp_path, FACTS)], source="nasa")
        first = _intervals(brain)
        assert first == EXPECTED
        out = io.StringIO()
        brain.export(out)
    again = tmp_path / "again.jsonl"
    again.write_text(out.getvalue(), encoding="utf-8")
    with Brain.open(None) as brain:
        brain.load([again])
        assert _intervals(brain) == EXPECTED


def test_csv_takes_intervals_too(tmp_path: Path) -> None:
    path = tmp_path / "facts.csv"
    path.write_text(
        "subject,predicate,object,valid_from,valid_to\npluto,is_a,planet,1930,2006-08-23\npluto,is_a,star,,\n",
        encoding="utf-8",
    )
    with Brain.open(None) as brain:
        brain.load([path])
        got = _intervals(brain)
    assert got[("pluto", "is_a", "planet")] == ("1930-01-01", "2006-08-23")
    assert got[("pluto", "is_a", "star")] == (None, None)


def test_the_interval_is_part_of_the_statement(tmp_path: Path) -> None:
    rows = [
        {"subject": "x", "predicate": "head_of", "object": "y", "valid_from": "2000", "valid_to": "2004"},
        {"subject": "x", "predicate": "head_of", "object": "y", "valid_from": "2010", "valid_to": "2014"},
        {"subject": "x", "predicate": "head_of", "object": "z"},
    ]
    with Brain.open(None) as brain:
        brain.load([_write(tmp_path, rows)], source="s")
        ids = {f.fact_id for f in brain.facts("x").facts}
        out = io.StringIO()
        brain.export(out)
    exported = [json.loads(line) for line in out.getvalue().splitlines() if '"head_of"' in line]
    assert len(exported) == 3
    # an interval-free fact keeps the id it had before intervals existed
    plain = Fact("x", "head_of", "z", source="s")
    assert plain.fact_id in {r["fact_id"] for r in exported}
    timed = Fact("x", "head_of", "y", source="s", valid_from=utc(2000, 1, 1), valid_to=utc(2005, 1, 1))
    assert timed.fact_id in {r["fact_id"] for r in exported}
    assert ids == {r["fact_id"] for r in exported}


@pytest.mark.parametrize(
    ("row", "field"),
    [
        ({"valid_from": "2010", "valid_to": "2009"}, "valid_to"),
        ({"valid_from": "sometime"}, "valid_from"),
        ({"valid_to": True}, "valid_to"),
    ],
)
def test_a_bad_interval_names_the_line_and_field_and_loads_nothing(
    tmp_path: Path, row: dict[str, object], field: str
) -> None:
    rows = [
        {"subject": "a", "predicate": "is_a", "object": "b"},
        {"subject": "c", "predicate": "is_a", "object": "d", **row},
    ]
    with Brain.open(None) as brain:
        with pytest.raises(InputError, match=rf":2: field '{field}'"):
            brain.load([_write(tmp_path, rows)])
        assert brain.stats().facts == 0


def _conflicts(brain: Brain) -> list[set[str]]:
    return [{f.target for f in c.facts} for c in brain.conflicts()]


def test_succession_is_not_a_conflict_and_overlap_is(tmp_path: Path) -> None:
    base = [r for r in FACTS if r["subject"] != "pluto"]
    with Brain.open(None) as brain:
        brain.load([_write(tmp_path, base)], source="nasa")
        assert _conflicts(brain) == []
        brain.load(
            [_write(tmp_path, [{"subject": "saturn", "predicate": "moon_count", "value": 83, "valid_from": "2020",
                                "valid_to": "2020"}], "b.jsonl")],
            source="other",
        )  # fmt: skip
        assert _conflicts(brain) == [{"82", "83"}]


def test_values_without_intervals_conflict_as_before(tmp_path: Path) -> None:
    rows = [
        {"subject": "moon_count", "predicate": "property_type", "value": "functional"},
        {"subject": "saturn", "predicate": "moon_count", "value": 82},
        {"subject": "saturn", "predicate": "moon_count", "value": 146},
    ]
    with Brain.open(None) as brain:
        brain.load([_write(tmp_path, rows)])
        assert _conflicts(brain) == [{"82", "146"}]


def test_a_version_4_database_is_migrated_to_take_intervals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    older = tmp_path / "queries"
    shutil.copytree(queries_dir(), older)
    for path in (older / "migrations").glob("*.cypher"):
        if int(path.name.split("_")[0]) >= 5:
            path.unlink()
    monkeypatch.setattr(schema, "queries_dir", lambda: older)
    db = tmp_path / "kb.kuzu"
    with KuzuStore(db) as store:
        assert store.schema_version == 4
        store.ddl(
            "CREATE (:Concept {id: 'a'})-[:IS_A {fact_id: 'f_old', predicate: 'is_a', polarity: true, "
            "confidence: 1.0, status: 'active'}]->(:Concept {id: 'b'})",
            what="test",
        )
    monkeypatch.undo()
    with Brain.open(db) as brain:
        assert brain.store.schema_version == schema.latest_version()
        facts = {f.fact_id: f for f in brain.facts("a").facts}
        out = io.StringIO()
        brain.export(out)
    row = next(json.loads(line) for line in out.getvalue().splitlines() if "f_old" in line)
    assert "valid_from" not in row
    assert "valid_to" not in row
    assert (facts["f_old"].valid_from, facts["f_old"].valid_to) == (None, None)
