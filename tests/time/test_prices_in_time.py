"""Prices in time (#24: "a regulation that applies from 1 March", a fare that changed): a currency written as a word
or a sign in either language is the stored currency code («50 рублей», "50 roubles", "50 ₽" ~ 50 RUB), so a claim
or a draft about a price is decided as of its time; two currencies are never converted (incomparable)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kgbrain.api import Brain
from kgbrain.models import CheckAnswerOut
from kgbrain.reasoning.modes.quantities import Match, compare
from tests.conftest import write_jsonl
from tests.service.conftest import NO_BLOCK
from tests.time.seasons import cli

# the fare: (value in RUB, first year, last year)
FARES = [(50, 2015, 2019), (60, 2020, 2030)]
ROWS: list[dict[str, Any]] = [
    {"subject": "metro_ticket", "predicate": "label", "value": "metro ticket", "lang": "en"},
    {"subject": "metro_ticket", "predicate": "label", "value": "билет метро", "lang": "ru"},
    {"subject": "price", "predicate": "label", "value": "price", "lang": "en"},
    {"subject": "price", "predicate": "label", "value": "цена", "lang": "ru"},
    {"subject": "price", "predicate": "property_type", "value": "functional"},
] + [
    {"subject": "metro_ticket", "predicate": "price", "value": v, "unit": "RUB", "valid_from": str(a),
     "valid_to": str(b)}
    for v, a, b in FARES
]  # fmt: skip
SAID = ["{v} рублей", "{v} руб.", "{v} ₽", "{v} roubles", "{v} rubles", "{v} RUB"]


@pytest.mark.parametrize(
    ("stored", "claimed", "match"),
    [("50 RUB", "50 рублей", Match.SAME), ("50 RUB", "50 рубля", Match.SAME), ("2 EUR", "2 €", Match.SAME),
     ("2 EUR", "2 евро", Match.SAME), ("5 USD", "5 dollars", Match.SAME), ("50 RUB", "60 рублей", Match.DIFFERENT),
     ("2 EUR", "2 USD", Match.INCOMPARABLE), ("2 EUR", "2 km", Match.INCOMPARABLE), ("5 km", "5 км", Match.SAME)],
)  # fmt: skip
def test_a_currency_in_words_or_signs_is_its_code(stored: str, claimed: str, match: Match) -> None:
    assert compare(stored, claimed).match is match


def _fare(year: int) -> int:
    return next(v for v, a, b in FARES if a <= year <= b)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("prices")
    config = folder / "kgbrain.toml"
    config.write_text(NO_BLOCK, encoding="utf-8")
    db = folder / "kb.kuzu"
    with Brain.open(db) as brain:
        brain.load([write_jsonl(folder / "fares.jsonl", ROWS)], source="operator")
    return db, config


def test_a_price_claim_is_decided_as_of_its_time(kb: tuple[Path, Path]) -> None:
    db, config = kb
    cases = [(s.format(v=v), year) for s in SAID for v, _, _ in FARES for year in (2017, 2022)]
    claims = [{"id": f"{n}", "subject": "metro_ticket", "predicate": "price", "value": said}
              for n, (said, _) in enumerate(cases)]  # fmt: skip
    drafts = {"ru": "Цена билета метро — {said}.", "en": "The price of a metro ticket is {said}."}
    with Brain.open(db, read_only=True) as brain:
        for (said, year), claim in zip(cases, claims, strict=True):
            expected = "SUPPORTED" if said.startswith(str(_fare(year))) else "REFUTED"
            [verdict] = brain.at(str(year)).verify([claim])
            assert verdict.verdict == expected, (said, year, verdict.explanation)
            for template in drafts.values():
                report = CheckAnswerOut.from_report(brain.at(str(year)).check_answer(template.format(said=said)))
                got = [c.verdict for c in report.claims]
                assert got == ["supported" if expected == "SUPPORTED" else "contradicted"], (said, year, got)
    claims_file = write_jsonl(db.parent / "claims.jsonl", claims)
    for year in (2017, 2022):
        lines = cli(db, config, "verify", str(claims_file), "--as-of", str(year)).splitlines()
        got = {json.loads(line)["id"]: json.loads(line)["verdict"] for line in lines}
        for (said, when), claim in zip(cases, claims, strict=True):
            if when == year:
                assert got[claim["id"]] == ("SUPPORTED" if said.startswith(str(_fare(year))) else "REFUTED")
