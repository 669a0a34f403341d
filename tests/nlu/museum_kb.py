"""A small museum's knowledge base (a domain of nlu's own, written for tests/nlu/test_question_wording.py):
visiting rules stated as norms on actions named by verbal nouns, a founding year, opening and closing times,
an audio guide's rental period, an exhibit's weight and a tour's duration, a museum's parts and halls."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SOURCE = "reference/museum-handbook"


def _names(cid: str, en: str, ru: str, *aliases: tuple[str, str]) -> list[dict[str, Any]]:
    rows = [
        {"subject": cid, "predicate": "label", "value": en, "lang": "en"},
        {"subject": cid, "predicate": "label", "value": ru, "lang": "ru"},
    ]
    rows += [{"subject": cid, "predicate": "alias", "value": v, "lang": lang} for lang, v in aliases]
    return rows


def _fact(s: str, p: str, o: str, polarity: bool = True, **extra: Any) -> dict[str, Any]:
    return {"subject": s, "predicate": p, "object": o, "polarity": polarity, "source": SOURCE, **extra}


def _value(s: str, p: str, v: Any, unit: str = "") -> dict[str, Any]:
    row = {"subject": s, "predicate": p, "value": v, "source": SOURCE, "trust": 0.9}
    return {**row, "unit": unit} if unit else row


def _norm(holder: str, predicate: str, action: str, polarity: bool = True) -> dict[str, Any]:
    return _fact(holder, predicate, action, polarity, authority="NORM", trust=0.95)


_ATTRIBUTES = ("founding_year", "closing_time", "opening_time", "rental_period", "weight", "duration", "lift_speed")
ROWS: list[dict[str, Any]] = [
    *_names("museum", "museum", "музей"),
    *_names("art_museum", "art museum", "художественный музей"),
    *_names("history_museum", "history museum", "исторический музей"),
    *_names("science_museum", "science museum", "научный музей"),
    *_names("ship_museum", "Maritime Museum", "Морской музей"),
    *_names("riverside_gallery", "Riverside Gallery", "Галерея на набережной"),
    *_names("naval_museum", "naval history museum", "военно-морской музей"),
    *_names("lighthouse", "The Old Lighthouse", "Старый маяк"),
    *_names("panorama_lift", "panoramic lift", "панорамный лифт"),
    *_names("lift_speed", "lifting speed", "скорость подъёма"),
    *_names("visitor", "visitor", "посетитель"),
    *_names("curator", "curator", "хранитель"),
    *_names("exhibit", "exhibit", "экспонат"),
    *_names("anchor_exhibit", "bronze anchor", "бронзовый якорь"),
    *_names("guided_tour", "guided tour", "экскурсия"),
    *_names("audio_guide", "audio guide", "аудиогид"),
    *_names("cloakroom", "cloakroom", "гардероб"),
    *_names("map_hall", "map hall", "зал карт"),
    *_names("flash_photography", "flash photography", "съёмка со вспышкой", ("ru", "фотосъёмка со вспышкой")),
    *_names("eating_in_halls", "eating in the exhibition halls", "еда в выставочных залах"),
    *_names("carrying_rucksacks", "carrying rucksacks into the halls", "пронос рюкзаков в залы"),
    *_names("touching_exhibits", "touching the exhibits", "прикосновение к экспонатам"),
    *_names("coat_check", "checking coats", "сдача верхней одежды в гардероб"),
    *_names("founding_year", "year of foundation", "год основания", ("en", "founding year")),
    *_names("closing_time", "closing time", "время закрытия"),
    *_names("opening_time", "opening time", "время открытия"),
    *_names("rental_period", "rental period", "срок проката"),
    *_names("weight", "weight", "вес", ("ru", "масса")),
    *_names("duration", "duration", "продолжительность", ("ru", "длительность")),
    *_names("wooden", "wooden", "деревянный"),
    *_names("restored", "restored", "отреставрированный"),
    *_names("ticket_office", "ticket office", "касса"),
    *_names("wing", "east wing", "восточное крыло"),
    _fact("art_museum", "is_a", "museum"),
    _fact("history_museum", "is_a", "museum"),
    _fact("science_museum", "is_a", "museum"),
    _fact("art_museum", "disjoint_with", "history_museum"),
    _fact("ship_museum", "instance_of", "history_museum"),
    _fact("naval_museum", "is_a", "history_museum"),
    _fact("lighthouse", "instance_of", "science_museum"),
    _fact("riverside_gallery", "instance_of", "art_museum"),
    _fact("anchor_exhibit", "instance_of", "exhibit"),
    _fact("wing", "part_of", "ship_museum"),
    _fact("map_hall", "part_of", "wing"),
    _fact("wing", "has_property", "restored"),
    _fact("cloakroom", "part_of", "ship_museum"),
    _fact("ticket_office", "part_of", "ship_museum"),
    _norm("visitor", "permitted", "flash_photography", polarity=False),
    _norm("visitor", "permitted", "eating_in_halls", polarity=False),
    _norm("visitor", "permitted", "carrying_rucksacks", polarity=False),
    _norm("visitor", "permitted", "touching_exhibits", polarity=False),
    _norm("visitor", "obliged_to", "coat_check"),
    *({"subject": a, "predicate": "property_type", "value": "functional"} for a in _ATTRIBUTES),
    _value("ship_museum", "founding_year", 1911, "year"),
    _value("riverside_gallery", "founding_year", 1957, "year"),
    _value("ship_museum", "closing_time", "19:00"),
    _value("ship_museum", "opening_time", "10:00"),
    _value("audio_guide", "rental_period", 3, "hours"),
    _value("anchor_exhibit", "weight", 850, "kg"),
    _value("guided_tour", "duration", 90, "min"),
    _value("panorama_lift", "lift_speed", 2, "m/s"),
]


def write(path: Path) -> Path:
    """The rows as a JSONL file at `path`."""
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    return path
