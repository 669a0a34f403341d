"""Typos in a question's words, corrected against the knowledge base's own vocabulary.

"ancor" for "anchor", «кингу» for «книгу», «якроя» for «якоря»: a word that names nothing is compared, by its
Snowball stem, with the stems of the words of every name the base knows; one letter dropped, added, changed or
two neighbours swapped (Damerau–Levenshtein distance 1) is a typo of that word. Only long words are corrected
(a stem of at least `MIN_STEM` letters, so "king" never becomes "wing"), only when exactly one known word is that
close, never a common Russian word of pymorphy3's dictionary («передаёт» is no typo of «передача»), and never a
word the vocabulary has itself: an exact match always wins. Candidates are found through the
stems with one letter deleted (the symmetric-delete scheme of SymSpell), so a lookup costs a few dict probes.
"""

from __future__ import annotations

from collections.abc import Iterable

from kgbrain.language import STOP_WORDS, is_dictionary_word, stem, words

MIN_WORD = 5  # letters in the word as written
MIN_STEM = 4  # letters in its stem


class TypoIndex:
    """The known words of a vocabulary by stem (and as written, for a short-stemmed «музей»), with their
    one-letter deletions."""

    def __init__(self, names: Iterable[str]) -> None:
        """Index every word of `names` (term keys: labels, aliases, ids as words)."""
        self._stems = _Near()  # stem -> a word as the vocabulary has it
        self._words = _Near()
        for name in names:
            for word in words(name):
                if len(word) >= MIN_WORD and word.isalpha():
                    self._words.add(word, word)
                    self._stems.add(stem(word), word)

    def correct(self, word: str) -> str | None:
        """The known word `word` is a typo of, or None (known itself, too short, or no single close word)."""
        w = word.lower().replace("ё", "е")
        if len(w) < MIN_WORD or not w.isalpha() or w in STOP_WORDS:
            return None
        s = stem(w)
        if s in self._stems.known or w in self._words.known:
            return None  # an exact match always wins
        if is_dictionary_word(w):
            return None  # «передаёт» is a word of the language, not a typo of «передача»
        return self._stems.close(s) or self._words.close(w)


class _Near:
    """Keys (at least MIN_STEM letters) with the word each stands for, found within one edit."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}
        self._deleted: dict[str, set[str]] = {}

    def add(self, k: str, word: str) -> None:
        if len(k) < MIN_STEM or k in self.known:
            return
        self.known[k] = word
        for d in _deletions(k):
            self._deleted.setdefault(d, set()).add(k)

    def close(self, k: str) -> str | None:
        if len(k) < MIN_STEM:
            return None
        near = set(self._deleted.get(k, ()))
        for d in _deletions(k):
            near |= self._deleted.get(d, set())
            if d in self.known:
                near.add(d)
        found = sorted(x for x in near if _distance_one(k, x))
        return self.known[found[0]] if len(found) == 1 else None


def _deletions(s: str) -> set[str]:
    return {s[:i] + s[i + 1 :] for i in range(len(s))}


def _distance_one(a: str, b: str) -> bool:
    """Damerau–Levenshtein distance exactly 1: one insertion, deletion, substitution or adjacent swap."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
        if len(diff) == 1:
            return True
        return len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
