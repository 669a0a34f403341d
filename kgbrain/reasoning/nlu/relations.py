"""Relation phrases: a question the patterns did not understand, read as concepts plus the phrase between them.

"Where does riesling grow?", «В каком году основан Моэт и Шандон?», "Who worked in Champagne?": the concepts
are found by the linker, every other content word is the relation phrase, and the phrase is linked through the
knowledge base's own lexicon (lexicon.KbLexicon) to a stored predicate or attribute. The reading is kept only
when the phrase is explained whole: a word neither a concept nor part of the predicate's name means the question
asks something else, and then the caller says what is missing. Two predicates that explain the phrase equally
well are a clarification, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kgbrain.language import words
from kgbrain.memory.linking import Mention
from kgbrain.reasoning.nlu.lexicon import KbLexicon, RelationMatch
from kgbrain.reasoning.nlu.links import ConceptLinks, classes_above
from kgbrain.reasoning.nlu.question import Intent, Question

# How a question opens decides what it asks: a yes/no, a place, a time, a value or the other end of a relation.
_YES_NO_EN = frozenset({"is", "are", "was", "were", "does", "do", "did", "has", "have", "can", "could"})
_WH_EN = frozenset({"what", "which", "who", "whom", "where", "when"})
_WH_RU = frozenset(
    [
        "что",
        "кто",
        "кем",
        "кого",
        "кому",
        "чем",
        "чего",
        "чему",
        "где",
        "когда",
        "куда",
        "откуда",
        "какой",
        "какая",
        "какое",
        "какие",
        "каком",
        "какого",
        "какую",
        "каким",
        "какими",
        "каков",
        "какова",
        "каково",
        "каковы",
    ]
)
_WHERE = frozenset({"where", "где", "куда", "откуда"})
# Wh-words that ask for a thing of a kind named by the noun after them ("which plant", «какого растения»): that
# noun says what the answer is and may name no concept; before a concept it is the class the answers belong to.
_DETERMINERS = frozenset({"which", "what"} | {w for w in _WH_RU if w.startswith("как")})
# A degree question asks for a measure ("How long does concrete take to cure?" the curing time, "How many wings does
# a bee have?" the number of wings): the degree word is read as the measure's nouns, which may stay unexplained.
_DEGREES = {
    "long": ("time", "duration", "period", "length"),
    "fast": ("speed", "velocity", "rate", "скорость"),
    "far": ("distance",),
    "heavy": ("weight", "mass"),
    "old": ("age",),
    "tall": ("height",),
    "high": ("height",),
    "deep": ("depth",),
    "wide": ("width",),
    "big": ("size",),
    "hot": ("temperature",),
    "many": ("number", "count"),
    "much": ("amount", "quantity"),
}
# «Сколько дней …?»: a unit of time after «сколько» asks for a duration.
_RU_TIME_UNITS = frozenset({"секунд", "минут", "час", "часов", "дней", "дня", "суток", "недель", "месяцев", "лет"})
_RU_DURATION = ("срок", "время", "продолжительность", "длительность")
# Verbs that only carry a degree question's measure ("How long does it take to cure?", "How long does the tour
# last?", "How long can I keep a book?", «До скольки работает музей?»), and the pronouns and modals around them.
_LIGHT = frozenset({"take", "takes", "took", "need", "needs", "требуется", "нужно", "занимает"})
_LIGHT |= {"last", "lasts", "keep", "kept", "borrow", "borrowed", "rent", "rented", "hire", "hired", "stay", "stays"}
_LIGHT |= {"open", "opened", "work", "works", "run", "runs", "can", "could", "may", "i", "we", "you", "one", "be"}
_LIGHT |= {"длится", "длятся", "продолжается", "продолжаются", "работает", "работают", "открыт", "открыта"}
_LIGHT |= {"открыто", "открыты", "можно", "могу", "можем", "держать", "брать", "взять", "выдают", "выдается"}
_LIGHT |= {"выдаются", "выдаёт", "выдает", "дают", "дается", "даются"}
# «До скольки …?», "Until what time …?", "How late …?": the hour something stops, its closing time.
_CLOSING = ("closing", "close", "time", "закрытия", "время")
# Russian degree phrases ("how fast", "how high"), by the measure nouns they ask.
_RU_MEASURES: dict[tuple[str, ...], tuple[str, ...]] = {
    ("с", "какой", "скоростью"): ("скорость", "speed"),
    ("на", "какую", "высоту"): ("высота", "height"),
    ("на", "какую", "глубину"): ("глубина", "depth"),
    ("на", "какое", "расстояние"): ("расстояние", "distance"),
    ("какой", "высоты"): ("высота", "height"),
    ("какой", "длины"): ("длина", "length"),
    ("какой", "глубины"): ("глубина", "depth"),
    ("какой", "ширины"): ("ширина", "width"),
    ("какого", "веса"): ("вес", "weight"),
    ("какой", "массы"): ("масса", "weight"),
}
_OPEN_VERBS = frozenset({"open", "opened", "work", "works", "работает", "работают", "открыт", "открыта", "открыто"})
_OPEN_VERBS |= {"открыты"}
_CLOSING_OPENINGS: tuple[tuple[str, ...], ...] = (("until", "what", "time"), ("till", "what", "time"))
_CLOSING_OPENINGS += (("how", "late"), ("до", "скольки"), ("до", "которого", "часа"), ("до", "какого", "часа"))
_CLOSING_OPENINGS += (("up", "to", "what", "time"),)
# A value at the end of a yes/no question ("Does tin melt at 232 °C?"): the claimed value of an attribute.
_QUANTITY = re.compile(
    r"(?<![\w.:])(?P<v>[-+\u2212]?\d+(?:[.,]\d+|:\d{2})?)\s*(?P<u>°\s?[A-Za-zА-Яа-я]|%|[^\W\d_][\w/.²³^-]*)?\s*\??\s*$"
)
# A value with a degree word after it ("2000 km long", "4 m deep"): the claimed value of the measure the word asks.
_MEASURED = re.compile(
    r"(?<![\w.])(?P<v>[-+\u2212]?\d+(?:[.,]\d+)?)\s*(?P<u>°\s?[A-Za-z]|%|[^\W\d_][\w/.²³^-]*)?\s+"
    r"(?P<d>long|deep|high|tall|wide|heavy|old|fast)\s*\??\s*$",
    re.IGNORECASE,
)
# What a wh-word adds to the phrase: "when" asks for a year (year_founded), "where" for a place (located_in).
_HINTS = {"when": ("year", "time", "date"), "когда": ("год", "время", "дата")}
_PLACE_ENDS = ("_in", "_at", "_on", "_into")
# Words of a question that say nothing about what is asked ("also", «же»), besides the lexicon's fillers.
_NOISE = frozenset(
    [
        "also",
        "really",
        "actually",
        "exactly",
        "ever",
        "still",
        "usually",
        "typically",
        "generally",
        "always",
        "а",
        "же",
        "и",
        "ли",
        "также",
        "тоже",
        "вообще",
        "всегда",
        "обычно",
        "действительно",
        # the copula of «Кто является членом X?», «Какие клубы являлись членами X?»
        "является",
        "являются",
        "являлся",
        "являлась",
        "являлось",
        "являлись",
    ]
)


@dataclass(frozen=True, slots=True)
class Reading:
    """A question read as concepts and a relation phrase."""

    question: Question
    match: RelationMatch | None
    tied: tuple[str, ...] = ()  # predicates that explain the phrase as well as the chosen one

    @property
    def options(self) -> tuple[str, ...]:
        """Every predicate the phrase names equally well, the chosen one first; () when there is only one."""
        if not self.tied or self.match is None:
            return ()
        return (self.match.predicate, *self.tied)


@dataclass(frozen=True, slots=True)
class _Opening:
    """What a question's opening says it asks, and its words as the phrase reader sees them."""

    tokens: list[str]
    yes_no: bool
    wh: set[str]
    hints: tuple[str, ...] = ()  # a degree question's measure nouns ("how long": time, duration …)
    value: re.Match[str] | None = None  # the value a yes/no question ends with


def read_relation(r: ConceptLinks, lexicon: KbLexicon, q: Question, *, claim: bool = False) -> Reading | None:
    """The question as (concepts, predicate), when its words are concepts and one predicate's name; else None.
    With `claim`, `q.text` is a statement ("Riesling grows in Mosel") read as the yes/no question that asks it."""
    opening = _opening(q, claim)
    if opening is None:
        return None
    tokens = opening.tokens
    declared = r.predicates().declared
    mentions = [m for m in r.linker.mentions(q.text) if m.concept not in declared and m.end <= len(tokens)]
    for found in _segmentations(r, tokens, mentions):
        reading = _read(r, lexicon, q, tokens, found, opening.yes_no, opening.wh, opening.hints)
        if reading is not None:
            return _checked(reading, opening.value)
    return None


def _opening(q: Question, claim: bool) -> _Opening | None:
    text = q.text
    tokens = words(text)
    if not tokens:
        return None
    first = tokens[0]
    yes_no = claim or (q.language == "en" and first in _YES_NO_EN) or (q.language == "ru" and "ли" in tokens)
    wh = set() if claim else {t for t in tokens[:4] if t in _WH_EN or t in _WH_RU}
    degree = None if claim or yes_no else _degree(tokens)
    if degree is not None:  # the degree words are no part of the phrase; their measure nouns are hints
        tokens = ["" if i in degree[0] else t for i, t in enumerate(tokens)]
        return _Opening(tokens, False, {"how"}, degree[1])
    if not yes_no and not wh and not (q.language == "ru" and _ru_yes_no(text)):
        return None
    yes_no = yes_no or not wh
    measured = _MEASURED.search(text) if yes_no else None
    if measured is not None:  # "Is the Kama 2000 km long?": the degree word says which measure is claimed
        return _Opening(words(text[: measured.start()]), True, wh, _DEGREES[measured["d"].lower()], measured)
    return _valued(text, tokens, yes_no, wh)


def _valued(text: str, tokens: list[str], yes_no: bool, wh: set[str]) -> _Opening:
    """A yes/no question's opening with the value it ends with, if any."""
    value = _QUANTITY.search(text) if yes_no else None
    if value is not None:  # "Does tin melt at 232 °C?": the phrase without the value, which is then checked
        tokens = words(text[: value.start()])
        if _is_time_unit(value["u"] or ""):  # «Аудиогиды выдаются на 3 часа?»: a period claimed
            return _Opening(tokens, True, wh, _DURATION, value)
    return _Opening(tokens, yes_no, wh, (), value)


# The measure nouns of a period ("loan period", «срок выдачи», "duration"): what a time unit claims.
_DURATION = ("period", "duration", "time", *_RU_DURATION)
_TIME_UNITS_EN = frozenset({"minute", "minutes", "min", "hour", "hours", "h", "day", "days", "week", "weeks"})
_TIME_UNITS_EN |= {"month", "months", "year", "years"}


def _is_time_unit(unit: str) -> bool:
    from kgbrain.language import unit_of_word

    u = unit.lower()
    return u in _TIME_UNITS_EN or (unit_of_word(u) or "") in _TIME_UNITS_EN


def asks_measure(text: str) -> bool:
    """Whether a question opens with a degree phrase that asks a measure ("How long …", «На сколько …», "Until
    what time …") or ends with a period it claims ("… for 5 hours?"), which no modal in it makes a norm question
    ("How long can I keep a book?")."""
    found = _degree(words(text))
    if found is not None and found[1] not in (("число", "количество"), _DEGREES["many"]):  # a count is no measure
        return True
    value = _QUANTITY.search(text)  # "Can I keep an audio guide for 5 hours?": a period claimed
    return value is not None and _is_time_unit(value["u"] or "")


def _degree(tokens: list[str]) -> tuple[set[int], tuple[str, ...]] | None:
    """The positions of a degree question's words ("how long", «сколько дней») and the measure nouns they ask."""
    for i in range(min(3, len(tokens))):
        measured = next((o for o in _RU_MEASURES if tuple(tokens[i : i + len(o)]) == o), None)
        if measured is not None:  # «С какой скоростью летает пчела?»: the measure its noun names
            return set(range(i, i + len(measured))), _RU_MEASURES[measured]
        opening = next((o for o in _CLOSING_OPENINGS if tuple(tokens[i : i + len(o)]) == o), None)
        if opening is not None:  # "open" after "until what time" says the closing time, not the opening one
            verbs = {k for k, t in enumerate(tokens) if t in _OPEN_VERBS}
            return set(range(i, i + len(opening))) | verbs, _CLOSING
    for i, t in enumerate(tokens[:3]):
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if t == "how" and nxt in _DEGREES:
            return {i, i + 1}, _DEGREES[nxt]
        if t == "сколько" and nxt in _RU_TIME_UNITS:
            return {i, i + 1}, _RU_DURATION
        if t == "на" and nxt == "сколько":  # «На сколько выдают аудиогид?»: for how long
            return {i, i + 1}, (*_RU_DURATION, "period", "duration")
        if t == "как" and nxt == "долго":
            return {i, i + 1}, _RU_DURATION
        if t == "сколько":
            return {i}, ("число", "количество")
    return None


def _checked(reading: Reading, value: re.Match[str] | None) -> Reading | None:
    """A yes/no question with a value asks whether the attribute has it; a relation read with a value is no reading
    (the value would go unexplained)."""
    if value is None:
        return reading
    q = reading.question
    if q.intent is not Intent.VALUE:
        return None
    claimed = " ".join(x for x in (value["v"], (value["u"] or "").replace(" ", "")) if x)
    read = replace(q, intent=Intent.VALUE_CHECK, object=claimed, variables=())
    return Reading(read.with_links(Intent.VALUE_CHECK, q.concepts, ()), reading.match, reading.tied)


def _segmentations(r: ConceptLinks, tokens: list[str], mentions: list[Mention]) -> list[list[Mention]]:
    """The mentions as linked, then with one name shortened by its last or first word: a stem can swallow the verb
    ("champagne produced" meets "champagne producer", "carry passengers" names an action), and the shorter name
    leaves the verb to the phrase."""
    out = [mentions]
    for k, m in enumerate(mentions):
        if m.end - m.start < 2:
            continue
        shorter = " ".join(tokens[m.start : m.end - 1])
        concept = r.linker.lookup(shorter)
        if concept is not None:
            out.append([*mentions[:k], Mention(shorter, concept, m.start, m.end - 1), *mentions[k + 1 :]])
        # "Which vessels carry passengers?": an action's name ("carry passengers") swallows the verb before a name
        tail = " ".join(tokens[m.start + 1 : m.end])
        concept = r.linker.lookup(tail)
        if concept is not None:
            out.append([*mentions[:k], Mention(tail, concept, m.start + 1, m.end), *mentions[k + 1 :]])
    if len(mentions) > 1:  # "pressure in a champagne bottle": "bottle" is a word of the attribute's name
        out += [[*mentions[:k], *mentions[k + 1 :]] for k in range(len(mentions))]
    return out


def _read(
    r: ConceptLinks,
    lexicon: KbLexicon,
    q: Question,
    tokens: list[str],
    mentions: list[Mention],
    yes_no: bool,
    wh: set[str],
    hints: tuple[str, ...] = (),
) -> Reading | None:
    phrase, free = _phrase(tokens, mentions, wh, _LIGHT if hints else frozenset())
    said = len(phrase)  # the words after it are what a wh-word implies: they may stay unexplained
    phrase += [h for w in sorted(wh) for h in _HINTS.get(w, ())] + list(hints)
    concepts = list(dict.fromkeys(m.concept for m in mentions))
    if not concepts:
        return None
    relations = frozenset(r.graph().pred_names)
    only = _candidates(r, concepts, relations, yes_no, hints)
    ranked = _ranked(lexicon.match(phrase, only=only), said, bool(wh & _WHERE))
    if not ranked:
        return None
    best = ranked[0][1]
    left = _left(phrase, said, free, best)
    if wh & _WHO and _names_a_measure(best.name):
        return None  # "Who founded X?" asks for a founder, never its year of foundation
    carried = bool(hints) and only is not None and hints not in _COUNT_HINTS
    if left and not (carried and _carried_by_verb(left, ranked, said, tokens, q.language)):
        support = (
            _with_support_verb(r, lexicon, phrase, said, free, ranked, mentions, q.language) if not hints else None
        )
        if support is None:
            return None  # a word no name explains: the question asks something else
        best = support
    tied = tuple(m.predicate for k, m in ranked[1:] if k == ranked[0][0] and m.explained == best.explained)
    # "Which grape varieties grow in Mosel?": a class right after a determiner wh-word is what the answers are;
    # «Из чего пчёлы делают прополис?»: the first concept is the verb's agent, and the answers are anything
    classed = bool(mentions) and mentions[0].start > 0 and tokens[mentions[0].start - 1] in _DETERMINERS
    read = _question_of(r, q, concepts, best.predicate, yes_no, relations, classed)
    return Reading(read, best, tied) if read is not None else None


def _left(phrase: list[str], said: int, free: set[int], match: RelationMatch) -> list[str]:
    """The question's own words the match leaves unexplained (fillers and free positions aside)."""
    return [
        phrase[i] for i, w in enumerate(phrase[:said]) if i not in match.explained and i not in free and not _filler(w)
    ]


def _with_support_verb(
    r: ConceptLinks,
    lexicon: KbLexicon,
    phrase: list[str],
    said: int,
    free: set[int],
    ranked: list[tuple[tuple[int, float], RelationMatch]],
    mentions: list[Mention],
    lang: str,
) -> RelationMatch | None:
    """ "Does X fly the flag of Y?", «Ходит ли X под флагом Y?», "Which flag does X sail under?": the relation is
    said by its own noun (the whole of a name of it: "flag" ~ `flag_state`), and the one word no name explains is
    the verb that carries the noun (with a preposition). The best such match of the top rank; None when the word
    left is anything else (a noun, a concept, two words), or the noun is not the relation's whole name."""
    from kgbrain.language import is_verb
    from kgbrain.reasoning.nlu.vocabulary import PARTICLES, key, same_root

    asked = [key(w) for w in phrase[:said] if w not in PARTICLES and not _filler(w)]
    top = ranked[0][0][0]
    for (explained, _), match in ranked:
        if explained < top:
            break
        if not any(
            all(any(same_root(k, n) for k in asked) for n in name.words) for name in lexicon.entries[match.predicate]
        ):
            continue  # half a name ("state" of "flag state") is not the relation said by its noun
        left = [w for w in _left(phrase, said, free, match) if w not in PARTICLES and w not in _GOVERNING]
        if len(left) != 1 or r.linker.lookup(left[0]) is not None:
            continue
        if lang == "ru" and not is_verb(left[0]):
            continue
        if lang != "ru" and (left[0].endswith(("ing", "ion", "ness")) or not mentions):
            continue
        return match
    return None


# Prepositions a verb may govern its noun with («ходить под флагом», "sail under a flag") besides the particles.
_GOVERNING = frozenset({"под", "над", "за", "перед", "по", "under", "over", "below", "above", "behind"})
_WHO = frozenset({"who", "whom", "кто", "кем", "кого", "кому"})
_MEASURE_NOUNS = frozenset({"year", "date", "time", "number", "count", "period", "duration", "age", "length"})
_MEASURE_NOUNS |= {"год", "года", "дата", "время", "число", "количество", "срок", "длина", "возраст"}


def _names_a_measure(name: str) -> bool:
    """Whether an attribute's name says it is a measure or a time (whose value no "who" asks)."""
    return bool(_MEASURE_NOUNS.intersection(words(name.replace("_", " "))))


def _candidates(
    r: ConceptLinks, concepts: list[str], relations: frozenset[str], yes_no: bool, hints: tuple[str, ...]
) -> frozenset[str] | None:
    """The predicates a phrase may name (None: any): relations for a yes/no about two concepts, the holder's own
    measures for a degree question ("How long can I keep an audio guide?")."""
    if hints and len(concepts) == 1:
        return _held_attributes(r, concepts[0], relations) or None
    return relations if yes_no and len(concepts) >= 2 else None


def _carried_by_verb(
    left: list[str], ranked: list[tuple[tuple[int, float], RelationMatch]], said: int, tokens: list[str], lang: str
) -> bool:
    """ "How fast does a worker bee fly?": a degree question whose measure is the one measure of the holder its
    degree word names (flight speed), the one word left being the verb that carries it (the last word in English,
    a verb in Russian; "How many legs does a neuron have?" leaves a noun)."""
    if len(left) != 1 or len(ranked) != 1 or not any(i >= said for i in ranked[0][1].explained):
        return False
    if lang == "ru":
        from kgbrain.language import is_verb

        return is_verb(left[0])
    return bool(tokens) and tokens[-1] == left[0]


# The hints of a count ("how many", «сколько»): a count is never carried by a verb.
_COUNT_HINTS = (("number", "count"), ("число", "количество"), ("amount", "quantity"))


def _ranked(matches: list[RelationMatch], said: int, where: bool) -> list[tuple[tuple[int, float], RelationMatch]]:
    """The matches best first, each with its rank: the question's own words explained first (the first `said`
    of the phrase; hints only break ties), then the score, a place predicate raised for "where"."""

    def rank(m: RelationMatch) -> tuple[int, float]:
        place = 0.6 if where and m.predicate.endswith(_PLACE_ENDS) else 0.0
        return sum(1 for i in m.explained if i < said), round(m.score + place, 6)

    keyed = [(rank(m), m) for m in matches]
    return sorted(keyed, key=lambda km: (-km[0][0], -km[0][1], km[1].predicate))


def _held_attributes(r: ConceptLinks, concept: str, relations: frozenset[str]) -> frozenset[str]:
    """The attributes a value is stored for of `concept` or a class above it."""
    attributes = sorted(p for p in r.predicates().declared if p not in relations)
    if not attributes:
        return frozenset()
    held: set[str] = set()
    for c in [concept, *classes_above(r, concept, _MAX_CLASSES - 1)]:
        held |= {str(row["predicate"]) for row in r.linker.store.run("ded_values_of", subject=c, predicates=attributes)}
    return frozenset(held)


_MAX_CLASSES = 64  # classes above a holder searched for its measures


def _phrase(
    tokens: list[str], mentions: list[Mention], wh: set[str], light: frozenset[str]
) -> tuple[list[str], set[int]]:
    """The words no mention covers, and the positions among them a wh-question leaves free to stay unexplained:
    the wh-word and the kind a determiner asks for ("which plant", «какого растения»)."""
    covered = {i for m in mentions for i in range(m.start, m.end)}
    kind = {i + 1 for i, t in enumerate(tokens[:-1]) if t in wh and t in _DETERMINERS and i + 1 not in covered}
    # a light verb may stay unexplained, and still explains what it names («длится» ~ «длительность»)
    asked = {i for i, t in enumerate(tokens) if t in wh or t in light} | kind
    kept = [i for i, t in enumerate(tokens) if i not in covered and t and t not in _NOISE]
    return [tokens[i] for i in kept], {k for k, i in enumerate(kept) if i in asked}


def _question_of(
    r: ConceptLinks,
    q: Question,
    concepts: list[str],
    predicate: str,
    yes_no: bool,
    relations: frozenset[str],
    classed: bool = True,
) -> Question | None:
    """The question the concepts and the chosen predicate make: a value, a yes/no, or a wh-question."""
    if predicate in r.predicates().declared and predicate not in relations:  # an attribute
        if len(concepts) != 1:
            return None
        read = replace(q, intent=Intent.VALUE, subject=q.text, verb="", variables=("?x",))
        return read.with_links(Intent.VALUE, (concepts[0], predicate), ())
    if yes_no:
        if len(concepts) != 2:
            return None
        read = replace(q, intent=Intent.DOES, verb=predicate, subject="", object="")
        return read.with_links(Intent.DOES, (concepts[0], concepts[1]), ())
    if len(concepts) > 2:
        return None
    # "Which grape varieties grow in Mosel?": the first concept is the class the answers must belong to
    among = concepts[0] if len(concepts) == 2 and classed else ""
    target = concepts[-1]
    read = replace(q, intent=Intent.WH, subject="", object=target, verb=predicate, among=among, variables=("?x",))
    return read.with_links(Intent.WH, (target,), ())


def _filler(word: str) -> bool:
    from kgbrain.reasoning.nlu.lexicon import _RELATION_FILLER
    from kgbrain.reasoning.nlu.vocabulary import PARTICLES

    return word in _RELATION_FILLER or word in PARTICLES or word in _NOISE or word.isdigit()


def _ru_yes_no(text: str) -> bool:
    """A Russian yes/no question without «ли» («Волга впадает в Каспийское море?») ends with a question mark."""
    return text.rstrip().endswith("?")
