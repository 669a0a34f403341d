"""What an answer says about time (RU/EN): the time it was answered as of and the interval of each fact it rests on.

A question with a time in it (reasoning/nlu/when.py) gets one or two sentences after the answer: "As of 2010."
and "Valid from 2006-08-24 on." for the facts used; "until when" / «до какого числа» questions get the end
("Until 2006-08-23."), "since when" the start, "when" the interval ("From 2010-01-01 to 2014-12-31."). Only the
facts the answer rests on count (context steps, such as an out-of-time fact shown beside it, are not what the
answer says holds).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.nlu.when import Asks, TimeInQuestion
from kgbrain.reasoning.results import Step
from kgbrain.reasoning.views.timed import Interval, Timeline
from kgbrain.timeline import render_from, render_to


def evidence_intervals(steps: Sequence[Step], timeline: Timeline) -> list[Interval]:
    """The distinct intervals of the facts the steps rest on, in first-use order."""
    ids = [f for st in steps if st.rule != R.CTX_INACTIVE_FACT for f in st.facts]
    found = timeline.intervals
    return list(dict.fromkeys(found[f] for f in ids if f in found))


def time_sentence(asked: TimeInQuestion, language: str, intervals: Iterable[Interval]) -> str:
    """The sentence(s) about time that follow the answer to `asked`."""
    ru = language == "ru"
    spans = list(intervals)
    if asked.asks is Asks.UNTIL:
        ends = [render_to(end) for _, end in spans if end is not None]
        if ends:
            return ("До " if ru else "Until ") + ", ".join(ends) + "."
        if spans:
            return "Срок окончания не указан." if ru else "No end is stated."
        return "Срок действия в базе знаний не указан." if ru else "The knowledge base states no validity interval."
    if asked.asks is Asks.SINCE:
        starts = [render_from(start) for start, _ in spans if start is not None]
        if starts:
            return ("С " if ru else "Since ") + ", ".join(starts) + "."
        if spans:
            return "Дата начала не указана." if ru else "No start is stated."
        return "Срок действия в базе знаний не указан." if ru else "The knowledge base states no validity interval."
    if asked.asks is Asks.WHEN:  # "When was X the P of Y?": the interval itself
        return " ".join(_held(start, end, ru) for start, end in spans)
    head = _as_of(asked, ru)
    valid = " ".join(_valid(start, end, ru) for start, end in spans)
    return f"{head} {valid}".strip()


def _as_of(asked: TimeInQuestion, ru: bool) -> str:
    if asked.asks is Asks.NOW:
        return "На текущий момент." if ru else "As of now."
    return f"По состоянию на {asked.when}." if ru else f"As of {asked.when}."


def held_sentence(start: datetime, end: datetime, language: str) -> str:
    """When a statement that no longer holds did hold ("It held from 2012-01-01 to 2017-12-31.")."""
    a, b = render_from(start), render_to(end)
    return f"Это было верно с {a} по {b}." if language == "ru" else f"It held from {a} to {b}."


def _held(start: datetime | None, end: datetime | None, ru: bool) -> str:
    if start is not None and end is not None:
        a, b = render_from(start), render_to(end)
        return f"С {a} по {b}." if ru else f"From {a} to {b}."
    return _valid(start, end, ru)


def _valid(start: datetime | None, end: datetime | None, ru: bool) -> str:
    if start is not None and end is not None:
        a, b = render_from(start), render_to(end)
        return f"Действует с {a} по {b}." if ru else f"Valid from {a} to {b}."
    if start is not None:
        return f"Действует с {render_from(start)}." if ru else f"Valid from {render_from(start)} on."
    if end is not None:
        return f"Действует по {render_to(end)}." if ru else f"Valid until {render_to(end)}."
    return ""
