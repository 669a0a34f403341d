"""Working memory: a conversation's focus, so follow-up questions are read against the last one.

After "What is a neuron?", "Does it divide?" reads 'it' as the last question's first concept, "And glial cells?"
(«А глиальные клетки?», «А у глиальных клеток?») asks the last question again about glial cells, and "Why?"
(«Почему?») asks why of the last question. `follow_up` returns the full question and how it read the short one;
the answer says so ("Reading 'it' as neuron."). Sessions are bounded (`MAX_SESSIONS`, least recently used go
first) and expire after `idle_seconds`. A question without a session is never touched.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from dataclasses import dataclass

MAX_SESSIONS = 1000
IDLE_SECONDS = 1800.0


@dataclass(frozen=True, slots=True)
class Focus:
    """What the last question of a conversation was about."""

    question: str  # in full, as answered
    names: tuple[tuple[str, str], ...]  # (concept id, the words of the question that named it), in order
    intent: str
    language: str


@dataclass(frozen=True, slots=True)
class Reading:
    """A follow-up read against the focus: the full question and what the short one was read as."""

    question: str
    said: str  # the words read ("it", "And glial cells?")
    meant: str  # what they were read as ("neuron")


class Conversations:
    """Focus per session id, bounded and expiring."""

    def __init__(self, *, max_sessions: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS) -> None:
        """Keep at most `max_sessions`, each for `idle_seconds` after its last question."""
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._focus: OrderedDict[str, tuple[Focus, float]] = OrderedDict()

    def get(self, session: str) -> Focus | None:
        """The session's focus (None: new, or idle too long)."""
        found = self._focus.get(session)
        if found is None:
            return None
        if time.monotonic() - found[1] > self.idle_seconds:
            del self._focus[session]
            return None
        return found[0]

    def put(self, session: str, focus: Focus) -> None:
        """Remember the session's new focus."""
        self._focus[session] = (focus, time.monotonic())
        self._focus.move_to_end(session)
        while len(self._focus) > self.max_sessions:
            self._focus.popitem(last=False)

    def __len__(self) -> int:
        return len(self._focus)


_PRONOUN_EN = re.compile(r"\b(it|they|them|this|that one)\b", re.IGNORECASE)
_PRONOUN_RU = re.compile(r"(?<!\w)(он|она|оно|они|его|её|ее|их|него|неё|нее|них)(?!\w)", re.IGNORECASE)
_ELLIPSIS = re.compile(
    r"^\s*(?:and|what about|how about|а|ну а|а как насчёт|а как насчет|а что насчёт|а что насчет)\s+"
    r"(?:(?:у|about)\s+)?(?P<other>[^?]+?)\s*\?*\s*$",
    re.IGNORECASE,
)
_WHY = re.compile(r"^\s*(?:why|почему|отчего|зачем)\s*\?*\s*$", re.IGNORECASE)


def follow_up(question: str, focus: Focus | None) -> Reading | None:
    """The full form of a follow-up question, or None when it stands alone (or there is no focus)."""
    if focus is None or not focus.names:
        return None
    words = focus.names[0][1]
    if _WHY.match(question):
        last = focus.question.rstrip("?").strip()
        full = f"{'Почему' if focus.language == 'ru' else 'Why'} {last[:1].lower()}{last[1:]}?"
        return Reading(full, question.strip(), full)
    m = _ELLIPSIS.match(question)
    if m is not None:
        other = m.group("other").strip()
        full = re.sub(re.escape(words), other, focus.question, count=1, flags=re.IGNORECASE)
        if full != focus.question:
            return Reading(full, question.strip(), full)
    pronoun = (_PRONOUN_RU if focus.language == "ru" else _PRONOUN_EN).search(question)
    if pronoun is None:
        pronoun = (_PRONOUN_EN if focus.language == "ru" else _PRONOUN_RU).search(question)
    if pronoun is not None:
        full = question[: pronoun.start()] + words + question[pronoun.end() :]
        return Reading(full, pronoun.group(0), words)
    return None


def reading_sentence(reading: Reading, language: str) -> str:
    """How the answer says it read a follow-up."""
    if language == "ru":
        return f"Читаю «{reading.said}» как «{reading.meant}»."
    return f"Reading '{reading.said}' as '{reading.meant}'."
