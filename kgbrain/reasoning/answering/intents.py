"""The intent handlers: one function per kind of question, found by intent in a registry.

`answer` looks the question's intent up in `HANDLERS`; a new intent is one `Intent` member (nlu/question.py), the
patterns that read it, and one function here decorated with `@handles(Intent.X)`. A handler turns one linked
`Question` into an `Answer` with what the reasoner (the `Reasoning` it is given, which `Reasoner` satisfies)
decides, finds or lists; assembly.py labels it and names its sources.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from kgbrain.errors import KgbrainError
from kgbrain.ingest.owl_rules import RESTRICTION_NAMES
from kgbrain.memory.linking import Linker
from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.answering.assembly import concept_rows, finish
from kgbrain.reasoning.answering.authority import NORM_PREDICATES
from kgbrain.reasoning.answering.comparison import Comparison, compare
from kgbrain.reasoning.answers import Answer
from kgbrain.reasoning.modes import associative, causal
from kgbrain.reasoning.modes.analogical import Analogy
from kgbrain.reasoning.modes.deductive import Claim, Deducer
from kgbrain.reasoning.modes.likeness import APART_CONFIDENCE, likeness
from kgbrain.reasoning.nlu.lexicon import YES_NO_PREDICATES
from kgbrain.reasoning.nlu.question import Intent, Question, causal_predicate
from kgbrain.reasoning.nlu.understanding import bare, best_action, wh_predicates
from kgbrain.reasoning.results import Check, Mode, Outcome, Step, Trace
from kgbrain.reasoning.views.evidence_rows import Evidence
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy
from kgbrain.reasoning.views.predicates import PredicateTable
from kgbrain.store.protocol import GraphStore
from kgbrain.store.rows import facts_by_id

DESCRIPTION_CONFIDENCE = 0.9  # a curated description with no fact behind it: sure, but not certain
ANALOGY_SEARCH = 10  # "Is X like Y?": Y must be among X's nearest structural analogues
MAX_LISTED = 12  # items a wh-question's answer lists
MAX_COMPARED = 4  # statements of each kind (shared, contrasting, one-sided) a comparison shows


class Reasoning(Protocol):
    """What the intent handlers use of the reasoner: the store, the linker, the views, the decision and the
    four modes (`Reasoner` provides them all)."""

    store: GraphStore
    linker: Linker
    deducer: Deducer

    def graph(self) -> FactGraph:
        """The mirror of every active concept-to-concept fact."""
        ...

    def hierarchy(self) -> Hierarchy:
        """The is_a/instance_of mirror."""
        ...

    def predicates(self) -> PredicateTable:
        """The predicate declarations (functional, inheritable, ...)."""
        ...

    def decide(self, claims: Sequence[Claim]) -> list[Check]:
        """The decision on statements about linked concepts (the one `verify` gives)."""
        ...

    def neighbourhood(self, concept: str, limit: int = 8) -> associative.Neighbourhood:
        """Associative mode: the ranked neighbourhood and concept chain of a concept."""
        ...

    def connection(self, source: str, target: str) -> associative.Connection | None:
        """Associative mode: the shortest chain of facts linking two concepts."""
        ...

    def causes_of(self, concept: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: chains ending at a concept."""
        ...

    def effects_of(self, concept: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: chains starting at a concept."""
        ...

    def paths(self, source: str, target: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: chains from one concept to another."""
        ...

    def like(self, concept: str, limit: int = 5) -> list[Analogy]:
        """Analogical mode: structurally similar concepts."""
        ...


Handler = Callable[[Reasoning, Question], Answer]
HANDLERS: dict[Intent, Handler] = {}
_H = TypeVar("_H", bound=Handler)


def handles(*intents: Intent) -> Callable[[_H], _H]:
    """Register the decorated function as the handler of `intents` (one handler per intent)."""

    def register(handler: _H) -> _H:
        taken = [i for i in intents if i in HANDLERS]
        if taken:
            raise KgbrainError(f"intent {taken[0].value!r} already has a handler: {HANDLERS[taken[0]].__name__}")
        HANDLERS.update(dict.fromkeys(intents, handler))
        return handler

    return register


def answer(r: Reasoning, q: Question) -> Answer:
    """Answer a linked question with its intent's handler; a slot that names nothing is said to be missing.

    Raises:
        StoreError: the store failed.
    """
    if q.unresolved:
        return _not_understood(r, q)
    return HANDLERS[q.intent](r, q)


@handles(Intent.UNKNOWN)
def _not_understood(r: Reasoning, q: Question) -> Answer:
    """Say what was understood and what is missing, and answer nothing else (never a definition).

    A name that several ontologies share ("restaurant") gets a clarification listing the candidates.
    """
    missing = [m for m in q.unresolved if m] or ([q.subject] if q.intent is Intent.UNKNOWN and not q.concepts else [])
    for missed in missing:
        candidates = r.linker.ambiguous(bare(missed))
        if candidates:
            return _ambiguous(r, q, missed, candidates)
    name = missing[0] if missing else ""
    words = [w for w in name.split() if len(w) > 3] or [name]
    close = (r.linker.suggest(name) or [s for w in words for s in r.linker.suggest(w)][:3]) if name else []
    data = {
        "kind": "unknown_concept" if missing else "not_understood",
        "name": name,
        "missing": missing,
        "known": list(q.concepts),
        "intent": q.intent.value,
        "suggestions": close,
    }
    return finish(
        r.store,
        q,
        Mode.ASSOCIATIVE,
        0.0,
        Trace((Step(R.LINK_UNKNOWN_CONCEPT, f"unknown concept {name!r}", note=", ".join(close)),)) if name else Trace(),
        data,
        q.concepts,
        suggestions=tuple(close),
        action="ask_clarification",
    )


@handles(Intent.ANALOGY)
def _analogy(r: Reasoning, q: Question) -> Answer:
    concept, other = q.concepts[0], q.concepts[-1]
    alike = likeness(r.graph(), r.hierarchy(), concept, other)
    if alike.alike and concept != other:
        # RULE ana.likeness: two concepts of one specific class are alike, decided, with what they share
        shown = [f"{concept} is_a {c}" for c in alike.classes[:2]] + [f"{p} {o}" for p, o in alike.relations[:3]]
        step = Step(R.ANA_LIKENESS, f"{concept} alike {other}", (), (), alike.score, "; ".join(shown))
        data: dict[str, Any] = {
            "kind": "alike",
            "concept": concept,
            "other": other,
            "score": alike.score,
            "classes": list(alike.classes[:2]),
            "relations": [list(x) for x in alike.relations[:3]],
        }
        ids = [concept, other, *alike.classes[:2], *(o for _, o in alike.relations[:3])]
        return finish(
            r.store,
            q,
            Mode.ANALOGICAL,
            alike.score,
            Trace((step,)),
            data,
            (concept, other),
            ids=ids,
            outcome=Outcome.SUPPORTED,
        )
    # RULE ana.relational-match: "Is X like Y?" asks whether Y is among X's structural analogues, not is_a
    found = [a for a in r.like(concept, limit=ANALOGY_SEARCH) if a.other == other]
    if not found and alike.apart:
        return _apart(r, q, concept, other)
    if not found:
        data = {"kind": "no_analogy", "concept": concept, "other": other}
        return finish(r.store, q, Mode.ANALOGICAL, 0.0, Trace(), data, (concept, other), action="no_answer")
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
    return finish(
        r.store,
        q,
        Mode.ANALOGICAL,
        best.confidence,
        Trace(best.steps),
        data,
        (concept, other),
        ids=ids,
        hypothesis=not best.supported,
    )


def _apart(r: Reasoning, q: Question, concept: str, other: str) -> Answer:
    """ "Is a smoker like a queen bee?": each is placed under classes, none shared, no relation in common, and the
    analogy index finds no structural analogue: not alike, each shown with its nearest class."""
    nearest = [_nearest_class(r, c) for c in (concept, other)]
    # RULE ana.apart: two concepts placed in the hierarchy with no class and no relation in common are not alike
    step = Step(
        R.ANA_APART,
        f"{concept} not alike {other}",
        (),
        (),
        0.0,
        "; ".join(f"{c} is_a {n}" for c, n in zip((concept, other), nearest, strict=True) if n),
    )
    data: dict[str, Any] = {"kind": "apart", "concept": concept, "other": other, "classes": nearest}
    ids = [concept, other, *(n for n in nearest if n)]
    return finish(
        r.store,
        q,
        Mode.ANALOGICAL,
        APART_CONFIDENCE,
        Trace((step,)),
        data,
        (concept, other),
        ids=ids,
        outcome=Outcome.REFUTED,
    )


def _nearest_class(r: Reasoning, concept: str) -> str:
    up = r.hierarchy().ancestors(concept)
    return min(up, key=lambda c: (up[c], c)) if up else ""


@handles(Intent.COMPARE)
def _compare(r: Reasoning, q: Question) -> Answer:
    """ "What is the difference between X and Y?": nearest common classes, what holds for both, what holds
    for one and is refuted for the other, what is known for one only, and the facts that link them."""
    first, second = q.concepts[0], q.concepts[-1]
    found = compare(first, second, r.hierarchy(), r.graph(), r.decide)
    links = r.deducer.facts_between(first, second)
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
        return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (first, second), action="no_answer")
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
    ids = [*found.common, *(c.object for c in shown)]
    confidence = _comparison_confidence(found, only, links)
    return finish(r.store, q, Mode.DEDUCTIVE, confidence, Trace(steps), data, (first, second), ids=ids)


def _comparison_confidence(found: Comparison, only: Sequence[Check], links: Sequence[Evidence]) -> float:
    """The comparison's claims are the classes, the differences and what is shared; one-sided statements and
    links only add to it (a weak fact known for one of them does not make the difference uncertain)."""
    main = [*found.placements, *(c for pair in found.contrasts + found.shared for c in pair)]
    if main:
        return min(c.confidence for c in main)
    return max([*(c.confidence for c in only), *(e.confidence for e in links)])


def _values(r: Reasoning, subject: str, attribute: str) -> tuple[str, list[dict[str, Any]]]:
    """The active stated values of `attribute` for `subject`, else for its nearest class that has one."""
    ancestors = r.hierarchy().ancestors(subject) if subject in r.graph().index else {}
    for holder in [subject, *sorted(ancestors, key=lambda a: (ancestors[a], a))]:
        rows = [
            row
            for row in r.store.run("ded_values_of", subject=holder, predicates=[attribute])
            if row["status"] == "active" and row["polarity"]
        ]
        if rows:
            return holder, sorted(rows, key=lambda row: (-float(row["confidence"]), row["fact_id"]))
    return subject, []


def _class_level(r: Reasoning, subject: str, attribute: str) -> tuple[str, list[Evidence]]:
    """The most specific fillers D of `subject ⊑ ∃attribute.D` (the class-level `some_values__` facts), at the
    subject or else its nearest class that has some; a filler above another one says less and is left out."""
    predicate = RESTRICTION_NAMES["some"] + attribute
    graph = r.graph()
    if subject not in graph.index:
        return subject, []
    ancestors = r.hierarchy().ancestors(subject)
    for holder in [subject, *sorted(ancestors, key=lambda a: (ancestors[a], a))]:
        found = {e.object: e for e in graph.out(holder) if e.predicate == predicate and e.polarity}
        up = {f: set(r.hierarchy().ancestors(f)) if f in graph.index else set() for f in found}
        # D is left out when a filler strictly below it is there too (an equivalent one keeps both)
        kept = [e for f, e in found.items() if not any(f in up[g] and g not in up[f] for g in found if g != f)]
        if kept:
            return holder, sorted(kept, key=_by_object)
    return subject, []


def _by_object(e: Evidence) -> tuple[str, str]:
    return e.object, e.fact_id


def _class_level_answer(r: Reasoning, q: Question, subject: str, attribute: str) -> Answer | None:
    """RULE val.class-level: `C ⊑ ∃p.D` answers "what p does a C have?" with "every C has some D" (a class, not
    an individual); for a member of C, the same of its class."""
    holder, found = _class_level(r, subject, attribute)
    if not found:
        return None
    steps = tuple(
        Step(R.VAL_CLASS_LEVEL, e.statement(), (e.fact_id,), (e.source,) if e.source else (), e.confidence)
        for e in found
    )
    data = {
        "kind": "class_value",
        "subject": subject,
        "attribute": attribute,
        "holder": holder,
        "values": [e.object for e in found],
    }
    confidence = min(st.confidence for st in steps)
    ids = [holder, *data["values"]]
    return finish(r.store, q, Mode.DEDUCTIVE, confidence, Trace(steps), data, (subject, attribute), ids=ids)


def _value_answer(r: Reasoning, q: Question, subject: str, attribute: str, kind: str = "value") -> Answer:
    holder, rows = _values(r, subject, attribute)
    if not rows and kind == "value" and (answer := _class_level_answer(r, q, subject, attribute)) is not None:
        return answer
    if not rows:
        data = {"kind": "no_value", "subject": subject, "attribute": attribute, "checked": [attribute]}
        return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (subject, attribute), action="no_answer")
    best = rows[0]
    unit = best.get("unit") or ""
    shown = f"{best['object']} {unit}".strip()
    if len({(str(row["object"]), row.get("unit") or "") for row in rows}) > 1:
        # Two values at the nearest holder: the claim of either one is decided as verify decides it, and an open
        # conflict of a functional attribute is said as such instead of picking the likelier value.
        check = r.decide([Claim(subject, attribute, shown, literal=True)])[0]
        if check.outcome is Outcome.CONFLICTING:
            return _value_conflict(r, q, subject, attribute, check, kind)
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
    return finish(
        r.store, q, Mode.DEDUCTIVE, float(best["confidence"]), Trace((step,)), data, (subject, attribute), ids=[holder]
    )


def _value_conflict(r: Reasoning, q: Question, subject: str, attribute: str, check: Check, kind: str) -> Answer:
    data = {
        "kind": kind,
        "subject": subject,
        "attribute": attribute,
        "outcome": check.outcome.value,
        "sides": sides(r.store, check),
    }
    return finish(
        r.store, q, check.mode, check.confidence, check.trace, data, (subject, attribute), outcome=check.outcome
    )


def sides(store: GraphStore, check: Check) -> list[list[Any]]:
    """The values an open conflict sets against each other, each with its sources: [value or concept id, unit,
    [source, ...]]; empty unless the check is CONFLICTING over a functional predicate."""
    if check.outcome is not Outcome.CONFLICTING:
        return []
    ids = [f for st in check.trace.steps if st.rule == R.DED_FUNCTIONAL_VALUE for f in st.facts]
    facts = facts_by_id(store, ids)
    found: dict[tuple[str, str], list[str]] = {}
    for f in (facts[i] for i in ids if i in facts):
        key = (f.object, "") if f.object is not None else (f.value.lexical, f.value.unit or "") if f.value else ("", "")
        srcs = found.setdefault(key, [])
        if f.source and f.source not in srcs:
            srcs.append(f.source)
    return [[v, unit, srcs] for (v, unit), srcs in found.items()] if len(found) > 1 else []


@handles(Intent.VALUE)
def _value(r: Reasoning, q: Question) -> Answer:
    return _value_answer(r, q, q.concepts[0], q.concepts[1])


@handles(Intent.VALUE_CHECK)
def _value_check(r: Reasoning, q: Question) -> Answer:
    """ "Is the resting potential of a neuron -70 mV?": decided as `verify` decides the claim (units
    converted); the answer also names the stated value, so a "no" says what the value is."""
    subject, attribute = q.concepts[0], q.concepts[1]
    check = r.decide([Claim(subject, attribute, q.object, literal=True)])[0]
    holder, rows = _values(r, subject, attribute)
    stated = f"{rows[0]['object']} {rows[0].get('unit') or ''}".strip() if rows else ""
    data: dict[str, Any] = {
        "kind": "value_check",
        "subject": subject,
        "attribute": attribute,
        "value": q.object,
        "stated": stated,
        "outcome": check.outcome.value,
    }
    if check.outcome is Outcome.CONFLICTING:
        data["sides"] = sides(r.store, check)
    unknown = check.outcome is Outcome.UNKNOWN
    return finish(
        r.store,
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


@handles(Intent.COUNT)
def _count(r: Reasoning, q: Question) -> Answer:
    if q.verb == "members":
        return _count_members(r, q)
    if len(q.concepts) == 1:  # "How many kinds of X are there?": its direct sub-classes
        concept = q.concepts[0]
        kids = sorted(r.hierarchy().children(concept))
        if not kids:
            data: dict[str, Any] = {
                "kind": "no_value",
                "subject": concept,
                "attribute": "kinds",
                "checked": ["is_a"],
            }
            return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (concept,), action="no_answer")
        steps = []
        for kid in kids:
            facts = r.hierarchy().facts(kid, concept)
            steps.append(
                Step(
                    R.CNT_SUBCLASSES,
                    f"{kid} is_a {concept}",
                    tuple(f for f, _ in facts),
                    tuple(src for _, src in facts if src),
                    round(_link_confidence(r, kid, concept), 4),
                )
            )
        confidence = min(st.confidence for st in steps)
        data = {"kind": "count", "concept": concept, "count": len(kids), "items": kids}
        return finish(r.store, q, Mode.DEDUCTIVE, confidence, Trace(tuple(steps)), data, (concept,), ids=kids)
    return _value_answer(r, q, q.concepts[1], q.concepts[0], kind="count_value")


def _count_members(r: Reasoning, q: Question) -> Answer:
    """ "How many grape varieties are there?": the members one level below the class (its kinds, or its
    individuals), with a second concept only those stated in a relation with it («регионов во Франции»)."""
    concept = q.concepts[0]
    h, g = r.hierarchy(), r.graph()
    # one level: "How many bee castes are there?" counts queen, worker and drone, not a queen stated below one
    members = sorted(h.children(concept))
    if len(q.concepts) > 1:
        target = q.concepts[1]
        members = [m for m in members if any(e.object == target and e.polarity for e in g.out(m))]
    if not members:
        data: dict[str, Any] = {"kind": "no_value", "subject": concept, "attribute": "members", "checked": ["is_a"]}
        return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (concept,), action="no_answer")
    steps = tuple(Step(R.CNT_SUBCLASSES, f"{m} is_a {concept}", (), (), 0.9) for m in members[:MAX_LISTED])
    confidence = min(0.95, min((st.confidence for st in steps if st.confidence > 0), default=0.9))
    data = {"kind": "count", "concept": concept, "count": len(members), "items": members}
    return finish(r.store, q, Mode.DEDUCTIVE, confidence, Trace(steps), data, tuple(q.concepts), ids=members)


def _link_confidence(r: Reasoning, child: str, parent: str) -> float:
    return max((c for p, c in r.hierarchy().parents(child) if p == parent), default=0.0)


@handles(Intent.WH)
def _wh(r: Reasoning, q: Question) -> Answer:
    """A wh-question: the members of a class ("Which cells divide?") or the facts that fill its variable."""
    if q.subject:  # "Which cells divide?"
        return _members(r, q)
    return _wh_facts(r, q)


def _members(r: Reasoning, q: Question) -> Answer:
    """ "Which cells divide?": the members of the class for which the verb's concept holds."""
    concept, ability = q.concepts[0], q.concepts[1]
    members = sorted(_descendants(r.hierarchy(), concept))
    # "Which cells do not divide?" asks for the members the same statement is refuted for.
    checks = r.decide([Claim(m, "can", ability, q.polarity) for m in members])
    found = [(m, c) for m, c in zip(members, checks, strict=True) if c.outcome is Outcome.SUPPORTED]
    if not found:
        data: dict[str, Any] = {"kind": "no_value", "subject": concept, "attribute": q.verb, "checked": ["can"]}
        return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (concept, ability), action="no_answer")
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
    return finish(
        r.store, q, Mode.DEDUCTIVE, confidence, Trace(steps), data, (concept, ability), ids=[m for m, _ in found]
    )


def _wh_facts(r: Reasoning, q: Question) -> Answer:
    """ "Who named the synapse?": the stated facts with the asked predicate fill the question's variable."""
    target = q.concepts[-1]
    predicates = wh_predicates(q.verb, q.language, r.graph())
    facts = _wh_found(r, q, target, predicates)
    if q.tied:
        # The phrase names several predicates equally well: one that answers is the reading; two that answer
        # differently are a clarification, each with its answer.
        found = {p: _wh_found(r, q, target, {p}) for p in q.tied}
        answered = {p: sorted({e.subject if e.object == target else e.object for e in fs}) for p, fs in found.items()}
        answered = {p: ends for p, ends in answered.items() if ends}
        if len({tuple(ends) for ends in answered.values()}) > 1:
            ends = [c for cs in answered.values() for c in cs]
            return _tied(r, q, [[p, "", cs] for p, cs in answered.items()], (target,), ids=ends)
        if answered:
            predicates = set(answered)
            facts = [e for p in answered for e in found[p]]
    if not facts:
        data = {
            "kind": "no_value",
            "subject": target,
            "attribute": q.verb,
            "checked": sorted(predicates),
            "wh": True,  # "Who discovered the neuron?": said with the question, not as "the discovered of"
        }
        return finish(r.store, q, Mode.ASSOCIATIVE, 0.0, Trace(), data, (target,), action="no_answer")
    said = _class_level_of_wh(r, q, target, facts)
    if said is not None:
        return said
    facts.sort(key=lambda e: (-e.confidence, e.fact_id))
    facts = facts[:MAX_LISTED]
    # RULE asc.wh-lookup: the stated facts with the asked predicate fill the question's variable
    steps = tuple(
        Step(R.ASC_WH_LOOKUP, e.statement(), (e.fact_id,), (e.source,) if e.source else (), round(e.confidence, 4))
        for e in facts
    )
    data = {"kind": "list", "facts": [[e.subject, e.predicate, e.object] for e in facts]}
    ids = [c for e in facts for c in (e.subject, e.object)]
    return finish(
        r.store, q, Mode.ASSOCIATIVE, max(e.confidence for e in facts), Trace(steps), data, (target,), ids=ids
    )


def _class_level_of_wh(r: Reasoning, q: Question, target: str, facts: list[Evidence]) -> Answer | None:
    """ "What toppings does a Margherita have?" read as a wh-question whose facts are all one class-level
    restriction of the target (`some_values__has_topping`): said as val.class-level says it."""
    some = RESTRICTION_NAMES["some"]
    predicates = {e.predicate for e in facts}
    if len(predicates) != 1 or not next(iter(predicates)).startswith(some) or any(e.object == target for e in facts):
        return None
    return _class_level_answer(r, q, target, next(iter(predicates)).removeprefix(some))


def _tied_check(r: Reasoning, q: Question, s: str, o: str, predicate: str) -> Check | Answer:
    """The one decision of a yes/no question whose phrase names several predicates equally well, when they all
    decide it alike; else the clarification listing each reading with its outcome."""
    checks = r.decide([Claim(s, p, o) for p in q.tied])
    if len({c.outcome for c in checks}) > 1:
        return _tied(r, q, [[c.predicate, c.outcome.value, []] for c in checks], (s, o))
    return next((c for c in checks if c.predicate == predicate), checks[0])


def _wh_found(r: Reasoning, q: Question, target: str, predicates: set[str]) -> list[Evidence]:
    """The active stated facts of `predicates` at `target`, either way round, the other end in `q.among`."""
    g = r.graph()
    facts = [e for e in g.out(target) if e.predicate in predicates and e.polarity and e.active]
    facts += [e for e in g.into(target) if e.predicate in predicates and e.polarity and e.active]
    if not facts and target in g.index:
        # "Where do drones live?": what the nearest class stating it says holds for its members (the
        # inheritance `verify` applies to the same statement)
        table = r.predicates()
        inherited = {p for p in predicates if table.get(p).inheritable}
        ancestors = r.hierarchy().ancestors(target)
        for holder in sorted(ancestors, key=lambda a: (ancestors[a], a)) if inherited else ():
            facts = [e for e in g.out(holder) if e.predicate in inherited and e.polarity and e.active]
            if facts:
                break
    if q.among:  # "Which grape varieties grow in Mosel?": the other end must be one of the class
        members = _descendants(r.hierarchy(), q.among) | {q.among}
        facts = [e for e in facts if (e.subject if e.object == target else e.object) in members]
    return facts


def _tied(
    r: Reasoning, q: Question, options: list[list[Any]], concepts: tuple[str, ...], ids: Sequence[str] = ()
) -> Answer:
    """A clarification: the question's relation phrase names these predicates equally well and they answer it
    differently (options: [predicate, outcome, answers]); never one of them picked silently."""
    data = {"kind": "ambiguous_relation", "options": options, "predicates": [o[0] for o in options]}
    # RULE link.ambiguous: a name (here a relation phrase) that means several things gets a clarification
    step = Step(R.LINK_AMBIGUOUS, f"ambiguous relation phrase: {', '.join(o[0] for o in options)}")
    return finish(
        r.store,
        q,
        Mode.ASSOCIATIVE,
        0.0,
        Trace((step,)),
        data,
        concepts,
        suggestions=tuple(o[0] for o in options),
        action="ask_clarification",
        ids=list(ids),
    )


@handles(Intent.PERMISSION, Intent.OBLIGATION)
def _norm(r: Reasoning, q: Question) -> Answer:
    subject = q.concepts[0]
    wanted = NORM_PREDICATES[q.intent.value]
    ancestors = r.hierarchy().ancestors(subject) if subject in r.graph().index else {}
    holders = [subject, *sorted(ancestors, key=lambda a: (ancestors[a], a))]
    g = r.graph()
    actions = list(dict.fromkeys(e.object for h in holders for e in g.out(h) if e.predicate in wanted))
    words = f"{q.verb} {q.object}".split()
    if len(q.concepts) == 2:  # read by nlu/norms.py: the holder and the action of a stored norm
        action: str | None = q.concepts[1]
    else:
        action = best_action(words, q.verb, {a: r.linker.names(a) for a in actions})
    if action is None:
        data: dict[str, Any] = {"kind": "no_norm", "subject": subject, "verb": q.verb, "checked": list(wanted)}
        return finish(r.store, q, Mode.DEDUCTIVE, 0.0, Trace(), data, (subject,), action="no_answer")
    checks = r.decide([Claim(subject, p, action, q.polarity) for p in wanted])
    check = next((c for c in checks if c.outcome is not Outcome.UNKNOWN), checks[0])
    outcome, confidence, steps = check.outcome, check.confidence, list(check.trace.steps)
    data = {
        "kind": "check",
        "subject": subject,
        "predicate": check.predicate,
        "object": action,
        "outcome": outcome.value,
        "norm": True,
        "polarity": q.polarity,  # False: the question asks a prohibition ("Is X forbidden?")
    }
    if outcome is Outcome.UNKNOWN:
        confidence = 0.0
    return finish(
        r.store,
        q,
        Mode.DEDUCTIVE,
        confidence,
        Trace(tuple(steps)),
        data,
        (subject, action),
        outcome=outcome,
        action="no_answer" if outcome is Outcome.UNKNOWN else None,
    )


def _ambiguous(r: Reasoning, q: Question, name: str, candidates: Sequence[str]) -> Answer:
    described = [r.linker.describe(c) for c in candidates]
    data = {"kind": "ambiguous", "name": name, "candidates": list(candidates), "described": described}
    return finish(
        r.store,
        q,
        Mode.ASSOCIATIVE,
        0.0,
        Trace((Step(R.LINK_AMBIGUOUS, f"ambiguous name {name!r}", note="; ".join(described)),)),
        data,
        (),
        suggestions=tuple(candidates),
        action="ask_clarification",
        ids=list(candidates),
    )


@handles(Intent.DEFINE)
def _define(r: Reasoning, q: Question) -> Answer:
    concept = q.concepts[0]
    hood = r.neighbourhood(concept, limit=6)
    info = concept_rows(r.store, [concept])[concept]
    description = (
        info.get(f"description_{q.language}")
        or info.get("description")
        or info.get("description_en")
        or info.get("description_ru")
    )
    steps = list(hood.steps)
    # RULE asc.definition: a concept is described by its description, its nearest kind and its neighbours;
    # the answer is as sure as its nearest is_a link, else its strongest fact, else its curated description
    if hood.chain:
        steps = [*r.deducer.chain_steps(hood.chain[:1]), *steps]
        confidence = hood.chain[0].confidence
    elif hood.neighbours:
        confidence = max(n.confidence for n in hood.neighbours)
    else:
        confidence = DESCRIPTION_CONFIDENCE if description else 0.0
    if not description and not hood.chain and not hood.neighbours:
        return finish(
            r.store,
            q,
            Mode.ASSOCIATIVE,
            0.0,
            Trace(),
            {"kind": "no_answer", "concept": concept},
            (concept,),
            action="no_answer",
        )
    steps.insert(0, Step(R.ASC_DEFINITION, f"define {concept}", (), (), round(confidence, 4), description or ""))
    data = {
        "kind": "define",
        "concept": concept,
        "description": description or "",
        "chain": [concept, *(lk.parent for lk in hood.chain)],
        "related": [
            n.concept for n in hood.neighbours if n.predicate not in ("is_a", "instance_of") or n.direction == "in"
        ][:5],
    }
    ids = [*data["chain"], *data["related"]]
    return finish(r.store, q, Mode.ASSOCIATIVE, confidence, Trace(tuple(steps)), data, (concept,), ids=ids)


@handles(Intent.IS_A, Intent.HAS_PROPERTY, Intent.HAS, Intent.PART_OF, Intent.CAN, Intent.CAUSAL, Intent.DOES)
def _yes_no(r: Reasoning, q: Question) -> Answer:
    s, o = q.concepts[0], q.concepts[-1]
    predicate = YES_NO_PREDICATES.get(q.intent.value) or (
        q.verb if q.intent is Intent.DOES else causal_predicate(q.verb)
    )
    if q.intent is Intent.HAS and q.verb and q.verb != predicate:
        # "Does red wine contain tannins?": the verb's own stored predicate, else has_property
        checks = r.decide([Claim(s, q.verb, o), Claim(s, predicate, o)])
        check = next((c for c in checks if c.outcome is not Outcome.UNKNOWN), checks[-1])
        predicate = check.predicate
    elif q.tied:
        decided = _tied_check(r, q, s, o, predicate)
        if isinstance(decided, Answer):
            return decided
        check, predicate = decided, decided.predicate
    else:
        check = r.decide([Claim(s, predicate, o)])[0]
    claimed = predicate
    if predicate == "is_a" and concept_rows(r.store, [s])[s].get("kind") == "individual":
        # Wording only: the deducer reads is_a and instance_of alike (both walk the same hierarchy).
        predicate = "instance_of"
    data: dict[str, Any] = {
        "kind": "check",
        "subject": s,
        "predicate": predicate,
        "object": o,
        "outcome": check.outcome.value,
    }
    if check.outcome is Outcome.CONFLICTING:
        data["sides"] = sides(r.store, check)
    chain = [_object_of(st.conclusion) for st in check.trace.steps if st.rule == R.DED_ISA_TRANSITIVE]
    # Classes the statement was inherited from, named too: the wording may need them («не может делиться»).
    tail = f" {claimed} {o}"
    holders = [
        st.conclusion[: -len(tail)].removesuffix(" NOT") for st in check.trace.steps if st.conclusion.endswith(tail)
    ]
    confidence = check.confidence if check.outcome is not Outcome.UNKNOWN else 0.0
    action = "no_answer" if check.outcome is Outcome.UNKNOWN else None
    return finish(
        r.store,
        q,
        check.mode,
        confidence,
        check.trace,
        data,
        (s, o),
        outcome=check.outcome,
        action=action,
        ids=[s, o, *chain, *holders, *(v for v, _, _ in data.get("sides", []))],
    )


@handles(Intent.WHY, Intent.RELATION)
def _why(r: Reasoning, q: Question) -> Answer:
    concepts = list(q.concepts)
    if len(concepts) == 1:
        return _causal_list(r, q, concepts[0])
    source, target = concepts[0], concepts[-1]
    found = r.paths(source, target) or [p for p in r.paths(target, source)]
    if found:
        best = found[0]
        steps = [st for path in found[:3] for st in path.steps()]
        data = {
            "kind": "causal_path",
            "source": best.source,
            "target": best.target,
            "path": list(best.concepts),
            "predicates": [lk.predicate for lk in best.links],
            "polarity": best.polarity,
            "alternatives": [list(p.concepts) for p in found[1:3]],
        }
        ids = [c for p in found[:3] for c in p.concepts]
        return finish(r.store, q, Mode.CAUSAL, best.confidence, Trace(tuple(steps)), data, (source, target), ids=ids)
    if q.intent is Intent.WHY and not r.deducer.facts_between(source, target):
        # "Why are ships delayed?", «Почему туман опасен для судов?»: of the two concepts named, one takes part
        # in causal chains and the other (whom it happens to) in none, and no fact links them: the question asks
        # the one's causes (or, when it has none, what it leads to)
        causal = [c for c in (source, target) if r.causes_of(c, 1) or r.effects_of(c, 1)]
        if len(causal) == 1:
            return _causal_list(r, q, causal[0])
    return _relation(r, q, source, target)


def _relation(r: Reasoning, q: Question, source: str, target: str) -> Answer:
    evidence = r.deducer.facts_between(source, target)
    data: dict[str, Any]
    if not evidence:
        link = r.connection(source, target)
        if link is not None:
            data = {
                "kind": "connection",
                "path": list(link.concepts),
                "facts": [[e.subject, e.predicate, e.object] for e in link.facts],
            }
            return finish(
                r.store,
                q,
                Mode.ASSOCIATIVE,
                link.confidence,
                Trace(tuple(link.steps())),
                data,
                (source, target),
                ids=list(link.concepts),
            )
        data = {"kind": "no_answer", "concepts": [source, target]}
        return finish(
            r.store, q, Mode.ASSOCIATIVE, 0.0, Trace(), data, (source, target), action="no_answer", ids=[source, target]
        )
    # RULE asc.direct-relation: stored facts link the two concepts directly
    steps = tuple(
        Step(
            R.ASC_DIRECT_RELATION,
            e.statement(),
            (e.fact_id,),
            (e.source,) if e.source else (),
            round(e.confidence, 4),
        )
        for e in evidence
    )
    best = max(evidence, key=lambda e: (e.confidence, e.fact_id))
    # The classes of a subject that `can` do something name who does it («нейрон не может делиться»: a neuron
    # is a cell, and «деление клетки» is what a cell does to itself).
    able = {e.subject for e in evidence[:4] if e.predicate == "can"}
    classes = {c: sorted(r.hierarchy().ancestors(c)) for c in sorted(able)}
    data = {
        "kind": "relation",
        "facts": [[e.subject, e.predicate, e.object, e.polarity] for e in evidence[:4]],
        "classes": classes,
    }
    ids = [source, target, *(a for found in classes.values() for a in found)]
    return finish(r.store, q, Mode.ASSOCIATIVE, best.confidence, Trace(steps), data, (source, target), ids=ids)


@handles(Intent.CAUSES, Intent.EFFECTS)
def _causal_list(r: Reasoning, q: Question, concept: str | None = None) -> Answer:
    if concept is None:
        concept = q.concepts[0]
    upstream = q.intent is not Intent.EFFECTS
    found = r.causes_of(concept) if upstream else r.effects_of(concept)
    if q.intent is Intent.WHY and not any(p.polarity for p in found):
        upstream = False
        found = r.effects_of(concept) or found
    # A chain through `prevents` works against its end: what prevents X is no cause of X (anti-corrosion
    # coating is not why corrosion happens), and what X prevents is no effect of X. Such chains are said
    # apart, after the causes or effects, and never make the answer on their own when causes are asked.
    positive = [p for p in found if p.polarity]
    against = [p for p in found if not p.polarity]
    kind = "causes" if upstream else "effects"
    if not positive and (upstream or not against):
        return _no_answer(r, q, Mode.CAUSAL, concept)
    shown = positive or against
    steps = tuple(st for path in shown[:3] for st in path.steps())
    data = {
        "kind": kind,
        "concept": concept,
        "paths": [list(p.concepts) for p in positive],
        "against": [list(p.concepts) for p in against],
    }
    ids = [c for p in found for c in p.concepts]
    return finish(r.store, q, Mode.CAUSAL, shown[0].confidence, Trace(steps), data, (concept,), ids=ids)


def _no_answer(r: Reasoning, q: Question, mode: Mode, concept: str) -> Answer:
    """The concept is known, but this mode found nothing about it."""
    data = {"kind": "no_answer", "concept": concept}
    return finish(r.store, q, mode, 0.0, Trace(), data, (concept,), action="no_answer", ids=[concept])


@handles(Intent.LIKE)
def _like(r: Reasoning, q: Question) -> Answer:
    concept = q.concepts[0]
    found = r.like(concept)
    if not found:
        return _no_answer(r, q, Mode.ANALOGICAL, concept)
    best = found[0]
    data: dict[str, Any] = {
        "kind": "analogy",
        "concept": concept,
        "analogies": [
            {
                "other": a.other,
                "similarity": a.similarity,
                "supported": a.supported,
                "shared": [list(x) for x in a.shared],
            }
            for a in found
        ],
    }
    ids = [concept, *(a.other for a in found), *(x for a in found[:1] for t in a.shared for x in t[1:])]
    return finish(
        r.store,
        q,
        Mode.ANALOGICAL,
        best.confidence,
        Trace(best.steps),
        data,
        (concept, best.other),
        ids=ids,
        hypothesis=not best.supported,
    )


def _object_of(conclusion: str) -> str:
    """The class a hierarchy step reaches ("a b is_a c d" -> "c d"; concept ids may hold spaces)."""
    for link in (" is_a ", " instance_of "):
        if link in conclusion:
            return conclusion.partition(link)[2]
    return conclusion.rpartition(" ")[2]


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
