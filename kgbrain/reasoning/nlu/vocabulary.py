"""Word keys: how two forms of one word meet, in both languages, without a dictionary of the domain.

A key is the Snowball stem of a word's lemma (pymorphy3 for Russian, the singular for English): «растёт» and
«растет» and «расти» meet at «раст», "grows" and "grow" at "grow". Keys of one root that derivation moves apart
(«основан» ~ «основания», "produced" ~ "producer", "boil" ~ "boiling") meet by `same_root`: one key begins the
other, or they share a long beginning. English participles that no stemmer brings back (grown, made, built) have a
short table; the knowledge base's own labels and aliases do the rest (lexicon.KbLexicon).
"""

from __future__ import annotations

import re
from functools import lru_cache

from kgbrain.language import lemma, stem, words

# Irregular English participles and past forms -> the verb (a closed class: the language's, not a domain's).
_IRREGULAR = {
    "grown": "grow",
    "grew": "grow",
    "made": "make",
    "built": "build",
    "known": "know",
    "knew": "know",
    "written": "write",
    "wrote": "write",
    "given": "give",
    "gave": "give",
    "taken": "take",
    "took": "take",
    "drunk": "drink",
    "drank": "drink",
    "kept": "keep",
    "held": "hold",
    "sold": "sell",
    "bought": "buy",
    "brought": "bring",
    "led": "lead",
    "fed": "feed",
    "bred": "breed",
    "born": "born",
    "eaten": "eat",
    "ate": "eat",
    "spoken": "speak",
    "chosen": "choose",
    "drawn": "draw",
    "shown": "show",
    "seen": "see",
    "saw": "see",
    "thrown": "throw",
    "worn": "wear",
    "wore": "wear",
    "stolen": "steal",
    "frozen": "freeze",
    "ridden": "ride",
    "driven": "drive",
    "begun": "begin",
    "began": "begin",
}

# Prepositions and particles that belong to a relation ("lives in", «впадает в»), by the English one a predicate
# id ends with; Russian ones map to every English one they translate.
PARTICLES: dict[str, tuple[str, ...]] = {
    "in": ("in",),
    "into": ("into", "in"),
    "inside": ("in",),
    "at": ("at", "in"),
    "on": ("on",),
    "to": ("to",),
    "from": ("from",),
    "by": ("by",),
    "with": ("with",),
    "of": ("of",),
    "for": ("for",),
    "against": ("against",),
    "after": ("after",),
    "as": ("as",),
    "в": ("in", "into", "at"),
    "во": ("in", "into", "at"),
    "на": ("on", "in", "at"),
    "к": ("to",),
    "ко": ("to",),
    "от": ("from", "against"),
    "из": ("from", "of"),
    "с": ("with", "from"),
    "со": ("with", "from"),
    "для": ("for",),
    "через": ("via", "through"),
    "у": ("at",),
    "при": ("at",),
    "после": ("after",),
    "в честь": ("after",),
}


@lru_cache(maxsize=65536)
def key(word: str) -> str:
    """The key two forms of one word share: the stem of its lemma."""
    w = word.lower().replace("ё", "е")
    w = _IRREGULAR.get(w, w)
    return stem(lemma(w)) or w


def keys(text: str) -> tuple[str, ...]:
    """The key of every word of a text, in order."""
    return tuple(key(w) for w in words(text))


def same_root(a: str, b: str) -> bool:
    """Whether two keys are forms or derivations of one root («основа» ~ «основан», "produc" ~ "product")."""
    if a == b:
        return True
    a, b = _alternated(a), _alternated(b)
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 4 and long.startswith(short) and _derived(short, long, len(short)):
        return True
    if len(short) == 3 and _cyrillic(short):
        # a short root's verbal noun: курить ~ курение («кур», «курен»), купить ~ покупка («куп», «покупк»)
        for noun in (long, long.removeprefix(_RU_ASPECT) if not short.startswith(_RU_ASPECT) else long):
            if noun.startswith(short) and noun[3:] in _RU_NOUN_OF_VERB:
                return True
    if _cyrillic(short) and _RU_INFINITIVE.search(short) and long.startswith(short[:-1]) and len(short) >= 5:
        return True  # кипеть ~ кипение («кипет», «кипен»): the stem of an -еть/-ить infinitive keeps its т
    if _cyrillic(a) and (_agent_of(a, b) or _agent_of(b, a)):
        return True
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= 5 and _derived(a, b, common)


def _derived(a: str, b: str, common: int) -> bool:
    """Whether two keys sharing `common` first letters are one root: always in Russian, in English only when
    what each adds is a derivation's ending."""
    return _cyrillic(a) or all(x[common:] in _EN_DERIVED or not x[common:] for x in (a, b))


# What an English derivation adds to its root's stem ("produc" ~ "product", "found" ~ "foundat", "operat" ~
# "operator"): a stem that runs on into other letters is another word ("count" and "countri" are not one root).
_EN_DERIVED = frozenset(
    [
        "t",
        "at",
        "ation",
        "er",
        "or",
        "ion",
        "ment",
        "ant",
        "ent",
        "ing",
        "al",
        "iv",
        "abl",
        "ur",
        "ure",
        "ed",
        "es",
        "s",
        "ist",
        "ism",
        "ic",
        "it",
        "iti",
        "ness",
        "ful",
        "ship",
        "y",
        "e",
        "ag",
        "age",
        "ar",
        "ari",
        "ou",
        "ous",
    ]
)
# What a Russian verbal noun adds to a verb's key (курить -> «кур», курение -> «курен»).
_RU_NOUN_OF_VERB = frozenset({"ен", "ан", "к"})
_RU_INFINITIVE = re.compile(r"[аеиоуыя]т$")
_RU_ASPECT = "по"  # the prefix of the imperfective noun of a perfective verb (купить ~ покупка)


# A Russian agent noun and its verb: тренер ~ тренировать («тренер», «тренирова»), редактор ~ редактировать,
# координатор ~ координировать, спонсор ~ спонсировать. The root left must keep four letters.
_RU_AGENT = ("атор", "ер", "ор")
_RU_AGENT_VERB = ("ирова", "ирует", "иру")


def _agent_of(noun: str, verb: str) -> bool:
    for suffix in _RU_AGENT:
        root = noun.removesuffix(suffix)
        if root != noun and len(root) >= 4 and any(verb.startswith(root + v) for v in _RU_AGENT_VERB):
            return True
    return False


def _cyrillic(k: str) -> bool:
    return "\u0400" <= k[0] <= "\u04ff"


# Consonant alternations between a Russian verb and its noun (родиться ~ рождение, носить ~ ношение,
# защитить ~ защищение): compared on the verb's consonant.
_ALTERNATIONS = (("жд", "д"), ("щ", "ст"), ("ш", "с"), ("ж", "з"))


def _alternated(k: str) -> str:
    if not k or not ("\u0400" <= k[0] <= "\u04ff"):
        return k
    for new, old in _ALTERNATIONS:
        k = k.replace(new, old)
    return k
