"""The responder: one template per selected action, hedged by confidence, in the question's language.

Seed 000 DialogueResponder templates (RESPOND_DIRECT, RESPOND_HEDGED, the low-confidence variant,
ASK_CLARIFICATION, REFUSE) with seed 004's discipline: the answer starts with its content, keeps its
sources with their authority tier, asks at most one short clarifying question, and never claims an action
that was not performed (learning and correcting are *proposed*). The content itself comes from
`output.dialogue.body` when the selected hypothesis is the reasoner's answer, and from the statement's
labels otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from kgbrain.language import display_name
from kgbrain.output.dialogue import cite, hedge, phrase, render
from kgbrain.output.wording import clarifying_question
from kgbrain.reasoning.answering.reasoner import SourceRef
from kgbrain.reasoning.cognition.hypotheses import Hypothesis, HypothesisType
from kgbrain.reasoning.cognition.loop import CognitiveResult
from kgbrain.reasoning.cognition.selection import ActionType
from kgbrain.reasoning.uncertainty import MEDIUM_CONFIDENCE, hedging_phrases
from kgbrain.store.protocol import GraphStore

TEXT: dict[str, dict[str, str]] = {
    "ru": {
        "confidence": "Уверенность: {p:.0%}.",
        "check_source": "Рекомендую проверить в источнике: {source}.",
        "clarify": "Уточните, пожалуйста: {q}",
        "refuse": "У меня недостаточно данных для ответа на этот вопрос.",
        "gap": "Пробел в знаниях: {x}.",
        "limited": "Ограниченные ресурсы — возможна неполная проверка.",
        "propose_learn": "Предлагаю сохранить факт: {x}. Он не сохранён, пока вы его не подтвердите.",
        "propose_correct": "Предлагаю исправить факт: {x}. Он не изменён, пока вы это не подтвердите.",
        "because": "потому что",
        "disagree": "Часть источников этому противоречит ({x}).",
        "probe": "Следующая проверка: {x}.",
        "known": "Это уже есть в базе знаний: {x}.",
    },
    "en": {
        "confidence": "Confidence: {p:.0%}.",
        "check_source": "I recommend checking the source: {source}.",
        "clarify": "Please clarify: {q}",
        "refuse": "I do not have enough data to answer this question.",
        "gap": "Knowledge gap: {x}.",
        "limited": "Resources were limited, so the check may be incomplete.",
        "propose_learn": "I propose storing the fact: {x}. It is not stored until you confirm it.",
        "propose_correct": "I propose correcting the fact: {x}. It is not changed until you confirm it.",
        "because": "because",
        "disagree": "Some sources contradict this ({x}).",
        "probe": "Next check: {x}.",
        "known": "The knowledge base already holds this: {x}.",
    },
}


class Responder:
    """Turns a cognitive result into answer text."""

    def __init__(self, store: GraphStore, sources: Any) -> None:
        """Read labels from `store`; `sources(names)` gives SourceRefs with trust and tier (Reasoner.sources)."""
        self.store = store
        self.sources = sources
        self._labels: dict[tuple[str, str], str] = {}  # per cycle: `forget()` clears it (labels change on load)
        self._cited: dict[tuple[str, str], tuple[SourceRef, ...]] = {}

    def forget(self) -> None:
        """Drop the labels and sources remembered during the last cycle."""
        self._labels.clear()
        self._cited.clear()

    def labels(self, ids: Sequence[str], lang: str) -> dict[str, str]:
        """Concept id -> label in `lang` (the other language, then the id, when missing).

        Raises:
            StoreError: the store failed.
        """
        wanted = [i for i in dict.fromkeys(ids) if i]
        missing = [i for i in wanted if (i, lang) not in self._labels]
        if missing:
            rows = (
                [r for i in missing for r in self.store.run("cog_label_one", id=i)]
                if len(missing) <= 12  # primary-key lookups beat one scan of the nodes for a few ids
                else self.store.run("cog_labels", ids=missing)
            )
            for row in rows:
                ru, en = row["label_ru"], row["label_en"]
                self._labels[(row["id"], "ru")] = ru or en or display_name(row["id"])
                self._labels[(row["id"], "en")] = en or ru or display_name(row["id"])
        return {i: self._labels[(i, lang)] for i in wanted if (i, lang) in self._labels}

    def statement(self, h: Hypothesis, lang: str) -> str:
        """A hypothesis statement (`subject predicate object ...`) in words."""
        concepts, predicates, negated = h.parts()
        if not predicates:
            return h.statement
        names = self.labels(list(concepts), lang)
        named = [names.get(c, c) for c in concepts]
        if h.hypothesis_type is HypothesisType.CAUSAL and len(predicates) == len(concepts) - 1:
            # A chain reads as one sentence: "smoking causes lung damage, which leads to shortness of breath".
            links = [
                phrase(p, obj, lang, subject=subj) for p, subj, obj in zip(predicates, named, named[1:], strict=False)
            ]
            which = ", что " if lang == "ru" else ", which "
            return f"{named[0]} {which.join(links)}"
        return f"{named[0]} {phrase(predicates[0], named[-1], lang, negated=negated, subject=named[0])}"

    def content(self, result: CognitiveResult) -> str:
        """The answer's content: what the selected hypothesis says, first."""
        lang = _lang(result)
        h = result.selected
        if result.reply is not None:
            text = body(result.reply)
            causal = str(getattr(result.reply.mode, "value", "")) == "causal"
        elif h is None:
            return ""
        else:
            answer = h.payload if hasattr(h.payload, "data") else None
            text = body(answer) if answer is not None else _cap(self.statement(h, lang)) + "."
            causal = h.hypothesis_type is HypothesisType.CAUSAL
        if result.intent == "why" and causal:
            premise = self._premise(result, lang)
            if premise and lang == "ru" and result.subject_text:
                # A Russian "почему X?" states its premise in declarative order, inflected as the user wrote it;
                # it reads better than labels in the nominative ("нейрон важен для мышление").
                premise = _cap(result.subject_text.strip())
            if premise:
                text = f"{premise}. {text}"
        return text

    def _premise(self, result: CognitiveResult, lang: str) -> str:
        concepts = set(result.retrieval.concepts)
        for h in result.hypotheses:
            tokens = h.statement.split()
            if (
                h.hypothesis_type is HypothesisType.DIRECT
                and h.polarity
                and len(tokens) == 3
                and {tokens[0], tokens[2]} <= concepts
                and tokens[0] != tokens[2]
            ):
                return _cap(self.statement(h, lang))
        return ""

    def cited(self, result: CognitiveResult) -> tuple[SourceRef, ...]:
        """The selected hypothesis's sources with trust and authority tier.

        Raises:
            StoreError: the store failed.
        """
        h = result.selected
        if h is None and result.reply is not None:
            return tuple(result.reply.sources)
        if h is None or not h.source_refs:
            return ()
        key = (result.cycle_id, h.hypothesis_id)
        if key not in self._cited:
            self._cited = {key: tuple(self.sources(list(h.source_refs)))}  # one cycle's worth
        return self._cited[key]

    def respond(self, result: CognitiveResult) -> str:
        """The full answer text for the selected action.

        Raises:
            StoreError: the store failed.
        """
        if result.reply is not None and _kind(result.reply) in _OWN_WORDS.get(result.decision.action, _NOTHING):
            return self._reply(result)
        t = TEXT[_lang(result)]
        action = result.decision.action
        parts: list[str]
        if action in (ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED):
            parts = self._answer(result, self.content(result))
        elif action is ActionType.ASK_CLARIFICATION:
            parts = [self._clarify(result)]
        elif action in (ActionType.LEARN, ActionType.CORRECT):
            parts = self._propose(result)
        else:  # refuse, or a seeking action left as final: say what is missing, claim nothing done
            gap = ", ".join(result.uncertainty.missing_concepts or result.retrieval.unknown_words)
            parts = [t["refuse"], t["gap"].format(x=gap) if gap else ""]
        if result.contradictions and action in (ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED):
            parts.append(t["disagree"].format(x=len(result.contradictions)))
        if result.ring2_blocked:
            parts.append(t["limited"])
        return " ".join(p for p in parts if p).strip()

    def _answer(self, result: CognitiveResult, content: str) -> list[str]:
        """An answer's parts: its content (hedged by confidence when the action is hedged) and its sources."""
        lang = _lang(result)
        t = TEXT[lang]
        confidence = result.confidence
        refs = self.cited(result)
        sources = cite(refs, lang)
        h = result.selected
        answer = result.reply or (h.payload if h is not None and hasattr(h.payload, "data") else None) or result.answer
        if result.decision.action is ActionType.RESPOND_DIRECT or _conflicting(answer):
            return [content, sources]  # "the sources disagree" is said plainly: no hedge makes it likelier
        hedged = _hedge(content, confidence, lang)
        if confidence > MEDIUM_CONFIDENCE:
            return [hedged, t["confidence"].format(p=confidence), sources]
        top = refs[0].name if refs else None
        return [hedged, t["check_source"].format(source=top) if top else "", sources]

    def _clarify(self, result: CognitiveResult) -> str:
        """The clarifying question: the reasoner's own words for an unknown name, else the loop's question."""
        answer = result.answer or next((a for a in result.answers if a.data.get("kind") in _CLARIFYING), None)
        if answer is not None and answer.data.get("kind") in _CLARIFYING:
            return body(answer)
        lang = _lang(result)
        asked = result.clarification
        return TEXT[lang]["clarify"].format(q=clarifying_question(asked, lang) if asked is not None else "")

    def _propose(self, result: CognitiveResult) -> list[str]:
        """Learning or correcting, proposed and never claimed done; a fact already known is said to be known."""
        lang = _lang(result)
        t = TEXT[lang]
        action = result.decision.action
        h = result.selected
        named = set(result.retrieval.concepts)
        stated = h is not None and len(set(h.concepts)) >= 2 and set(h.concepts) <= named  # the user's statement
        if action is ActionType.LEARN and h is not None and stated and h.evidence_for and h.polarity:
            return [t["known"].format(x=self.statement(h, lang)), cite(self.cited(result), lang)]  # nothing new
        what = result.question.strip().rstrip(".!?")
        return [t["propose_learn" if action is ActionType.LEARN else "propose_correct"].format(x=what)]

    def _reply(self, result: CognitiveResult) -> str:
        """The reasoner's answer to the question as asked, hedged by its own confidence (seed 000 templates).

        Nothing here depends on Ring 2 or on the resources, so the text is the same on a busy and an idle
        machine; the loop's extra hypotheses and any limit it hit stay in the trace.
        """
        if result.decision.action in (ActionType.RESPOND_DIRECT, ActionType.RESPOND_HEDGED):
            parts = self._answer(result, self.content(result))
        else:  # a clarification or "I don't know": the reasoner's own words say what is missing or was checked
            parts = [body(result.reply)]
        return " ".join(p for p in parts if p).strip()


def body(answer: Any) -> str:
    """The reasoner answer's content alone: rendered without hedging (its action) and without sources."""
    return render(dataclasses.replace(answer, action="content", sources=()))


class _Any:
    def __contains__(self, item: object) -> bool:
        return True


_ANY = _Any()
_NOTHING: frozenset[str] = frozenset()
# Which reasoner answers are said in their own words under each action: any content when answering; under a
# refusal, the answers saying what was checked ("I don't know …"); under a clarification, those saying what is
# missing. Other actions (learn, correct, …) keep their seed 000 templates.
_OWN_WORDS: dict[ActionType, Any] = {
    ActionType.RESPOND_DIRECT: _ANY,
    ActionType.RESPOND_HEDGED: _ANY,
    ActionType.REFUSE: frozenset(
        {"no_answer", "no_value", "no_norm", "no_analogy", "no_comparison", "check", "value_check"}
    ),
    ActionType.ASK_CLARIFICATION: frozenset({"unknown_concept", "not_understood", "ambiguous", "ambiguous_relation"}),
}
# The reasoner answers whose own words are the clarifying question (a name or a relation phrase that is unclear).
_CLARIFYING = ("unknown_concept", "ambiguous", "ambiguous_relation")


def _conflicting(answer: Any) -> bool:
    return str(getattr(getattr(answer, "outcome", None), "value", "")) == "conflicting"


def _kind(answer: Any) -> str:
    return str((getattr(answer, "data", None) or {}).get("kind", ""))


def _lang(result: CognitiveResult) -> str:
    return "ru" if result.language == "ru" else "en"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _hedge(text: str, confidence: float, lang: str) -> str:
    """Seed 000 bands; the medium band of seed 001 (0.75-0.85) still says "probably"."""
    if hedging_phrases(confidence, lang):
        return hedge(text, confidence, lang)
    first = text[:1].lower() + text[1:] if text[1:2] and not text[1:2].isupper() else text
    return f"{'Вероятно,' if lang == 'ru' else 'Probably,'} {first}"
