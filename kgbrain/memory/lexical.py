"""Words without a model: tokens, crude RU/EN stems, stop words, overlap similarity, language guess.

The seeds use "semantic similarity" in several formulas. kgbrain has no embedding model, so they use the
overlap of stemmed content words instead: deterministic, explainable and good enough to tell a question
about neurons from one about helmets.
"""

from __future__ import annotations

import re
from functools import lru_cache

from kgbrain.knowledge import normalize_term

_WORD = re.compile(r"[0-9a-zа-я]+(?:-[0-9a-zа-я]+)*")
_CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
_LATIN = re.compile(r"[a-z]", re.IGNORECASE)

STOP_WORDS = frozenset(
    [
        "а",
        "и",
        "или",
        "но",
        "да",
        "нет",
        "не",
        "ни",
        "же",
        "ли",
        "бы",
        "то",
        "это",
        "этот",
        "эта",
        "эти",
        "что",
        "кто",
        "как",
        "какой",
        "какая",
        "какие",
        "каково",
        "почему",
        "зачем",
        "где",
        "когда",
        "сколько",
        "чей",
        "чем",
        "чего",
        "чему",
        "для",
        "в",
        "во",
        "на",
        "с",
        "со",
        "к",
        "ко",
        "по",
        "о",
        "об",
        "от",
        "до",
        "из",
        "у",
        "за",
        "над",
        "под",
        "при",
        "про",
        "без",
        "через",
        "является",
        "являются",
        "ли",
        "есть",
        "был",
        "была",
        "были",
        "будет",
        "может",
        "могут",
        "можно",
        "нужно",
        "ли",
        "такое",
        "такой",
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "do",
        "does",
        "did",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "about",
        "as",
        "and",
        "or",
        "not",
        "no",
        "what",
        "who",
        "whom",
        "which",
        "why",
        "how",
        "when",
        "where",
        "whose",
        "can",
        "could",
        "may",
        "might",
        "must",
        "should",
        "would",
        "will",
        "this",
        "that",
        "these",
        "those",
        "it",
        "its",
        "there",
        "their",
        "than",
        "then",
        "into",
        "does",
        "have",
        "has",
        "had",
    ]
)

# Crude suffix stripping: enough to map "нейроны", "нейронов", "мышления" onto "нейрон", "мышлени".
_RU_ENDINGS = tuple(
    sorted(
        [
            "иями",
            "ями",
            "ами",
            "иях",
            "ях",
            "ах",
            "ием",
            "ем",
            "ом",
            "ой",
            "ей",
            "ий",
            "ый",
            "ая",
            "яя",
            "ое",
            "ее",
            "ые",
            "ие",
            "ых",
            "их",
            "ую",
            "юю",
            "ов",
            "ев",
            "ам",
            "ям",
            "ия",
            "ья",
            "а",
            "я",
            "о",
            "е",
            "ы",
            "и",
            "у",
            "ю",
            "ь",
            "й",
        ],
        key=len,
        reverse=True,
    )
)
_EN_ENDINGS = ("ations", "ation", "ings", "ing", "ies", "es", "s", "ed")


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude stem of one normalised word (Russian or English)."""
    if _CYRILLIC.search(word):
        for ending in _RU_ENDINGS:
            if len(word) - len(ending) >= 3 and word.endswith(ending):
                return word[: -len(ending)]
        return word
    for ending in _EN_ENDINGS:
        if len(word) - len(ending) >= 3 and word.endswith(ending):
            return word[: -len(ending)]
    return word


def words(text: str) -> list[str]:
    """Normalised words of a text (lower case, ё→е), in order."""
    return _WORD.findall(normalize_term(text).replace("_", " "))


def content_words(text: str) -> list[str]:
    """Words that carry meaning (no stop words, no single letters)."""
    return [w for w in words(text) if w not in STOP_WORDS and len(w) > 1]


def stems(text: str) -> frozenset[str]:
    """Stems of the content words."""
    return frozenset(stem(w) for w in content_words(text))


def similarity(a: str, b: str) -> float:
    """Overlap coefficient of the stemmed content words of two texts, 0..1 (0 when either has none)."""
    sa, sb = stems(a), stems(b)
    if not sa or not sb:
        return 0.0
    return len(sa & sb) / min(len(sa), len(sb))


def detect_language(text: str) -> str:
    """'ru' when Cyrillic letters are the majority, 'en' when Latin ones are, 'en' for neither."""
    cyr = len(_CYRILLIC.findall(text))
    lat = len(_LATIN.findall(text))
    return "ru" if cyr > lat else "en"
