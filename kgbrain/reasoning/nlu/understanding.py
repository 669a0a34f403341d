"""Question understanding, second half: linking a parsed question's slots and refining its intent.

`parse_question` (question.py) reads the form of a question; `understand` links what the slots name, once,
and decides what the form alone cannot: "Is Max sour?" asks `has_property` because sour is a property and not
a class; "What is the node of Ranvier?" is a definition because the whole slot names one concept; a slot that
names nothing is kept as `unresolved`, so the answer says what is missing instead of answering another
question. It also maps the verbs of wh-questions and norms to stored predicates and actions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from kgbrain.language import lemma, stem, words
from kgbrain.reasoning.nlu.lexicon import EN_VERB_FORMS, PREPOSITIONS, RU_VERB_STEMS
from kgbrain.reasoning.nlu.links import ConceptLinks, classes_above
from kgbrain.reasoning.nlu.question import NORMATIVE, YES_NO, Intent, Question
from kgbrain.reasoning.views.graph import FactGraph

_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "is",
        "are",
        "be",
        "does",
        "do",
        "did",
        "have",
        "has",
        "there",
        "what",
        "which",
        "who",
        "whom",
        "how",
        "many",
        "much",
        "its",
        "it",
        "for",
        "with",
        "by",
        "and",
        "or",
        "from",
        "that",
        "this",
        "these",
        "those",
        "than",
        "about",
        "any",
        "all",
        "у",
        "в",
        "во",
        "на",
        "о",
        "об",
        "от",
        "до",
        "из",
        "и",
        "или",
        "ли",
        "же",
        "а",
        "с",
        "со",
        "к",
        "ко",
        "по",
        "для",
        "что",
        "это",
        "есть",
        "как",
        "сколько",
        "всего",
        "бывает",
        "бывают",
        "существует",
        "существуют",
    ]
)
_KINDS = frozenset(
    [
        "kind",
        "kinds",
        "type",
        "types",
        "sort",
        "sorts",
        "вид",
        "виды",
        "вида",
        "видов",
        "тип",
        "типы",
        "типа",
        "типов",
        "разновидность",
        "разновидности",
        "разновидностей",
    ]
)
# Words of a count question that do not restrict what is counted ("are there", «ты знаешь»).
_COUNT_FILLER = frozenset(
    {"there", "exist", "known", "know", "you", "do", "are", "is", "ты", "вы", "знаешь", "знаете", "известно"}
    | {"известны", "существует", "существуют", "есть", "имеется", "имеются", "всего"}
)
# Words a yes/no slot may carry besides a name without changing what is asked.
_HARMLESS = frozenset(
    {"really", "actually", "also", "always", "usually", "typically", "generally", "indeed", "truly", "still", "ever"}
    | {"действительно", "всегда", "обычно", "также", "тоже", "вообще", "всё-таки", "все-таки"}
)


def understand(r: ConceptLinks, q: Question) -> Question:
    """Link a parsed question's slots to concepts and refine its intent from what they name; a question the
    patterns leave with words unexplained is read again as concepts plus a relation phrase (relations.py).

    Raises:
        StoreError: the store failed.
    """
    plain = _without_apposition(r, q)
    if plain is not None:  # «паром «Балтийская жемчужина»», "the tanker Sea Titan": the class word says nothing
        return replace(understand(r, plain), text=q.text)
    first = _first_reading(r, q)
    if first is not None:
        return first
    found = _understand(r, q)
    if found.intent is Intent.UNKNOWN or found.unresolved:
        better = _read_again(r, q)
        if better is not None:
            return better
    if found.intent is Intent.WH and found.concepts and not found.unresolved:
        own = _own_label_reading(r, q, found)
        if own is not None:  # «Что используется для …?»: the KB's label «используется для», not the verb table's
            return own
    if found.intent in (Intent.DOES, Intent.WH) and found.concepts and not found.unresolved:
        return replace(found, tied=_ties(r, q, found))
    if found.intent is Intent.UNKNOWN and found.concepts and not found.unresolved:
        # "Where does cod spawn?": say which words were not understood, not only that the question was not
        rest = " ".join(w for w in _uncovered(q.text, r.linker.mentions(q.text)).split() if w not in _WH_WORDS)
        if rest:
            return found.with_links(Intent.UNKNOWN, found.concepts, (rest,))
    return found


def _without_apposition(r: ConceptLinks, q: Question) -> Question | None:
    """The question without a class noun standing right before the name of one of its members («Ходит ли паром
    «Балтийская жемчужина» в Хельсинки?», «Есть ли у танкера «Морской титан» …», "Is the ferry Baltic Pearl …"),
    parsed again; None when no such pair is named."""
    from kgbrain.reasoning.nlu.question import parse_question

    mentions = sorted(r.linker.mentions(q.text), key=lambda m: m.start)
    for a, b in pairwise(mentions):
        if b.start != a.end or a.concept == b.concept or a.concept not in classes_above(r, b.concept, 64):
            continue
        said = r"\W+".join(re.escape(w) for w in words(a.text))
        text = re.sub(rf"(?<!\w){said}\s+(?=[«\"“]?\w)", "", q.text, count=1, flags=re.IGNORECASE)
        if text != q.text:
            return parse_question(text)
    return None


def _read_again(r: ConceptLinks, q: Question) -> Question | None:
    """A question the patterns leave with words unexplained, read with "X's P" as "the P of X", else as concepts
    plus a relation phrase (relations.py); None when neither explains it."""
    if _POSSESSIVE.search(q.text):
        again = _without_possessive(r, q)
        if again is not None:  # "Who is Zenit's coach?" as "Who is the coach of Zenit?"
            return again
    from kgbrain.reasoning.nlu.relations import read_relation

    reading = read_relation(r, r.vocabulary(), q)
    return replace(reading.question, tied=reading.options) if reading is not None else None


# "Zenit's coach" (one word before the possessive; the name after it runs to a copula or the end).
_POSSESSIVE = re.compile(
    r"(?<![\w'’])(?P<x>[\w-]+)['’]s\s+(?P<p>[\w-]+(?:\s+[\w-]+)*?)(?=\s+(?:is|was|are|were)\b|\s*[?.!]*\s*$)"
)


def _without_possessive(r: ConceptLinks, q: Question) -> Question | None:
    """The question with "X's P" said as "the P of X", understood whole (None: that explains no more)."""
    from kgbrain.reasoning.nlu.question import parse_question

    text = _POSSESSIVE.sub(lambda m: f"the {m['p']} of {m['x']}", q.text, count=1)
    again = understand(r, parse_question(text))
    if again.intent is Intent.UNKNOWN or again.unresolved or not again.linked:
        return None
    return replace(again, text=q.text)


def _first_reading(r: ConceptLinks, q: Question) -> Question | None:
    """The readings tried before the patterns' own: a measure, a norm, a stored predicate for "have", a role."""
    from kgbrain.reasoning.nlu.norms import read_norm

    measure = _measure_first(r, q)
    if measure is not None:  # "How long can I keep an audio guide?" asks the rental period, not a norm
        return measure
    norm = read_norm(r, q) if q.intent in NORMATIVE or q.intent not in _NEVER_NORMS else None
    if norm is not None:
        return norm
    if q.intent is Intent.HAS:  # "Does red wine contain tannins?" asks `contains` where the base stores it
        from kgbrain.reasoning.nlu.relations import read_relation

        reading = read_relation(r, r.vocabulary(), q)
        if reading is not None and reading.question.intent is Intent.DOES:
            # kept a has-question, the named predicate asked first (the answering handler decides both)
            return replace(q, verb=reading.question.verb).with_links(Intent.HAS, reading.question.concepts, ())
    if q.intent in _ROLE_FORMS:  # "Is X the director of Y?" asks `Y director X` (roles.py)
        from kgbrain.reasoning.nlu.roles import read_role

        return read_role(r, q)
    return None


def _measure_first(r: ConceptLinks, q: Question) -> Question | None:
    """A degree question read as a holder's measure when its relation phrase names one; else None."""
    from kgbrain.reasoning.nlu.relations import asks_measure, read_relation

    if not asks_measure(q.text):
        return None
    reading = read_relation(r, r.vocabulary(), q)
    if reading is None or reading.question.intent not in (Intent.VALUE, Intent.VALUE_CHECK):
        return None
    return replace(reading.question, tied=reading.options)


# The forms a role question takes ("Is X the P of Y?", «Является ли X P Y?», «X — P Y?»).
_ROLE_FORMS = frozenset({Intent.IS_A, Intent.HAS_PROPERTY, Intent.UNKNOWN, Intent.DOES})
# Intents whose patterns leave no room for a modal: a definition or a comparison is never a norm question.
_NEVER_NORMS = frozenset({Intent.DEFINE, Intent.COMPARE, Intent.LIKE, Intent.RELATION, Intent.VALUE_CHECK})

_WH_WORDS = frozenset(
    [
        "where",
        "when",
        "why",
        "which",
        "whose",
        "whom",
        "кто",
        "где",
        "когда",
        "куда",
        "откуда",
        "зачем",
        "чей",
        "чья",
        "чьё",
        "чьи",
    ]
)


def _understand(r: ConceptLinks, q: Question) -> Question:
    intent = q.intent
    if intent is Intent.DOES:
        return _understand_does(r, q)
    if intent in YES_NO or intent in (Intent.ANALOGY, Intent.RELATION, Intent.COMPARE):
        return _understand_pair(r, q)
    if intent is Intent.DEFINE and not r.linker.lookup(bare(q.subject)) and not r.linker.ambiguous(bare(q.subject)):
        return _understand_unnamed_define(r, q)
    if intent in (Intent.DEFINE, Intent.CAUSES, Intent.EFFECTS, Intent.LIKE):
        found = r.linker.link(bare(q.subject))
        return q.with_links(intent, tuple(found[:1]), () if found else (q.subject,))
    step = _BY_INTENT.get(intent)
    if step is not None:
        return step(r, q)
    named = list(dict.fromkeys(m.concept for m in r.linker.mentions(q.subject)))
    return q.with_links(Intent.UNKNOWN, tuple(named), ())


def _understand_unnamed_define(r: ConceptLinks, q: Question) -> Question:
    """ "What is X?" whose slot is no one name: "Who is the grandparent of cid?" names cid and words no name
    covers, so it is not a definition of cid."""
    declared = r.predicates().declared  # "What is wine made from?": made_from is no concept to define
    mentions = [m for m in r.linker.mentions(bare(q.subject)) if m.concept not in declared]
    rest = _uncovered(bare(q.subject), mentions)
    covered = {i for m in mentions for i in range(m.start, m.end)}
    # a preposition left over ("What is champagne produced by?") is a relation, not part of a name
    rest = rest or " ".join(w for i, w in enumerate(words(bare(q.subject))) if i not in covered)
    inside = tuple(dict.fromkeys(m.concept for m in mentions))
    if rest or not inside:
        return q.with_links(q.intent, inside[:1], (rest or q.subject,))
    return q.with_links(q.intent, inside[:1], ())


def _understand_why(r: ConceptLinks, q: Question) -> Question:
    text = f"{q.subject} {q.object}".strip()
    mentions = r.linker.mentions(text)
    named = list(dict.fromkeys(m.concept for m in mentions)) or r.linker.link(text)
    targets = _causal_targets(r.graph())
    if named and not targets & set(named):
        # «Почему красное вино терпкое?», «Почему вино превращается в уксус?»: what has causes is named by its
        # roots (терпкое ~ «терпкость», превращается в уксус ~ «превращение в уксус»), not by a whole name
        target = _named_by_roots(r, text, mentions, targets)
        if target is not None:
            return q.with_links(q.intent, (target,), ())
    return q.with_links(q.intent, tuple(named), () if named else (text,))


def _causal_targets(g: FactGraph) -> set[str]:
    """The concepts a positive causal fact enters (what a why-question can be answered with causes of)."""
    from kgbrain.reasoning.modes.causal import CAUSAL

    ids = [i for p in CAUSAL if (i := g.predicate_id(p)) >= 0]
    if not ids:
        return set()
    import numpy as np

    keep = np.isin(g.predicate, ids) & g.polarity
    return {g.names[int(i)] for i in np.unique(g.object[keep])}


def _named_by_roots(r: ConceptLinks, text: str, mentions: Sequence[Any], targets: set[str]) -> str | None:
    """The one causal target whose name the question's words say best: every word of some name of it said (by
    root, or by a concept the question names), or all but one when the question says two of them. Half a name
    is not enough: "wine" alone would name every wine fault."""
    from kgbrain.reasoning.nlu.vocabulary import key, same_root

    said = [key(w) for w in words(text) if w not in _STOP and w not in _WH_WORDS and w not in {"why", "почему"}]
    concepts = {m.concept for m in mentions}
    scored: dict[str, float] = {}
    for target in sorted(targets):
        for name in [target.replace("_", " "), *r.linker.names(target)]:
            parts = [w for w in words(name) if w not in _STOP]
            hits = sum(1 for p in parts if r.linker.lookup(p) in concepts or any(same_root(a, key(p)) for a in said))
            if hits == len(parts) or (hits >= 2 and hits == len(parts) - 1):
                scored[target] = max(scored.get(target, 0.0), hits / len(parts))
    if not scored:
        return None
    best = max(scored.values())
    top = [t for t, v in scored.items() if v == best]
    return top[0] if len(top) == 1 else None


def _understand_norm(r: ConceptLinks, q: Question) -> Question:
    spans = sorted(r.linker.mentions(q.subject), key=lambda m: (m.end - m.start, m.start))
    subject = spans[-1].concept if spans else None
    return q.with_links(q.intent, (subject,) if subject else (), () if subject else (q.subject,))


def _understand_pair(r: ConceptLinks, q: Question) -> Question:
    """A question about two slots (yes/no, analogy, relation, comparison): both must name a concept."""
    intent = q.intent
    (s, o), leftovers = _pair(r, q.subject, q.object)
    missing = tuple(
        left or text for text, c, left in zip((q.subject, q.object), (s, o), leftovers.words, strict=True) if c is None
    )
    concepts = tuple(c for c in (s, o) if c is not None)
    if missing:  # "I know 'neuron', 'cell' but not 'bigger'": name what was found inside a slot too
        concepts = tuple(dict.fromkeys([*concepts, *(c for c in leftovers.found if c)]))
    if not missing and intent is Intent.IS_A and o is not None and _names_property(r, o):
        intent = Intent.HAS_PROPERTY  # "Is Max sour?": sour is a property, not a class
    if not missing and intent is Intent.CAN and s is not None and o is not None and not _is_ability(r, o):
        # "Can drones sting?": the word names the organ (sting), the ability of its root is stinging
        ability = _ability_of_root(r, q.object)
        if ability is not None:
            concepts = (s, ability)
    declared = r.predicates().declared
    if not missing and intent is Intent.IS_A and any(c in declared for c in concepts):
        # «Создана ли Акме Алисой?»: a slot naming a predicate is a relation phrase, not a class (read again)
        missing = tuple(text for text, c in zip((q.subject, q.object), (s, o), strict=True) if c in declared)
    return q.with_links(intent, concepts, missing)


def _understand_does(r: ConceptLinks, q: Question) -> Question:
    """ "Does a neuron consume energy?" / «Потребляет ли нейрон энергию?»: the verb names a stored predicate;
    "Do glial cells divide?" / «Делится ли глиальная клетка?» asks what "Can glial cells divide?" asks."""
    found = verb_statement(r, q.subject, q.verb, q.language)
    if found is None:
        text = f"{q.verb} {q.subject}".strip()
        mentions = r.linker.mentions(text)
        named = tuple(dict.fromkeys(m.concept for m in mentions))
        rest = " ".join(w for w in _uncovered(text, mentions).split() if w.lower() not in _STOP)
        return q.with_links(Intent.DOES, named, (rest or text,))
    subject, predicate, obj = found
    if predicate == "can":
        return replace(q, intent=Intent.CAN, verb="").with_links(Intent.CAN, (subject, obj), ())
    return replace(q, verb=predicate).with_links(Intent.DOES, (subject, obj), ())


def verb_statement(r: ConceptLinks, text: str, verb: str, language: str) -> tuple[str, str, str] | None:
    """(subject, predicate, object) of "neuron consume energy" (the verb inside `text`) or of «нейрон энергию»
    with `verb` «потребляет»: the verb must name a stored predicate and the words around it whole concepts. With no
    object the verb names an ability: "glial cells divide" -> (glial_cell, can, cell_division)."""
    for left, v, right in _verb_splits(text.split(), verb):
        subject = _whole(r, " ".join(left))
        if subject is None:
            continue
        found = _ability(r, subject, v) if not right else _relation(r, subject, v, right, language)
        if found is not None:
            return found
    return None


def _own_label_reading(r: ConceptLinks, q: Question, found: Question) -> Question | None:
    """The relation-phrase reading of a wh-question the patterns read with the fixed verb table, when it asks the
    same concepts through a stored predicate the table did not give and its phrase (verb and preposition) is
    explained whole by that predicate's own names; None otherwise (the patterns' reading stands)."""
    from kgbrain.reasoning.nlu.relations import read_relation

    reading = read_relation(r, r.vocabulary(), q)
    if reading is None or reading.tied or reading.match is None:
        return None
    read = reading.question
    table = wh_predicates(found.verb, found.language, r.graph())
    if read.intent is not Intent.WH or read.concepts != found.concepts or read.verb in table or not table:
        return None
    return read if len(reading.match.explained) >= 2 else None


def _ties(r: ConceptLinks, q: Question, found: Question) -> tuple[str, ...]:
    """The predicates the question's relation phrase names as well as the one its verb was read as ("made":
    made_by, and created_by whose alias is "made by"); () when none ties with it."""
    from kgbrain.reasoning.nlu.relations import read_relation

    reading = read_relation(r, r.vocabulary(), q)
    if reading is None or not reading.tied or set(reading.question.concepts) != set(found.concepts):
        return ()
    chosen = wh_predicates(found.verb, found.language, r.graph())
    return reading.options if chosen and chosen <= set(reading.options) else ()


def claim_ties(r: ConceptLinks, sentence: str, language: str, predicate: str) -> tuple[str, ...]:
    """The predicates a claim sentence's relation phrase names as well as `predicate` (read_claim's), or ()."""
    from kgbrain.reasoning.nlu.relations import read_relation

    q = Question(sentence, language, Intent.UNKNOWN, subject=sentence)
    reading = read_relation(r, r.vocabulary(), q, claim=True)
    if reading is None or predicate not in reading.options:
        return ()
    return reading.options if len(reading.options) > 1 else ()


def read_claim(r: ConceptLinks, sentence: str, language: str) -> tuple[str, str, str, bool] | None:
    """(subject, predicate, object, polarity) of a statement, read as `understand` reads the yes/no question
    that asks it, so a claim and its question cannot be read apart: the verb's stored relation
    (`verb_statement`), a norm («Производителю разрешена шаптализация», "Minors are permitted to buy
    alcohol"), else the concepts plus a relation phrase ("Pinot noir grows in Burgundy", «растёт в»)."""
    from kgbrain.reasoning.nlu.norms import norm_predicate, read_norm
    from kgbrain.reasoning.nlu.relations import read_relation

    q = Question(sentence, language, Intent.UNKNOWN, subject=sentence)
    norm = read_norm(r, q)  # first, as `understand` tries it: "permitted" may also name a stored relation
    if norm is not None:
        return norm.concepts[0], norm_predicate(r, norm), norm.concepts[-1], norm.polarity
    from kgbrain.reasoning.nlu.roles import read_role

    role = read_role(r, q)  # "Petrov is the director of Acme" states `acme director petrov`
    if role is not None:
        return role.concepts[0], role.verb, role.concepts[1], True
    found = verb_statement(r, sentence, "", language)
    if found is not None:
        return (*found, True)
    reading = read_relation(r, r.vocabulary(), q, claim=True)
    if reading is not None and reading.question.intent is Intent.DOES:
        read = reading.question
        return read.concepts[0], read.verb, read.concepts[-1], True
    if reading is not None and reading.question.intent is Intent.VALUE_CHECK:  # "Tin melts at 232 °C"
        read = reading.question
        return read.concepts[0], read.concepts[1], read.object, True
    return None


def _verb_splits(words: list[str], verb: str) -> list[tuple[list[str], str, list[str]]]:
    """The ways to read `words` as (subject words, verb, object words): around `verb` when it is given, else at
    each word."""
    if verb:
        return [(words[:i], verb, words[i:]) for i in range(len(words), 0, -1)]
    splits = [(words[:i], words[i], words[i + 1 :]) for i in range(1, len(words))]
    # "The synapse was named by Sherrington": the auxiliary is no verb of its own
    splits += [
        (words[:i], words[i + 1], words[i + 2 :])
        for i in range(1, len(words) - 3)
        if words[i].lower() in _AUXILIARY and words[i + 2].lower() == "by"
    ]
    return splits


def _ability(r: ConceptLinks, subject: str, v: str) -> tuple[str, str, str] | None:
    """ "glial cells divide": the verb names an ability (a concept something `can`), not any concept."""
    ability = r.linker.lookup(v) or next((c for f in _infinitives(v) if (c := r.linker.lookup(f))), None)
    if ability is not None and _is_ability(r, ability):
        return subject, "can", ability
    return None


def _relation(r: ConceptLinks, subject: str, v: str, right: list[str], language: str) -> tuple[str, str, str] | None:
    """The statement of a verb between the subject and the whole concept the words after it name."""
    passive = right[0].lower() == "by" and len(right) > 1  # "synapse named by Sherrington"
    # "respirator protects against dust", «респиратор защищает от пыли»: the preposition belongs to the verb
    prep = right[0].lower() if not passive and len(right) > 1 and right[0].lower() in PREPOSITIONS else ""
    obj = _whole(r, " ".join(right[1:] if passive or prep else right))
    predicates = _with_preposition(wh_predicates(f"{v} {prep}".strip(), language, r.graph()), prep)
    if obj is None or not predicates:
        return None
    # named_by is read "X named by Y" when passive, and "Y named X" turned round when active.
    chosen = next((p for p in predicates if p.endswith("_by") == passive), predicates[0])
    if chosen.endswith("_by") and not passive:
        return obj, chosen, subject
    return subject, chosen, obj


_AUXILIARY = frozenset({"is", "are", "was", "were"})

_ANY_PREPOSITION = tuple(sorted({f"_{e}" for ends in PREPOSITIONS.values() for e in ends}))


def _with_preposition(predicates: set[str], prep: str) -> list[str]:
    """The predicates a verb names, those that end with its preposition's English first (защищает от ->
    protects_against before protects), those with none first when the verb has none."""
    if prep:
        ends = tuple(f"_{e}" for e in PREPOSITIONS[prep])
        return sorted(predicates, key=lambda p: (not p.endswith(ends), p))
    return sorted(predicates, key=lambda p: (p.endswith(_ANY_PREPOSITION), p))


def _ability_of_root(r: ConceptLinks, text: str) -> str | None:
    """The one ability (an object of `can`) one of whose one-word names has the root of `text`'s last word."""
    from kgbrain.reasoning.nlu.vocabulary import key, same_root

    said = [key(w) for w in bare(text).split()[-1:]]  # the verb ends the slot ("worker | bees sting")
    if not said:
        return None
    g = r.graph()
    pid = g.predicate_id("can")
    if pid < 0:
        return None
    abilities = {g.names[i] for i in g.object[g.predicate == pid].tolist()}
    found = [a for a in sorted(abilities) if any(_one_root(n, said[0], key, same_root) for n in r.linker.names(a))]
    return found[0] if len(found) == 1 else None


def _one_root(name: str, root: str, key: Any, same_root: Any) -> bool:
    return len(name.split()) == 1 and bool(same_root(key(name), root))


def _is_ability(r: ConceptLinks, concept: str) -> bool:
    g = r.graph()
    return concept in g.index and any(e.predicate == "can" for e in g.into(concept))


def _whole(r: ConceptLinks, text: str) -> str | None:
    """The concept a whole slot text names (an ambiguous name names none)."""
    name = bare(text)
    if not name or r.linker.ambiguous(name):
        return None
    return r.linker.lookup(name)


def bare(text: str) -> str:
    """A slot text without a leading English article."""
    return re.sub(r"^(?:an?|the)\s+", "", text.strip(), flags=re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Leftovers:
    """What linking the two slots of a yes/no question left over."""

    words: tuple[str, str] = ("", "")  # per slot, the content words no name covers
    found: tuple[str | None, str | None] = (None, None)  # per slot, the name found inside it


def _pair(r: ConceptLinks, subject: str, obj: str) -> tuple[tuple[str | None, str | None], _Leftovers]:
    unsure = [bool(r.linker.ambiguous(bare(t))) for t in (subject, obj)]
    if any(unsure):  # a name two ontologies share is not guessed: the answer lists the candidates
        return ((None if unsure[0] else _first(r, subject)), (None if unsure[1] else _first(r, obj))), _Leftovers()
    s, o = r.linker.lookup(bare(subject)), r.linker.lookup(bare(obj))
    if s and o:
        return (s, o), _Leftovers()
    # The pattern split "Betz cell divide" at the wrong word: try every split of the slot text as two whole
    # names before reading names inside the slots ("Betz" alone is Vladimir Betz, not the Betz cell).
    words = f"{subject} {obj}".split()
    for cut in range(len(words) - 1, 0, -1):
        left, right = r.linker.lookup(bare(" ".join(words[:cut]))), r.linker.lookup(bare(" ".join(words[cut:])))
        if left and right:
            return (left, right), _Leftovers()
    # Names inside the slots, unless other content words are left over: "Is a neuron bigger than a cell?" must
    # not be answered as "Is a neuron a cell?". A word of either concept's own name is no leftover ("Is the
    # SOMZ-55 helmet PPE?" splits as "SOMZ-55" / "helmet PPE"; "helmet" belongs to "SOMZ-55 safety helmet").
    inside = (s or _first(r, subject), o or _first(r, obj))
    named = {
        stem(w)
        for c in inside
        if c
        for n in r.linker.names(c)
        for w in re.findall(r"[\w'-]+", n.lower().replace("ё", "е"))
    }
    lefts = ("" if s else _leftover(r, subject, named), "" if o else _leftover(r, obj, named))
    pair = (inside[0] if not lefts[0] else None, inside[1] if not lefts[1] else None)
    return pair, _Leftovers(lefts, inside)


def _leftover(r: ConceptLinks, text: str, named: set[str]) -> str:
    words = _uncovered(text, r.linker.mentions(text)).split()
    return " ".join(w for w in words if w not in _HARMLESS and stem(w) not in named)


def _first(r: ConceptLinks, text: str) -> str | None:
    if r.linker.ambiguous(bare(text)):
        return None
    found = r.linker.link(bare(text))
    return found[0] if found else None


def _names_property(r: ConceptLinks, concept: str) -> bool:
    """Whether a concept is used as a property (object of has_property) and never as a class."""
    g = r.graph()
    if concept not in g.index:
        return False
    into = g.into(concept)
    if any(e.predicate in ("is_a", "instance_of") for e in into) or any(e.predicate == "is_a" for e in g.out(concept)):
        return False
    return any(e.predicate == "has_property" for e in into)


def _uncovered(text: str, mentions: Sequence[Any]) -> str:
    """The content words of `text` that no mention covers, as one phrase (what the question names unknown)."""
    words = re.findall(r"[\w'-]+", text.lower().replace("ё", "е"))
    covered = {i for m in mentions for i in range(m.start, m.end)}
    return " ".join(w for i, w in enumerate(words) if i not in covered and w not in _STOP and not w.isdigit())


def _understand_value(r: ConceptLinks, q: Question) -> Question:
    whole = r.linker.lookup(bare(q.subject))
    if q.intent is Intent.VALUE and whole and whole not in r.predicates().declared:
        return q.with_links(Intent.DEFINE, (whole,), ())  # "What is the node of Ranvier?" names one concept
    found, missing = link_attribute(r, q.subject)
    return q.with_links(q.intent, found, (missing,) if missing else ())


def link_attribute(r: ConceptLinks, phrase: str) -> tuple[tuple[str, ...], str]:
    """The holder and the attribute a phrase names ("resting potential of a neuron", «потенциал покоя нейрона"
    -> (neuron, resting_potential)); when it does not name both, the concepts found and the words no name covers.
    """
    relations = r.graph().pred_names  # a relation between concepts is no attribute with a value
    declared = {p for p in r.predicates().declared if p not in relations}
    mentions = r.linker.mentions(phrase)
    attrs = [m.concept for m in mentions if m.concept in declared]
    others = [m.concept for m in mentions if m.concept not in declared]
    if attrs and others:
        return (others[0], attrs[0]), ""
    return tuple(others + attrs), _uncovered(phrase, mentions) or phrase


def _understand_count(r: ConceptLinks, q: Question) -> Question:
    declared = r.predicates().declared
    mentions = r.linker.mentions(q.subject)
    words = set(re.findall(r"\w+", q.subject.lower()))
    rest = " ".join(w for w in _uncovered(q.subject, mentions).split() if w not in _KINDS)
    concepts = list(dict.fromkeys(m.concept for m in mentions))
    if words & _KINDS and concepts:
        return q.with_links(Intent.COUNT, (concepts[0],), (rest,) if rest else ())
    attrs = [c for c in concepts if c in declared and c not in r.graph().pred_names]  # a relation has no count
    others = [c for c in concepts if c not in declared]
    if attrs and others:
        return _counted_attribute(q, attrs[0], others[-1])
    counter = _count_attribute(r, q.subject, mentions)
    if counter is not None:  # "How many locks does the canal have?": its stored "number of locks", not lock members
        return q.with_links(Intent.COUNT, counter, ())
    rest = " ".join(w for w in rest.split() if w not in _COUNT_FILLER)
    counted = len(others) == 2 and f"{others[0]}_count" in declared  # "How many neurons in the brain?"
    if len(others) in (1, 2) and not attrs and not rest and not counted:
        # "How many grape varieties are there?", «Сколько винодельческих регионов во Франции?»: the members of
        # the class (related to the second concept when one is named)
        return replace(q, verb="members").with_links(Intent.COUNT, tuple(others), ())
    if len(others) < 2:
        return q.with_links(Intent.COUNT, tuple(concepts), (rest or q.subject,))
    return q.with_links(Intent.COUNT, (f"{others[0]}_count", others[-1]), ())


def _counted_attribute(q: Question, attribute: str, holder: str) -> Question:
    """«Сколько шлюзов у канала?» counts by an attribute; «Сколько весит якорь?», whose «сколько» goes with a verb,
    asks the measure the verb names: a value."""
    from kgbrain.language import is_verb

    said = words(q.subject)
    if said and is_verb(said[0]):
        read = replace(q, intent=Intent.VALUE, variables=("?x",))
        return read.with_links(Intent.VALUE, (holder, attribute), ())
    return q.with_links(Intent.COUNT, (attribute, holder), ())


# Nouns that make an attribute's name a count of what its other word names ("number of locks", «число шлюзов»).
_COUNT_NOUNS = frozenset({"number", "count", "quantity", "amount", "число", "количество"})


def _count_attribute(r: ConceptLinks, subject: str, mentions: Sequence[Any]) -> tuple[str, str] | None:
    """(attribute, holder) when the counted word (the first of a count question's slot) is the thing an attribute
    counts by its name ("locks" ~ "number of locks", «пассажиров» ~ «число пассажиров») and the rest of the slot
    names its holder; None unless exactly one attribute does."""
    from kgbrain.reasoning.nlu.vocabulary import key

    said = words(subject)
    if not said:
        return None
    counted = key(said[0])
    relations = r.graph().pred_names
    found = []
    for attr in sorted(p for p in r.predicates().declared if p not in relations):
        for name in [attr.replace("_", " "), *r.linker.names(attr)]:
            parts = words(name.lower())
            if _COUNT_NOUNS & set(parts) and any(key(w) == counted for w in parts if w not in _COUNT_NOUNS):
                found.append(attr)
                break
    holders = [m.concept for m in mentions if m.start > 0 and m.concept not in r.predicates().declared]
    if len(found) != 1 or not holders:
        return None
    return found[0], holders[-1]


def _understand_wh(r: ConceptLinks, q: Question) -> Question:
    if q.subject:  # "Which cells divide?"
        concept = _first(r, q.subject)
        if concept is not None and _whole(r, q.subject) is None and not r.linker.ambiguous(bare(q.subject)):
            # "Which fish live in rivers?" split as "fish live in" / "rivers": the class slot holds a verb
            return q.with_links(Intent.WH, (concept,), (q.subject,))
        ability = r.linker.lookup(q.verb) or next(
            (c for form in _infinitives(q.verb) if (c := r.linker.lookup(form))), None
        )
        missing = tuple(t for t, c in ((q.subject, concept), (q.verb, ability)) if c is None)
        return q.with_links(Intent.WH, tuple(c for c in (concept, ability) if c), missing)
    target = _first(r, q.object)
    if target is None:
        return q.with_links(Intent.WH, (), (q.object,))
    if not wh_predicates(q.verb, q.language, r.graph()):
        return q.with_links(Intent.WH, (target,), (q.verb,))
    return q.with_links(Intent.WH, (target,), ())


def _infinitives(verb: str) -> list[str]:
    """The dictionary form of a verb (делятся -> делиться), to find it as a name."""
    return [lemma(verb)]


def wh_predicates(verb: str, language: str, graph: FactGraph) -> set[str]:
    """The stored predicates a wh-question's verb may mean ("named" -> named_by, "produces" -> produces)."""
    if graph.predicate_id(verb) >= 0:  # read from a relation phrase: already the stored predicate
        # and its passive, which states the same the other way round ("Who commands X?": `X commanded_by Y`)
        base = verb[:-2] if verb.endswith("es") and verb[-3:-2] in "sxz" else verb.removesuffix("s")
        passive = {f"{base}ed_by", f"{base}d_by", f"{verb}_by", f"{base.removesuffix('e')}ed_by"}
        return {verb} | {p for p in passive if graph.predicate_id(p) >= 0}
    v, _, prep = verb.lower().replace("ё", "е").partition(" ")
    names: set[str] = set()
    if language == "ru":
        for prefix, predicates in RU_VERB_STEMS.items():
            if v.startswith(prefix):
                names.update(predicates)
    else:
        names.update(EN_VERB_FORMS.get(v, ()))
        bases = {v}
        for end in ("ed", "d", "es", "s"):
            if v.endswith(end) and len(v) > len(end) + 2:
                bases.add(v[: -len(end)])
        for b in bases:
            names.update({b, f"{b}s", f"{b}es", f"{b}d", f"{b}ed", f"{v}_by", f"{b}ed_by", f"{b}d_by"})
            ends = PREPOSITIONS.get(prep, ())
            names.update(f"{form}_{e}" for e in ends for form in (b, f"{b}s", f"{b}es", f"{b}d", f"{b}ed", v))
    return {n for n in names if graph.predicate_id(n) >= 0}


def _same_word(a: str, b: str) -> bool:
    # Snowball stems meet for inflections (issue ~ issuing); a verb and its noun share only a prefix in Russian
    # (выдавать ~ выдача), which is enough among the few actions a norm names.
    return a == b or stem(a) == stem(b) or (len(a) >= 4 and len(b) >= 4 and a[:4] == b[:4])


def best_action(words: Sequence[str], verb: str, names: dict[str, list[str]]) -> str | None:
    """The action a normative question's verb and words name among `names` (action id -> its names).

    The verb must match a word of the name (выдавать ~ выдача, issue ~ issuing); more matching words and fewer
    unmatched ones win (использовать … до окончания срока службы picks the longer action).
    """
    asked = [w for w in (x.lower().replace("ё", "е") for x in words) if w not in _STOP]
    v = verb.lower().replace("ё", "е")
    best: tuple[int, int, str] | None = None
    for action, labels in names.items():
        for label in labels:
            parts = [w for w in re.findall(r"[\w-]+", label.lower().replace("ё", "е")) if w not in _STOP]
            if not any(_same_word(v, p) for p in parts):
                continue
            hits = sum(1 for w in asked if any(_same_word(w, p) for p in parts))
            score = (hits, -(len(parts) - hits), action)
            if best is None or score[:2] > best[:2]:
                best = score
    return best[2] if best is not None else None


# How each remaining intent's slots are linked, by step.
_BY_INTENT: dict[Intent, Callable[[ConceptLinks, Question], Question]] = {
    Intent.VALUE: _understand_value,
    Intent.VALUE_CHECK: _understand_value,
    Intent.COUNT: _understand_count,
    Intent.WH: _understand_wh,
    Intent.WHY: _understand_why,
    Intent.PERMISSION: _understand_norm,
    Intent.OBLIGATION: _understand_norm,
}
