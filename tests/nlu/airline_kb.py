"""A small airline's knowledge base (a domain of nlu's own, written for tests/nlu/test_phrase_questions.py):
aircraft of an airline's fleet with their registry country, base airport and year of manufacture, pilots who
fly them, airports in countries, causal chains with what prevents them, and crew rules stated as norms."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SOURCE = "reference/airline-handbook"


def _names(cid: str, en: str, ru: str, *aliases: tuple[str, str]) -> list[dict[str, Any]]:
    rows = [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]
    rows += [{"subject": cid, "predicate": "alias", "value": v, "lang": lang} for lang, v in aliases]
    return rows


def _fact(s: str, p: str, o: str, polarity: bool = True, **extra: Any) -> dict[str, Any]:
    return {"subject": s, "predicate": p, "object": o, "polarity": polarity, "source": SOURCE, "trust": 0.9, **extra}


def _value(s: str, p: str, v: Any, unit: str = "") -> dict[str, Any]:
    row = {"subject": s, "predicate": p, "value": v, "source": SOURCE, "trust": 0.9}
    return {**row, "unit": unit} if unit else row


def _norm(holder: str, predicate: str, action: str, polarity: bool = True) -> dict[str, Any]:
    return _fact(holder, predicate, action, polarity, authority="NORM", trust=0.95)


ROWS: list[dict[str, Any]] = [
    *_names("aircraft", "aircraft", "воздушное судно", ("ru", "самолёт")),
    *_names("airliner", "airliner", "авиалайнер"),
    *_names("cargo_plane", "cargo plane", "грузовой самолёт"),
    *_names("sky_arrow", "Sky Arrow", "Небесная стрела"),
    *_names("white_crane", "White Crane", "Белый журавль"),
    *_names("country", "country", "страна"),
    *_names("airport", "airport", "аэропорт"),
    *_names("ireland", "Ireland", "Ирландия"),
    *_names("malta", "Malta", "Мальта"),
    *_names("dublin", "Dublin", "Дублин"),
    *_names("valletta", "Valletta", "Валлетта"),
    *_names("bird_strike", "bird strike", "столкновение с птицей"),
    *_names("engine_damage", "engine damage", "повреждение двигателя"),
    *_names("emergency_landing", "emergency landing", "вынужденная посадка"),
    *_names("engine_inspection", "engine inspection", "осмотр двигателя"),
    *_names("bird_radar", "bird radar", "птичий радар"),
    *_names("thunderstorm", "thunderstorm", "гроза"),
    *_names("turbulence", "turbulence", "турбулентность"),
    *_names("flight_cancellation", "flight cancellation", "отмена рейса"),
    *_names(
        "registry_country",
        "country of registration",
        "страна регистрации",
        ("en", "registry"),
        ("en", "registration"),
        ("ru", "регистрация"),
    ),
    *_names("base_airport", "base airport", "базовый аэропорт", ("en", "home base")),
    *_names("manufacture_year", "year of manufacture", "год выпуска"),
    *_names("airline", "airline", "авиакомпания"),
    *_names("aer_green", "Aer Green", "Аэр Грин"),
    *_names("operates", "operates", "эксплуатирует"),
    *_names("operated_by", "operated by", "в эксплуатации у"),
    _fact("aer_green", "instance_of", "airline"),
    _fact("airline", "operates", "aircraft"),
    _fact("sky_arrow", "operated_by", "aer_green"),
    _fact("airliner", "is_a", "aircraft"),
    _fact("cargo_plane", "is_a", "aircraft"),
    _fact("sky_arrow", "instance_of", "airliner"),
    _fact("white_crane", "instance_of", "cargo_plane"),
    _fact("ireland", "instance_of", "country"),
    _fact("malta", "instance_of", "country"),
    _fact("dublin", "instance_of", "airport"),
    _fact("valletta", "instance_of", "airport"),
    _fact("dublin", "located_in", "ireland"),
    _fact("valletta", "located_in", "malta"),
    _fact("bird_strike", "causes", "engine_damage"),
    _fact("engine_damage", "leads_to", "emergency_landing"),
    _fact("engine_inspection", "prevents", "engine_damage"),
    _fact("bird_radar", "prevents", "bird_strike"),
    _fact("thunderstorm", "causes", "turbulence"),
    _fact("thunderstorm", "causes", "flight_cancellation"),
    *({"subject": a, "predicate": "property_type", "value": "functional"} for a in ("registry_country",)),
    _fact("sky_arrow", "registry_country", "ireland"),
    _fact("white_crane", "registry_country", "malta"),
    _fact("sky_arrow", "base_airport", "dublin"),
    _fact("white_crane", "base_airport", "valletta"),
    _value("sky_arrow", "manufacture_year", 2014, "year"),
]


def write(path: Path) -> Path:
    """The rows as a JSONL file at `path`."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    return path
