"""Working memory: a conversation's focus, so follow-up questions are read against the last one.

After "What is a neuron?", "Does it divide?" reads 'it' as the last question's first concept and "Why?"
(«Почему?») asks why of the last question. An elliptical follow-up changes one slot of the last question as it was
understood (intent, predicate, concepts, time) and leaves the rest: "And glial cells?" («А глиальные клетки?»,
«А у глиальных клеток?») replaces its first concept, "And in 2015?" («А в 2015?», «А сейчас?») its time, "And
Globex in 2015?" both; the typed question is answered again as it is, never a string glued from the two and parsed
anew. `follow_up` returns the full question and how it read the short one; the answer says so ("Reading 'it' as
neuron."). Sessions are bounded (`MAX_SESSIONS`, least recently used go first) and expire after `idle_seconds`. A
question without a session is never touched.
"""

from __future__ import annotations

import re
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kgbrain.language import detect_language, inflect_phrase, noun_case, words
from kgbrain.reasoning.cognition.referents import Knowledge, Turn, resolve
from kgbrain.reasoning.nlu.lexicon import KbLexicon
from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.nlu.when import Asks, TimeInQuestion, read_time

MAX_SESSIONS = 1000
IDLE_SECONDS = 1800.0


@dataclass(frozen=True, slots=True)
class Focus:
    """What the last question of a conversation was about."""

    question: str  # in full, as answered
    names: tuple[tuple[str, str], ...]  # (concept id, the words of the question that named it), in order
    intent: str
    language: str
    typed: Question | None = None  # the last question as understood, without its time
    time: TimeInQuestion | None = None  # the time it named (None: none)
    answered: tuple[str, ...] = ()  # the concepts its answer named that it did not (a wh-question's values)


@dataclass(frozen=True, slots=True)
class Reading:
    """A follow-up read against the focus: the full question and what the short one was read as."""

    question: str  # the full question in words (asked as such when `typed` is None)
    said: str  # the words read ("it", "And glial cells?")
    meant: str  # what they were read as ("neuron")
    typed: Question | None = None  # the last question with a slot replaced: answered as it is, not re-read
    time: TimeInQuestion | None = None  # the time `typed` is asked at (None: the conversation's own)


# Links a follow-up's words to the concepts they name (`Linker.link`).
Link = Callable[[str], Sequence[str]]


@dataclass(frozen=True, slots=True)
class Predicates:
    """The knowledge base's predicates by their words (the KB lexicon), for a follow-up that names another one."""

    named: Callable[[str], str | None]  # the one predicate the words name whole, or None
    said: Callable[[str, str], Sequence[str]]  # the words of a text that name a predicate
    relates: Callable[[str], bool] = lambda _p: True  # the predicate relates concepts (else: an attribute's value)


@dataclass(frozen=True, slots=True)
class Concepts:
    """What a follow-up needs to know of the concepts it names: their kinds and their labels."""

    kinds: Callable[[str], frozenset[str]]  # the classes a concept is an instance or a kind of
    label: Callable[[str, str], str]  # a concept's label in a language ("en" / "ru")


# What a follow-up about another predicate says besides it: «А его заместитель?», "And its deputy?".
_POSSESSIVE = re.compile(r"(?<!\w)(?:его|её|ее|их|its|his|her|their)(?!\w)\s*", re.IGNORECASE)
_CONNECTIVE = re.compile(r"^\s*(?:and|what about|how about|а|ну а|и)(?!\w)", re.IGNORECASE)


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


def follow_up(
    question: str,
    focus: Focus | None,
    link: Link | None = None,
    predicates: Predicates | None = None,
    concepts: Concepts | None = None,
    kb: Knowledge | None = None,
) -> Reading | None:
    """The full form of a follow-up question, or None when it stands alone (or there is no focus); `kb` reads
    pronouns, possessives, "then" and a role said without its holder (referents.py)."""
    if focus is None or not focus.names:
        return None
    asked = _asked_after_and(question)  # "And who was the mayor?": a question of its own after the connective
    points = asked is not None or not (_WHY.match(question) or _ELLIPSIS.match(question))
    if kb is not None and focus.typed is not None and points:
        resolved = resolve(asked or question, _turn(focus, focus.typed), kb, detect_language(question))
        if resolved is not None:
            return Reading(resolved.question, question.strip(), resolved.meant)
    if asked is not None:
        return Reading(asked, question.strip(), asked)
    words = _topic_words(focus)
    if _WHY.match(question):
        full = _why(focus)
        return Reading(full, question.strip(), full)
    when = _time_alone(question)
    if when is not None and focus.typed is not None:  # "Since when?", «До какого числа?», «А сейчас?»
        if when.asks in (Asks.UNTIL, Asks.SINCE, Asks.WHEN):  # of what the last question found at its time
            when = replace(when, when=focus.time.when if focus.time is not None else None)
        meant = _in_words(focus.typed.text, when)
        return Reading(meant, question.strip(), meant, focus.typed, when)
    m = _ELLIPSIS.match(question)
    if m is not None and focus.typed is not None:
        return _one_slot(m.group("other").strip(), question.strip(), focus, focus.typed, (link, predicates, concepts))
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


_QUESTION_WORD = re.compile(
    r"^(?:who|whom|whose|what|which|when|where|how|is|was|are|were|does|did|do|has|have|can|"
    r"кто|кого|кому|кем|что|чего|чем|как|какой|какая|какое|какие|каков|какова|каково|каковы|когда|где|сколько|"
    r"чей|чья|чьё|чье|был|была|было|были|является|есть|может)(?!\w)",
    re.IGNORECASE,
)


def _asked_after_and(question: str) -> str | None:
    """The question after a leading "and" / «а» when it is a question of its own ("And who was the mayor?" ->
    "Who was the mayor?"), else None ("And Globex?" names a slot)."""
    m = _CONNECTIVE.match(question)
    rest = question[m.end() :].strip(" ,") if m is not None else ""
    if not rest or not _QUESTION_WORD.match(rest) or _time_alone(question) is not None:
        return None
    return rest[:1].upper() + rest[1:]


def _turn(focus: Focus, typed: Question) -> Turn:
    """The last turn as a pronoun sees it: its concepts in the order its words named them."""
    said = [c for c, _ in focus.names if c in typed.concepts]
    return Turn(typed, focus.time, focus.answered, (*dict.fromkeys([*said, *typed.concepts]),))


def _why(focus: Focus) -> str:
    """The full form of "Why?" after the last question, at the time it asked about: why its statement holds ("Why
    is Pluto a planet in 2000?"); a question for a value or a holder is asked again, its answer giving the facts
    and sources it rests on ("Who coached Zenit in 2010?")."""
    if focus.typed is not None and focus.typed.intent in (Intent.WH, Intent.VALUE, Intent.COUNT, Intent.DEFINE):
        return focus.question
    last = (focus.typed.text if focus.typed is not None else focus.question).rstrip("?").strip()
    said = f"{'Почему' if focus.language == 'ru' else 'Why'} {last[:1].lower()}{last[1:]}?"
    return _in_words(said, focus.time) if focus.typed is not None else said


def _topic_words(focus: Focus) -> str:
    """The words that named the last question's first concept (its topic), else the first words linked."""
    said = dict(focus.names)
    topic = focus.typed.concepts[0] if focus.typed is not None and focus.typed.concepts else ""
    return said.get(topic) or focus.names[0][1]


_BARE_DATE = re.compile(
    r"^(?:(?:in|as of|on)\s+)?(?P<date>\d{4}(?:-\d{2}(?:-\d{2})?)?)(?:\s*(?:году|год|г\.))?$", re.IGNORECASE
)
_LEADING = re.compile(r"^(?:(?:у|about|of|for|для)\s+)+", re.IGNORECASE)


def _time_of(words: str, language: str) -> tuple[TimeInQuestion | None, str]:
    """The time a follow-up's words name (None: none) and the words left ("Globex in 2015" -> 2015, "Globex")."""
    bare = _BARE_DATE.match(words)
    if bare is not None:
        date = bare.group("date")
        return TimeInQuestion(Asks.AT, date, "", f"{'в' if language == 'ru' else 'in'} {date}"), ""
    found = read_time(words)
    if found is None:
        return None, words
    return found, _LEADING.sub("", found.question.strip(" ?,.")).strip()


_WHEN_ALONE = re.compile(r"^\s*(?:(?:and|а|и)\s+)?(?P<when>when|когда)\s*\?*\s*$", re.IGNORECASE)


def _time_alone(question: str) -> TimeInQuestion | None:
    """The time a follow-up names when it names nothing else ("Since when?", «А в 2015?», "When?"), else None."""
    alone = _WHEN_ALONE.match(question)
    if alone is not None:
        return TimeInQuestion(Asks.WHEN, None, "", alone.group("when"))
    found = read_time(question)
    if found is None or _CONNECTIVE.sub("", found.question).strip(" ?.,!"):
        return None
    return found


def _one_slot(
    other: str, said: str, focus: Focus, typed: Question, names: tuple[Link | None, Predicates | None, Concepts | None]
) -> Reading | None:
    """The last typed question with the follow-up's concept, predicate, time, or a concept and the time in place of
    the last ones."""
    link, predicates, concepts = names
    time_named, rest = _time_of(other, focus.language)
    found = list(link(rest)) if link is not None and rest else []
    # a name of a predicate, not of another concept (a predicate may be a concept of its own name too)
    bare = _ARTICLE.sub("", _POSSESSIVE.sub("", rest)).strip()
    other_predicate = _with_predicate(typed, bare, predicates, (focus, concepts)) if rest else None
    if other_predicate is not None and (not found or found == [_predicate_of(other_predicate)]):
        typed = other_predicate
    elif rest:
        one = found[0] if len(found) == 1 else None
        replaced = _same_kind(typed, one, concepts) or (typed.concepts[0] if typed.concepts else None)
        said_as = [dict(focus.names).get(replaced or "", "")]
        if replaced and concepts is not None:  # its label too: «Зенит» in «тренером Зенита»
            said_as.append(concepts.label(replaced, typed.language))
        typed = _with_topic(typed, [w for w in said_as if w], rest, one, replaced)
    elif time_named is None:
        return None
    when = time_named or focus.time
    meant = _in_words(typed.text, when)
    return Reading(meant, said, meant, typed, when)


_ARTICLE = re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE)
_ARTICLES = frozenset({"the", "a", "an"})


def _predicate_of(q: Question) -> str:
    return q.verb if q.intent is not Intent.VALUE else q.concepts[-1]


def _same_kind(typed: Question, concept: str | None, concepts: Concepts | None) -> str | None:
    """The one concept of `typed` of a kind `concept` is of too ("And Spartak?" after a question about a coach and
    a club: the club), or None (then the first is replaced)."""
    if concept is None or concepts is None or len(typed.concepts) < 2:
        return None
    kinds = concepts.kinds(concept)
    alike = [c for c in typed.concepts if kinds & concepts.kinds(c)] if kinds else []
    return alike[0] if len(alike) == 1 else None


def _with_predicate(
    typed: Question, words: str, predicates: Predicates | None, about: tuple[Focus, Concepts | None]
) -> Question | None:
    """`typed` asking the predicate `words` name instead of its own (None: they name none, or it asks none); a
    question for a holder ("Who coached Zenit?") asked of an attribute ("And the stadium capacity?") becomes a
    question for its value, and back."""
    predicate = predicates.named(words) if predicates is not None and words else None
    if predicate is None or predicates is None:
        return None
    concepts: tuple[str, ...]
    relates = predicates.relates(predicate)
    if typed.intent is Intent.VALUE and len(typed.concepts) == 2 and not relates:
        old, concepts = typed.concepts[1], (typed.concepts[0], predicate)
    elif typed.intent in (Intent.WH, Intent.DOES) and typed.verb and relates:
        old, concepts = typed.verb, typed.concepts
    elif typed.intent in (Intent.WH, Intent.VALUE, Intent.DOES) and typed.concepts:
        return _asked_of(typed, predicate, relates, words, about)
    else:
        return None
    said = list(predicates.said(typed.text, old))
    verb = predicate if typed.intent is not Intent.VALUE else typed.verb
    text, subject = _swapped(typed.text, said, words), _swapped(typed.subject, said, words)
    return replace(typed, text=text, subject=subject, verb=verb, concepts=concepts)


def _asked_of(
    typed: Question, predicate: str, relates: bool, words: str, about: tuple[Focus, Concepts | None]
) -> Question | None:
    """The question for `predicate` of the last question's holder: its value (an attribute) or its other end (a
    relation), in words a person would use ("What is the stadium capacity of Zenit?", «Каков тренер Зенита?»)."""
    focus, concepts = about
    holder = typed.object if typed.intent is Intent.WH and typed.object in typed.concepts else typed.concepts[0]
    name = concepts.label(holder, typed.language) if concepts is not None else dict(focus.names).get(holder, holder)
    if typed.language == "ru":
        asked = words if relates else inflect_phrase(words, "gent")  # «Каково значение вместимости стадиона …»
        text = f"{'Каков' if relates else 'Каково значение'} {asked} {inflect_phrase(name, 'gent')}?"
    else:
        text = f"What is the {words} of {name}?"
    if relates:  # «Каков тренер Зенита?»: the relation's other end, as a wh-question reads it
        return replace(typed, text=text, intent=Intent.WH, subject="", object=holder, verb=predicate,
                       variables=("?x",), concepts=(holder,), unresolved=())  # fmt: skip
    subject = f"{words} {name}" if typed.language == "ru" else f"{words} of {name}"
    return replace(typed, text=text, intent=Intent.VALUE, subject=subject, object="", verb="",
                   variables=("?x",), concepts=(holder, predicate), unresolved=())  # fmt: skip


def _swapped(text: str, old: Sequence[str], new: str) -> str:
    """`text` with the words `old` (as the KB lexicon read them, in order) replaced by `new`: the whole span from
    the first to the last, fillers between them included ("the head of the health department" -> "the head of the
    parks department"); Russian words put in the case the old ones were in («главой департамента здравоохранения» ->
    «главой департамента парков»)."""
    from kgbrain.reasoning.nlu.vocabulary import PARTICLES

    ends = len(old)
    while ends > 1 and old[ends - 1].casefold() in PARTICLES:  # "... department of Millbrook": "of" is the holder's
        ends -= 1
    spans: list[re.Match[str]] = []
    for word in old[:ends]:
        m = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)", re.IGNORECASE).search(text, spans[-1].end() if spans else 0)
        if m is not None:
            spans.append(m)
    if not spans:
        return text
    case = next((c for c in map(noun_case, old) if c is not None), None)
    put = inflect_phrase(new, case) if case is not None else new
    out = text[: spans[0].start()] + put + text[spans[-1].end() :]
    return re.sub(r"\s+([?.,!])", r"\1", re.sub(r"\s{2,}", " ", out)).strip()


def _with_topic(
    typed: Question, said_as: Sequence[str], words: str, concept: str | None, replaced: str | None = None
) -> Question:
    """`typed` about `concept` (named by `words`) instead of `replaced` (None: its first concept), which the
    question's words named as one of `said_as` (a word that begins so is replaced whole: «Зенита»); a name nothing
    links is kept as unresolved, so the answer says it is unknown."""
    if not typed.concepts:
        return replace(typed, unresolved=(*typed.unresolved, words))
    old = replaced or typed.concepts[0]
    before = next((w for w in said_as if re.search(rf"(?<!\w){re.escape(w)}", typed.text, re.IGNORECASE)), "")

    def swap(slot: str) -> str:
        if slot == old:
            return concept or words
        if before:
            return re.sub(rf"(?<!\w){re.escape(before)}\w*", lambda _: words, slot, count=1, flags=re.IGNORECASE)
        return slot

    at = typed.concepts.index(old)
    before_it, rest = typed.concepts[:at], typed.concepts[at + 1 :]
    return replace(
        typed,
        text=swap(typed.text),
        subject=swap(typed.subject),
        object=swap(typed.object),
        concepts=(*before_it, concept, *rest) if concept else (*before_it, *rest),
        unresolved=typed.unresolved if concept else (*typed.unresolved, words),
    )


def _in_words(text: str, when: TimeInQuestion | None) -> str:
    """A question without its time, with `when`'s words put back ("Who is the director of Acme in 2015?")."""
    if when is None or not when.phrase:
        return text
    if when.asks in (Asks.UNTIL, Asks.SINCE, Asks.WHEN):  # "Since when must a passenger validate the ticket?"
        return f"{when.phrase[:1].upper()}{when.phrase[1:]} {text[:1].lower()}{text[1:]}"
    return f"{text.rstrip(' ?')} {when.phrase}?"


def predicates_of(lexicon: KbLexicon, relations: Sequence[str] = ()) -> Predicates:
    """A follow-up's view of the KB lexicon: the predicate words name whole (a tie names none), and which words of
    a text name a given predicate."""

    def named(text: str) -> str | None:
        said = [w for w in words(text) if w not in _ARTICLES]  # "head of the parks department": "the" names nothing
        found = lexicon.match(said)
        if not found or len(found[0].explained) < len(said):
            return None
        tied = len(found) > 1 and found[1].score == found[0].score and found[1].explained == found[0].explained
        return None if tied else found[0].predicate

    def said(text: str, predicate: str) -> list[str]:
        tokens = words(text)
        found = lexicon.match(tokens, only=frozenset({predicate}))
        return [tokens[i] for i in sorted(found[0].explained)] if found else []

    related = frozenset(relations)
    return Predicates(named, said, lambda p: p in related if related else True)


# "No, that is wrong: ...", «Нет, это неверно: …»: a person correcting the last answer, not a question.
_CORRECTION = re.compile(
    r"^\s*(?:(?:no|nope)\s*[,.!:;—-]*\s*(?:(?:that|this|it)(?:'s|’s|\s+is|\s+was)\s+)?"
    r"(?:wrong|incorrect|not\s+(?:right|true|correct|so))"
    r"|(?:that|this|it)(?:'s|’s|\s+is|\s+was)\s+(?:wrong|incorrect|not\s+(?:right|true|correct))"
    r"|(?:wrong|incorrect)\s*[:!.—-]"
    r"|(?:нет\s*[,.!:;—-]*\s*)?(?:это\s+)?(?:неверно|неправильно|не\s+так|не\s+верно|ошибка|ошибочно)"
    r"|вы\s+ошибаетесь|ты\s+ошибаешься)(?!\w)",
    re.IGNORECASE,
)


def is_correction(text: str) -> bool:
    """The text corrects the last answer ("No, that is wrong: ...", «Нет, это неверно: …»), asking nothing."""
    return _CORRECTION.match(text) is not None and not text.rstrip().endswith("?")


def correction_sentence(language: str, question: str, episode: str | None, *, recorded: bool) -> str:
    """What the answer to a correction says: linked to the last answer's episode, or why it was not stored."""
    if language == "ru":
        if episode is not None:
            return f"Записал поправку к ответу на «{question}» ({episode}); хранимых фактов она не меняет."
        why = "в этом разговоре нет записанного ответа" if recorded else "этот разговор не записывается"
        return f"Понял: это поправка к ответу на «{question}», но сохранить её не к чему: {why}."
    if episode is not None:
        return f"Noted your correction of the answer to '{question}' ({episode}); it changes no stored fact."
    why = "this conversation has no recorded answer" if recorded else "this conversation is not recorded"
    return f"Understood as a correction of the answer to '{question}', but not stored: {why}."


def reading_sentence(reading: Reading, language: str) -> str:
    """How the answer says it read a follow-up."""
    if language == "ru":
        return f"Читаю «{reading.said}» как «{reading.meant}»."
    return f"Reading '{reading.said}' as '{reading.meant}'."
