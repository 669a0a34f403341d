"""Comparing a claimed value with a stored one, units included: -70 mV equals -0.07 V, 5 kg is no voltage.

Values reach the deducer as text: a number, optionally followed by its unit ("-70 mV", "86000000000 neurons"),
or any other literal ("2025-06-30"). Two numbers with the same unit text (or one without a unit) compare as
numbers; different unit texts are converted with `pint`, whose registry takes the better part of a second to
build, so it is built lazily, once, and only when two unit texts differ. A unit pint does not know, or two units
of different dimensions, make the values incomparable: neither equal nor different, and the claim is left
undecided with the reason.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from kgbrain.language import unit_of_word

# Unit symbols written in Cyrillic, as Russian texts write them ("-70 мВ", "120 м/с"), to pint's symbols.
_RU_UNITS = {
    "В": "V", "мВ": "mV", "кВ": "kV", "мкВ": "uV", "А": "A", "мА": "mA", "мкА": "uA", "Вт": "W", "кВт": "kW",
    "МВт": "MW", "Гц": "Hz", "кГц": "kHz", "МГц": "MHz", "ГГц": "GHz", "м": "m", "км": "km", "см": "cm",
    "мм": "mm", "мкм": "um", "нм": "nm", "г": "g", "кг": "kg", "мг": "mg", "мкг": "ug", "нг": "ng", "пг": "pg",
    "т": "t", "с": "s", "мс": "ms", "мкс": "us", "нс": "ns", "мин": "min", "ч": "h", "сут": "day", "л": "L",
    "мл": "mL", "мкл": "uL", "Па": "Pa", "кПа": "kPa", "МПа": "MPa", "Дж": "J", "кДж": "kJ", "кал": "cal",
    "ккал": "kcal", "Н": "N", "Ом": "ohm", "кОм": "kohm", "МОм": "Mohm", "моль": "mol", "ммоль": "mmol",
    "мкмоль": "umol", "К": "K", "°С": "degC",
}  # fmt: skip
_CYRILLIC_UNIT = re.compile(r"°?[А-Яа-яЁё]+")
# A number may group its thousands with spaces, as Russian writes them ("5 000 000 кг").
_NUMBER = re.compile(
    r"^\s*([+\-\u2212]?(?:\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+\-]?\d+)?)"
    r"\s*(.*?)\s*$"
)
_REGISTRY: list[Any] = []
_CLOCK = re.compile(r"^(\d{1,2})[:.](\d{2})$")


class Match(str, Enum):
    """How a claimed value relates to a stored one."""

    SAME = "same"
    DIFFERENT = "different"
    INCOMPARABLE = "incomparable"


@dataclass(frozen=True, slots=True)
class Comparison:
    """The outcome of comparing two values, with why they could not be compared."""

    match: Match
    reason: str = ""


def split_quantity(text: str) -> tuple[float, str] | None:
    """(number, unit text) of "-70 mV", "1.5e3", "−0,07 V"; None when the text does not start with a number."""
    m = _NUMBER.match(text)
    if m is None:
        return None
    try:
        number = float(re.sub(r"[ \u00a0\u202f]", "", m.group(1)).replace("\u2212", "-").replace(",", "."))
    except ValueError:
        return None
    return number, m.group(2)


def compare(stored: str, claimed: str) -> Comparison:
    """Compare a stored value with a claimed one (both as text)."""
    clock = [_CLOCK.match(t.strip()) for t in (stored, claimed)]
    if clock[0] and clock[1]:  # "19:00" is a time of day, not 19 with a unit ":00"
        times = [(int(m[1]), int(m[2])) for m in clock if m]
        return Comparison(Match.SAME if times[0] == times[1] else Match.DIFFERENT)
    a, b = split_quantity(stored), split_quantity(claimed)
    if a is None or b is None:
        same = stored.strip().casefold() == claimed.strip().casefold()
        return Comparison(Match.SAME if same else Match.DIFFERENT)
    (x, unit_x), (y, unit_y) = a, b
    unit_x, unit_y = _latin_unit(unit_x), _latin_unit(unit_y)
    if not unit_x or not unit_y or unit_x == unit_y:
        return Comparison(Match.SAME if _close(x, y) else Match.DIFFERENT)
    converted = _convert(y, unit_y, unit_x)
    if isinstance(converted, str):
        return Comparison(Match.INCOMPARABLE, converted)
    return Comparison(Match.SAME if _close(x, converted) else Match.DIFFERENT)


def _latin_unit(unit: str) -> str:
    """ "мВ" -> "mV", "м/с" -> "m/s", a unit word in any form -> its unit («года» -> year), a currency in words or
    signs -> its ISO code («рублей», "roubles", "₽" -> RUB); another Cyrillic word is kept (pint will name it)."""
    currency = _currency(unit)
    if currency is not None:
        return currency
    return _CYRILLIC_UNIT.sub(lambda m: _RU_UNITS.get(m.group(0)) or unit_of_word(m.group(0)) or m.group(0), unit)


# Currencies by sign, code and word stem (English and Russian, any form): a price is compared in its own currency,
# never converted (two currencies are incomparable: pint knows none).
_CURRENCIES = (
    ("RUB", re.compile(r"^(?:₽|rub|rur|руб\.?|рубл[ьяейюём]\w*|roubles?|rubles?)$", re.IGNORECASE)),
    ("EUR", re.compile(r"^(?:€|eur|euros?|евро)$", re.IGNORECASE)),
    ("USD", re.compile(r"^(?:\$|usd|us\$|dollars?|доллар\w*)$", re.IGNORECASE)),
    ("GBP", re.compile(r"^(?:£|gbp|pounds? sterling|фунт\w* стерлинг\w*)$", re.IGNORECASE)),
)


def _currency(unit: str) -> str | None:
    text = unit.strip()
    return next((code for code, pattern in _CURRENCIES if pattern.match(text)), None)


def _close(x: float, y: float) -> bool:
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


def _convert(value: float, unit: str, target: str) -> float | str:
    """`value unit` in `target` units, or why it cannot be converted."""
    import pint

    if not _REGISTRY:
        _REGISTRY.append(pint.UnitRegistry())
    ureg = _REGISTRY[0]
    try:
        return float(ureg.Quantity(value, unit).to(target).magnitude)
    except pint.errors.UndefinedUnitError as exc:
        return f"unknown unit {exc.unit_names[0] if exc.unit_names else unit!r}"
    except pint.errors.DimensionalityError:
        return f"{unit!r} and {target!r} measure different quantities"
    except (pint.errors.PintError, ValueError, AttributeError, AssertionError) as exc:
        # a unit text pint cannot parse at all ("€": its expression parser fails an assertion)
        return f"cannot read the unit {unit!r} or {target!r} ({exc or type(exc).__name__})"
