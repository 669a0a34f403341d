"""Time in a question: "in 2010", «в 2000 году», "last year", «в прошлом году», "still", "currently", "until when",
«до какого числа», "since when".

`read_time` finds one time expression, says what it asks (`At`: the question as of a written time; `NOW`: as of
the present; `UNTIL` / `SINCE`: when the statement stops or starts holding, asked over all time) and gives the
question without it, in the present tense ("Was Pluto a planet in 2000?" -> "Is Pluto a planet?", «Был ли
Плутон планетой в 2000 году?» -> «Является ли Плутон планетой?»), which the question readers understand.
Returns data only; the answer's words about time are output/time_words.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import Enum
from functools import partial


class Asks(str, Enum):
    """What the time expression asks."""

    AT = "at"  # as of a written time
    NOW = "now"  # as of the present ("still", "currently")
    UNTIL = "until"  # when it stops holding
    SINCE = "since"  # when it started holding
    WHEN = "when"  # when it holds: its interval ("When was X the P of Y?"), asked over all time
    BEFORE = "before"  # as of the day before a named value started holding ("Who coached Zenit before Spalletti?")
    AFTER = "after"  # as of the day after it stopped holding


@dataclass(frozen=True, slots=True)
class TimeInQuestion:
    """A question's time expression: what it asks, the written time (AT only), and the question without it."""

    asks: Asks
    when: str | None  # UNTIL/SINCE in a conversation: the time what they ask about was found at; BEFORE/AFTER: a name
    question: str
    phrase: str  # the words read as time, as written


_DATE = r"(\d{4}(?:-\d{2}(?:-\d{2})?)?)"
# Order matters: the longer phrase first. Each pattern's group "date" (when present) is the written time.
_PATTERNS: tuple[tuple[Asks, re.Pattern[str]], ...] = tuple(
    (asks, re.compile(p, re.IGNORECASE))
    for asks, p in (
        # "How long does concrete take to cure?" asks a duration (a value), not until when something held
        (Asks.UNTIL, r"\b(?:until|till|up to) when\b|\bhow long\b(?![^?]*\btakes?\b)|\bby when\b"),
        (Asks.UNTIL, r"(?<!\w)(?:до какого (?:числа|времени|года|момента|срока)|до каких пор|как долго)(?!\w)"),
        (Asks.SINCE, r"\b(?:since|from) when\b"),
        (Asks.SINCE, r"(?<!\w)(?:с какого (?:числа|времени|года|момента)|с каких пор)(?!\w)"),
        (Asks.AT, rf"\b(?:in|during|as of|on|at)\s+(?:the year\s+)?(?P<date>{_DATE})\b"),
        (Asks.AT, rf"(?<!\w)(?:в|на|по состоянию на|к)\s+(?P<date>{_DATE})(?:\s*(?:году|года|г\.|год))?(?!\w)"),
        # "before Spalletti", «до Спаллетти», «после Адвоката»: `date` holds the name (api._think_at finds its interval)
        (Asks.BEFORE, r"\s+before\s+(?P<date>(?!\d)[^?,]+?)(?=\s*\?*\s*$)"),
        (Asks.AFTER, r"\s+after\s+(?P<date>(?!\d)[^?,]+?)(?=\s*\?*\s*$)"),
        (Asks.BEFORE, r"\s+до\s+(?P<date>(?!\d)(?!того\b)(?!сих\s+пор\b)[^?,]+?)(?=\s*\?*\s*$)"),
        (Asks.AFTER, r"\s+после\s+(?P<date>(?!\d)(?!того\b)[^?,]+?)(?=\s*\?*\s*$)"),
        (Asks.AT, r"\b(?:in\s+)?(?P<year>last|this|next)\s+year\b"),
        (Asks.AT, r"(?<!\w)в\s+(?P<year>позапрошлом|прошлом|этом|текущем|следующем)\s+году(?!\w)"),
        (Asks.NOW, r"\b(?:still|currently|now|at present|today|nowadays)\b"),
        # "When was Spalletti the coach of Zenit?", «Когда Спаллетти был тренером Зенита?»: a statement's interval (a
        # question "when" asks for a value, "When was Moscow founded?", is answered as it is: api._think_at)
        (Asks.WHEN, r"^\s*when\s+(?=(?:was|were|is|are|did|does|do|has|have|had)\b)"),
        (Asks.WHEN, r"^\s*когда\s+(?!\S+\s+ли\b)"),
        (
            Asks.NOW,
            r"(?<!\w)(?:до сих пор|всё ещё|все ещё|все еще|всё еще|в настоящее время|на данный момент|сейчас)(?!\w)",
        ),
    )
)

# Past tense to present, so the readers of present-tense questions understand it (first word only).
_TENSE = (
    (re.compile(r"^\s*was\b", re.IGNORECASE), "Is"),
    (re.compile(r"^\s*were\b", re.IGNORECASE), "Are"),
    (re.compile(r"^\s*did\b", re.IGNORECASE), "Does"),
    (re.compile(r"^\s*(?:был|была|было|были)\s+ли\b", re.IGNORECASE), "Является ли"),
)


_EN_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_EN_MONTH = (
    r"(?P<month>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_RU_MONTHS = ("январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр")
_RU_MONTH = (
    r"(?P<month>январ[ьяе]|феврал[ьяе]|март[ае]?|апрел[ьяе]|ма[йяе]|июн[ьяе]|июл[ьяе]|август[ае]?|сентябр[ьяе]|"
    r"октябр[ьяе]|ноябр[ьяе]|декабр[ьяе])"
)
_ORD = r"(?:st|nd|rd|th)?"
_YEAR_WORD = r"(?:\s*(?:года|году|год|г\.))?"
# A date in words, as ISO: "5 May 2012", "May 5, 2012", "March 2012", «5 мая 2012 года», «в марте 2012 года».
_DATE_WORDS: tuple[tuple[re.Pattern[str], bool], ...] = tuple(
    (re.compile(p, re.IGNORECASE), russian)
    for p, russian in (
        (rf"\b(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_EN_MONTH}\s*,?\s+(?P<year>\d{{4}})\b", False),
        (rf"\b{_EN_MONTH}\s+(?P<day>\d{{1,2}}){_ORD}\s*,?\s+(?P<year>\d{{4}})\b", False),
        (rf"\b{_EN_MONTH}\s+(?:of\s+)?(?P<year>\d{{4}})\b", False),
        (rf"(?<!\w)(?P<day>\d{{1,2}})\s+{_RU_MONTH}\s+(?P<year>\d{{4}}){_YEAR_WORD}(?!\w)", True),
        (rf"(?<!\w){_RU_MONTH}\s+(?P<year>\d{{4}}){_YEAR_WORD}(?!\w)", True),
    )
)
_RU_BEFORE_DAY = re.compile(r"(?<!\w)(?:в|на|по состоянию на|к)\s*$", re.IGNORECASE)


def _month(word: str, russian: bool) -> int:
    word = word.casefold().rstrip(".")
    names = _RU_MONTHS if russian else _EN_MONTHS
    return next(n for n, stem in enumerate(names, 1) if word.startswith(stem) and (stem != "ма" or len(word) <= 3))


def iso_dates(question: str) -> str:
    """The question with its dates in words written as ISO dates ("on 5 May 2012" -> "on 2012-05-05", «в марте 2012
    года» -> «в 2012-03»); a day that does not exist is left as written."""
    for pattern, russian in _DATE_WORDS:
        question = pattern.sub(partial(_iso, russian=russian, question=question), question)
    return question


def _iso(m: re.Match[str], *, russian: bool, question: str) -> str:
    from datetime import date

    year, month = int(m.group("year")), _month(m.group("month"), russian)
    day = m.groupdict().get("day")
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        date(year, month, int(day))
    except ValueError:
        return m.group(0)
    iso = f"{year:04d}-{month:02d}-{int(day):02d}"
    # «Кто был тренером 5 мая 2012 года?»: a Russian date alone is read as «на» it
    return iso if not russian or _RU_BEFORE_DAY.search(question[: m.start()]) else f"на {iso}"


def read_time(question: str) -> TimeInQuestion | None:
    """The question's time expression, or None when it has none."""
    question = iso_dates(question)
    for asks, pattern in _PATTERNS:
        m = pattern.search(question)
        if m is None:
            continue
        rest = _tidy(question[: m.start()] + " " + question[m.end() :])
        when = m.group("date") if "date" in pattern.groupindex else None
        if "year" in pattern.groupindex:  # "last year": the calendar year before this one, in UTC
            when = str(datetime.now(timezone.utc).year + _YEARS_FROM_NOW[m.group("year").casefold()])
        return TimeInQuestion(asks, when, present(rest), m.group(0).strip())
    return None


_YEARS_FROM_NOW = {"last": -1, "this": 0, "next": 1, "позапрошлом": -2, "прошлом": -1, "этом": 0, "текущем": 0,
                   "следующем": 1}  # fmt: skip


# What is left of «До какого числа плутон был планетой?»: a statement, asked as «Является ли плутон планетой?».
_RU_STATEMENT = re.compile(
    r"^(?P<subject>[^,?]+?)\s+(?:был|была|было|были|является|являлся|являлась|являлось|являлись|являются)\s+"
    r"(?P<rest>[^?]+)\?$",
    re.IGNORECASE,
)


# «Каким было население Москвы?», «Какое население было у Москвы?»: a Russian wh-word of quality with a past copula
# asks what the present-tense «Каково население Москвы?» asks; the copula's gender gives the wh-word's.
_RU_WH_PAST = re.compile(r"^\s*(?:как(?:им|ой|ою|ими|ая|ое|ие|ов|ова|ово|овы))\s+(?P<rest>.*)$", re.IGNORECASE)
# The copula right after the wh-word, before «у» and the holder, or last («Какое население было у Москвы?»); elsewhere
# it is no question of quality: «Какой клуб был чемпионом?» asks which club.
_RU_COPULA = re.compile(r"(?<!\w)(?P<verb>был|была|было|были|будет|будут)(?!\w)(?P<after>\s+у\s|\s*\??\s*$)?", re.I)
_RU_WH_BY_COPULA = {"был": "Каков", "была": "Какова", "было": "Каково", "были": "Каковы", "будет": "Каков",
                    "будут": "Каковы"}  # fmt: skip


def _quality_in_present(question: str) -> str | None:
    """«Каким было население Москвы?» as «Каково население Москвы?»; None when it is no such question."""
    wh = _RU_WH_PAST.match(question)
    if wh is None:
        return None
    rest = wh.group("rest")
    copula = _RU_COPULA.search(rest)
    if copula is None or (copula.start() > 0 and copula.group("after") is None):
        return None
    kept = rest[: copula.start()] + (" у " if (copula.group("after") or "").strip() == "у" else "")
    kept += rest[copula.end() :]
    return f"{_RU_WH_BY_COPULA[copula.group('verb').casefold()]} {' '.join(kept.split())}"


_RU_WH_WORD = re.compile(
    r"(?<!\w)(?:кто|кого|кому|кем|ком|что|чего|чему|чем|какой|какая|какое|какие|каким|какими|каков\w*|где|когда|"
    r"почему|как|чей|чья|чьё|чье|чьи|чьим|чьей|сколько)(?!\w)",
    re.IGNORECASE,
)


def present(question: str) -> str:
    """The question with a leading past-tense verb in the present ("Was X a Y?" -> "Is X a Y?"), a Russian
    wh-question of quality with its copula in the present («Каким было население X?» -> «Каково население X?»),
    and a Russian statement with its copula as a yes/no question («плутон был планетой?» -> «Является ли плутон
    планетой?»)."""
    quality = _quality_in_present(question)
    if quality is not None:
        return quality
    for pattern, verb in _TENSE:
        found = pattern.match(question)
        if found is not None:
            return verb + question[found.end() :]
    m = _RU_STATEMENT.match(question)
    if m is not None and not _RU_WH_WORD.search(m.group("subject")):  # «Членом чего является Ротор?» asks
        return f"Является ли {m.group('subject')} {m.group('rest')}?"
    return question


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([?!.,])", r"\1", text)
    text = re.sub(r"^[,\s]+|,\s*(?=[?!.]$)", "", text)
    return text[:1].upper() + text[1:] if text[:1].islower() and question_word(text) else text


def question_word(text: str) -> bool:
    """The text starts with a word a question starts with (its first letter is then capitalised back)."""
    return bool(re.match(r"^(?:is|are|does|do|was|were|did|who|what|which|when|where|how)\b", text, re.IGNORECASE))
