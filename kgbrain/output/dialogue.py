"""The hedged answer text of `ask`, in the question's language (seed 000 DialogueResponder, seed 004).

The answer starts with its content, is hedged by confidence (phrases from reasoning/uncertainty.py), names
its sources with their authority tier, and never claims more than the reasoner found. One template per
kind of finding (`Answer.data["kind"]`); concept names come from `Answer.labels`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kgbrain.language import (
    agree,
    can_phrase,
    display_name,
    governed_case,
    inflect_phrase,
    is_short_form,
    lemma,
    with_article,
)
from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.answers import Answer, SourceRef
from kgbrain.reasoning.nlu.lexicon import PHRASES, RU_AGREES, RU_CASES
from kgbrain.reasoning.uncertainty import hedging_phrases

MAX_SOURCES = 4

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
    label: str = "",
) -> str:
    """Predicate and object as running text, grammatical in `lang`; `label` is the predicate's own label in
    `lang`, said where the fixed phrase table has none («растёт в», not "grows in").

    Russian puts the object in the case the verb governs («потребляет энергию», «является элементом обработки
    информации») and «может» takes an infinitive («может усиливать сигнал»; «не может делиться» when the object's
    genitive names one of the `agents`, lemmas of the subject and its classes). English gets its articles ("is an
    impus") and negation ("does not consume", "cannot undergo cell division") right.
    """
    if lang == "ru":
        return _phrase_ru(predicate, obj, negated, subject, agents, label)
    return _phrase_en(predicate, obj, negated)


def _phrase_ru(predicate: str, obj: str, negated: bool, subject: str, agents: frozenset[str], label: str) -> str:
    neg = "не " if negated else ""
    if predicate == "can":
        who = agents | {lemma(w) for w in subject.split()}
        return f"{neg}может {can_phrase(obj, set(who))}"
    verb = label if label and predicate not in PHRASES["ru"] else _verb(predicate, "ru")
    words = verb.split(" ")
    if subject and (words[0] in RU_AGREES or (verb == label and is_short_form(words[0]))):
        words[0] = agree(words[0], subject)  # «вино сделано из», «компания основана»
    case = RU_CASES.get(predicate) or (_label_case(predicate, words[-1]) if verb == label else None)
    if negated and case == "accs" and words[-1] not in _PREPOSITION_CASE:
        case = "gent"  # the genitive of negation: «не имеет крыльев», «не перевозит угля»
    target = inflect_phrase(obj, case) if case else obj
    if negated and predicate == "disjoint_with":
        return f"пересекается с {target}"
    return f"{neg}{' '.join(words)} {target}"


# The case a Russian preposition ending a predicate's label governs; в/на take the accusative of a direction,
# which the id's English preposition tells (runs_to «ходит в Санкт-Петербург», grows_in «растёт в Бургундии»).
_PREPOSITION_CASE = {"в": "loct", "во": "loct", "на": "loct", "о": "loct", "об": "loct", "при": "loct"}
_PREPOSITION_CASE |= {"из": "gent", "от": "gent", "до": "gent", "с": "gent", "со": "gent", "у": "gent", "без": "gent"}
_PREPOSITION_CASE |= {"к": "datv", "ко": "datv", "по": "datv", "за": "ablt", "под": "ablt", "над": "ablt"}
_PREPOSITION_CASE |= {"для": "gent", "около": "gent", "возле": "gent", "вдоль": "gent", "после": "gent"}
_PREPOSITION_CASE |= {"через": "accs", "про": "accs", "между": "ablt", "перед": "ablt"}


def _label_case(predicate: str, last: str) -> str | None:
    """The case of the object after a label ending in `last`: its preposition's, else the one its verb governs
    («перемещает баржу», «создана Алисой»)."""
    if last not in _PREPOSITION_CASE:
        return governed_case(last)
    case = _PREPOSITION_CASE.get(last)
    if case == "loct" and predicate.endswith(("_to", "_into", "_onto")):
        return "accs"
    return case


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
        "disagree_value": "Источники расходятся: {a} ({x}) — {items}.",
        "disagree": "Источники расходятся: {items}.",
        "chain": "Цепочка понятий",
        "related": "Связан с",
        "because": "Потому что",
        "against": "Это препятствует: ",
        "causes_of": "Причины «{x}»",
        "works_against": "Препятствуют этому",
        "against_it": "«{x}» препятствует",
        "effects_of": "«{x}» ведёт к",
        "like": "{x} похож на {y}",
        "both": "общее",
        "hypothesis": "Это гипотеза по аналогии, а не вывод.",
        "also": "Также похожи",
        "unknown": "Я не знаю понятия «{x}».",
        "did_you_mean": "Возможно, вы имели в виду: {x}?",
        "ambiguous": "«{x}» может означать разные понятия: {y}. Уточните, какое из них.",
        "ambiguous_relation": "Вопрос можно понять как разные отношения: {y}. Уточните, какое из них.",
        "outcomes": "supported=да;refuted=нет;unknown=неизвестно;conflicting=источники расходятся",
        "no_answer": "Не знаю: в базе знаний нет сведений, чтобы ответить на этот вопрос.",
        "dont_know_check": "Не знаю: из базы знаний не следует ни «{x}», ни обратное (проверено: {checked}).",
        "dont_know_value": "Не знаю: в базе знаний нет значения «{a}» для «{x}» (проверено: {checked}).",
        "dont_know_wh": "Не знаю: в базе знаний нет ответа на вопрос «{q}» (проверено: {checked}).",
        "dont_know_norm": "Не знаю: в базе знаний нет нормы о том, можно ли {v} «{x}» (проверено: {checked}).",
        "no_analogy": "Не знаю: структурного сходства между «{x}» и «{y}» не найдено.",
        "know_but_not": "Я знаю {known}, но не знаю «{x}».",
        "not_understood": "Я не понял, о чём вопрос{known}.",
        "understood": "; понятия: {x}",
        "value": "{a} ({x}): {v}.",
        "value_not": "{a} ({x}): не {v}.",
        "value_instead": "{a} ({x}): {v}, а не {w}.",
        "inherited_value": "{a} ({x}, как у «{h}»): {v}.",
        "class_value": "У каждого экземпляра «{x}» есть {a}: {v}.",
        "class_value_of": "У каждого экземпляра «{h}» (а «{x}» из них) есть {a}: {v}.",
        "some": "хотя бы один из класса «{d}»",
        "count": "{x}: {n} ({items}).",
        "kinds": "Видов «{x}»: {n} — {items}.",
        "members": "{verb}: {items}.",
        "allowed": "Да, разрешено: {a} для «{x}».",
        "forbidden": "Нет, не разрешено: {a} для «{x}».",
        "required": "Да, требуется: {a} для «{x}».",
        "not_required": "Нет, не требуется: {a} для «{x}».",
        "prohibited": "Да, запрещено: {a} для «{x}».",
        "not_prohibited": "Нет, не запрещено: {a} для «{x}».",
        "sources": "Источники",
        "trust": "доверие",
        "inferred": "вывод по цепочке",
        "not": "не",
        "linked": "{x} и {y} связаны",
        "kind_of": "{x} — разновидность {y}.",
        "both_kinds": "{x} и {y} — разновидности {c}.",
        "in_common": "Общее: {items}.",
        "differences": "Различия: {items}.",
        "contrast": "{x} {a}, а {y} {b}",
        "only": "Известно только для «{x}»: {items}.",
        "links": "Связи: {items}.",
        "no_comparison": "Не знаю: в базе знаний нет ничего общего или различного у «{x}» и «{y}».",
    },
    "en": {
        "yes": "Yes",
        "no": "No",
        "conflict": "The sources disagree",
        "disagree_value": "The sources disagree on the {a} of {x}: {items}.",
        "disagree": "The sources disagree: {items}.",
        "chain": "Concept chain",
        "related": "Related to",
        "because": "Because",
        "against": "This works against: ",
        "causes_of": "Causes of '{x}'",
        "works_against": "Working against it",
        "against_it": "'{x}' works against",
        "effects_of": "'{x}' leads to",
        "like": "{x} is like {y}",
        "both": "shared",
        "hypothesis": "This is a hypothesis by analogy, not a proof.",
        "also": "Also similar",
        "unknown": "I don't know the concept '{x}'.",
        "did_you_mean": "Did you mean: {x}?",
        "ambiguous": "'{x}' may mean different concepts: {y}. Please say which one.",
        "ambiguous_relation": "The question may ask about different relations: {y}. Please say which one.",
        "outcomes": "supported=yes;refuted=no;unknown=not known;conflicting=the sources disagree",
        "no_answer": "I don't know: the knowledge base has nothing that answers this question.",
        "dont_know_check": "I don't know: the knowledge base implies neither '{x}' nor its opposite "
        "(checked: {checked}).",
        "dont_know_value": "I don't know the {a} of {x}: no stored value (checked: {checked}).",
        "dont_know_wh": "I don't know: nothing in the knowledge base answers '{q}' (checked: {checked}).",
        "dont_know_norm": "I don't know: no norm in the knowledge base says whether to {v} {x} (checked: {checked}).",
        "no_analogy": "I don't know: I found no structural similarity between {x} and {y}.",
        "know_but_not": "I know {known} but not '{x}'.",
        "not_understood": "I could not tell what the question asks{known}.",
        "understood": "; I know: {x}",
        "value": "The {a} of {x} is {v}.",
        "class_value": "Every {x} {a} some {v}.",
        "class_value_of": "Every {h} (and {x} is one) {a} some {v}.",
        "some": "{d}",
        "value_not": "The {a} of {x} is not {v}.",
        "value_instead": "The {a} of {x} is {v}, not {w}.",
        "inherited_value": "The {a} of {x} is {v} (stated for {h}).",
        "count": "{x}: {n} ({items}).",
        "kinds": "There are {n} kinds of {x}: {items}.",
        "members": "{Subject} that {verb}: {items}.",
        "allowed": "Yes, {a} is permitted for {x}.",
        "forbidden": "No, {a} is not permitted for {x}.",
        "required": "Yes, {x} requires {a}.",
        "not_required": "No, {x} does not require {a}.",
        "prohibited": "Yes, {a} is forbidden for {x}.",
        "not_prohibited": "No, {a} is not forbidden for {x}.",
        "sources": "Sources",
        "trust": "trust",
        "inferred": "inferred along",
        "not": "not",
        "linked": "{x} and {y} are linked",
        "kind_of": "{x} is a kind of {y}.",
        "both_kinds": "Both {x} and {y} are kinds of {c}.",
        "in_common": "In common: {items}.",
        "differences": "Differences: {items}.",
        "contrast": "{x} {a}, but {y} {b}",
        "only": "Stated only for {x}: {items}.",
        "links": "Links: {items}.",
        "no_comparison": "I don't know: the knowledge base states nothing that {x} and {y} share or differ in.",
    },
}


def render(answer: Answer) -> str:
    """The answer text: hedged content first, then its sources."""
    lang = "ru" if answer.language == "ru" else "en"
    kind = answer.data.get("kind", "no_answer")
    body = _BODIES.get(kind, _no_answer)(answer, lang)
    conflicting = answer.outcome is not None and answer.outcome.value == "conflicting"
    if answer.action in ("respond", "respond_hedged", "report_uncertainty") and not conflicting:
        body = hedge(body, answer.confidence, lang)
    cited = cite(answer.sources, lang)
    return f"{body} {cited}".strip()


def hedge(text: str, confidence: float, lang: str) -> str:
    """Prefix the seed's hedging phrase for this confidence (none above the top band)."""
    phrases = hedging_phrases(confidence, lang)
    if not phrases:
        return text
    word = text.split(" ", 1)[0]
    first = text if len(word) > 1 and word.isupper() else text[:1].lower() + text[1:]  # an abbreviation (ДНК) stays
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


def _said(answer: Answer, predicate: str) -> str:
    """The predicate's label in the answer's language, when the answer carries one (assembly.finish)."""
    return answer.labels.get(predicate, "")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verb(predicate: str, lang: str) -> str:
    return PHRASES[lang].get(predicate, predicate.replace("_", " "))


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
    outcome = d["outcome"]
    if d.get("norm"):
        return _norm(answer, lang)
    label = _said(answer, d["predicate"])
    said = f"{s} {phrase(d['predicate'], o, lang, subject=s, label=label)}"  # «защищает от пыли», "is an axon"
    if outcome == "unknown":
        checked = ", ".join(dict.fromkeys(st.rule for st in answer.trace.steps)) or d["predicate"]
        return t["dont_know_check"].format(x=said, checked=checked)
    if outcome == "conflicting" and d.get("sides"):
        items = [
            f"{s} {phrase(d['predicate'], _label(answer, v), lang, subject=s, label=label)} ({', '.join(srcs)})"
            for v, _, srcs in d["sides"]
        ]
        return t["disagree"].format(items="; ".join(items))
    if outcome == "conflicting":
        return f"{t['conflict']}: {said}?"
    positive = outcome == "supported"
    if lang == "ru" and d["predicate"] in ("is_a", "instance_of"):
        statement = f"{s} — {o}" if positive else f"{s} — не {o}"
    else:
        agents = _agents(answer, d["subject"], d["predicate"], d["object"])
        statement = (
            f"{s} {phrase(d['predicate'], o, lang, negated=not positive, subject=s, agents=agents, label=label)}"
        )
    return f"{t['yes'] if positive else t['no']}, {statement}.{_how_inferred(answer, s, lang)}"


def _how_inferred(answer: Answer, subject: str, lang: str) -> str:
    """What a yes or no was inferred through, in parentheses: the classes of an is_a chain, the class a property
    was inherited from, or the causal chain that decided it; "" when it was stated."""
    t = _T[lang]
    text = ""
    chain = [
        next((st.conclusion.partition(f" {p} ")[2] for p in ("is_a", "instance_of") if f" {p} " in st.conclusion), "")
        for st in answer.trace.steps
        if st.rule == R.DED_ISA_TRANSITIVE
    ]
    inherited = [
        st.note
        for st in answer.trace.steps
        if st.rule in (R.DED_PROPERTY_INHERITANCE, R.DED_FUNCTIONAL_VALUE) and st.note
    ]
    if chain:
        names = [subject, *(_label(answer, c) for c in chain)]
        text += f" ({t['inferred']}: {' → '.join(names)})"
    elif inherited:
        text += f" ({inherited[-1]})"
    causal = [st.conclusion.split(" ") for st in answer.trace.steps if st.rule == R.CAU_CHAIN]
    if causal and not chain:  # the chain that decided a causal question: smoking → lung damage → shortness of breath
        route = [causal[0][0], *(parts[-1] for parts in causal)]
        text += f" ({t['inferred']}: {' → '.join(_label(answer, c) for c in route)})"
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
    x = _label(answer, d["concept"])
    causes = d["kind"] == "causes"
    against = t["works_against" if causes else "against_it"].format(x=x)
    said = []
    for paths, lead in ((d["paths"], t[key].format(x=x)), (d.get("against", []), against)):
        items = []
        for path in paths[:4]:
            end = path[0] if causes else path[-1]
            route = " → ".join(_label(answer, c) for c in path)
            items.append(f"{_label(answer, end)} ({route})" if len(path) > 2 else _label(answer, end))
        if items:
            said.append(f"{lead}: {'; '.join(items)}.")
    return " ".join(said)


def _analogy(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    best = d["analogies"][0]
    x, y = _label(answer, d["concept"]), _label(answer, best["other"])
    shared = []
    for predicate, mine, theirs in best["shared"][:5]:
        obj = _label(answer, mine) if mine == theirs else f"{_label(answer, mine)} / {_label(answer, theirs)}"
        shared.append(phrase(predicate, obj, lang, subject=x, label=_said(answer, predicate)))
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


def _alike(answer: Answer, lang: str) -> str:
    d = answer.data
    x, y = _label(answer, d["concept"]), _label(answer, d["other"])
    both = [_label(answer, c) for c in d["classes"]] + [
        phrase(p, _label(answer, o), lang, label=_said(answer, p)) for p, o in d["relations"]
    ]
    if lang == "ru":
        return f"Да, {x} и {y} похожи: оба — {', '.join(both)} (сходство {d['score']:.2f})."
    return f"Yes, {x} and {y} are alike: both are {', '.join(both)} (similarity {d['score']:.2f})."


def _apart(answer: Answer, lang: str) -> str:
    d = answer.data
    x, y = _label(answer, d["concept"]), _label(answer, d["other"])
    cx, cy = (_label(answer, c) if c else "" for c in d["classes"])
    if lang == "ru":
        return f"Нет, {x} и {y} не похожи: {x} — {cx}, {y} — {cy}; общих классов и связей нет."
    return f"Not really: {x} is {with_article(cx)} and {y} is {with_article(cy)}; they share no class and no relation."


def _relation(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    facts = d["facts"]
    first = facts[0]
    head = t["linked"].format(x=_cap(_label(answer, first[0])), y=_label(answer, first[2]))
    items = []
    for s, p, o, polarity in facts:
        name = _label(answer, s)
        agents = frozenset(lemma(w) for c in d.get("classes", {}).get(s, []) for w in _label(answer, c).split())
        phrased = phrase(
            p, _label(answer, o), lang, negated=not polarity, subject=name, agents=agents, label=_said(answer, p)
        )
        items.append(f"{name} {phrased}")
    return f"{head}: {'; '.join(items)}."


def _connection(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    path = d["path"]
    head = t["linked"].format(x=_cap(_label(answer, path[0])), y=_label(answer, path[-1]))
    items = [
        f"{_label(answer, s)} {phrase(p, _label(answer, o), lang, subject=_label(answer, s), label=_said(answer, p))}"
        for s, p, o in d["facts"]
    ]
    return f"{head}: {'; '.join(items)}."


def _unknown(answer: Answer, lang: str) -> str:
    t = _T[lang]
    d = answer.data
    known = [_label(answer, c) for c in d.get("known", [])]
    if known and d.get("name"):
        quoted = ", ".join((f"«{k}»" if lang == "ru" else f"'{k}'") for k in known)
        text = t["know_but_not"].format(known=quoted, x=d["name"])
    else:
        text = t["unknown"].format(x=d.get("name", ""))
    if answer.suggestions:
        text += " " + t["did_you_mean"].format(x=", ".join(answer.suggestions))
    return text


def _ambiguous(answer: Answer, lang: str) -> str:
    d = answer.data
    return _T[lang]["ambiguous"].format(x=d.get("name", ""), y="; ".join(d.get("described") or d.get("candidates", [])))


def _no_answer(answer: Answer, lang: str) -> str:
    del answer
    return _T[lang]["no_answer"]


def _not_understood(answer: Answer, lang: str) -> str:
    t = _T[lang]
    known = [_label(answer, c) for c in answer.data.get("known", [])]
    return t["not_understood"].format(known=t["understood"].format(x=", ".join(known)) if known else "")


def _number(value: str, lang: str) -> str:
    # Long integers grouped by thousands: readable, and never mistaken for a phone or card number.
    if lang == "ru" and re.fullmatch(r"-?\d+\.\d+", value):
        return value.replace(".", ",")  # «1,5 л»
    if not (value.isdigit() and len(value) > 4):
        return value
    grouped = f"{int(value):,}"
    return grouped.replace(",", "\u00a0") if lang == "ru" else grouped


# Units said in Russian by their symbol («225 л», «1500 мл»); a symbol not listed is shown as stored.
_RU_UNITS = {"l": "л", "ml": "мл", "g/l": "г/л", "km/h": "км/ч", "m/s^2": "м/с²", "m": "м", "km": "км", "kg": "кг"}
_RU_UNITS |= {"g": "г", "bar": "бар", "ha": "га", "cm": "см", "mm": "мм", "s": "с", "h": "ч", "min": "мин"}


_RU_UNITS |= {"percent": "%", "%": "%", "°c": "°C", "degc": "°C", "k": "К"}
# Units of time said as Russian nouns agreeing with the number («24 дня», «5 лет», «6 недель»), by every English
# spelling a fact may store them in.
_RU_TIME = {"день": ("d", "day", "days"), "неделя": ("week", "weeks", "wk"), "месяц": ("month", "months")}
_RU_TIME |= {"год": ("year", "years", "yr"), "час": ("hour", "hours", "hr"), "минута": ("minute", "minutes")}
_RU_TIME |= {"секунда": ("second", "seconds", "sec")}
_RU_TIME_NOUNS = {spelling: noun for noun, spellings in _RU_TIME.items() for spelling in spellings}


def _unit(unit: str, attribute: str, lang: str, value: object = None) -> str:
    """The unit as the answer's language says it; a calendar year (year_born, year_founded) needs none."""
    if unit in ("year", "years") and "year" in attribute.lower().split("_"):
        return ""  # founding_year, year_born: a calendar year, never "1911 years"
    if unit.lower() in ("percent", "per cent", "pct"):
        return "%"  # one symbol in both languages: "20 percent" inside a Russian answer is English
    if lang != "ru":
        return unit
    noun = _RU_TIME_NOUNS.get(unit.lower())
    if noun is not None:
        from kgbrain.language import agree_with_number

        number = _as_number(value)
        return agree_with_number(noun, number) if number is not None else noun
    said = _RU_UNITS.get(unit, _RU_UNITS.get(unit.lower(), unit))
    # "10 isotopes", "4 wings": an English plural counting what the attribute's label names already
    return "" if said == unit and re.fullmatch(r"[a-z]{3,}s", unit) else said


def _as_number(value: object) -> float | None:
    try:
        return float(str(value).replace(",", "."))
    except ValueError:
        return None


def _disagree_value(answer: Answer, lang: str) -> str:
    """An open conflict over a value: each value with the sources giving it («8848 м (atlas_a), 8850 м (atlas_b)»)."""
    d = answer.data
    items = ", ".join(
        _quantity(str(v), unit, d["attribute"], lang) + f" ({', '.join(srcs)})" for v, unit, srcs in d["sides"]
    )
    a = _label(answer, d["attribute"])
    return _T[lang]["disagree_value"].format(a=a, x=_label(answer, d["subject"]), items=items)


def _quantity(value: str, unit: str, attribute: str, lang: str) -> str:
    """A number and its unit as the answer's language says them («3 года», "6 weeks", «1,5 л»)."""
    said = _unit(unit, attribute, lang, value)
    if lang == "en" and said in _EN_UNIT_WORDS and _as_number(value) not in (1.0, -1.0):
        said += "s"  # "6 week" is "6 weeks"
    return f"{_number(value, lang)} {said}".strip()


_EN_UNIT_WORDS = frozenset({"year", "month", "week", "day", "hour", "minute", "second"})


def _stated(text: str, attribute: str, lang: str) -> str:
    """A stored value as "number unit" text ("3 year") said as `_quantity` says it; other text as it is."""
    number, _, unit = text.strip().partition(" ")
    return _quantity(number, unit, attribute, lang) if re.fullmatch(r"[+\-−]?[\d.,]+", number) else text


def _value(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    if d.get("sides"):
        return _disagree_value(answer, lang)
    shown = _quantity(str(d["value"]), d.get("unit") or "", d["attribute"], lang)
    x, a = _label(answer, d["subject"]), _label(answer, d["attribute"])
    if d.get("holder") and d["holder"] != d["subject"]:
        return t["inherited_value"].format(
            a=a if lang == "en" else _cap(a), x=x, v=shown, h=_label(answer, d["holder"])
        )
    return _cap(t["value"].format(a=a if lang == "en" else _cap(a), x=x, v=shown))


def _class_value(answer: Answer, lang: str) -> str:
    """`C ⊑ ∃p.D`: "Every Margherita has topping some mozzarella topping and some tomato topping." """
    d = answer.data
    t = _T[lang]
    x, a, h = _label(answer, d["subject"]), _said(answer, d["attribute"]), _label(answer, d["holder"])
    a = a or str(d["attribute"]).replace("_", " ")
    values = [t["some"].format(d=_label(answer, v)) for v in d["values"]]
    joined = (" and some " if lang == "en" else "; ").join(values)
    key = "class_value" if d["holder"] == d["subject"] else "class_value_of"
    return _cap(t[key].format(x=x, a=a, h=h, v=joined))


def _value_check(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    x, a = _label(answer, d["subject"]), _label(answer, d["attribute"])
    claimed, stated = str(d["value"]), _stated(str(d.get("stated") or ""), d["attribute"], lang)
    outcome = d["outcome"]
    statement = _uncap(t["value"].format(a=a, x=x, v=claimed), lang).rstrip(".")
    if outcome == "unknown":
        checked = ", ".join(dict.fromkeys(st.rule for st in answer.trace.steps)) or d["attribute"]
        return t["dont_know_check"].format(x=statement, checked=checked)
    if outcome == "conflicting" and d.get("sides"):
        return _disagree_value(answer, lang)
    if outcome == "conflicting":
        return f"{t['conflict']}: {statement}?"
    if outcome == "supported":
        same = bool(stated) and claimed.split()[:1] == stated.split()[:1]  # «1911 году» is the stored 1911
        shown = stated if same else claimed if not stated else f"{claimed} ({stated})"
        return f"{t['yes']}, {_uncap(t['value'].format(a=a, x=x, v=shown), lang)}"
    if stated:
        body = t["value_instead"].format(a=a, x=x, v=stated, w=claimed)
    else:
        body = t["value_not"].format(a=a, x=x, v=claimed)
    return f"{t['no']}, {_uncap(body, lang)}"


def _uncap(text: str, lang: str) -> str:
    """A sentence continued after "Yes, ": English lowers its template's "The"; Russian starts with the label."""
    return text[:1].lower() + text[1:] if lang == "en" else text


def _no_value(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    a = _label(answer, d["attribute"]) if d["attribute"] in answer.labels else str(d["attribute"]).replace("_", " ")
    checked = ", ".join(str(c) for c in d.get("checked", [])) or "—"
    if d.get("wh"):
        return t["dont_know_wh"].format(q=answer.question.strip().rstrip("?").strip(), checked=checked)
    return t["dont_know_value"].format(a=a, x=_label(answer, d["subject"]), checked=checked)


def _ambiguous_relation(answer: Answer, lang: str) -> str:
    """Each reading of a tied relation phrase with what it would answer: «„создана“ (created_by): Алиса»."""
    t = _T[lang]
    outcomes = dict(pair.split("=") for pair in t["outcomes"].split(";"))
    options = answer.data["options"]
    labels = [_said(answer, p) or p.replace("_", " ") for p, _, _ in options]
    items = []
    for (p, outcome, ends), label in zip(options, labels, strict=True):
        name = f"«{label}»" if lang == "ru" else f"'{label}'"
        if labels.count(label) > 1:
            name += f" ({p})"
        said = ", ".join(_label(answer, c) for c in ends) if ends else outcomes.get(outcome, outcome)
        items.append(f"{name}: {said}")
    return t["ambiguous_relation"].format(y="; ".join(items))


def _count(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    items = ", ".join(_label(answer, c) for c in d["items"])
    return t["kinds"].format(x=_label(answer, d["concept"]), n=d["count"], items=items)


def _members(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    items = ", ".join(_label(answer, c) for c in d["items"])
    subject = answer.question.split()[1] if lang == "en" and len(answer.question.split()) > 1 else ""
    verb = d["verb"]
    if lang == "ru" and verb.endswith(("ть", "ться", "чь")):  # «Какие клетки (не) могут делиться?»
        verb = f"могут {verb}"
    if not d.get("polarity", True):
        verb = f"{'не' if lang == 'ru' else 'do not'} {verb}"
    if lang == "ru":
        return t["members"].format(verb=_cap(verb), items=items)
    return t["members"].format(Subject=_cap(subject), verb=verb, items=items)


def _list(answer: Answer, lang: str) -> str:
    # Through `phrase`: the object in the case its verb governs («потребляет энергию»); two facts that read the
    # same (the same statement from two sources) are said once.
    items = dict.fromkeys(
        f"{_label(answer, s)} {phrase(p, _label(answer, o), lang, subject=_label(answer, s), label=_said(answer, p))}"
        for s, p, o in answer.data["facts"]
    )
    return _cap("; ".join(items)) + "."


def _norm(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    x, a = _label(answer, d["subject"]), _label(answer, d["object"])
    outcome = d["outcome"]
    if outcome == "conflicting":
        return f"{t['conflict']}: {x} — {a}?"
    if outcome == "unknown":
        return t["dont_know_norm"].format(v=a, x=x, checked=d["predicate"])
    yes = outcome == "supported"
    if d["predicate"] == "permitted" and d.get("polarity") is False:  # "Is X forbidden?" asks the prohibition
        return t["prohibited" if yes else "not_prohibited"].format(a=a, x=x)
    if d["predicate"] == "permitted":
        return t["allowed" if yes else "forbidden"].format(a=a, x=x)
    return t["required" if yes else "not_required"].format(a=a, x=x)


def _no_norm(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    checked = ", ".join(d.get("checked", []))
    return t["dont_know_norm"].format(v=d["verb"], x=_label(answer, d["subject"]), checked=checked)


def _comparison(answer: Answer, lang: str) -> str:
    d = answer.data
    t = _T[lang]
    x, y = _label(answer, d["first"]), _label(answer, d["second"])
    sentences = []
    for c in d["common"]:
        if c in (d["first"], d["second"]):  # one is a kind of the other
            kind, of = (x, y) if c == d["second"] else (y, x)
            sentences.append(t["kind_of"].format(x=_cap(kind), y=_of(of, lang)))
        else:
            sentences.append(t["both_kinds"].format(x=x, y=y, c=_of(_label(answer, c), lang)))

    def said(subject: str, predicate: str, obj: str, negated: bool = False) -> str:
        name, agents = _label(answer, subject), _agents(answer, subject, predicate, obj)
        return phrase(
            predicate,
            _label(answer, obj),
            lang,
            negated=negated,
            subject=name,
            agents=agents,
            label=_said(answer, predicate),
        )

    contrasts = [
        t["contrast"].format(x=_label(answer, s), a=said(s, p, o), y=_label(answer, other), b=said(other, p, o, True))
        for s, p, o, other in d["contrasts"]
    ]
    if contrasts:
        sentences.append(t["differences"].format(items="; ".join(contrasts)))
    shared = [said(d["first"], p, o) for p, o in d["shared"]]
    if shared:
        sentences.append(t["in_common"].format(items="; ".join(shared)))
    for side in (d["first"], d["second"]):
        mine = [said(s, p, o) for s, p, o in d["only"] if s == side]
        if mine:
            sentences.append(t["only"].format(x=_label(answer, side), items="; ".join(mine)))
    links = [f"{_label(answer, s)} {said(s, p, o, not polarity)}" for s, p, o, polarity in d["links"]]
    if links:
        sentences.append(t["links"].format(items="; ".join(links)))
    return " ".join(_cap(s) for s in sentences)


def _of(name: str, lang: str) -> str:
    """ "kinds of cell" / «разновидности клетки»."""
    return inflect_phrase(name, "gent") if lang == "ru" else name


def _no_comparison(answer: Answer, lang: str) -> str:
    d = answer.data
    return _T[lang]["no_comparison"].format(x=_label(answer, d["first"]), y=_label(answer, d["second"]))


def _no_analogy(answer: Answer, lang: str) -> str:
    d = answer.data
    return _T[lang]["no_analogy"].format(x=_label(answer, d["concept"]), y=_label(answer, d["other"]))


_BODIES: dict[str, Any] = {
    "define": _define,
    "check": _check,
    "ambiguous_relation": _ambiguous_relation,
    "causal_path": _causal_path,
    "causes": _causal_list,
    "effects": _causal_list,
    "analogy": _analogy,
    "alike": _alike,
    "apart": _apart,
    "relation": _relation,
    "connection": _connection,
    "unknown_concept": _unknown,
    "ambiguous": _ambiguous,
    "not_understood": _not_understood,
    "no_answer": _no_answer,
    "value": _value,
    "value_check": _value_check,
    "class_value": _class_value,
    "count_value": _value,
    "no_value": _no_value,
    "count": _count,
    "members": _members,
    "list": _list,
    "no_norm": _no_norm,
    "no_analogy": _no_analogy,
    "comparison": _comparison,
    "no_comparison": _no_comparison,
}
