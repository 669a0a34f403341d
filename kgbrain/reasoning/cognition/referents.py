"""Follow-ups that point back: pronouns, possessives, "then" and a role said without its holder.

After "Who is the ferry operator of Millbrook?" (answered: Seaway), "Until when was it the operator?" reads 'it' as
the answer and 'the operator' as the last question's relation with its holder: "Until when was Seaway the ferry
operator of Millbrook?". After "What was the population of Millbrook in 2012?", "Who was its mayor then?" reads
'its' as the last question's subject and 'then' as its time: "Who was the mayor of Millbrook in 2012?". Russian
alike: «До какого числа он был перевозчиком?», «Кто тогда был его мэром?».

Each referent in turn (the last answer's concepts first, then the last question's, in the order it named them)
gives a full question in words; the first the question reader understands whole, and whose statement the
knowledge base states at some time, is the reading (else the first understood whole). That question is then
asked as it is, exactly as `ask` would answer it, so a follow-up's answer is its full form's answer on every
channel. A follow-up the reader understands whole on its own, without a pronoun or "then", is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from kgbrain.language import inflect_phrase, noun_case
from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.nlu.when import Asks, TimeInQuestion, read_time


@dataclass(frozen=True, slots=True)
class Turn:
    """What the last turn offers a follow-up: its typed question, its time, what its answer named."""

    typed: Question
    time: TimeInQuestion | None
    answered: tuple[str, ...]  # the concepts the answer named that the question did not (a wh-question's values)
    named: tuple[str, ...]  # the question's concepts in the order its words named them


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What resolving needs of the knowledge base."""

    understand: Callable[[str], Question]  # a question read and linked, as `ask` reads it
    label: Callable[[str, str], str]  # a concept's label in a language
    stated: Callable[[Question], bool]  # the knowledge base states the question's statement at some time
    said: Callable[[str, str], Sequence[str]]  # the words of a text that name a predicate
    names: Callable[[str], str | None] = lambda _t: None  # the predicate a text's words name best (None: none)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A follow-up's full form in words, and what its short words were read as."""

    question: str
    said: str
    meant: str


_THEN_EN = re.compile(r"\s*\b(?:back then|at that time|then)\b", re.IGNORECASE)
_THEN_RU = re.compile(r"\s*(?<!\w)(?:тогда|в то время|в тот момент|на тот момент)(?!\w)", re.IGNORECASE)
_PRONOUN_EN = re.compile(r"(?<!\w)(?P<p>he|she|it|they|him|them)(?!\w)", re.IGNORECASE)
_POSSESSIVE_EN = re.compile(
    r"(?<!\w)(?:its|his|her|their)\s+(?P<np>[\w-]+(?:\s+(?!(?:is|was|are|were|has|have|had|do|does|did|in|on|at|"
    r"as|since|until|now|still)\b)[\w-]+)*?)(?=\s*(?:\b(?:is|was|are|were|has|have|had|do|does|did|in|on|at|as|"
    r"since|until|now|still)\b|[?.!,]|$))",
    re.IGNORECASE,
)
# A Russian third-person pronoun and the case it is in («у него»: the genitive); «его/её/их» before a noun is a
# possessive, read apart.
_PRONOUN_RU: dict[str, str] = {
    "он": "nomn", "она": "nomn", "оно": "nomn", "они": "nomn", "него": "gent", "неё": "gent", "нее": "gent",
    "них": "gent", "ему": "datv", "ей": "datv", "им": "ablt", "ним": "ablt", "ней": "ablt", "ими": "ablt",
    "ними": "ablt", "нём": "loct", "нем": "loct", "его": "accs", "её": "accs", "ее": "accs", "их": "accs",
}  # fmt: skip
_POSSESSIVE_RU = frozenset({"его", "её", "ее", "их"})
_WORD = re.compile(r"[\w-]+")


def resolve(question: str, turn: Turn, kb: Knowledge, language: str) -> Resolved | None:
    """The full form of a follow-up that points back to the last turn, or None (it stands alone, or no referent
    gives a question understood whole)."""
    then = (_THEN_RU if language == "ru" else _THEN_EN).search(question)
    text = question[: then.start()] + question[then.end() :] if then is not None else question
    own = read_time(text)
    points = _points_back(text, language)
    if not points and then is None and _whole(kb.understand(_untimed(text))):
        return None
    candidates = [*dict.fromkeys([*turn.answered, *turn.named])] if points else []
    found = _first_reading(text, candidates or [None], turn, kb, language)
    if found is None:
        return None
    full = found if own is not None else _with_time(found, _context(turn.time))
    if full.strip(" ?") == question.strip(" ?"):
        return None
    return Resolved(full, question.strip(), full)


def _context(when: TimeInQuestion | None) -> TimeInQuestion | None:
    """The time a follow-up without one of its own is asked at: the last question's time, or the time its "since
    when" / "until when" was asked at (None: now)."""
    if when is None or when.asks is Asks.NOW:
        return None  # as of now, which a question without a time is asked at anyway
    if when.asks not in (Asks.UNTIL, Asks.SINCE, Asks.WHEN):
        return when
    if when.when is None:
        return None
    ru = bool(re.search(r"[а-яё]", when.phrase, re.IGNORECASE))
    return TimeInQuestion(Asks.AT, when.when, "", f"{'в' if ru else 'in'} {when.when}")


def _untimed(text: str) -> str:
    found = read_time(text)
    return found.question if found is not None else text


def _first_reading(text: str, candidates: Sequence[str | None], turn: Turn, kb: Knowledge, language: str) -> str | None:
    """The first full question a referent gives that the reader understands whole and the KB states (else the
    first understood whole)."""
    understood: list[str] = []
    named = _concepts_said(_untimed(text), kb)
    for referent in candidates:
        if referent is not None and referent in named:
            continue
        said = _put(text, referent, kb, language) if referent is not None else text
        for full in (said, _with_holder(said, referent, turn, kb, language)):
            if full is None:
                continue
            q = kb.understand(_untimed(full))
            if not _whole(q) or _twice(q) or (referent is not None and not _names(full, q, referent)):
                continue
            if kb.stated(q):
                return full
            understood.append(full)
    return understood[0] if understood else None


def _names(full: str, q: Question, referent: str) -> bool:
    """The full question names the referent: in a slot, or as the term it asks before or after ("after Harlow")."""
    found = read_time(full)
    return referent in q.concepts or (found is not None and found.asks in (Asks.BEFORE, Asks.AFTER))


def _concepts_said(words: str, kb: Knowledge) -> tuple[str, ...]:
    return kb.understand(words).concepts


def _whole(q: Question) -> bool:
    return q.linked and q.intent is not Intent.UNKNOWN and not q.unresolved and bool(q.concepts)


def _twice(q: Question) -> bool:
    return len(set(q.concepts)) < len(q.concepts)


def _points_back(words: str, language: str) -> bool:
    if language == "ru":
        return any(w.casefold() in _PRONOUN_RU for w in _WORD.findall(words))
    return _PRONOUN_EN.search(words) is not None or _POSSESSIVE_EN.search(words) is not None


def _put(words: str, referent: str, kb: Knowledge, language: str) -> str:
    """`words` with their pronouns and possessives saying `referent`."""
    name = kb.label(referent, language)
    if language == "ru":
        return _put_ru(words, name)
    out = _POSSESSIVE_EN.sub(lambda m: f"the {m['np']} of {name}", words)
    return _PRONOUN_EN.sub(lambda _m: name, out)


def _put_ru(words: str, name: str) -> str:
    """«его мэром» -> «мэром Миллбрука»; «у него» -> «у нейрона»; «он» -> «Сиуэй»."""
    from kgbrain.language import is_verb

    tokens = words.split(" ")
    out: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        bare = token.strip("?.,!").casefold()
        case = _PRONOUN_RU.get(bare)
        if case is None:
            out.append(token)
            i += 1
            continue
        tail = token[len(token.rstrip("?.,!")) :]
        following = tokens[i + 1] if i + 1 < len(tokens) else ""
        if bare in _POSSESSIVE_RU and following and not tail and noun_case(following.strip("?.,!")) is not None:
            noun, ends = _noun_run(tokens, i + 1, is_verb)
            out += [*noun[:-1], noun[-1].rstrip("?.,!"), inflect_phrase(name, "gent") + ends]
            i += len(noun) + 1
            continue
        out.append(inflect_phrase(name, case) + tail)
        i += 1
    return " ".join(out)


def _noun_run(tokens: Sequence[str], start: int, is_verb: Callable[[str], bool]) -> tuple[list[str], str]:
    """The noun phrase after a possessive (up to a verb or the end of the sentence) and its closing punctuation."""
    run: list[str] = []
    for token in tokens[start:]:
        bare = token.rstrip("?.,!")
        if run and (is_verb(bare) or noun_case(bare) is None):
            break
        run.append(token)
        if bare != token:
            break
    last = run[-1]
    return run, last[len(last.rstrip("?.,!")) :]


def _with_holder(text: str, referent: str | None, turn: Turn, kb: Knowledge, language: str) -> str | None:
    """`text` with the words naming the last question's relation said whole and with its holder ("the operator" ->
    "the ferry operator of Millbrook", «перевозчиком» -> «паромным перевозчиком Миллбрука»); None when they do not
    name it, or the holder is named already."""
    typed = turn.typed
    predicate = typed.verb if typed.intent in (Intent.WH, Intent.DOES) else ""
    if typed.intent is Intent.VALUE and len(typed.concepts) == 2:
        predicate = typed.concepts[1]
    holders = [c for c in typed.concepts if c not in (referent, predicate)]
    said = list(kb.said(text, predicate)) if predicate and holders else []
    if not said and holders:  # "Who was the mayor then?" after a question about Millbrook's population
        predicate = kb.names(_untimed(text)) or ""
        said = list(kb.said(text, predicate)) if predicate and predicate not in holders else []
    if not said:
        return None
    holder = holders[0]
    if holder in _concepts_said(_untimed(text), kb):
        return None
    spans = [m for w in said if (m := re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE))]
    if not spans:
        return None
    start, end = min(m.start() for m in spans), max(m.end() for m in spans)
    whole = kb.label(predicate, language)
    if language == "ru":
        case = next((c for c in map(noun_case, said) if c is not None), None)
        put = f"{inflect_phrase(whole, case) if case else whole} {inflect_phrase(kb.label(holder, 'ru'), 'gent')}"
    else:
        put = f"{whole} of {kb.label(holder, 'en')}"
    return text[:start] + put + text[end:]


def _with_time(text: str, when: TimeInQuestion | None) -> str:
    """The question with the time it is asked at in words ("Who was the mayor of Millbrook in 2012?")."""
    if when is None or not when.phrase:
        return text
    if when.asks in (Asks.UNTIL, Asks.SINCE, Asks.WHEN):
        return f"{when.phrase[:1].upper()}{when.phrase[1:]} {text[:1].lower()}{text[1:]}"
    return f"{text.rstrip(' ?')} {when.phrase}?"
