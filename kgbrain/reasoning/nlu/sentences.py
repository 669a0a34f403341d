"""Read a claim sentence (Russian or English) as a triple: subject, predicate, object and polarity.

Rule-based, no model: a short list of sentence templates per language, tried in order, the more specific
first ("X является частью Y" before "X является Y"). A negation inside the template ("не", "not", "cannot",
"doesn't") gives polarity false. The subject and object come back as the words of the sentence; linking them
to concepts (labels, aliases, word forms) is the reasoner's job, so a claim and a question name concepts the
same way.

A value statement ("The resting potential of a neuron is -70 mV", «Потенциал покоя нейрона равен -70 мВ»)
comes back with the predicate `ATTRIBUTE_PHRASE` and the attribute and its holder together as the subject
("resting potential of a neuron"): only the knowledge base knows which words name the attribute. A sentence with
any other verb ("Neurons consume energy") is read by `parse_verb_sentence` as `VERB_PHRASE`: only the knowledge
base knows which verbs name its relations.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kgbrain.language import detect_language
from kgbrain.lazy_re import LazyPattern
from kgbrain.reasoning.nlu.lexicon import CLAIM_VERBS

# Pieces of patterns never end in whitespace: `_t` puts `\s+` around them.
_DASH_ETO = r"(?:\u2014|\u2013|-{1,2})(?:\s+это)?"  # em dash, en dash, hyphens
_RU_NOT = r"(?P<neg>не\s+)?"
_RU_NOT_AFTER = r"(?P<neg>\s+не)?"
_EN_BE = r"(?:is|are)(?P<neg>\s+not|n't)?"
_EN_DO_NOT = r"(?P<neg>(?:does|do)(?:\s+not|n't)\s+)?"
# A stated value: a number (signed, with decimals or an exponent) and at most two words of unit after it.
VALUE_TEXT = r"[-+\u2212]?\d[\d\u00a0 ]*(?:[.,]\d+)?(?:e[-+]?\d+)?(?:\s*[^\s\d]\S*(?:\s+[^\s\d]\S*)?)?"
# The predicate of a value statement whose attribute is still words (never a predicate name: those are
# lower-case identifiers).
ATTRIBUTE_PHRASE = "?attribute"
# The predicate of a sentence no template reads ("Neurons consume energy", «Нейрон потребляет энергию»): the whole
# statement is the subject, and the reasoner finds the verb among the knowledge base's predicates.
VERB_PHRASE = "?verb"


@dataclass(frozen=True, slots=True)
class ClaimTriple:
    """A sentence read as `subject predicate object` with the claimed polarity."""

    subject: str
    predicate: str
    object: str
    polarity: bool
    lang: str
    template: str  # which template matched, for explanations and tests


def _t(pattern: str) -> LazyPattern:
    return LazyPattern(r"^\s*(?P<s>.+?)\s+" + pattern + r"\s+(?P<o>.+?)\s*$", re.IGNORECASE | re.DOTALL)


# (template id, predicate, pattern); "s" and "o" are the subject and object, "neg" a negation. The verbs that name
# has_property, can and the causal predicates come from the lexicon; the copula forms stay with their templates.
_RU_VERBS, _EN_VERBS = CLAIM_VERBS["ru"], CLAIM_VERBS["en"]
_RU: tuple[tuple[str, str, LazyPattern], ...] = (
    ("ru.part-of", "part_of", _t(_RU_NOT + r"(?:является|являются)\s+частью")),
    ("ru.part-of-dash", "part_of", _t(_DASH_ETO + _RU_NOT_AFTER + r"\s+часть")),
    ("ru.part-of-member", "part_of", _t(_RU_NOT + r"(?:входит|входят)\s+в(?:\s+состав)?")),
    ("ru.instance-of", "instance_of", _t(_RU_NOT + r"(?:является|являются)\s+(?:экземпляром|примером)")),
    ("ru.is-a", "is_a", _t(_RU_NOT + r"(?:является|являются)")),
    ("ru.contains", "contains", _t(_RU_NOT + r"(?:содержит|содержат)")),
    ("ru.has", "has_property", _t(_RU_NOT + _RU_VERBS["has_property"])),
    ("ru.can", "can", _t(_RU_NOT + _RU_VERBS["can"])),
    ("ru.causes", "causes", _t(_RU_NOT + _RU_VERBS["causes"])),
    ("ru.leads-to", "leads_to", _t(_RU_NOT + _RU_VERBS["leads_to"])),
    ("ru.prevents", "prevents", _t(_RU_NOT + _RU_VERBS["prevents"])),
    ("ru.enables", "enables", _t(_RU_NOT + _RU_VERBS["enables"])),
    ("ru.is-a-dash", "is_a", _t(_DASH_ETO + _RU_NOT_AFTER)),
    ("ru.is-a-eto", "is_a", _t(r"это" + _RU_NOT_AFTER)),
)
_RU_VALUE = (
    re.compile(
        r"^\s*(?P<s>.+?)\s+(?P<neg>не\s+)?(?:равен|равн[аоы]|составля(?:ет|ют))\s+(?P<o>" + VALUE_TEXT + r")\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?P<s>.+?)\s+(?:\u2014|\u2013|-{1,2})(?P<neg>\s+не)?\s+(?P<o>" + VALUE_TEXT + r")\s*$", re.IGNORECASE
    ),
)
_EN_VALUE = (
    re.compile(
        r"^\s*(?:the\s+)?(?P<s>.+?\s+of\s+.+?)\s+(?:is|are|equals)(?P<neg>\s+not|n't)?(?:\s+equal\s+to)?\s+"
        r"(?P<o>" + VALUE_TEXT + r")\s*$",
        re.IGNORECASE,
    ),
    re.compile(
        r"^\s*(?P<s>.+?'s?\s+.+?)\s+(?:is|are|equals)(?P<neg>\s+not|n't)?(?:\s+equal\s+to)?\s+(?P<o>"
        + VALUE_TEXT
        + r")\s*$",
        re.IGNORECASE,
    ),
)
_RU_HAS_U = re.compile(
    r"^\s*у\s+(?P<s>.+?)\s+(?:(?P<pos>есть|имеется|имеются)|(?P<neg>нет))\s+(?P<o>.+?)\s*$",
    re.IGNORECASE,
)

_EN: tuple[tuple[str, str, LazyPattern], ...] = (
    ("en.part-of", "part_of", _t(_EN_BE + r"\s+(?:a\s+)?part\s+of")),
    ("en.instance-of", "instance_of", _t(_EN_BE + r"\s+an?\s+instance\s+of")),
    ("en.contains", "contains", _t(_EN_DO_NOT + r"(?:contains?)")),
    ("en.has", "has_property", _t(_EN_DO_NOT + _EN_VERBS["has_property"])),
    (
        "en.can",
        "can",
        _t(r"(?:can(?P<neg>not|\s+not|'t)?|(?:(?:is|are)(?P<neg2>\s+not|n't)?\s+)?(?:able\s+to|capable\s+of))"),
    ),
    ("en.causes", "causes", _t(_EN_DO_NOT + _EN_VERBS["causes"])),
    ("en.leads-to", "leads_to", _t(_EN_DO_NOT + _EN_VERBS["leads_to"])),
    ("en.prevents", "prevents", _t(_EN_DO_NOT + _EN_VERBS["prevents"])),
    ("en.enables", "enables", _t(_EN_DO_NOT + _EN_VERBS["enables"])),
    ("en.is-a", "is_a", _t(_EN_BE + r"(?:\s+(?:a|an|the))?")),
)
_EN_ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)
_TRAILING = ".!?;:…\"'«»“”„ "


def parse_claim_sentence(text: str, lang: str | None = None) -> ClaimTriple | None:
    """Read a sentence such as "Нейрон — это клетка" or "Neurons contain DNA"; None when no template fits."""
    sentence = " ".join(text.strip().strip(_TRAILING).split())
    lang = lang if lang in ("ru", "en") else detect_language(sentence)
    for pattern in _RU_VALUE if lang == "ru" else _EN_VALUE:
        m = pattern.match(sentence)
        if m:
            value = m["o"].strip().rstrip(_TRAILING).replace("\u2212", "-")
            return _triple(m["s"], ATTRIBUTE_PHRASE, value, m["neg"] is None, lang, f"{lang}.value")
    if lang == "ru":
        m = _RU_HAS_U.match(sentence)
        if m:
            return _triple(m["s"], "has_property", m["o"], m["neg"] is None, lang, "ru.u-est")
    for template, predicate, grammar in _RU if lang == "ru" else _EN:
        m = grammar.match(sentence)
        if m is None:
            continue
        groups = m.groupdict()
        negated = bool(groups.get("neg") or groups.get("neg2"))
        return _triple(m["s"], predicate, m["o"], not negated, lang, template)
    return None


def _triple(subject: str, predicate: str, obj: str, polarity: bool, lang: str, template: str) -> ClaimTriple | None:
    subject = _term(subject, lang)
    obj = obj if predicate == ATTRIBUTE_PHRASE else _term(obj, lang)  # a value keeps its sign
    if not subject or not obj:
        return None
    return ClaimTriple(subject, predicate, obj, polarity, lang, template)


def _term(words: str, lang: str) -> str:
    words = words.strip(_TRAILING + ",\u2014\u2013-")
    if lang == "en":
        words = _EN_ARTICLE.sub("", words)
    return words


_EN_VERB_NOT = re.compile(r"^(?P<s>\S.*?)\s+(?:does|do|did)(?:\s+not|n[’']t)\s+(?P<o>\S.*)$", re.IGNORECASE)
_RU_VERB_NOT = re.compile(r"^(?P<s>\S.*?)\s+не\s+(?P<o>\S.*)$", re.IGNORECASE)


def parse_verb_sentence(text: str, lang: str | None = None) -> ClaimTriple | None:
    """A sentence of two words or more as `VERB_PHRASE`, its negation taken out ("Glial cells do not divide" ->
    "Glial cells divide", false); None for a single word."""
    sentence = " ".join(text.strip().strip(_TRAILING).split())
    lang = lang if lang in ("ru", "en") else detect_language(sentence)
    m = (_RU_VERB_NOT if lang == "ru" else _EN_VERB_NOT).match(sentence)
    statement = f"{m['s']} {m['o']}" if m else sentence
    if len(statement.split()) < 2:
        return None
    return ClaimTriple(statement, VERB_PHRASE, "", m is None, lang, f"{lang}.verb")
