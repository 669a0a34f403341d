"""The hedged answer text of `ask`, in the question's language (seed 000 DialogueResponder, seed 004).

The answer starts with its content, is hedged by confidence (phrases from reasoning/uncertainty.py), names
its sources with their authority tier, and never claims more than the reasoner found. One template per
kind of finding (`Answer.data["kind"]`); concept names come from `Answer.labels`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgbrain.language import agree, can_phrase, display_name, inflect_phrase, lemma, with_article
from kgbrain.reasoning.reasoner import Answer, SourceRef
from kgbrain.reasoning.uncertainty import hedging_phrases

MAX_SOURCES = 4

# How a predicate reads in running text; unknown predicates read as their name with spaces.
PREDICATE_WORDS: dict[str, dict[str, str]] = {
    "ru": {
        "is_a": "является",
        "instance_of": "является",
        "part_of": "является частью",
        "has_property": "имеет",
        "can": "может",
        "causes": "вызывает",
        "enables": "обеспечивает",
        "leads_to": "приводит к",
        "prevents": "препятствует",
        "related_to": "связан с",
        "receives": "принимает",
        "processes": "обрабатывает",
        "produces": "производит",
        "transmits": "передаёт",
        "consumes": "потребляет",
        "performs": "выполняет",
        "connected_via": "соединён через",
        "important_for": "важен для",
        "depends_on": "зависит от",
    },
    "en": {
        "is_a": "is a",
        "instance_of": "is a",
        "part_of": "is part of",
        "has_property": "has",
        "leads_to": "leads to",
        "related_to": "is related to",
        "connected_via": "is connected via",
        "important_for": "is important for",
        "depends_on": "depends on",
        "disjoint_with": "is disjoint with",
        "similar_to": "is similar to",
        "equivalent_to": "is equivalent to",
    },
}

# The case each Russian verb governs, and a short adjective or participle that agrees with the subject.
_RU_GOVERNS: dict[str, str] = {
    "is_a": "ablt",
    "instance_of": "ablt",
    "part_of": "gent",
    "has_property": "accs",
    "causes": "accs",
    "enables": "accs",
    "leads_to": "datv",
    "prevents": "datv",
    "related_to": "ablt",
    "receives": "accs",
    "processes": "accs",
    "produces": "accs",
    "transmits": "accs",
    "consumes": "accs",
    "performs": "accs",
    "connected_via": "accs",
    "important_for": "gent",
    "depends_on": "gent",
    "disjoint_with": "ablt",
    "similar_to": "accs",
    "supports": "accs",
    "interacts_with": "ablt",
}
_RU_AGREES = frozenset({"связан", "соединён", "важен", "похож", "равнозначен"})
PREDICATE_WORDS["ru"].update(
    {
        "disjoint_with": "не пересекается с",
        "similar_to": "похож на",
        "supports": "поддерживает",
        "interacts_with": "взаимодействует с",
        "equivalent_to": "равнозначен",
    }
)
# English nouns that name an activity: "can" takes them through "is capable of" ("cell division").
_EN_NOUN_ENDINGS = ("tion", "sion", "ment", "ance", "ence", "ing", "sis", "ysis", "ure", "al")


def phrase(
    predicate: str,
    obj: str,
    lang: str,
    *,
    negated: bool = False,
    subject: str = "",
    agents: frozenset[str] = frozenset(),
) -> str:
    """Predicate and object as running text, grammatical in `lang`.

    Russian puts the object in the case the verb governs («потребляет энергию», «является элементом обработки
    информации») and «может» takes an infinitive («может усиливать сигнал»; «не может делиться» when the object's
    genitive names one of the `agents`, lemmas of the subject and its classes). English gets its articles ("is an
    impus") and negation ("does not consume", "cannot undergo cell division") right.
    """
    if lang == "ru":
        return _phrase_ru(predicate, obj, negated, subject, agents)
    return _phrase_en(predicate, obj, negated)


def _phrase_ru(predicate: str, obj: str, negated: bool, subject: str, agents: frozenset[str]) -> str:
    neg = "не " if negated else ""
    if predicate == "can":
        who = agents | {lemma(w) for w in subject.split()}
        return f"{neg}может {can_phrase(obj, set(who))}"
    verb = _verb(predicate, "ru")
    words = verb.split(" ")
    if words[0] in _RU_AGREES and subject:
        words[0] = agree(words[0], subject)
    case = _RU_GOVERNS.get(predicate)
    target = inflect_phrase(obj, case) if case else obj
    if negated and predicate == "disjoint_with":
        return f"пересекается с {target}"
    return f"{neg}{' '.join(words)} {target}"


def _phrase_en(predicate: str, obj: str, negated: bool) -> str:
    if predicate in ("is_a", "instance_of"):
        return f"is {'not ' if negated else ''}{with_article(obj)}"
    if predicate == "can":
        nominal = " " in obj or obj.lower().endswith(_EN_NOUN_ENDINGS)
        if nominal:
            return f"is {'not ' if negated else ''}capable of {obj}"
        return f"{'cannot' if negated else 'can'} {obj}"
    verb = _verb(predicate, "en")
    if not negated:
        return f"{verb} {obj}"
    first, _, rest = verb.partition(" ")
    if first in ("is", "are", "was", "were"):
        return f"{first} not {rest} {obj}".replace("  ", " ")
    if first == "has":
        return f"does not have {rest} {obj}".replace("  ", " ")
    return f"does not {_base_verb(first)} {rest} {obj}".replace("  ", " ")


def _base_verb(word: str) -> str:
    """The base form of a third-person English verb ("causes" -> "cause", "carries" -> "carry")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


_T: dict[str, dict[str, str]] = {
    "ru": {
        "yes": "Да",
        "no": "Нет",
        "conflict": "Источники расходятся",
        "chain": "Цепочка понятий",
        "related": "Связан с",
        "because": "Потому что",
        "against": "Это препятствует: ",
        "causes_of": "Причины «{x}»",
        "effects_of": "«{x}» ведёт к",
        "like": "{x} похож на {y}",
        "both": "общее",
        "hypothesis": "Это гипотеза по аналогии, а не вывод.",
        "also": "Также похожи",
        "unknown": "Я не знаю понятия «{x}».",
        "did_you_mean": "Возможно, вы имели в виду: {x}?",
        "ambiguous": "«{x}» может означать разные понятия: {y}. Уточните, какое из них.",
        "no_answer": "В базе знаний нет сведений, чтобы ответить на этот вопрос.",
        "sources": "Источники",
        "trust": "доверие",
        "inferred": "вывод по цепочке",
        "not": "не",
        "linked": "{x} и {y} связаны",
    },
    "en": {
        "yes": "Yes",
        "no": "No",
        "conflict": "The sources disagree",
        "chain": "Concept chain",
        "related": "Related to",
        "because": "Because",
        "against": "This works against: ",
        "causes_of": "Causes of '{x}'",
        "effects_of": "'{x}' leads to",
        "like": "{x} is like {y}",
        "both": "shared",
        "hypothesis": "This is a hypothesis by analogy, not a proof.",
        "also": "Also similar",
        "unknown": "I don't know the concept '{x}'.",
        "did_you_mean": "Did you mean: {x}?",
        "ambiguous": "'{x}' may mean different concepts: {y}. Please say which one.",
        "no_answer": "The knowledge base has nothing that answers this question.",
        "sources": "Sources",
        "trust": "trust",
        "inferred": "inferred along",
        "not": "not",
        "linked": "{x} and {y} are linked",
    },
}


def render(answer: Answer) -> str:
    """The answer text: hedged content first, then its sources."""
    lang = "ru" if answer.language == "ru" else "en"
    kind = answer.data.get("kind", "no_answer")
    body = _BODIES.get(kind, _no_answer)(answer, lang)
    if answer.action in ("respond", "respond_hedged", "report_uncertainty"):
        body = hedge(body, answer.confidence, lang)
    cited = cite(answer.sources, lang)
    return f"{body} {cited}".strip()


def hedge(text: str, confidence: float, lang: str) -> str:
    """Prefix the seed's hedging phrase for this confidence (none above the top band)."""
    phrases = hedging_phrases(confidence, lang)
    if not phrases:
        return text
    first = text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text
    return f"{phrases[0]} {first}"


def cite(sources: Sequence[SourceRef], lang: str) -> str:
    """`Sources: name (TIER, trust 0.95); ...`, strongest first, at most MAX_SOURCES."""
    if not sources:
        return ""
    t = _T[lang]
    ranked = sorted(sources, key=lambda s: (-(s.trust or 0.0), s.name))[:MAX_SOURCES]
    parts = []
    for s in ranked:
        bits = [b for b in (s.authority, f"{t['trust']} {s.trust:.2f}" if s.trust is not None else None) if b]
        parts.append(f"{s.name} ({', '.join(bits)})" if bits else s.name)
    return f"{t['sources']}: {'; '.join(parts)}."


def _label(answer: Answer, cid: str) -> str:
    return answer.labels.get(cid) or display_name(cid)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verb(predicate: str, lang: str) -> str:
    return PREDICATE_WORDS[lang].get(predicate, predicate.replace("_", " "))


def _define(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    name = _label(answer, d["concept"])
    chain = [_label(answer, c) for c in d.get("chain", [])]
    description = str(d.get("description") or "").strip()
    if description:
        first = description if description.endswith((".", "!", "?")) else description + "."
    elif len(chain) > 1:
        first = f"{_cap(name)} — {chain[1]}." if lang == "ru" else f"{_cap(name)} is {with_article(chain[1])}."
    else:
        first = _cap(name) + "."
    parts = [first]
    if len(chain) > 1:
        parts.append(f"{t['chain']}: {' → '.join(chain)}.")
    related = [_label(answer, c) for c in d.get("related", [])]
    if related:
        parts.append(f"{t['related']}: {', '.join(related)}.")
    return " ".join(parts)


def _check(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    s, o = _label(answer, d["subject"]), _label(answer, d["object"])
    verb = _verb(d["predicate"], lang)
    outcome = d["outcome"]
    if outcome == "unknown":
        return _no_answer(answer, lang)
    if outcome == "conflicting":
        return f"{t['conflict']}: {s} {verb} {o}?"
    positive = outcome == "supported"
    if lang == "ru" and d["predicate"] in ("is_a", "instance_of"):
        statement = f"{s} — {o}" if positive else f"{s} — не {o}"
    else:
        agents = _agents(answer, d["subject"], d["predicate"], d["object"])
        statement = f"{s} {phrase(d['predicate'], o, lang, negated=not positive, subject=s, agents=agents)}"
    text = f"{t['yes'] if positive else t['no']}, {statement}."
    chain = [
        next((st.conclusion.partition(f" {p} ")[2] for p in ("is_a", "instance_of") if f" {p} " in st.conclusion), "")
        for st in answer.trace.steps
        if st.rule == "ded.isa-transitive"
    ]
    inherited = [
        st.note
        for st in answer.trace.steps
        if st.rule in ("ded.property-inheritance", "ded.functional-value") and st.note
    ]
    if chain:
        names = [s, *(_label(answer, c) for c in chain)]
        text += f" ({t['inferred']}: {' → '.join(names)})"
    elif inherited:
        text += f" ({inherited[-1]})"
    return text


def _agents(answer: Answer, subject: str, predicate: str, obj: str) -> frozenset[str]:
    """Lemmas naming the subject and the classes the trace reached it through (for «может делиться»)."""
    ids = {subject}
    for st in answer.trace.steps:
        text = st.conclusion.replace(" NOT ", " ")
        if text.endswith(f" {predicate} {obj}"):
            ids.add(text[: -len(f" {predicate} {obj}")])
        for isa in (" is_a ", " instance_of "):
            if text.startswith(subject + isa):
                ids.add(text[len(subject + isa) :])
    names = [_label(answer, i) for i in ids]
    return frozenset(lemma(w) for name in names for w in name.split())


def _causal_path(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    path, predicates = d["path"], d["predicates"]
    chain = _label(answer, path[0])
    for predicate, concept in zip(predicates, path[1:], strict=True):
        chain += f" —{_verb(predicate, lang)}→ {_label(answer, concept)}"
    text = f"{t['because']}: {chain}."
    if not d.get("polarity", True):
        text = f"{t['against']}{chain}."
    return text


def _causal_list(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    key = "causes_of" if d["kind"] == "causes" else "effects_of"
    head = t[key].format(x=_label(answer, d["concept"]))
    items = []
    for path in d["paths"][:4]:
        end = path[0] if d["kind"] == "causes" else path[-1]
        route = " → ".join(_label(answer, c) for c in path)
        items.append(f"{_label(answer, end)} ({route})" if len(path) > 2 else _label(answer, end))
    return f"{head}: {'; '.join(items)}."


def _analogy(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    best = d["analogies"][0]
    x, y = _label(answer, d["concept"]), _label(answer, best["other"])
    shared = []
    for predicate, mine, theirs in best["shared"][:5]:
        obj = _label(answer, mine) if mine == theirs else f"{_label(answer, mine)} / {_label(answer, theirs)}"
        shared.append(phrase(predicate, obj, lang, subject=x))
    text = t["like"].format(x=_cap(x), y=y)
    if shared:
        text += f" ({t['both']}: {', '.join(shared)})"
    text += "."
    others = [_label(answer, a["other"]) for a in d["analogies"][1:3]]
    if others:
        text += f" {t['also']}: {', '.join(others)}."
    if not best.get("supported"):
        text += " " + t["hypothesis"]
    return text


def _relation(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    facts = d["facts"]
    first = facts[0]
    head = t["linked"].format(x=_cap(_label(answer, first[0])), y=_label(answer, first[2]))
    items = []
    for s, p, o, polarity in facts:
        name = _label(answer, s)
        items.append(f"{name} {phrase(p, _label(answer, o), lang, negated=not polarity, subject=name)}")
    return f"{head}: {'; '.join(items)}."


def _connection(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    path = d["path"]
    head = t["linked"].format(x=_cap(_label(answer, path[0])), y=_label(answer, path[-1]))
    items = [
        f"{_label(answer, s)} {phrase(p, _label(answer, o), lang, subject=_label(answer, s))}" for s, p, o in d["facts"]
    ]
    return f"{head}: {'; '.join(items)}."


def _unknown(answer: Answer, lang: str) -> str:
    t = _T[lang]
    text = t["unknown"].format(x=answer.data.get("name", ""))
    if answer.suggestions:
        text += " " + t["did_you_mean"].format(x=", ".join(answer.suggestions))
    return text


def _ambiguous(answer: Answer, lang: str) -> str:
    d = answer.data
    return _T[lang]["ambiguous"].format(x=d.get("name", ""), y="; ".join(d.get("described") or d.get("candidates", [])))


def _no_answer(answer: Answer, lang: str) -> str:
    del answer
    return _T[lang]["no_answer"]


_BODIES: dict[str, Any] = {
    "define": _define,
    "check": _check,
    "causal_path": _causal_path,
    "causes": _causal_list,
    "effects": _causal_list,
    "analogy": _analogy,
    "relation": _relation,
    "connection": _connection,
    "unknown_concept": _unknown,
    "ambiguous": _ambiguous,
    "no_answer": _no_answer,
}
