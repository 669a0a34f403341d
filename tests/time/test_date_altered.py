"""A date-altered set (issue #24 item 4): the same facts with intervals, claims and questions as of several dates.

The facts are generated here with year-granular successions (each statement holds from one year up to the year
before its successor's). Every expected verdict and answer is computed in this file from those intervals, not
by kgbrain: a class claim holds when its interval covers the asked time; a value of a functional attribute is
SUPPORTED when it holds then, REFUTED when another value holds then, NOT_ENOUGH_INFO when none does.
"""

from __future__ import annotations

import json
import random

import pytest

from kgbrain.api import Brain

RNG = random.Random(24)
ENTITIES = [f"station_{i}" for i in range(6)]
KINDS = ["observatory", "museum", "school", "archive"]
FIRST, LAST = 1950, 2020


def _succession() -> list[tuple[str, int, int | None]]:
    """(value, first year, last year or None) pieces that follow each other without overlap, maybe with a gap."""
    years = sorted(RNG.sample(range(FIRST, LAST), RNG.randint(2, 4)))
    out = []
    for i, start in enumerate(years):
        end = max(start, years[i + 1] - 1 - RNG.choice([0, 0, 3])) if i + 1 < len(years) else None
        out.append((RNG.choice(KINDS) if not out else RNG.choice([k for k in KINDS if k != out[-1][0]]), start, end))
    return out


KIND_OF = {e: _succession() for e in ENTITIES}
STAFF_OF = {e: [(str(RNG.randint(3, 90)), a, b) for _, a, b in _succession()] for e in ENTITIES}
YEARS = sorted({FIRST - 5, LAST + 3, *RNG.sample(range(FIRST, LAST), 8)})


def _holds(first: int, last: int | None, year: int) -> bool:
    return first <= year and (last is None or year <= last)


def _rows() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = [{"subject": "staff_count", "predicate": "property_type", "value": "functional"}]
    for e in ENTITIES:
        for kind, a, b in KIND_OF[e]:
            rows.append({"subject": e, "predicate": "is_a", "object": kind, "valid_from": str(a)} | _to(b))
        for value, a, b in STAFF_OF[e]:
            rows.append({"subject": e, "predicate": "staff_count", "value": int(value), "valid_from": str(a)} | _to(b))
    return rows


def _to(last: int | None) -> dict[str, object]:
    return {"valid_to": str(last)} if last is not None else {}


@pytest.fixture(scope="module")
def brain(tmp_path_factory: pytest.TempPathFactory) -> Brain:
    facts = tmp_path_factory.mktemp("date_altered") / "facts.jsonl"
    facts.write_text("".join(json.dumps(r) + "\n" for r in _rows()), encoding="utf-8")
    b = Brain.open(None)
    b.load([facts], source="registry")
    assert b.conflicts() == []  # successions only: nothing overlaps
    return b


@pytest.mark.parametrize("year", YEARS)
def test_class_claims_as_of_each_year(brain: Brain, year: int) -> None:
    claims = [{"id": f"{e}-{k}", "subject": e, "predicate": "is_a", "object": k} for e in ENTITIES for k in KINDS]
    got = {v.id: v.verdict.value for v in brain.at(str(year)).verify(claims)}
    expected = {
        f"{e}-{k}": "SUPPORTED"
        if any(kind == k and _holds(a, b, year) for kind, a, b in KIND_OF[e])
        else "NOT_ENOUGH_INFO"
        for e in ENTITIES
        for k in KINDS
    }
    assert got == expected


@pytest.mark.parametrize("year", YEARS)
def test_functional_values_as_of_each_year(brain: Brain, year: int) -> None:
    values = sorted({v for e in ENTITIES for v, _, _ in STAFF_OF[e]})
    claims = [
        {"id": f"{e}={v}", "subject": e, "predicate": "staff_count", "object": v} for e in ENTITIES for v in values
    ]
    got = {v.id: v.verdict.value for v in brain.at(str(year)).verify(claims)}
    expected = {}
    for e in ENTITIES:
        held = {v for v, a, b in STAFF_OF[e] if _holds(a, b, year)}
        for v in values:
            expected[f"{e}={v}"] = "SUPPORTED" if v in held else "REFUTED" if held else "NOT_ENOUGH_INFO"
    assert got == expected


@pytest.mark.parametrize("year", YEARS[1:-1:2])
def test_questions_with_the_year_in_them(brain: Brain, year: int) -> None:
    for e in ENTITIES[:3]:
        for kind in KINDS[:2]:
            out = brain.think(f"Was {e} a {kind} in {year}?")
            yes = any(k == kind and _holds(a, b, year) for k, a, b in KIND_OF[e])
            assert out.text.startswith("Yes") == yes, (e, kind, year, out.text)
            assert f"As of {year}." in out.text


def test_the_set_exercises_every_verdict() -> None:
    # Not a vacuous set: across the years asked, each kind of expectation occurs.
    kinds = set()
    for year in YEARS:
        for e in ENTITIES:
            held = {v for v, a, b in STAFF_OF[e] if _holds(a, b, year)}
            kinds.add("held" if held else "none")
            kinds.add("other" if held and len({v for v, _, _ in STAFF_OF[e]} - held) else "-")
    assert {"held", "none", "other"} <= kinds
