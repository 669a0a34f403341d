"""The predicate <-> phrase lexicon, both languages: how each stored predicate is said and how it is read.

One table of `Word`s, one per predicate; each reader and writer takes the view it needs:

- output/dialogue.py says a predicate in running text (`PHRASES`), puts a Russian object in the case the verb
  governs (`RU_CASES`) and makes a Russian short form agree with the subject (`RU_AGREES`);
- nlu/understanding.py reads the verb of a wh-question or "Does X V Y?" (`RU_VERB_STEMS`, `EN_VERB_FORMS`,
  `PREPOSITIONS`) and the predicate a yes/no intent asks about (`YES_NO_PREDICATES`);
- nlu/question.py reads the verb of a causal yes/no question (`CAUSAL_VERBS`);
- nlu/sentences.py reads the verb of a claim sentence (`CLAIM_VERBS`).

A new predicate's wording is one `Word`. Each view holds exactly what its reader used before the table was one,
so a predicate may be said without being read (is_a, "является") or read without being said (proposed, «предлож»).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Word:
    """How one predicate is said and read."""

    predicate: str
    en: str | None = None  # running English ("is part of"); None: the id with spaces ("consumes")
    ru: str | None = None  # running Russian («является частью»); None: the id with spaces
    ru_case: str | None = None  # the case the Russian verb governs (a pymorphy tag); None: the object as written
    ru_agrees: bool = False  # the Russian phrase starts with a short form that agrees with the subject («назван»)
    ru_stems: tuple[str, ...] = ()  # beginnings of Russian verbs that name it in a question («назва»: назвал)
    en_forms: tuple[str, ...] = ()  # English participles that name it though no form of its id does ("located")
    causal: tuple[str, ...] = ()  # beginnings of the verbs of a causal yes/no question about it (both languages)
    claim_ru: str | None = None  # the verb of a Russian claim sentence (a regular expression; sentences.py)
    claim_en: str | None = None  # the verb of an English claim sentence


WORDS: tuple[Word, ...] = (
    Word("is_a", "is a", "является", "ablt"),
    Word("instance_of", "is a", "является", "ablt"),
    Word("part_of", "is part of", "является частью", "gent"),
    Word(
        "has_property",
        "has",
        "имеет",
        "accs",
        claim_ru=r"(?:имеет|имеют|содержит|содержат|обладает|обладают)",
        claim_en=r"(?:has|have|contains?|possess(?:es)?)",
    ),
    Word(
        "can",
        ru="может",
        claim_ru=r"(?:может|могут|умеет|умеют|способен|способна|способно|способны)(?:\s+к)?",
    ),
    Word(
        "causes",
        ru="вызывает",
        ru_case="accs",
        causal=("caus", "trigger", "вызыва"),
        claim_ru=r"(?:вызывает|вызывают|является\s+причиной|порождает|порождают)",
        claim_en=r"(?:causes?)",
    ),
    Word(
        "enables",
        ru="обеспечивает",
        ru_case="accs",
        causal=("enabl", "обеспечива"),
        claim_ru=r"(?:обеспечива[ею]т|дела[ею]т\s+возможным|позволя[ею]т)",
        claim_en=r"(?:enables?)",
    ),
    Word(
        "leads_to",
        "leads to",
        "приводит к",
        "datv",
        causal=("result", "lead", "привод", "вед"),
        claim_ru=r"(?:приводит|приводят|ведёт|ведет|ведут)\s+к",
        claim_en=r"(?:leads?)\s+to",
    ),
    Word(
        "prevents",
        ru="препятствует",
        ru_case="datv",
        causal=("prevent", "предотвращ", "препятств"),
        claim_ru=r"(?:предотвращает|предотвращают|препятствует|препятствуют)",
        claim_en=r"(?:prevents?)",
    ),
    Word("related_to", "is related to", "связан с", "ablt", ru_agrees=True),
    Word("obliged_to", "is obliged to carry out", "обязан выполнять", "accs", ru_agrees=True),  # the action is a noun
    Word("receives", ru="принимает", ru_case="accs", ru_stems=("принима", "получа")),
    Word("processes", ru="обрабатывает", ru_case="accs", ru_stems=("обрабатыва",)),
    Word("produces", ru="производит", ru_case="accs", ru_stems=("произв", "выраба")),
    Word("transmits", ru="передаёт", ru_case="accs", ru_stems=("переда",)),
    Word("consumes", ru="потребляет", ru_case="accs", ru_stems=("потребл",)),
    Word("performs", ru="выполняет", ru_case="accs", ru_stems=("выполня",)),
    Word("connected_via", "is connected via", "соединён через", "accs", ru_agrees=True),
    Word("important_for", "is important for", "важен для", "gent", ru_agrees=True),
    Word("depends_on", "depends on", "зависит от", "gent", ru_stems=("завис",)),
    Word("conducts", ru="проводит", ru_case="accs", ru_stems=("провод",)),
    Word("contains", ru="содержит", ru_case="accs", ru_stems=("содерж",)),
    Word(
        "located_in",
        "is located in",
        "находится в",
        "loct",
        ru_stems=("наход", "располож"),
        en_forms=("located", "found", "situated"),
    ),
    Word("involved_in", "is involved in", "участвует в", "loct", ru_stems=("участву",)),
    Word("uses", ru="использует", ru_case="accs", ru_stems=("использ",)),
    Word("stores", ru="хранит", ru_case="accs", ru_stems=("хран",)),
    Word("surrounds", ru="окружает", ru_case="accs", ru_stems=("окружа",)),
    Word("protects", ru_stems=("защища",)),
    Word("protects_against", "protects against", "защищает от", "gent", ru_stems=("защища",)),
    Word("precedes", ru="предшествует", ru_case="datv", ru_stems=("предшеству",)),
    Word("named_by", "was named by", "назван", "ablt", ru_agrees=True, ru_stems=("назва",)),
    Word("discovered_by", "was discovered by", "открыт", "ablt", ru_agrees=True, ru_stems=("откры",)),
    Word("invented_by", "was invented by", "изобретён", "ablt", ru_agrees=True, ru_stems=("изобр",)),
    Word("described_by", "was described by", "описан", "ablt", ru_agrees=True, ru_stems=("описа",)),
    Word("disjoint_with", "is disjoint with", "не пересекается с", "ablt"),
    Word("similar_to", "is similar to", "похож на", "accs", ru_agrees=True),
    Word("equivalent_to", "is equivalent to", "равнозначен", ru_agrees=True),
    Word("supports", ru="поддерживает", ru_case="accs", ru_stems=("поддерж",)),
    Word("interacts_with", ru="взаимодействует с", ru_case="ablt", ru_stems=("взаимодейству",)),
    Word("proposed", ru_stems=("предлож", "выдвин")),
    Word("opposed", ru_stems=("оспар", "возраж")),
    Word("excites", ru_stems=("возбужд",)),
    Word("inhibits", ru_stems=("тормоз", "подавл")),
    Word("made_of", ru_stems=("сдела", "состо"), en_forms=("made",)),
    Word("consists_of", ru_stems=("состо",)),
    Word("triggers", ru_stems=("запуска",)),
)


def _by_stem(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for key, predicate in pairs:
        out[key] = (*out.get(key, ()), predicate)
    return out


# -- saying (output/dialogue.py) ---------------------------------------------------------------------------------
PHRASES: dict[str, dict[str, str]] = {
    "ru": {w.predicate: w.ru for w in WORDS if w.ru is not None},
    "en": {w.predicate: w.en for w in WORDS if w.en is not None},
}
RU_CASES: dict[str, str] = {w.predicate: w.ru_case for w in WORDS if w.ru_case is not None}
RU_AGREES = frozenset(w.ru.split(" ")[0] for w in WORDS if w.ru_agrees and w.ru)

# -- reading (nlu/) ----------------------------------------------------------------------------------------------
# Verbs whose predicate is not the verb itself (every Russian verb: predicates are English ids), by beginning
# (Russian) or form (English); wh-questions and "Does X V Y?" read them.
RU_VERB_STEMS: dict[str, tuple[str, ...]] = _by_stem([(s, w.predicate) for w in WORDS for s in w.ru_stems])
EN_VERB_FORMS: dict[str, tuple[str, ...]] = _by_stem([(f, w.predicate) for w in WORDS for f in w.en_forms])
# The verb of a causal yes/no question -> the predicate it asks about (by beginning, both languages).
CAUSAL_VERBS: tuple[tuple[str, str], ...] = tuple((v, w.predicate) for w in WORDS for v in w.causal)
# The verb of a claim sentence, per language: predicate -> the verb forms (a regular expression).
CLAIM_VERBS: dict[str, dict[str, str]] = {
    "ru": {w.predicate: w.claim_ru for w in WORDS if w.claim_ru is not None},
    "en": {w.predicate: w.claim_en for w in WORDS if w.claim_en is not None},
}
# The predicate a yes/no intent (nlu/question.py Intent values) asks about: "Does X have Y?" asks has_property.
YES_NO_PREDICATES: dict[str, str] = {
    "is_a": "is_a",
    "has_property": "has_property",
    "has": "has_property",
    "part_of": "part_of",
    "can": "can",
}
# A predicate a verb names and the broader one decided when the knowledge base states nothing with it: "X
# contains Y" is `contains` where the base stores that relation, else `has_property` (as "X has Y" is).
BROADER: dict[str, str] = {"contains": "has_property"}
# A preposition after a verb and the English one a predicate id ends with (protects_against, located_in).
PREPOSITIONS: dict[str, tuple[str, ...]] = {
    "against": ("against",),
    "in": ("in",),
    "into": ("in",),
    "to": ("to",),
    "from": ("from",),
    "with": ("with",),
    "on": ("on",),
    "of": ("of",),
    "for": ("for",),
    "от": ("against", "from"),
    "в": ("in",),
    "во": ("in",),
    "к": ("to",),
    "ко": ("to",),
    "на": ("on",),
    "с": ("with",),
    "со": ("with",),
    "из": ("of", "from"),
    "для": ("for",),
}


# -- the knowledge base's own vocabulary -------------------------------------------------------------------------
# Words that name no relation of their own inside a relation phrase ("is", "was", "does", «был»): the auxiliaries
# and articles; prepositions are read as particles (vocabulary.PARTICLES).
_RELATION_FILLER = frozenset(
    [
        "a",
        "an",
        "the",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "does",
        "do",
        "did",
        "has",
        "have",
        "had",
        "it",
        "its",
        "there",
        "that",
        "which",
        "who",
        "whom",
        "what",
        "where",
        "when",
        "how",
        "many",
        "much",
        "any",
        "some",
        "ли",
        "же",
        "был",
        "была",
        "было",
        "были",
        "есть",
        "это",
        "то",
        "как",
        "что",
        "кто",
        "где",
        "когда",
        "какой",
        "какая",
        "какое",
        "какие",
        "каком",
        "какого",
        "какую",
        "каков",
        "какова",
        "каково",
        "каковы",
        "сколько",
        "чем",
        "чего",
        "чему",
        "кем",
        "ком",
    ]
)


def said_names(predicate: str) -> list[str]:
    """How the fixed table says and reads a predicate (running phrases, verb beginnings), as names for the
    knowledge base's lexicon: «предотвращ» names `prevents` in a base that labels it only in English."""
    out: list[str] = []
    for w in WORDS:
        if w.predicate == predicate:
            out += [t for t in (w.en, w.ru) if t]
            out += [*w.ru_stems, *w.en_forms, *w.causal]
    return out


@dataclass(frozen=True, slots=True)
class RelationName:
    """One way a stored predicate is named: the keys of its content words and its particles."""

    predicate: str
    words: tuple[str, ...]  # vocabulary.key of each content word ("grow"; «раст»)
    particles: frozenset[str]  # English particle ends ("in"; «в» -> in/into/at)
    text: str


@dataclass(frozen=True, slots=True)
class RelationMatch:
    """A predicate read from a phrase, and how much of the phrase it explains."""

    predicate: str
    explained: frozenset[int]  # positions of the phrase's words its name explains
    score: float
    name: str


class KbLexicon:
    """Every stored predicate and attribute by the words that name it: its id (split on snake_case and CamelCase),
    its labels and aliases in both languages, in every form (vocabulary.key), with the particle it takes.

    Built from the knowledge base at each load (the Reasoner keeps it with the linker's derived data), so "grows
    in", «растёт в», «выращивают в» all name `grows_in` when the base labels it so, and "lives in" names
    `lives_in` from the id alone.
    """

    def __init__(self, names: dict[str, list[str]]) -> None:
        """`names`: predicate id -> its labels and aliases (any language)."""
        from kgbrain.language import split_identifier

        self.entries: dict[str, list[RelationName]] = {}
        for predicate, texts in names.items():
            found: list[RelationName] = []
            for text in dict.fromkeys([split_identifier(predicate), *texts]):
                name = _relation_name(predicate, text)
                if name is not None:
                    found.append(name)
            self.entries[predicate] = found

    def match(self, words: list[str], *, only: frozenset[str] | None = None) -> list[RelationMatch]:
        """The predicates the words of a phrase may name, best first: more of the phrase explained, fewer words of
        the name left unsaid, the particle agreeing."""
        from kgbrain.reasoning.nlu.vocabulary import PARTICLES, key, same_root

        content = [(i, key(w)) for i, w in enumerate(words) if w not in _RELATION_FILLER and w not in PARTICLES]
        particles = {i: PARTICLES[w] for i, w in enumerate(words) if w in PARTICLES}
        said = {_form(w) for w in words}
        best: dict[str, RelationMatch] = {}
        for predicate, names in self.entries.items():
            if only is not None and predicate not in only:
                continue
            for name in names:
                hit = frozenset(i for i, k in content if any(same_root(k, n) for n in name.words))
                if not hit:
                    continue
                unsaid = sum(1 for n in name.words if not any(same_root(k, n) for _, k in content))
                agree = frozenset(i for i, ends in particles.items() if name.particles.intersection(ends))
                score = len(hit) + 0.5 * len(agree) - 0.3 * unsaid - (0.2 if particles and not agree else 0.0)
                # Between names of one root, the one whose words are said as written wins ("triggers" is the
                # predicate triggers before the alias "trigger" of causes; «растёт в» before «растёт на»).
                score += 0.1 * len(said.intersection(_form(w) for w in name.text.replace("_", " ").split()))
                m = RelationMatch(predicate, hit | agree, score, name.text)
                if predicate not in best or m.score > best[predicate].score:
                    best[predicate] = m
        return sorted(best.values(), key=lambda m: (-m.score, m.predicate))


def _form(word: str) -> str:
    return word.lower().replace("ё", "е")


def _relation_name(predicate: str, text: str) -> RelationName | None:
    from kgbrain.language import words as split_words
    from kgbrain.reasoning.nlu.vocabulary import PARTICLES, key

    ws = split_words(text)
    content = tuple(key(w) for w in ws if w not in PARTICLES and w not in _RELATION_FILLER)
    if not content:
        return None
    ends = frozenset(e for w in ws if w in PARTICLES for e in PARTICLES[w])
    return RelationName(predicate, content, ends, text)


# Everyday verbs whose action noun is another word (есть ~ еда, фотографировать ~ фотосъёмка, bring ~ carrying):
# a rule states the action by its noun, a question asks it with the verb. Only pairs no root brings together;
# «курить ~ курение», "touch ~ touching" meet by vocabulary.same_root already.
ACTION_NOUNS: dict[str, tuple[str, ...]] = {
    "есть": ("еда", "питание", "пища", "приём"),
    "кушать": ("еда", "питание", "пища", "приём"),
    "пить": ("питьё", "распитие", "напиток"),
    "брать": ("взятие", "выдача", "вынос", "получение"),
    "взять": ("взятие", "выдача", "вынос", "получение"),
    "уносить": ("вынос",),
    "выносить": ("вынос",),
    "приносить": ("пронос", "принос"),
    "проносить": ("пронос",),
    "приводить": ("привод", "посещение"),
    "трогать": ("прикосновение", "касание"),
    "касаться": ("прикосновение", "касание"),
    "фотографировать": ("фотосъёмка", "съёмка", "фотографирование", "фотография"),
    "снимать": ("съёмка", "фотосъёмка", "видеосъёмка"),
    "звонить": ("звонок", "разговор"),
    "говорить": ("разговор",),
    "ставить": ("постановка", "стоянка", "парковка"),
    "оставлять": ("оставление", "хранение", "стоянка"),
    "сидеть": ("сидение",),
    "eat": ("eating", "food", "meal", "meals", "snack", "snacks"),
    "drink": ("drinking", "drinks", "beverage", "beverages"),
    "bring": ("carrying", "bringing", "taking"),
    "carry": ("bringing", "taking"),
    "take": ("taking", "photography", "photos", "photographs", "carrying", "borrowing", "removal"),
    "photograph": ("photography", "photos", "photographs"),
    "film": ("filming", "video", "recording"),
    "borrow": ("borrowing", "loan", "loans", "lending"),
    "park": ("parking",),
    "leave": ("leaving", "storage"),
    "call": ("calls", "phone"),
}
