"""Words in Russian and English: one place for language detection, matching, lemmas and grammatical wording.

Built on maintained libraries instead of hand-written suffix lists:
- `snowballstemmer` (Snowball Russian and English stemmers) for matching: "нейронами" and "нейрон", "tumpuses"
  and "tumpus" share a stem. Imported at the first stem: importing even one stemmer module runs the package's
  `__init__`, which imports all thirty languages (~15 ms, a tenth of a verification process's start-up, which
  never stems: claims name concepts by id).
- `pymorphy3` (OpenCorpora dictionary) for Russian lemmas and for generating grammatical Russian: the object of a
  verb in the case the verb governs («потребляет энергию», «является элементом обработки информации»), short
  adjectives agreeing with the subject («важна для»), and a deverbal noun turned into the infinitive after «может»
  («может усиливать сигнал», «не может делиться»). Its dictionary costs ~130 ms to load, so it is loaded lazily,
  once, and only when Russian text is inflected or lemmatised.
- English needs no dictionary for what the answers say: articles ("an impus") and noun plurals ("tumpuses")
  follow spelling rules kept here.

The language of a text is decided by its script (Cyrillic or Latin words): kgbrain speaks these two languages
only, and a statistical detector is neither needed nor stable on three-word questions.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kgbrain.knowledge import normalize_term

if TYPE_CHECKING:
    from pymorphy3 import MorphAnalyzer

LANGUAGES = ("ru", "en")

_WORD = re.compile(r"[0-9a-zа-я]+(?:-[0-9a-zа-я]+)*")
_CYRILLIC_WORD = re.compile(r"[а-яё]+", re.IGNORECASE)
_LATIN_WORD = re.compile(r"[a-z]+", re.IGNORECASE)
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
# Split points of an identifier: "NamedPizza" -> Named Pizza, "GraduateStudent0" -> Graduate Student 0,
# "HTTPServer" -> HTTP Server.
_CAMEL = re.compile(
    r"(?<=[a-zа-яё])(?=[A-ZА-ЯЁ])|(?<=[A-ZА-ЯЁ])(?=[A-ZА-ЯЁ][a-zа-яё])|(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])"
)

STOP_WORDS = frozenset(
    """
    а и или но да нет не ни же ли бы то это этот эта эти что кто как какой какая какие каково почему зачем где когда
    сколько чей чем чего чему для в во на с со к ко по о об от до из у за над под при про без через является
    являются есть был была были будет может могут можно нужно такое такой
    the a an is are was were be been being do does did of to in on at for from by with about as and or not no what
    who whom which why how when where whose can could may might must should would will this that these those it its
    there their than then into have has had
    """.split()  # noqa: SIM905 - a word list reads better as text
)


# -- detection and matching ---------------------------------------------------------------------------------------


def detect_language(text: str) -> str:
    """'ru' when the text has at least as many Cyrillic words as Latin ones (and some), else 'en'.

    Words, not letters, so that «Что такое NamedPizza?» is Russian and "Is Max a вампус?" is English.
    """
    cyr = len(_CYRILLIC_WORD.findall(text))
    if not cyr:
        return "en"
    return "ru" if cyr >= len(_LATIN_WORD.findall(text)) else "en"


def split_identifier(name: str) -> str:
    """An identifier as words: "NamedPizza" -> "Named Pizza", "graduate_student0" -> "graduate student 0"."""
    return " ".join(_CAMEL.sub(" ", name.replace("_", " ").replace("-", " ")).split())


def local_name(concept_id: str) -> str:
    """The part of an ontology concept id after its prefix ("pizza:NamedPizza" -> "NamedPizza")."""
    return concept_id.rpartition(":")[2] or concept_id


def display_name(concept_id: str) -> str:
    """How to name a concept that has no label in the wanted language: its local name as words.

    "pizza:NamedPizza" -> "named pizza", "GraduateStudent0" -> "graduate student 0", "signal_transmission" ->
    "signal transmission"; a one-word name keeps its case ("Margherita"), acronyms keep theirs ("GO 0006915").
    """
    parts = split_identifier(local_name(concept_id)).split(" ")
    if len(parts) == 1:
        return parts[0]
    return " ".join(p.lower() if p[:1].isupper() and p[1:].islower() else p for p in parts)


def words(text: str) -> list[str]:
    """Normalised words of a text (lower case, ё→е, CamelCase and snake_case split), in order."""
    return _WORD.findall(normalize_term(_CAMEL.sub(" ", text)))


def content_words(text: str) -> list[str]:
    """Words that carry meaning (no stop words, no single letters)."""
    return [w for w in words(text) if w not in STOP_WORDS and len(w) > 1]


@lru_cache(maxsize=1)
def _stemmers() -> tuple[Any, Any]:
    from snowballstemmer.english_stemmer import EnglishStemmer
    from snowballstemmer.russian_stemmer import RussianStemmer

    return RussianStemmer(), EnglishStemmer()


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The Snowball stem of one normalised word, Russian or English by its script."""
    if _CYRILLIC.search(word):
        return str(_stemmers()[0].stemWord(word))
    if word.isdigit():
        return word
    return str(_stemmers()[1].stemWord(word))


def stem_key(text: str) -> str:
    """The stems of a name's words joined by spaces: the key under which inflected forms of a name meet."""
    return " ".join(stem(w) for w in words(text))


def stems(text: str) -> frozenset[str]:
    """Stems of the content words."""
    return frozenset(stem(w) for w in content_words(text))


def similarity(a: str, b: str) -> float:
    """Overlap coefficient of the stemmed content words of two texts, 0..1 (0 when either has none)."""
    sa, sb = stems(a), stems(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


# -- Russian morphology (pymorphy3, loaded on first use) ----------------------------------------------------------

_MORPH: list[MorphAnalyzer] = []
_MORPH_LOCK = threading.Lock()


def _morph() -> MorphAnalyzer:
    if not _MORPH:
        with _MORPH_LOCK:  # `prepare` may be loading it on another thread: wait for that one
            if not _MORPH:
                import pymorphy3  # ~130 ms of dictionary loading, paid only when Russian is inflected

                _MORPH.append(pymorphy3.MorphAnalyzer(lang="ru"))
    return _MORPH[0]


def prepare(text: str) -> None:
    """Start loading, on a background thread, what wording an answer to `text` will need.

    A Russian question needs the pymorphy3 dictionary; loading it while the knowledge base is opened and
    queried hides most of its cost from a CLI `ask`. Does nothing for English or when it is loaded already.
    """
    if _MORPH or detect_language(text) != "ru":
        return
    threading.Thread(target=_morph, name="kgbrain-morphology", daemon=True).start()


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The dictionary form of one word: pymorphy3 for Russian, the singular for an English noun plural."""
    w = normalize_term(word)
    if _CYRILLIC.search(w):
        return str(_morph().parse(w)[0].normal_form).replace("ё", "е")
    return singular(w)


def is_verb(word: str) -> bool:
    """Whether a Russian word's likeliest reading is a finite verb («весит», «длится»); False for English."""
    w = normalize_term(word)
    return bool(_CYRILLIC.search(w)) and _morph().parse(w)[0].tag.POS == "VERB"


_NAME_TAGS = frozenset({"Surn", "Name", "Patr", "Geox", "Orgn", "Trad"})


def is_dictionary_word(word: str) -> bool:
    """Whether a Russian word is in pymorphy3's dictionary as a common word («передаёт», «книгу»; «кингу» is
    only a surname); False for English, which has no dictionary here."""
    w = normalize_term(word)
    if not _CYRILLIC.search(w) or not _morph().word_is_known(w):
        return False
    likeliest = _morph().parse(w)[0]
    return bool(likeliest.is_known) and not (_NAME_TAGS & set(likeliest.tag.grammemes))


def lemmas(text: str) -> list[str]:
    """The lemma of every word of a text."""
    return [lemma(w) for w in words(text)]


_CASES = {"nomn", "gent", "datv", "accs", "ablt", "loct"}


def _noun_parse(word: str) -> Any:
    parses = _morph().parse(word)
    for p in parses:
        if p.tag.POS == "NOUN" and p.tag.case == "nomn":
            return p
    return None


def noun_case(word: str) -> str | None:
    """The case of a Russian noun as written («главой»: "ablt"), its likeliest reading as a noun; None for a word
    that reads as no noun, and for English."""
    if not _CYRILLIC.search(word):
        return None
    found = next((p for p in _morph().parse(word.lower()) if p.tag.POS == "NOUN"), None)
    return str(found.tag.case) if found is not None and found.tag.case in _CASES else None


def inflect_phrase(phrase: str, case: str) -> str:
    """A Russian noun phrase in the nominative put into `case` ("gent", "datv", "accs", "ablt", "loct").

    The head is the first noun in the nominative; adjectives before it agree with it, words after it (usually a
    genitive, «обработки информации») stay as they are. A phrase without a recognisable head is returned as is.
    """
    if case not in _CASES:
        raise ValueError(f"unknown case {case!r}")
    tokens = phrase.split(" ")
    if case == "nomn" or not _CYRILLIC.search(phrase):
        return phrase
    head_at = None
    head = None
    for i, token in enumerate(tokens):
        if not _CYRILLIC.search(token):
            continue
        head = _noun_parse(token.lower())
        if head is not None:
            head_at = i
            break
    if head is None or head_at is None:
        return phrase
    number = head.tag.number or "sing"
    out = list(tokens)
    form = head.inflect({case, number})
    if form is not None:
        out[head_at] = _match_case(tokens[head_at], form.word)
    # A person's name declines whole (Чарльз Шеррингтон -> Чарльзом Шеррингтоном): after a first name, the
    # capitalised words are its surname (unknown surnames are declined as the nouns they look like). Other words
    # after the head are usually a genitive that stays (клетка Пуркинье, обработка информации).
    if "Name" in head.tag.grammemes:
        for i in range(head_at + 1, len(tokens)):
            part = _noun_parse(tokens[i].lower()) if tokens[i][:1].isupper() else None
            declined = part.inflect({case, number}) if part is not None else None
            if declined is not None:
                out[i] = _match_case(tokens[i], declined.word)
    for i in range(head_at):
        agreed = _agreeing_adjective(tokens[i], head, case, number)
        if agreed is not None:
            out[i] = agreed
    return " ".join(out)


def _agreeing_adjective(token: str, head: Any, case: str, number: str) -> str | None:
    """An adjective or participle before the head noun in the head's case, number and gender; None for a word that
    is neither (it stays as written)."""
    adj = next((p for p in _morph().parse(token.lower()) if p.tag.POS in ("ADJF", "PRTF")), None)
    if adj is None:
        return None
    wanted = {case, number} if number == "plur" else {case, number, head.tag.gender or "masc"}
    # Animacy picks the accusative of masculine and plural adjectives only (a feminine one has a single form,
    # and asking for it with animacy finds none: «клеточная мембрана» stayed «клеточная мембрану»).
    if case == "accs" and head.tag.animacy and (number == "plur" or head.tag.gender == "masc"):
        wanted.add(head.tag.animacy)
    agreed = adj.inflect(wanted)
    return _match_case(token, agreed.word) if agreed is not None else None


def _match_case(original: str, word: str) -> str:
    if original.isupper() and len(original) > 1:  # an abbreviation (ДНК) keeps its capitals
        return word.upper()
    parts, said = original.split("-"), word.split("-")
    if len(parts) > 1 and len(parts) == len(said):  # Санкт-Петербург: each part keeps its capital
        return "-".join(_match_case(a, b) for a, b in zip(parts, said, strict=True))
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def is_short_form(word: str) -> bool:
    """Whether a Russian word reads first as a short adjective or participle («сделан», «основана»): those agree
    with their subject, a present-tense verb («растёт») does not."""
    found = _morph().parse(word) if _CYRILLIC.search(word) else []
    return bool(found) and found[0].tag.POS in ("ADJS", "PRTS")


def governed_case(word: str) -> str | None:
    """The case a Russian verb or short participle governs without a preposition, as far as the dictionary tells:
    a transitive verb the accusative («перевозит баржу»), a passive short participle the instrumental («создана
    Алисой», «построен Renault»); None otherwise (an intransitive verb's case is not in the dictionary)."""
    found = _morph().parse(word) if _CYRILLIC.search(word) else []
    if not found:
        return None
    tag = found[0].tag
    if tag.POS == "VERB" and "tran" in tag:
        return "accs"
    if tag.POS == "PRTS" and "pssv" in tag:
        return "ablt"
    return None


def agree(word: str, subject: str) -> str:
    """A Russian short adjective or past form agreeing in gender and number with the head noun of `subject`."""
    if not _CYRILLIC.search(word) or not _CYRILLIC.search(subject):
        return word
    head = next((p for t in subject.split(" ") if (p := _noun_parse(t.lower())) is not None), None)
    if head is None:
        return word
    target = next((p for p in _morph().parse(word) if p.tag.POS in ("ADJS", "PRTS", "VERB")), None)
    if target is None:
        return word
    wanted = {"plur"} if head.tag.number == "plur" else {head.tag.gender or "masc", "sing"}
    form = target.inflect(wanted)
    return str(form.word) if form is not None else word


def agree_with_number(noun: str, number: float) -> str:
    """A Russian noun in the form a number takes (1 день, 3 дня, 24 дня, 5 лет, 1,5 суток)."""
    parses = _morph().parse(noun) if _CYRILLIC.search(noun) else []
    if not parses:
        return noun
    if number != int(number):  # a fraction takes the genitive singular (1,5 недели)
        form = parses[0].inflect({"gent", "sing"})
    else:
        form = parses[0].make_agree_with_number(abs(int(number)))
    word = str(form.word) if form is not None else noun
    # Counting years takes the suppletive genitive plural (5 лет), which the dictionary gives as «годов».
    return "лет" if word == "годов" else word


# Nominalising suffixes and the infinitive suffixes to try in their place, imperfective first
# (усиление -> усиливать, деление -> делить/делиться, переключение -> переключать).
_DEVERBAL = (
    ("ивание", ("ивать",)),
    ("ывание", ("ывать",)),
    ("ание", ("ать", "ывать")),
    ("яние", ("ять",)),
    ("ение", ("ивать", "ять", "ить", "ать", "еть")),
)


@lru_cache(maxsize=4096)
def infinitive_of(noun: str, reflexive: bool = False) -> str | None:
    """The imperfective infinitive a Russian deverbal noun names (усиление -> усиливать), or None."""
    morph = _morph()
    word = noun.lower()
    for suffix, endings in _DEVERBAL:
        if not word.endswith(suffix):
            continue
        root = word[: -len(suffix)]
        for ending in endings:
            verb = root + ending + ("ся" if reflexive else "")
            if not morph.word_is_known(verb, strict=True):
                continue
            parse = next((p for p in morph.parse(verb) if p.tag.POS == "INFN"), None)
            if parse is not None and (reflexive or parse.tag.aspect == "impf"):
                return verb
    return None


def can_phrase(obj: str, agent: set[str] | None = None) -> str:
    """What follows «может» for a Russian noun phrase `obj` («усиление сигнала» -> «усиливать сигнал»).

    When the genitive after the deverbal noun names the agent (one of the `agent` lemmas: the subject or a class it
    belongs to), the verb is reflexive and the genitive goes («деление клетки» for a neuron -> «делиться»).
    Without a verb for the noun: «быть способным к» + dative.
    """
    tokens = obj.split(" ")
    verb = infinitive_of(tokens[0]) if tokens and _CYRILLIC.search(tokens[0]) else None
    if verb is None:
        return f"быть способным к {inflect_phrase(obj, 'datv')}"
    rest = " ".join(tokens[1:])
    if not rest:
        return infinitive_of(tokens[0], reflexive=True) or verb
    rest_lemmas = {lemma(w) for w in rest.split(" ")}
    if agent and rest_lemmas & agent:
        return infinitive_of(tokens[0], reflexive=True) or verb
    return f"{verb} {_genitive_to_accusative(rest)}"


def _genitive_to_accusative(phrase: str) -> str:
    out = []
    for token in phrase.split(" "):
        parses = [p for p in _morph().parse(token.lower()) if p.tag.case == "gent"]
        if not parses:
            out.append(token)
            continue
        p = parses[0]
        wanted = {"accs", p.tag.number or "sing"}
        if p.tag.POS in ("ADJF", "PRTF") and p.tag.number != "plur":
            wanted.add(p.tag.gender or "masc")
        form = p.inflect(wanted)
        out.append(form.word if form is not None else token)
    return " ".join(out)


# -- English ------------------------------------------------------------------------------------------------------

_AN_EXCEPTIONS = re.compile(r"^(?:hour|honest|honou?r|heir)", re.IGNORECASE)
_A_EXCEPTIONS = re.compile(r"^(?:uni|use|usu|uti|eu|ewe|one|once|ubiq|ur[aeio])", re.IGNORECASE)
_IRREGULAR_PLURALS = {
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
    "mice": "mouse",
    "feet": "foot",
    "teeth": "tooth",
    "geese": "goose",
    "data": "data",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "analyses": "analysis",
    "axes": "axis",
    "series": "series",
    "species": "species",
}
_UNCHANGED = re.compile(r"(?:ss|us|is|ous|ics|sis|ness)$")


def article(phrase: str) -> str:
    """'a' or 'an' for an English noun phrase ("an impus", "a unicorn", "an hour", "an MRI")."""
    word = phrase.strip().split(" ")[0] if phrase.strip() else ""
    if not word:
        return "a"
    if _AN_EXCEPTIONS.match(word):
        return "an"
    if _A_EXCEPTIONS.match(word):
        return "a"
    if word.isupper() and len(word) > 1:  # an acronym is read letter by letter
        return "an" if word[0] in "AEFHILMNORSX" else "a"
    return "an" if word[0].lower() in "aeiou" else "a"


def with_article(phrase: str) -> str:
    """The phrase with its indefinite article ("an impus")."""
    return f"{article(phrase)} {phrase}"


@lru_cache(maxsize=16384)
def singular(word: str) -> str:
    """The singular of an English noun ("tumpuses" -> "tumpus", "bodies" -> "body"); other words unchanged."""
    w = word.lower()
    if w in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[w]
    if len(w) <= 3 or not w.endswith("s") or _UNCHANGED.search(w):
        return w
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("sses", "shes", "ches", "xes", "zes", "uses")):
        return w[:-2]
    if w.endswith("oes") and len(w) > 5:
        return w[:-2]
    return w[:-1]


def plural(word: str) -> str:
    """The plural of an English noun ("tumpus" -> "tumpuses", "body" -> "bodies")."""
    reverse = {v: k for k, v in _IRREGULAR_PLURALS.items()}
    w = word.lower()
    if w in reverse:
        return reverse[w]
    if w.endswith(("s", "sh", "ch", "x", "z")):
        return w + "es"
    if w.endswith("y") and len(w) > 1 and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


# Units named by a Russian word, by its lemma (pint's names): «3 года» is 3 year, «42 дня» 6 weeks.
_UNIT_OF_RU = {
    "год": "year",
    "месяц": "month",
    "неделя": "week",
    "день": "day",
    "сутки": "day",
    "час": "hour",
    "минута": "minute",
    "секунда": "second",
    "процент": "percent",
    "градус": "degree",
    "узел": "knot",
    "метр": "meter",
    "километр": "kilometer",
    "килограмм": "kilogram",
    "тонна": "tonne",
}


def unit_of_word(word: str) -> str | None:
    """The unit a Russian unit word names in any form («года», «лет», «недель» -> year, year, week), or None."""
    if not _CYRILLIC.search(word):
        return None
    for p in _morph().parse(word.lower()):
        if p.tag.POS == "NOUN" and p.normal_form in _UNIT_OF_RU:
            return _UNIT_OF_RU[p.normal_form]
    return None
