"""Answers to the intents the typed question added: values, counts, wh-questions, norms, analogies, and the
answer that says what was not understood.

`IntentAnswers` is mixed into `Reasoner` (reasoner.py), which provides the caches, the decision and the
answer assembly it uses; each method here turns one linked `Question` into an `Answer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.answering.comparison import compare
from kgbrain.reasoning.modes.deductive import Claim, Deducer
from kgbrain.reasoning.nlu.question import Intent, Question
from kgbrain.reasoning.nlu.understanding import bare, best_action, wh_predicates
from kgbrain.reasoning.results import Check, Mode, Outcome, Step, Trace
from kgbrain.reasoning.views.evidence_rows import Evidence
from kgbrain.reasoning.views.hierarchy import Hierarchy

if TYPE_CHECKING:
    from kgbrain.memory.linking import Linker
    from kgbrain.reasoning.answering.reasoner import Answer, SourceRef
    from kgbrain.reasoning.modes.analogical import Analogy
    from kgbrain.reasoning.views.graph import FactGraph
    from kgbrain.store.protocol import GraphStore

ANALOGY_SEARCH = 10  # "Is X like Y?": Y must be among X's nearest structural analogues
MAX_LISTED = 12  # items a wh-question's answer lists
MAX_COMPARED = 4  # statements of each kind (shared, contrasting, one-sided) a comparison shows
# Which stored predicates answer a normative question (seed 003: NORM/OPERATIVE facts decide).
NORM_PREDICATES: dict[str, tuple[str, ...]] = {
    "permission": ("permitted",),
    "obligation": ("requires", "obliged_to"),
}
NORMATIVE = frozenset(p for ps in NORM_PREDICATES.values() for p in ps)
AUTHORITY_RANK = {"NORM": 4, "OPERATIVE": 3, "GUIDANCE": 2, "COMMENTARY": 1}


class IntentAnswers:
    """The intent handlers of `Reasoner` for values, counts, wh-questions, norms and analogies."""

    if TYPE_CHECKING:  # provided by Reasoner
        store: GraphStore
        linker: Linker
        deducer: Deducer

        def graph(self) -> FactGraph: ...
        def hierarchy(self) -> Hierarchy: ...
        def decide(self, claims: Sequence[Claim]) -> list[Check]: ...
        def like(self, concept: str, limit: int = 5) -> list[Analogy]: ...
        def sources(self, names: Sequence[str]) -> tuple[SourceRef, ...]: ...
        def _concepts(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]: ...
        def _ambiguous(self, q: Question, name: str, candidates: Sequence[str]) -> Answer: ...
        def _finish(
            self,
            q: Question,
            mode: Mode,
            confidence: float,
            trace: Trace,
            data: dict[str, Any],
            concepts: Sequence[str],
            *,
            outcome: Outcome | None = None,
            suggestions: tuple[str, ...] = (),
            action: str | None = None,
            ids: Sequence[str] = (),
            hypothesis: bool = False,
        ) -> Answer: ...

    def _not_understood(self, q: Question) -> Answer:
        """Say what was understood and what is missing, and answer nothing else (never a definition).

        A name that several ontologies share ("restaurant") gets a clarification listing the candidates.
        """
        missing = [m for m in q.unresolved if m] or (
            [q.subject] if q.intent is Intent.UNKNOWN and not q.concepts else []
        )
        for missed in missing:
            candidates = self.linker.ambiguous(bare(missed))
            if candidates:
                return self._ambiguous(q, missed, candidates)
        name = missing[0] if missing else ""
        words = [w for w in name.split() if len(w) > 3] or [name]
        close = (self.linker.suggest(name) or [s for w in words for s in self.linker.suggest(w)][:3]) if name else []
        data = {
            "kind": "unknown_concept" if missing else "not_understood",
            "name": name,
            "missing": missing,
            "known": list(q.concepts),
            "intent": q.intent.value,
            "suggestions": close,
        }
        return self._finish(
            q,
            Mode.ASSOCIATIVE,
            0.0,
            Trace((Step(R.LINK_UNKNOWN_CONCEPT, f"unknown concept {name!r}", note=", ".join(close)),))
            if name
            else Trace(),
            data,
            q.concepts,
            suggestions=tuple(close),
            action="ask_clarification",
        )

    def _analogy(self, q: Question) -> Answer:
        concept, other = q.concepts[0], q.concepts[-1]
        # RULE ana.relational-match: "Is X like Y?" asks whether Y is among X's structural analogues, not is_a
        found = [a for a in self.like(concept, limit=ANALOGY_SEARCH) if a.other == other]
        if not found:
            data: dict[str, Any] = {"kind": "no_analogy", "concept": concept, "other": other}
            return self._finish(q, Mode.ANALOGICAL, 0.0, Trace(), data, (concept, other), action="no_answer")
        best = found[0]
        data = {
            "kind": "analogy",
            "concept": concept,
            "analogies": [
                {
                    "other": best.other,
                    "similarity": best.similarity,
                    "supported": best.supported,
                    "shared": [list(x) for x in best.shared],
                }
            ],
        }
        ids = [concept, other, *(x for t in best.shared for x in t[1:])]
        return self._finish(
            q,
            Mode.ANALOGICAL,
            best.confidence,
            Trace(best.steps),
            data,
            (concept, other),
            ids=ids,
            hypothesis=not best.supported,
        )

    def _compare(self, q: Question) -> Answer:
        """ "What is the difference between X and Y?": nearest common classes, what holds for both, what holds
        for one and is refuted for the other, what is known for one only, and the facts that link them."""
        first, second = q.concepts[0], q.concepts[-1]
        found = compare(first, second, self.hierarchy(), self.graph(), self.decide)
        links = self.deducer.facts_between(first, second)
        if first in found.common or second in found.common:  # "X is a kind of Y" says it already
            links = [e for e in links if e.predicate not in ("is_a", "instance_of")]
        links = _one_way(links)[:3]
        only = [*(c for c in found.only if c.subject == first)][:3] + [c for c in found.only if c.subject == second][:3]
        shown = [
            *found.placements,
            *(c for pair in found.contrasts[:MAX_COMPARED] for c in pair),
            *(c for pair in found.shared[:MAX_COMPARED] for c in pair),
            *only,
        ]
        if not shown and not links:
            data: dict[str, Any] = {"kind": "no_comparison", "first": first, "second": second}
            return self._finish(q, Mode.DEDUCTIVE, 0.0, Trace(), data, (first, second), action="no_answer")
        # RULE asc.direct-relation: stored facts link the two concepts directly
        linked = [
            Step(R.ASC_DIRECT_RELATION, e.statement(), (e.fact_id,), (e.source,) if e.source else (), e.confidence)
            for e in links
        ]
        steps = tuple(dict.fromkeys([*(st for c in shown for st in c.trace.steps), *linked]))
        data = {
            "kind": "comparison",
            "first": first,
            "second": second,
            "common": list(found.common),
            "contrasts": [[a.subject, a.predicate, a.object, b.subject] for a, b in _supported_first(found.contrasts)],
            "shared": [[a.predicate, a.object] for a, _ in found.shared[:MAX_COMPARED]],
            "only": [[c.subject, c.predicate, c.object] for c in only],
            "links": [[e.subject, e.predicate, e.object, e.polarity] for e in links],
        }
        # The comparison's claims are the classes, the differences and what is shared; one-sided statements and
        # links only add to it (a weak fact known for one of them does not make the difference uncertain).
        main = [*found.placements, *(c for pair in found.contrasts + found.shared for c in pair)]
        confidence = (
            min(c.confidence for c in main)
            if main
            else max([*(c.confidence for c in only), *(e.confidence for e in links)])
        )
        ids = [*found.common, *(c.object for c in shown)]
        return self._finish(q, Mode.DEDUCTIVE, confidence, Trace(steps), data, (first, second), ids=ids)

    def _values(self, subject: str, attribute: str) -> tuple[str, list[dict[str, Any]]]:
        """The active stated values of `attribute` for `subject`, else for its nearest class that has one."""
        ancestors = self.hierarchy().ancestors(subject) if subject in self.graph().index else {}
        for holder in [subject, *sorted(ancestors, key=lambda a: (ancestors[a], a))]:
            rows = [
                r
                for r in self.store.run("ded_values_of", subject=holder, predicates=[attribute])
                if r["status"] == "active" and r["polarity"]
            ]
            if rows:
                return holder, sorted(rows, key=lambda r: (-float(r["confidence"]), r["fact_id"]))
        return subject, []

    def _value_answer(self, q: Question, subject: str, attribute: str, kind: str = "value") -> Answer:
        holder, rows = self._values(subject, attribute)
        if not rows:
            data = {"kind": "no_value", "subject": subject, "attribute": attribute, "checked": [attribute]}
            return self._finish(q, Mode.DEDUCTIVE, 0.0, Trace(), data, (subject, attribute), action="no_answer")
        best = rows[0]
        unit = best.get("unit") or ""
        shown = f"{best['object']} {unit}".strip()
        # RULE val.lookup: a stated attribute value answers "what is the P of X"; a class's value holds for its members
        note = f"stated for {holder}" if holder != subject else ""
        step = Step(
            R.VAL_LOOKUP,
            f"{subject} {attribute} {shown}",
            (best["fact_id"],),
            (best["source"],) if best["source"] else (),
            round(float(best["confidence"]), 4),
            note,
        )
        data = {
            "kind": kind,
            "subject": subject,
            "attribute": attribute,
            "value": str(best["object"]),
            "unit": unit,
            "holder": holder,
        }
        return self._finish(
            q, Mode.DEDUCTIVE, float(best["confidence"]), Trace((step,)), data, (subject, attribute), ids=[holder]
        )

    def _value(self, q: Question) -> Answer:
        return self._value_answer(q, q.concepts[0], q.concepts[1])

    def _value_check(self, q: Question) -> Answer:
        """ "Is the resting potential of a neuron -70 mV?": decided as `verify` decides the claim (units
        converted); the answer also names the stated value, so a "no" says what the value is."""
        subject, attribute = q.concepts[0], q.concepts[1]
        check = self.decide([Claim(subject, attribute, q.object, literal=True)])[0]
        holder, rows = self._values(subject, attribute)
        stated = f"{rows[0]['object']} {rows[0].get('unit') or ''}".strip() if rows else ""
        data = {
            "kind": "value_check",
            "subject": subject,
            "attribute": attribute,
            "value": q.object,
            "stated": stated,
            "outcome": check.outcome.value,
        }
        unknown = check.outcome is Outcome.UNKNOWN
        return self._finish(
            q,
            check.mode,
            0.0 if unknown else check.confidence,
            check.trace,
            data,
            (subject, attribute),
            outcome=check.outcome,
            action="no_answer" if unknown else None,
            ids=[subject, attribute, holder],
        )

    def _count(self, q: Question) -> Answer:
        if len(q.concepts) == 1:  # "How many kinds of X are there?": its direct sub-classes
            concept = q.concepts[0]
            kids = sorted(self.hierarchy().children(concept))
            if not kids:
                data: dict[str, Any] = {
                    "kind": "no_value",
                    "subject": concept,
                    "attribute": "kinds",
                    "checked": ["is_a"],
                }
                return self._finish(q, Mode.DEDUCTIVE, 0.0, Trace(), data, (concept,), action="no_answer")
            steps = []
            for kid in kids:
                facts = self.hierarchy().facts(kid, concept)
                steps.append(
                    Step(
                        R.CNT_SUBCLASSES,
                        f"{kid} is_a {concept}",
                        tuple(f for f, _ in facts),
                        tuple(src for _, src in facts if src),
                        round(self._link_confidence(kid, concept), 4),
                    )
                )
            confidence = min(st.confidence for st in steps)
            data = {"kind": "count", "concept": concept, "count": len(kids), "items": kids}
            return self._finish(q, Mode.DEDUCTIVE, confidence, Trace(tuple(steps)), data, (concept,), ids=kids)
        return self._value_answer(q, q.concepts[1], q.concepts[0], kind="count_value")

    def _link_confidence(self, child: str, parent: str) -> float:
        return max((c for p, c in self.hierarchy().parents(child) if p == parent), default=0.0)

    def _wh(self, q: Question) -> Answer:
        if q.subject:  # "Which cells divide?": members of the class for which the verb's concept holds
            concept, ability = q.concepts[0], q.concepts[1]
            members = sorted(_descendants(self.hierarchy(), concept))
            # "Which cells do not divide?" asks for the members the same statement is refuted for.
            checks = self.decide([Claim(m, "can", ability, q.polarity) for m in members])
            found = [(m, c) for m, c in zip(members, checks, strict=True) if c.outcome is Outcome.SUPPORTED]
            if not found:
                data: dict[str, Any] = {"kind": "no_value", "subject": concept, "attribute": q.verb, "checked": ["can"]}
                return self._finish(q, Mode.DEDUCTIVE, 0.0, Trace(), data, (concept, ability), action="no_answer")
            found.sort(key=lambda mc: (-mc[1].confidence, mc[0]))
            found = found[:MAX_LISTED]
            steps = tuple(st for _, c in found[:3] for st in c.trace.steps)
            data = {
                "kind": "members",
                "concept": concept,
                "verb": q.verb,
                "polarity": q.polarity,
                "items": [m for m, _ in found],
            }
            confidence = min(c.confidence for _, c in found)
            return self._finish(
                q, Mode.DEDUCTIVE, confidence, Trace(steps), data, (concept, ability), ids=[m for m, _ in found]
            )
        target = q.concepts[-1]
        predicates = wh_predicates(q.verb, q.language, self.graph())
        g = self.graph()
        facts = [e for e in g.out(target) if e.predicate in predicates and e.polarity and e.active]
        facts += [e for e in g.into(target) if e.predicate in predicates and e.polarity and e.active]
        if not facts:
            data = {
                "kind": "no_value",
                "subject": target,
                "attribute": q.verb,
                "checked": sorted(predicates),
                "wh": True,  # "Who discovered the neuron?": said with the question, not as "the discovered of"
            }
            return self._finish(q, Mode.ASSOCIATIVE, 0.0, Trace(), data, (target,), action="no_answer")
        facts.sort(key=lambda e: (-e.confidence, e.fact_id))
        facts = facts[:MAX_LISTED]
        # RULE asc.wh-lookup: the stated facts with the asked predicate fill the question's variable
        steps = tuple(
            Step(R.ASC_WH_LOOKUP, e.statement(), (e.fact_id,), (e.source,) if e.source else (), round(e.confidence, 4))
            for e in facts
        )
        data = {"kind": "list", "facts": [[e.subject, e.predicate, e.object] for e in facts]}
        ids = [c for e in facts for c in (e.subject, e.object)]
        return self._finish(
            q, Mode.ASSOCIATIVE, max(e.confidence for e in facts), Trace(steps), data, (target,), ids=ids
        )

    def _norm(self, q: Question) -> Answer:
        subject = q.concepts[0]
        wanted = NORM_PREDICATES[q.intent.value]
        ancestors = self.hierarchy().ancestors(subject) if subject in self.graph().index else {}
        holders = [subject, *sorted(ancestors, key=lambda a: (ancestors[a], a))]
        g = self.graph()
        actions = list(dict.fromkeys(e.object for h in holders for e in g.out(h) if e.predicate in wanted))
        words = f"{q.verb} {q.object}".split()
        action = best_action(words, q.verb, {a: self._names(a) for a in actions})
        if action is None:
            data: dict[str, Any] = {"kind": "no_norm", "subject": subject, "verb": q.verb, "checked": list(wanted)}
            return self._finish(q, Mode.DEDUCTIVE, 0.0, Trace(), data, (subject,), action="no_answer")
        checks = self.decide([Claim(subject, p, action) for p in wanted])
        check = next((c for c in checks if c.outcome is not Outcome.UNKNOWN), checks[0])
        outcome, confidence, steps = check.outcome, check.confidence, list(check.trace.steps)
        data = {
            "kind": "check",
            "subject": subject,
            "predicate": check.predicate,
            "object": action,
            "outcome": outcome.value,
            "norm": True,
        }
        if outcome is Outcome.UNKNOWN:
            confidence = 0.0
        return self._finish(
            q,
            Mode.DEDUCTIVE,
            confidence,
            Trace(tuple(steps)),
            data,
            (subject, action),
            outcome=outcome,
            action="no_answer" if outcome is Outcome.UNKNOWN else None,
        )

    def by_authority(self, check: Check) -> Check:
        """Seed 003: between disagreeing sources, the higher authority tier (NORM > OPERATIVE > GUIDANCE >
        COMMENTARY) decides a normative statement; a tie stays CONFLICTING. `Reasoner.decide` applies it, so a
        norm question and a verified claim get one verdict.

        The ranked facts are the active `subject predicate object` facts of the subject and its ancestors that
        the check's own trace cites (one step may cite both sides, so steps are not ranked themselves).
        """
        cited = {f for st in check.trace.steps for f in st.facts}
        g = self.graph()
        holders = [check.subject, *self.hierarchy().ancestors(check.subject)] if check.subject in g.index else []
        facts = [
            e
            for h in holders
            for e in g.out(h)
            if e.predicate == check.predicate and e.object == check.object and e.active and e.fact_id in cited
        ]
        refs = {s.name: s for s in self.sources(sorted({e.source for e in facts if e.source}))}
        best: dict[bool, tuple[int, float, Evidence]] = {}
        for e in facts:
            tier = AUTHORITY_RANK.get(refs[e.source].authority or "", 0) if e.source in refs else 0
            current = best.get(e.polarity)
            if current is None or (tier, e.confidence) > current[:2]:
                best[e.polarity] = (tier, e.confidence, e)
        if len(best) < 2 or best[True][0] == best[False][0]:
            return check
        winner = max(best, key=lambda p: best[p][0])
        _, confidence, fact = best[winner]
        loser = best[not winner][2]
        # RULE norm.authority: a norm of a higher authority tier overrides a lower one (seed 003)
        rule = Step(
            R.NORM_AUTHORITY,
            fact.statement(),
            (fact.fact_id,),
            (fact.source,),
            round(confidence, 4),
            f"{fact.source} ({refs[fact.source].authority}) outranks {loser.source} ({refs[loser.source].authority})"
            if fact.source in refs and loser.source in refs
            else f"{fact.source} outranks {loser.source}",
        )
        outcome = Outcome.SUPPORTED if winner == check.polarity else Outcome.REFUTED
        return replace(check, outcome=outcome, confidence=confidence, trace=Trace((*check.trace.steps, rule)))

    def _names(self, concept: str) -> list[str]:
        info = self._concepts([concept]).get(concept, {})
        names = [str(info.get(k) or "") for k in ("label_en", "label_ru")]
        names += [r["text"] for r in self.store.run("concept_names", id=concept)]
        return [n for n in names if n] or [concept.replace("_", " ")]


def _descendants(h: Hierarchy, concept: str) -> set[str]:
    found: set[str] = set()
    todo = [concept]
    while todo:
        for child in h.children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _supported_first(pairs: Sequence[tuple[Check, Check]]) -> list[tuple[Check, Check]]:
    """Contrasting decisions as (the one the statement holds for, the one it is refuted for)."""
    return [(a, b) if a.outcome is Outcome.SUPPORTED else (b, a) for a, b in pairs[:MAX_COMPARED]]


def _one_way(facts: Sequence[Evidence]) -> list[Evidence]:
    """Facts between two concepts, a statement stored both ways ("A disjoint_with B", "B disjoint_with A") once."""
    seen: set[tuple[str, str, str, bool]] = set()
    out = []
    for e in facts:
        if (e.subject, e.predicate, e.object, e.polarity) in seen:
            continue
        seen.add((e.object, e.predicate, e.subject, e.polarity))
        out.append(e)
    return out
