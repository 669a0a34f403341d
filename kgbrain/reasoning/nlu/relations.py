"""Relation phrases: a question the patterns did not understand, read as concepts plus the phrase between them.

"Where does riesling grow?", «В каком году основан Моэт и Шандон?», "Who worked in Champagne?": the concepts
are found by the linker, every other content word is the relation phrase, and the phrase is linked through the
knowledge base's own lexicon (lexicon.KbLexicon) to a stored predicate or attribute. The reading is kept only
when the phrase is explained whole: a word neither a concept nor part of the predicate's name means the question
asks something else, and then the caller says what is missing. Two predicates that explain the phrase equally
well are a clarification, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from kgbrain.language import words
from kgbrain.memory.linking import Mention
from kgbrain.reasoning.nlu.lexicon import KbLexicon, RelationMatch
from kgbrain.reasoning.nlu.links import ConceptLinks
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
        "какой",
    ]
)
_WHERE = frozenset({"where", "где", "куда", "откуда"})
# What a wh-word adds to the phrase: "when" asks for a year (year_founded), "where" for a place (located_in).
_HINTS = {"when": ("year",), "когда": ("год",)}
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
    ]
)


@dataclass(frozen=True, slots=True)
class Reading:
    """A question read as concepts and a relation phrase."""

    question: Question
    match: RelationMatch | None
    tied: tuple[str, ...] = ()  # predicates that explain the phrase as well as the chosen one


def read_relation(r: ConceptLinks, lexicon: KbLexicon, q: Question, *, claim: bool = False) -> Reading | None:
    """The question as (concepts, predicate), when its words are concepts and one predicate's name; else None.
    With `claim`, `q.text` is a statement ("Riesling grows in Mosel") read as the yes/no question that asks it."""
    text = q.text
    tokens = words(text)
    if not tokens:
        return None
    first = tokens[0]
    yes_no = claim or (q.language == "en" and first in _YES_NO_EN) or (q.language == "ru" and "ли" in tokens)
    wh = set() if claim else {t for t in tokens[:4] if t in _WH_EN or t in _WH_RU}
    if not yes_no and not wh and not (q.language == "ru" and _ru_yes_no(text)):
        return None
    yes_no = yes_no or not wh
    declared = r.predicates().declared
    mentions = [m for m in r.linker.mentions(text) if m.concept not in declared]
    for found in _segmentations(r, tokens, mentions):
        reading = _read(r, lexicon, q, tokens, found, yes_no, wh)
        if reading is not None:
            return reading
    return None


def _segmentations(r: ConceptLinks, tokens: list[str], mentions: list[Mention]) -> list[list[Mention]]:
    """The mentions as linked, then with one name shortened by its last word: a stem can swallow the verb
    ("champagne produced" meets "champagne producer"), and the shorter name leaves the verb to the phrase."""
    out = [mentions]
    for k, m in enumerate(mentions):
        if m.end - m.start < 2:
            continue
        shorter = " ".join(tokens[m.start : m.end - 1])
        concept = r.linker.lookup(shorter)
        if concept is not None:
            out.append([*mentions[:k], Mention(shorter, concept, m.start, m.end - 1), *mentions[k + 1 :]])
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
) -> Reading | None:
    covered = {i for m in mentions for i in range(m.start, m.end)}
    phrase = [t for i, t in enumerate(tokens) if i not in covered and t not in _NOISE]
    said = len(phrase)  # the words after it are what a wh-word implies: they may stay unexplained
    phrase += [h for w in sorted(wh) for h in _HINTS.get(w, ())]
    concepts = list(dict.fromkeys(m.concept for m in mentions))
    if not concepts:
        return None
    relations = frozenset(r.graph().pred_names)
    matches = lexicon.match(phrase, only=relations if yes_no and len(concepts) >= 2 else None)
    if wh & _WHERE:
        matches = sorted(matches, key=lambda m: (-(m.score + 0.6 * m.predicate.endswith(_PLACE_ENDS)), m.predicate))
    if not matches:
        return None
    best = matches[0]
    if any(i not in best.explained and not _filler(w) for i, w in enumerate(phrase[:said])):
        return None  # a word no name explains: the question asks something else
    tied = tuple(m.predicate for m in matches[1:] if abs(m.score - best.score) < 1e-9 and m.explained == best.explained)
    read = _question_of(r, q, concepts, best.predicate, yes_no, relations)
    return Reading(read, best, tied) if read is not None else None


def _question_of(
    r: ConceptLinks, q: Question, concepts: list[str], predicate: str, yes_no: bool, relations: frozenset[str]
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
    among = concepts[0] if len(concepts) == 2 else ""
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
