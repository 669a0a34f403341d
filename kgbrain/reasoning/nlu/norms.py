"""Norm questions in anyone's words: a modal anywhere in the question, a holder the norms are stated for, and
the action its remaining words name.

«Нужно ли работнику использовать СИЗ?», «Обязан ли работник применять СИЗ?», "Must a worker use PPE?", "Is a
wine producer allowed to add water?", "Is irrigation allowed in an AOC vineyard?" all ask one stored norm: the
modal says which predicates (permitted, obliged_to/requires), the holder is the concept named in the question
that norms are stated for (itself or a class above it), and the action is the holder's norm whose names explain
the most of the other words («использовать» ~ «использование», "state … on the label" ~ "label alcohol content").
An action is chosen only when its name explains at least half of those words, and all of them when the name has
words of its own the question does not say ("carry skis" is not "carrying a bicycle": the same verb with another
object is another action); otherwise the question is left to the patterns, and an unknown action is "no norm",
never a neighbour's norm.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kgbrain.language import split_identifier, words
from kgbrain.reasoning.nlu.links import ConceptLinks, classes_above
from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.nlu.vocabulary import PARTICLES, key, same_root

NORM_PREDICATES: dict[Intent, tuple[str, ...]] = {
    Intent.PERMISSION: ("permitted",),
    Intent.OBLIGATION: ("requires", "obliged_to"),
}
# The modals, by what they ask; a prohibition asks the permission turned round (polarity false).
_PERMISSION = frozenset(
    {"may", "allowed", "permitted", "ok", "legal", "можно", "разрешено", "разрешается", "допускается", "допустимо"}
    | {"разрешен", "разрешена", "разрешены", "вправе"}
)
_MAYBE_PERMISSION = frozenset({"can", "could", "может", "могут"})  # ability unless the holder has norms
_OBLIGATION = frozenset(
    {"must", "should", "required", "obliged", "obligatory", "mandatory", "necessary", "need", "needs", "have"}
    | {"нужно", "надо", "должен", "должна", "должно", "должны", "обязан", "обязана", "обязаны", "обязательно"}
    | {"необходимо", "следует", "требуется"}
)
_PROHIBITION = frozenset({"forbidden", "prohibited", "banned", "запрещено", "запрещается", "нельзя", "запрещен"})
_FILLER = frozenset(
    {"a", "an", "the", "is", "are", "it", "to", "be", "do", "does", "for", "one", "i", "we", "you"}
    | {"ли", "же", "это", "и", "ему", "им", "ей", "мне", "нам", "вам", "себе"}
)


# Beginnings of the Russian forms of the modals («обязано», «разрешён», «запрещается»), by what they ask.
_RU_MODAL_STEMS: tuple[tuple[str, str], ...] = (("обязан", "OBLIGATION"), ("должн", "OBLIGATION"))
_RU_MODAL_STEMS += (("запрещ", "PROHIBITION"), ("разреш", "PERMISSION"), ("допуска", "PERMISSION"))
_RU_MODAL_STEMS += (("допустим", "PERMISSION"),)


def _modality(tokens: list[str]) -> tuple[Intent, bool] | None:
    """(intent, polarity) the question's modal asks, or None when it has none."""
    said = set(tokens)
    stems = {kind for t in tokens for stem, kind in _RU_MODAL_STEMS if t.startswith(stem)}
    need = {"have", "need", "needs"}
    if said & (_OBLIGATION - need) or (need & said and "to" in said) or "OBLIGATION" in stems:
        return Intent.OBLIGATION, True
    if said & _PROHIBITION or "PROHIBITION" in stems:
        return Intent.PERMISSION, False
    if said & (_PERMISSION | _MAYBE_PERMISSION) or "PERMISSION" in stems:
        return Intent.PERMISSION, True
    return None


def read_norm(r: ConceptLinks, q: Question) -> Question | None:
    """The question as (holder, action) of a stored norm, or None when it names none. A question that names no
    holder ("Is overtaking under a bridge allowed?", «Можно ли выбрасывать мусор за борт?») asks the norm of the
    action for the most general holder it is stated for."""
    tokens = words(q.text)
    modality = _modality(tokens)
    if modality is None:
        return None
    intent, polarity = modality
    wanted = NORM_PREDICATES[intent]
    declared = r.predicates().declared
    mentions = [m for m in r.linker.mentions(q.text) if m.concept not in declared]
    for holder_mention in sorted(mentions, key=lambda m: (m.start - m.end, m.start)):
        actions = _norm_actions(r, holder_mention.concept, wanted)
        if not actions:
            continue
        span = range(holder_mention.start, holder_mention.end)
        action = _named_action(r, tokens, [m for m in mentions if m is not holder_mention], actions, span)
        if action is not None:
            return _norm_question(q, intent, polarity, holder_mention.concept, action)
    holders = _stated_norms(r, wanted)
    action = _named_action(r, tokens, mentions, sorted(holders), range(0))
    holder = _most_general(r, holders[action]) if action is not None else None
    if action is None or holder is None:
        return None
    return _norm_question(q, intent, polarity, holder, action)


def _named_action(
    r: ConceptLinks, tokens: list[str], mentions: Sequence[Any], actions: list[str], span: range
) -> str | None:
    """The action among `actions` a mention names, else the one the words outside `span` name best."""
    named = [str(m.concept) for m in mentions if m.concept in actions]
    if named:
        return named[0]
    rest = [
        t
        for i, t in enumerate(tokens)
        if i not in span and t not in _FILLER and t not in PARTICLES and not _modal(t) and not t.isdigit()
    ]
    return _best_action(r, rest, actions)


def _stated_norms(r: ConceptLinks, wanted: tuple[str, ...]) -> dict[str, list[str]]:
    """Every action a norm of the `wanted` predicates is stated about, with the holders it is stated for."""
    g = r.graph()
    found: dict[str, list[str]] = {}
    for p in wanted:
        pid = g.predicate_id(p)
        if pid < 0:
            continue
        for i in (g.predicate == pid).nonzero()[0].tolist():
            found.setdefault(g.names[int(g.object[i])], []).append(g.names[int(g.subject[i])])
    return found


def _most_general(r: ConceptLinks, holders: list[str]) -> str | None:
    """The one holder every other holder of the action is below (a norm for every vessel, and the tanker's
    own), or None when the holders are apart (the question must name whose norm it asks)."""
    unique = sorted(set(holders))
    tops = [c for c in unique if all(o == c or c in classes_above(r, o) for o in unique)]
    return tops[0] if len(tops) == 1 else None


def norm_predicate(r: ConceptLinks, q: Question) -> str:
    """The predicate a norm question read by `read_norm` asks: the one its holder (or a class above) states the
    action with, else the first the modal names (a claim decides one statement; ask decides them all, and the
    stated one is the one it finds)."""
    holder, action = q.concepts[0], q.concepts[-1]
    wanted = NORM_PREDICATES[q.intent]
    return next((p for p in wanted if action in _norm_actions(r, holder, (p,))), wanted[0])


def _modal(word: str) -> bool:
    return word in _PERMISSION or word in _MAYBE_PERMISSION or word in _OBLIGATION or word in _PROHIBITION


def _norm_question(q: Question, intent: Intent, polarity: bool, holder: str, action: str) -> Question:
    from dataclasses import replace

    read = replace(q, intent=intent, polarity=polarity, verb="", subject=q.subject or q.text)
    return read.with_links(intent, (holder, action), ())


def _norm_actions(r: ConceptLinks, holder: str, wanted: tuple[str, ...]) -> list[str]:
    """The objects of the norms stated for `holder` or a class above it."""
    g = r.graph()
    seen, todo, found = {holder}, [holder], []
    while todo:
        c = todo.pop()
        if c not in g.index:
            continue
        for e in g.out(c):
            if e.predicate in wanted:
                found.append(e.object)
            elif e.predicate in ("is_a", "instance_of") and e.polarity and e.object not in seen:
                seen.add(e.object)
                todo.append(e.object)
    return list(dict.fromkeys(found))


def _action_nouns() -> frozenset[tuple[str, str]]:
    """(verb key, noun key) of every pair of lexicon.ACTION_NOUNS."""
    from kgbrain.reasoning.nlu.lexicon import ACTION_NOUNS

    found = _PAIRS.get("pairs")
    if found is None:
        found = _PAIRS["pairs"] = frozenset((key(v), key(n)) for v, ns in ACTION_NOUNS.items() for n in ns)
    return found


_PAIRS: dict[str, frozenset[tuple[str, str]]] = {}


def _names_it(asked: str, part: str) -> bool:
    """Whether a question's word says a word of an action's name: one root, or a verb and its action noun."""
    return same_root(asked, part) or (asked, part) in _action_nouns()


def _best_action(r: ConceptLinks, rest: list[str], actions: list[str]) -> str | None:
    asked = [key(w) for w in rest]
    if not asked:
        return None
    best: tuple[float, str] | None = None
    for action in actions:
        for name in [split_identifier(action), *r.linker.names(action)]:
            parts = [key(w) for w in words(name) if w not in PARTICLES and w not in _FILLER]
            if not parts:
                continue
            hits = sum(1 for a in asked if any(_names_it(a, p) for p in parts))
            if hits * 2 < len(asked):
                continue
            unsaid = sum(1 for p in parts if not any(_names_it(a, p) for a in asked))
            # "carry skis" is not "carrying a bicycle" (another object); «вставать на якорь на судовом ходу» is
            # «постановка на якорь на судовом ходу» (another verb, most words said)
            if unsaid and hits < len(asked) and hits <= unsaid + len(asked) - hits:
                continue
            score = hits - 0.3 * unsaid
            if best is None or score > best[0]:
                best = (score, action)
    return best[1] if best is not None else None
