"""A year in a question that is the value asked about, not the time it is asked at.

"Was the Maritime Museum founded in 1905?", «Был ли музей основан в 1905 году?»: read as time, the question
becomes "Is the museum founded (as of 1905)?" and its answer a value ("… is 1911"), which answers another
question. When the question read whole claims an attribute's value and that value is the written time, the
year is the claimed value: the question is a yes/no about it ("No: 1911").
"""

from __future__ import annotations

from collections.abc import Callable

from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.nlu.when import Asks, TimeInQuestion


def time_is_value(asked: TimeInQuestion, understood: Callable[[], Question]) -> bool:
    """Whether the time `asked` found is the value the question claims or asks (`understood()` reads it whole;
    called only for a written year or date, or for "how long", which asks a duration when a measure is named)."""
    if asked.asks is Asks.UNTIL and asked.phrase.lower() in _HOW_LONG:
        q = understood()  # "How long does the tour last?": a duration, when the question names one
        return q.intent in (Intent.VALUE, Intent.VALUE_CHECK) and len(q.concepts) == 2
    if asked.asks is not Asks.AT or not asked.when or not asked.when[:4].isdigit():
        return False
    q = understood()
    return q.intent is Intent.VALUE_CHECK and len(q.concepts) == 2 and q.object.startswith(asked.when)


_HOW_LONG = frozenset({"how long", "как долго", "for how long"})
