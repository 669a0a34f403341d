"""Deductive reasoning: syllogisms over the transitive `is_a`/`instance_of` hierarchy.

Theory: the description-logic reading of a taxonomy (Baader et al., *The Description Logic Handbook*,
ch. 2) with default inheritance in the style of inheritance networks (Touretzky, *The Mathematics of
Inheritance Systems*, 1986): a statement made about a class holds for its sub-classes and instances unless
a more specific class says otherwise (birds fly, penguins do not). Confidence of a chain is the minimum of
its links (seed 001). Refutation comes from negative facts, `disjoint_with` (a negative `is_a` is read as
disjointness) and functional attributes (one value at a time).

Rule ids (each appears in a `# RULE` comment, in trace steps and in the tests):
`dir.fact`, `ded.isa-transitive`, `ded.property-inheritance`, `ded.specificity-override`, `ded.negation`,
`ded.disjoint`, `ded.functional-value`, `ded.inverse`, `ded.symmetric`, `ded.sub-property`,
`ded.inheritance-conflict`, `ded.functional-conflict`, `ded.transitive`, `ded.value-incomparable`,
`ctx.inactive-fact`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.modes.causal import CAUSAL
from kgbrain.reasoning.modes.quantities import Match, compare
from kgbrain.reasoning.results import Check, Mode, Outcome, Step, Trace
from kgbrain.reasoning.views.evidence_rows import Evidence, fact_ids, sources, statement
from kgbrain.reasoning.views.graph import FactGraph
from kgbrain.reasoning.views.hierarchy import Hierarchy, Link
from kgbrain.reasoning.views.lookups import DecisionLookups
from kgbrain.reasoning.views.predicates import HIERARCHY, PredicateTable
from kgbrain.reasoning.views.reach import Candidates
from kgbrain.store.protocol import GraphStore, Lookups

# Objects whose fact holders (with their reachability labels) a deducer keeps between claims.
HOLDER_CACHE = 4096
# Hierarchy links whose proof step a deducer keeps (bounded: emptied when full).
LINK_STEP_CACHE = 1 << 16


@dataclass(frozen=True, slots=True)
class Claim:
    """A statement to check; `object` is a concept id, or a literal's text when `literal`."""

    subject: str
    predicate: str
    object: str
    polarity: bool = True
    literal: bool = False


_Verdict = tuple[Outcome, float, list[Step], Mode]  # a check's outcome, confidence, steps and mode


class Deducer:
    """Checks statements against the graph by direct lookup and deduction."""

    def __init__(
        self,
        store: GraphStore,
        predicates: Callable[[], PredicateTable],
        hierarchy: Callable[[], Hierarchy],
        graph: Callable[[], FactGraph],
        lookups: Lookups | None = None,
    ) -> None:
        """Use `store`; `predicates`, `hierarchy` and `graph` return the current (cached) views; a decision reads
        nothing else but `lookups` (views/lookups.py; by default the store's answers)."""
        self.store = store
        self.lookups = lookups if lookups is not None else DecisionLookups(store)
        self._graph = graph
        self._predicates = predicates
        self._hierarchy = hierarchy
        self._exclusions: _Exclusions | None = None
        self._excluded_ids: np.ndarray | None = None  # hierarchy node ids of the exclusions' concepts
        self._inactive_ids: np.ndarray | None = None  # hierarchy node ids of concepts with inactive facts
        self._pre: _Prefetch | None = None
        self._holder_cache: dict[tuple[str, tuple[str, ...]], Candidates] = {}
        self._link_steps: tuple[Hierarchy | None, dict[int, Step]] = (None, {})  # by edge, for one hierarchy

    def adopt(self, other: Deducer) -> None:
        """Share the caches of a deducer over the same data (see `Reasoner.adopt`)."""
        self._exclusions, self._excluded_ids, self._inactive_ids = (
            other._exclusions,
            other._excluded_ids,
            other._inactive_ids,
        )

    def invalidate(self) -> None:
        """Forget cached exclusions (after a load)."""
        self._holder_cache = {}
        self._exclusions = None
        self._excluded_ids = None
        self._inactive_ids = None

    # -- public --------------------------------------------------------------------------------

    def check(self, claim: Claim) -> Check:
        """Decide `claim` (SUPPORTED / REFUTED / CONFLICTING / UNKNOWN) with its trace.

        Raises:
            StoreError: the store failed.
        """
        if claim.predicate in HIERARCHY:
            outcome, confidence, steps, mode = self._check_isa(claim)
        else:
            outcome, confidence, steps, mode = self._check_property(claim)
        if not claim.polarity and outcome in (Outcome.SUPPORTED, Outcome.REFUTED):
            # The claim states the negation: a supported statement refutes it and vice versa.
            outcome = Outcome.REFUTED if outcome is Outcome.SUPPORTED else Outcome.SUPPORTED
        trace = Trace(tuple(steps))
        explanation = "; ".join(s.conclusion for s in steps if s.rule != "ctx.inactive-fact")
        if outcome is Outcome.UNKNOWN:
            explanation = "; ".join(x for x in (explanation, looked_for(claim)) if x)
        return Check(
            subject=claim.subject,
            predicate=claim.predicate,
            object=claim.object,
            polarity=claim.polarity,
            outcome=outcome,
            confidence=round(confidence, 4),
            mode=mode,
            trace=trace,
            explanation=explanation,
        )

    def check_many(self, claims: Sequence[Claim]) -> list[Check]:
        """`check` for many claims. Active evidence comes from the in-memory mirror, so a claim costs
        microseconds unless one of its concepts has inactive facts (then Kùzu is asked, once per object).

        Raises:
            StoreError: the store failed.
        """
        self._pre = _Prefetch()
        try:
            if len(claims) > 1:
                self._walk_ahead(claims)
            return [self.check(c) for c in claims]
        finally:
            self._pre = None

    def _walk_ahead(self, claims: Sequence[Claim]) -> None:
        # The hierarchy walks the claims will ask for, done for the whole batch at once (see walks.py): an
        # is_a claim's chain, a property claim's labelled holders above its subject (the mirror-only case of
        # `_check_property`; the others walk one by one as before). Answers are the same either way.
        h = self._hierarchy()
        table = self._predicates()
        inactive = bool(self._graph().inactive)
        queries: list[tuple[int, list[int]]] = []
        holders: list[tuple[int, Candidates]] = []
        for c in claims:
            s = h.index.get(c.subject)
            if s is None:
                continue
            if c.predicate in HIERARCHY:
                o = h.index.get(c.object)
                if o is not None and o != s:
                    queries.append((s, [o]))
            elif not c.literal and not inactive and table.get(c.predicate).inheritable:
                found = self._holders(h, c.object, list(table.sub_properties(c.predicate)))
                if len(found):
                    holders.append((s, found))
        h.prefetch(queries, holders)

    def _holders(self, h: Hierarchy, obj: str, predicates: list[str]) -> Candidates:
        """The subjects of active facts `x p obj` (p among `predicates`) with their labels, kept for the next
        claims about the same object (bounded: the oldest half is dropped when full)."""
        key = (obj, tuple(predicates))
        found = self._holder_cache.get(key)
        if found is None:
            if len(self._holder_cache) >= HOLDER_CACHE:
                for old in list(self._holder_cache)[: HOLDER_CACHE // 2]:
                    del self._holder_cache[old]
            found = self._holder_cache[key] = Candidates(h.reach, self._graph().subjects_into(obj, predicates))
        return found

    def _into(self, obj: str, predicates: list[str]) -> dict[str, list[Evidence]]:
        key = (obj, tuple(sorted(predicates)))
        if self._pre is not None and key in self._pre.into:
            return self._pre.into[key]
        by_subject: dict[str, list[Evidence]] = {}
        for r in self.lookups.run("ded_facts_into", object=obj, predicates=predicates):
            e = Evidence.from_row(r)
            by_subject.setdefault(e.subject, []).append(e)
        if self._pre is not None:
            self._pre.into[key] = by_subject
        return by_subject

    def chain_steps(self, links: Sequence[Link]) -> list[Step]:
        """One `ded.isa-transitive` step per hierarchy link, with the facts behind it (from the mirror)."""
        h = self._hierarchy()
        known = [lk.edge for lk in links]
        if known and min(known) >= 0:
            # A link the hierarchy found is its edge (child, parent and confidence are the edge's), so its step
            # is made once per mirror: proofs keep citing the same links.
            if self._link_steps[0] is not h:
                self._link_steps = (h, {})
            made = self._link_steps[1]
            if any(e not in made for e in known):
                if len(made) >= LINK_STEP_CACHE:
                    made.clear()
                fresh = list({lk.edge: lk for lk in links if lk.edge not in made}.values())
                edges = [lk.edge for lk in fresh]
                steps = _link_steps(fresh, h.facts_of_edges(edges), h.instance[edges].tolist())
                made.update(zip(edges, steps, strict=True))
            return [made[e] for e in known]
        facts_of = [h.facts(lk.child, lk.parent) for lk in links]
        instance = [h.predicate(lk.child, lk.parent) == "instance_of" for lk in links]
        return _link_steps(links, facts_of, instance)

    def facts_between(self, a: str, b: str) -> list[Evidence]:
        """Active facts with any predicate linking two concepts, either way round.

        Raises:
            StoreError: the store failed.
        """
        rows = self.store.run("ded_any_between", left=a, right=b)
        found = [e for e in map(Evidence.from_row, rows) if e.active]
        return sorted(found, key=lambda e: (-e.confidence, e.fact_id))

    # -- is_a ----------------------------------------------------------------------------------

    def _check_isa(self, claim: Claim) -> tuple[Outcome, float, list[Step], Mode]:
        s, o = claim.subject, claim.object
        direct = self._between([s], [o], list(HIERARCHY))
        steps = _inactive_steps(direct)
        verdict = _direct_verdict(direct, steps)
        if verdict is not None:
            return (*verdict, steps, Mode.DIRECT)
        h = self._hierarchy()
        links = h.chain(s, o)
        if links:
            chain = self.chain_steps(links)
            conf = min(lk.confidence for lk in links)
            return Outcome.SUPPORTED, conf, [*steps, *chain], Mode.DEDUCTIVE
        refuted = self._refute_isa(h, s, o)
        if refuted is not None:
            conf, more = refuted
            return Outcome.REFUTED, conf, [*steps, *more], Mode.DEDUCTIVE
        return Outcome.UNKNOWN, 0.0, steps, Mode.DEDUCTIVE

    def exclusions(self) -> Mapping[str, list[Evidence]]:
        """Active negative is_a and disjoint_with facts, by either end (cached until the next load)."""
        return self._excluding()

    def _excluding(self) -> _Exclusions:
        if self._exclusions is None:
            self._exclusions = _Exclusions(self._graph())
        return self._exclusions

    def _mirror_only(self, h: Hierarchy, s: str, o: str) -> bool:
        """Whether every fact into `o` from `s` or its ancestors is active (so the mirror alone has them)."""
        g = self._graph()
        if not g.inactive:
            return True
        if o in g.inactive or s in g.inactive:
            return False
        if self._inactive_ids is None:
            self._inactive_ids = _ids(h, g.inactive)
        return not h.ancestor_depths(s, self._inactive_ids)

    def _may_refute_isa(self, h: Hierarchy, s: str, o: str, excluded: Mapping[str, list[Evidence]]) -> bool:
        # Whether `_refute_isa` can find anything: an exclusion between s (or an ancestor) and o (or one).
        if self._excluded_ids is None:
            self._excluded_ids = self._excluding().ids
        holders = ([s] if s in excluded else []) + list(h.ancestor_depths(s, self._excluded_ids))
        for a in holders:
            for e in excluded[a]:
                b = e.object if e.subject == a else e.subject
                if b == o or h.is_above(o, b):
                    return True
        return False

    def _refute_isa(self, h: Hierarchy, s: str, o: str) -> tuple[float, list[Step]] | None:
        excluded = self.exclusions()
        if not excluded or not self._may_refute_isa(h, s, o, excluded):
            return None
        up_s = {s: 0, **h.ancestors(s)}
        up_o = {o: 0, **h.ancestors(o)}
        found: list[tuple[float, str, str, Evidence, str]] = []
        seen: set[str] = set()
        for a in up_s:
            for e in excluded.get(a, ()):
                b = e.object if e.subject == a else e.subject
                if b in up_o and e.fact_id not in seen:
                    seen.add(e.fact_id)
                    rule = "ded.disjoint" if e.predicate == "disjoint_with" else "ded.negation"
                    found.append((e.confidence, a, b, e, rule))
        if not found:
            return None
        best: tuple[float, list[Step]] | None = None
        for conf, a, b, e, rule in found:
            steps: list[Step] = []
            confs = [conf]
            for x, y in ((s, a), (o, b)):
                if x != y:
                    links = h.chain(x, y) or []
                    steps += self.chain_steps(links)
                    confs += [lk.confidence for lk in links]
            total = min(confs)
            # RULE ded.negation: x is_a a, a NOT is_a b (disjoint), y is_a b => x NOT is_a y
            # RULE ded.disjoint: x is_a a, a disjoint_with b, y is_a b => x NOT is_a y
            steps.append(Step(rule, e.statement(), (e.fact_id,), sources([e]), round(conf, 4)))
            steps.append(Step(rule, statement(s, "is_a", o, False), (), (), round(total, 4), "refuted"))
            if best is None or total > best[0]:
                best = (total, steps)
        return best

    # -- properties ----------------------------------------------------------------------------

    def _check_property(self, claim: Claim) -> _Verdict:
        table = self._predicates()
        decl = table.get(claim.predicate)
        preds = list(table.sub_properties(claim.predicate))
        h = self._hierarchy()
        if decl.functional and decl.inheritable:
            # Every class above the subject may hold the one value ("every Clio is built by Renault"), so the
            # walk cannot stop at the holders of a fact into the claimed object.
            depth = {claim.subject: 0, **h.ancestors(claim.subject)}
        else:
            depth = self._property_holders(claim, decl.inheritable, preds, h)
        holders = list(depth)
        via: dict[str, str] = {}  # fact id -> rule, for facts read through an inverse or symmetric declaration
        evidence = self._property_evidence(claim, table, decl.symmetric, holders, preds, via)
        matching = [e for e in evidence if _same_object(e.object, claim.object, claim.literal)]
        steps = _inactive_steps(matching)
        active = [e for e in matching if e.active]
        if decl.functional:
            # Another object of a functional predicate refutes the claim ("gina born_in rome" after "gina born_in
            # paris"): it is not among the facts into the claimed object, so read the holders' own facts too.
            g, wanted = self._graph(), set(preds)
            evidence = evidence + [
                e for x in holders for e in g.out(x) if e.predicate in wanted and e.object != claim.object
            ]
            return self._one_value(claim, evidence, active, depth, h, via, steps)
        if active:
            return self._by_specificity(claim, active, depth, h, via, steps)
        if claim.literal:
            return Outcome.UNKNOWN, 0.0, [*steps, *_incomparable_steps(evidence, claim)], Mode.DEDUCTIVE
        if decl.transitive:
            found = self._by_transitivity(claim, set(preds), steps)
            if found is not None:
                return found
        return Outcome.UNKNOWN, 0.0, steps, Mode.DEDUCTIVE

    def _property_holders(self, claim: Claim, inheritable: bool, preds: list[str], h: Hierarchy) -> dict[str, int]:
        """The subject and, for an inheritable predicate, the classes it inherits from: holder -> depth."""
        s = claim.subject
        depth = {s: 0}
        if not inheritable:
            return depth
        if claim.literal or not self._mirror_only(h, s, claim.object):
            depth.update(h.ancestors(s))
        else:
            # Only ancestors holding a fact into the object matter; the labels find them without a walk.
            depth.update(h.ancestor_depths(s, self._holders(h, claim.object, preds)))
        return depth

    def _property_evidence(
        self,
        claim: Claim,
        table: PredicateTable,
        symmetric: bool,
        holders: list[str],
        preds: list[str],
        via: dict[str, str],
    ) -> list[Evidence]:
        """The holders' facts of the predicate (or its sub-properties), and those read through its declarations."""
        if claim.literal:
            return self._values(holders, preds)
        s = claim.subject
        evidence = self._between(holders, [claim.object], preds)
        for q in table.inverses(claim.predicate):
            evidence += [_flip(e, claim.predicate, via, "ded.inverse") for e in self._between([claim.object], [s], [q])]
        if symmetric:
            evidence += [
                _flip(e, claim.predicate, via, "ded.symmetric")
                for e in self._between([claim.object], [s], [claim.predicate])
            ]
        return evidence

    def _by_transitivity(self, claim: Claim, preds: set[str], steps: list[Step]) -> _Verdict | None:
        """Supported through a chain of facts of a transitive predicate, or None."""
        s = claim.subject
        chain = self._transitive_chain(s, preds, claim.object)
        if not chain:
            return None
        # RULE ded.transitive: p transitive, x p y, y p z => x p z
        steps = steps + [
            Step("ded.transitive", e.statement(), (e.fact_id,), sources([e]), round(e.confidence, 4)) for e in chain
        ]
        conf = min(e.confidence for e in chain)
        steps.append(
            Step(
                "ded.transitive",
                statement(s, claim.predicate, claim.object),
                (),
                (),
                round(conf, 4),
                f"{claim.predicate} is transitive",
            )
        )
        return Outcome.SUPPORTED, conf, steps, Mode.DEDUCTIVE

    def _by_specificity(
        self,
        claim: Claim,
        active: list[Evidence],
        depth: dict[str, int],
        h: Hierarchy,
        via: dict[str, str],
        steps: list[Step],
    ) -> _Verdict:
        """The verdict of the most specific holders' active facts (the subject's own, or the nearest class's)."""
        s = claim.subject
        by_holder: dict[str, list[Evidence]] = {}
        for e in active:
            holder = e.subject if e.subject in depth else s
            by_holder.setdefault(holder, []).append(e)
        # The most specific holders: those with no more specific holder below them.
        specific = [x for x in by_holder if not any(x != y and h.is_above(y, x) for y in by_holder)]
        specific.sort(key=lambda x: (depth.get(x, 0), x))
        if len({e.polarity for x in specific for e in by_holder[x]}) > 1:
            return self._inheritance_conflict(claim, specific, by_holder, depth, h, via, steps)
        holder = specific[0]
        chosen = by_holder[holder]
        polarity = chosen[0].polarity
        hs = self._holder_steps(claim, holder, chosen, h, via)
        steps = steps + hs
        conf = min(st.confidence for st in hs) if hs else 0.0
        overridden = [x for x in by_holder if x not in specific]
        steps += _override_steps([by_holder[x] for x in overridden], polarity, holder)
        outcome = Outcome.SUPPORTED if polarity else Outcome.REFUTED
        mode = Mode.DIRECT if holder == s and all(st.rule == "dir.fact" for st in hs) else Mode.DEDUCTIVE
        return outcome, conf, steps, mode

    def _inheritance_conflict(
        self,
        claim: Claim,
        specific: list[str],
        by_holder: dict[str, list[Evidence]],
        depth: dict[str, int],
        h: Hierarchy,
        via: dict[str, str],
        steps: list[Step],
    ) -> _Verdict:
        """Conflicting: the most specific holders disagree."""
        # RULE ded.inheritance-conflict: equally specific statements disagree
        steps = list(steps)
        for x in specific:
            steps += self._holder_steps(claim, x, by_holder[x], h, via)
        both = [e for x in specific for e in by_holder[x]]
        steps.append(
            Step(
                "ded.inheritance-conflict",
                statement(claim.subject, claim.predicate, claim.object),
                fact_ids(both),
                sources(both),
                round(max(e.confidence for e in both), 4),
                "equally specific statements disagree",
            )
        )
        return (
            Outcome.CONFLICTING,
            max(e.confidence for e in both),
            steps,
            Mode.DEDUCTIVE if depth.get(specific[0]) else Mode.DIRECT,
        )

    def _holder_steps(
        self, claim: Claim, holder: str, chosen: list[Evidence], h: Hierarchy, via: dict[str, str]
    ) -> list[Step]:
        s = claim.subject
        best = max(e.confidence for e in chosen)
        polarity = chosen[0].polarity
        if holder == s:
            # RULE dir.fact: a stored active fact states it
            # RULE ded.sub-property: q sub_property_of p, x q o => x p o
            # RULE ded.inverse / ded.symmetric: o q x with q inverse_of p (or p symmetric) => x p o
            rule = via.get(chosen[0].fact_id) or (
                "ded.sub-property" if chosen[0].predicate != claim.predicate else "dir.fact"
            )
            stored = chosen[0].object
            return [
                Step(
                    rule,
                    statement(s, claim.predicate, claim.object, polarity),
                    fact_ids(chosen),
                    sources(chosen),
                    round(best, 4),
                    f"stored as {stored}" if claim.literal and stored != claim.object else "",
                )
            ]
        links = h.chain(s, holder) or []
        steps = self.chain_steps(links)
        conf = min([best, *(lk.confidence for lk in links)])
        steps.append(
            Step("ded.property-inheritance", chosen[0].statement(), fact_ids(chosen), sources(chosen), round(best, 4))
        )
        # RULE ded.property-inheritance: x is_a y, y p o (p inheritable) => x p o
        steps.append(
            Step(
                "ded.property-inheritance",
                statement(s, claim.predicate, claim.object, polarity),
                (),
                (),
                round(conf, 4),
                f"inherited from {holder}",
            )
        )
        return steps

    def _transitive_chain(self, start: str, predicates: set[str], goal: str) -> list[Evidence]:
        """A shortest chain of active positive facts with these predicates from start to goal (BFS, cycle-safe)."""
        g = self._graph()
        ids = np.asarray([g.predicate_id(p) for p in predicates], dtype=np.int16)
        pred: dict[str, Evidence | None] = {start: None}
        frontier = [start]
        while frontier and goal not in pred:
            nxt: list[str] = []
            for node in frontier:
                positions = g.out_positions(node)
                keep = positions[np.isin(g.predicate[positions], ids) & g.polarity[positions]]
                for e in g.evidence(keep.tolist()):
                    if e.object not in pred:
                        pred[e.object] = e
                        nxt.append(e.object)
            frontier = nxt
        if goal not in pred:
            return []
        chain: list[Evidence] = []
        node = goal
        while (link := pred[node]) is not None:
            chain.append(link)
            node = link.subject
        return chain[::-1]

    def _one_value(
        self,
        claim: Claim,
        evidence: list[Evidence],
        active: list[Evidence],
        depth: dict[str, int],
        h: Hierarchy,
        via: dict[str, str],
        steps: list[Step],
    ) -> _Verdict:
        """A functional predicate's verdict: the nearest holder's value decides; two values there are one
        undecided (open) conflict, since a conflict the TMS settled left only the winner active."""
        rivals = self._rivals(claim, evidence)
        if not rivals:
            if active:
                return self._by_specificity(claim, active, depth, h, via, steps)
            return Outcome.UNKNOWN, 0.0, [*steps, *_incomparable_steps(evidence, claim)], Mode.DEDUCTIVE
        near = min(depth.get(e.subject, 0) for e in rivals)
        stated = [e for e in active if e.polarity]
        if not stated or min(depth.get(e.subject, 0) for e in stated) > near:
            return self._functional(claim, rivals, depth, h, steps)
        if min(depth.get(e.subject, 0) for e in stated) < near:
            outcome, conf, more, mode = self._by_specificity(claim, active, depth, h, via, steps)
            holder = min(stated, key=lambda e: depth.get(e.subject, 0)).subject
            return outcome, conf, [*more, *_override_steps([rivals], True, holder)], mode
        return self._value_conflict(claim, stated, [e for e in rivals if depth.get(e.subject, 0) == near], h, steps)

    def _value_conflict(
        self, claim: Claim, stated: list[Evidence], rivals: list[Evidence], h: Hierarchy, steps: list[Step]
    ) -> _Verdict:
        """CONFLICTING: equally specific holders give the claimed value and another of a functional predicate."""
        both = [*stated, *rivals]
        holder = stated[0].subject
        steps = [*steps, *self.chain_steps(h.chain(claim.subject, holder) or [])]
        for group in (stated, rivals):
            steps.append(
                Step(
                    R.DED_FUNCTIONAL_VALUE,
                    group[0].statement(),
                    fact_ids(group),
                    sources(group),
                    round(max(e.confidence for e in group), 4),
                )
            )
        conf = round(max(e.confidence for e in both), 4)
        # RULE ded.functional-conflict: p functional, x p v and x p w (v != w) both active => undecided
        steps.append(
            Step(
                R.DED_FUNCTIONAL_CONFLICT,
                statement(claim.subject, claim.predicate, claim.object),
                fact_ids(both),
                sources(both),
                conf,
                f"{claim.predicate} has one value at a time, and the sources give {len({e.object for e in both})} "
                "(an open conflict)",
            )
        )
        return Outcome.CONFLICTING, conf, steps, Mode.DIRECT if holder == claim.subject else Mode.DEDUCTIVE

    def _rivals(self, claim: Claim, evidence: list[Evidence]) -> list[Evidence]:
        """Active stated values other than the claimed one (comparable with it, and not a name of the same
        thing: an RDF source's two values may be `same_as`)."""
        odd = {e.fact_id for e, _ in _incomparable(evidence, claim)}
        g = self._graph()
        same = set() if claim.literal else {e.object for e in g.out(claim.object) if e.predicate == "same_as"}
        return [
            e
            for e in evidence
            if e.active
            and e.polarity
            and e.fact_id not in odd
            and e.object not in same
            and not _same_object(e.object, claim.object, claim.literal)
        ]

    def _functional(
        self, claim: Claim, others: list[Evidence], depth: dict[str, int], h: Hierarchy, steps: list[Step]
    ) -> tuple[Outcome, float, list[Step], Mode]:
        nearest = min(depth.get(e.subject, 0) for e in others)
        values = [e for e in others if depth.get(e.subject, 0) == nearest]
        best = max(values, key=lambda e: (e.confidence, e.fact_id))
        links = h.chain(claim.subject, best.subject) or []
        steps = [*steps, *self.chain_steps(links)]
        conf = min([best.confidence, *(lk.confidence for lk in links)])
        steps.append(
            Step("ded.functional-value", best.statement(), fact_ids(values), sources(values), round(best.confidence, 4))
        )
        if best.subject != claim.subject:
            # The class's value is the member's: the proof says so before it refutes the claimed one.
            steps.append(
                Step(
                    R.DED_PROPERTY_INHERITANCE,
                    statement(claim.subject, claim.predicate, best.object),
                    (),
                    (),
                    round(conf, 4),
                    f"inherited from {best.subject}",
                )
            )
        # RULE ded.functional-value: p is functional, x p v, v != w => x NOT p w
        steps.append(
            Step(
                "ded.functional-value",
                statement(claim.subject, claim.predicate, claim.object, False),
                (),
                (),
                round(conf, 4),
                f"{claim.predicate} has one value at a time",
            )
        )
        return Outcome.REFUTED, conf, steps, Mode.DEDUCTIVE

    # -- queries -------------------------------------------------------------------------------

    def _between(self, subjects: list[str], objects: list[str], predicates: list[str]) -> list[Evidence]:
        g = self._graph()
        if not g.inactive:  # the mirror has every fact
            return [e for obj in objects for e in g.facts_into(obj, subjects, predicates)]
        found: list[Evidence] = []
        wanted = set(predicates)
        for obj in objects:
            if obj in g.inactive or any(x in g.inactive for x in subjects):
                by_subject = self._into(obj, predicates)  # inactive facts are only in Kùzu
                found += [e for x in subjects for e in by_subject.get(x, ()) if e.predicate in wanted]
            else:
                found += g.facts_into(obj, subjects, predicates)
        return found

    def _values(self, subjects: list[str], predicates: list[str]) -> list[Evidence]:
        # Subjects come nearest first; the walk stops after the first one that has values, since a value
        # stated about a more specific concept wins over any inherited one.
        found: list[Evidence] = []
        for x in subjects:
            found += [_with_unit(r) for r in self.lookups.run("ded_values_of", subject=x, predicates=predicates)]
            if found:
                break
        return found


def _link_steps(links: Sequence[Link], facts_of: list[list[tuple[str, str]]], instance: list[bool]) -> list[Step]:
    # RULE ded.isa-transitive: x is_a y, y is_a z => x is_a z
    return [
        Step(
            "ded.isa-transitive",
            f"{lk.child} {'instance_of' if inst else 'is_a'} {lk.parent}",
            tuple(f for f, _ in facts),
            tuple(dict.fromkeys(src for _, src in facts if src)),
            round(lk.confidence, 4),
        )
        for lk, facts, inst in zip(links, facts_of, instance, strict=True)
    ]


@dataclass(slots=True)
class _Prefetch:
    """Kùzu answers shared by the claims of one check_many call, by (object, predicates)."""

    into: dict[tuple[str, tuple[str, ...]], dict[str, list[Evidence]]] = field(default_factory=dict)


def looked_for(claim: Claim) -> str:
    """What an undecided claim was checked against, so that "not enough information" says what is missing."""
    s, p, o = claim.subject, claim.predicate, claim.object
    if p in HIERARCHY:
        return (
            f"looked for an is_a/instance_of chain from {s} to {o} and for a negative is_a or disjoint_with fact "
            "between their classes; found neither"
        )
    if claim.literal:
        return f"looked for a {p} value of {s} (or of a class it inherits from) equal to {o}; none was found"
    found = (
        f"looked for a {p} fact (or a sub-property, inverse or inherited one) linking {s} or its classes to {o}, "
        "either way round and in either polarity"
    )
    if p in CAUSAL:
        found += f", and for a causal chain from {s} to {o}"
    return found + "; none was found"


def _incomparable_steps(evidence: list[Evidence], claim: Claim) -> list[Step]:
    # RULE ded.value-incomparable: a stored value in a unit that cannot be converted neither supports nor refutes
    return [
        Step(
            "ded.value-incomparable",
            f"{e.statement()} cannot be compared with {claim.object}: {reason}",
            (e.fact_id,),
            sources([e]),
            round(e.confidence, 4),
            reason,
        )
        for e, reason in _incomparable(evidence, claim)
    ]


class _Exclusions(Mapping[str, list[Evidence]]):
    """Active negative is_a and disjoint_with facts by either end, made into Evidence concept by concept as they are
    asked for: a 1M-fact base has tens of thousands, one question looks at a handful (listing them all cost each
    CLI process about a second)."""

    def __init__(self, g: FactGraph) -> None:
        disjoint, isa = g.predicate_id("disjoint_with"), g.predicate_id("is_a")
        rows = np.nonzero(((g.predicate == disjoint) & g.polarity) | ((g.predicate == isa) & ~g.polarity))[0]
        rows = rows.astype(np.int64)
        ends = np.concatenate((g.subject[rows], g.object[rows])).astype(np.int64)
        # Per concept, its facts in mirror order, each at its subject before its object (a loop fact twice).
        order = np.lexsort((np.concatenate((rows * 2, rows * 2 + 1)), ends))
        self._graph = g
        self._ends = ends[order]
        self._rows = np.concatenate((rows, rows))[order]
        fresh = np.ones(len(self._ends), dtype=bool)
        fresh[1:] = self._ends[1:] != self._ends[:-1]
        self.ids = self._ends[fresh]  # the node ids of every concept with an exclusion, sorted
        self._made: dict[str, list[Evidence]] = {}

    def __getitem__(self, name: str) -> list[Evidence]:
        found = self._made.get(name)
        if found is None:
            node = self._graph.index.get(name)
            lo, hi = (0, 0) if node is None else np.searchsorted(self._ends, [node, node + 1]).tolist()
            if lo == hi:
                raise KeyError(name)
            found = self._made[name] = self._graph.evidence(self._rows[lo:hi].tolist())
        return found

    def __iter__(self) -> Iterator[str]:
        names = self._graph.names
        return (names[i] for i in self.ids.tolist())

    def __len__(self) -> int:
        return len(self.ids)


def _ids(h: Hierarchy, names: Iterable[str]) -> np.ndarray:
    return np.asarray(sorted(i for i in map(h.index.get, names) if i is not None), dtype=np.int64)


def _override_steps(groups: list[list[Evidence]], polarity: bool, holder: str) -> list[Step]:
    """Steps for the inherited statements of the other polarity that the more specific holder overrides."""
    steps = []
    for facts in groups:
        lost = [e for e in facts if e.polarity != polarity]
        if lost:
            # RULE ded.specificity-override: a statement about a more specific class wins over an inherited one
            steps.append(
                Step(
                    "ded.specificity-override",
                    lost[0].statement(),
                    fact_ids(lost),
                    sources(lost),
                    round(max(e.confidence for e in lost), 4),
                    f"overridden by the more specific {holder}",
                )
            )
    return steps


def _flip(e: Evidence, predicate: str, via: dict[str, str], rule: str) -> Evidence:
    # An inverse or symmetric fact `o q s` is read as `s predicate o`, keeping its provenance.
    via[e.fact_id] = rule
    return Evidence(e.object, predicate, e.subject, e.fact_id, e.polarity, e.confidence, e.source, e.status)


def _same_object(stored: str, claimed: str, literal: bool) -> bool:
    if not literal:
        return stored == claimed
    return compare(stored, claimed).match is Match.SAME


def _incomparable(evidence: list[Evidence], claim: Claim) -> list[tuple[Evidence, str]]:
    """Stored values that cannot be compared with the claimed one (unknown or incompatible units), with why."""
    if not claim.literal:
        return []
    out = []
    for e in evidence:
        if e.active and e.polarity:
            c = compare(e.object, claim.object)
            if c.match is Match.INCOMPARABLE:
                out.append((e, c.reason))
    return out


def _with_unit(row: dict[str, object]) -> Evidence:
    # The unit is part of the value: "-70 mV" is compared, shown and cited as such.
    e = Evidence.from_row(row)
    unit = row.get("unit")
    if unit in ("year", "years") and "year" in str(row.get("predicate", "")).lower().split("_"):
        return e  # founding_year 1911 is a calendar year, not a number of years
    return replace(e, object=f"{e.object} {unit}") if unit else e


def _inactive_steps(evidence: list[Evidence]) -> list[Step]:
    # RULE ctx.inactive-fact: outdated/disputed/retracted facts are shown, never used
    return [
        Step(
            "ctx.inactive-fact",
            e.statement(),
            (e.fact_id,),
            sources([e]),
            round(e.confidence, 4),
            f"{e.status} fact, not used",
        )
        for e in evidence
        if not e.active
    ]


def _direct_verdict(direct: list[Evidence], steps: list[Step]) -> tuple[Outcome, float] | None:
    active = [e for e in direct if e.active]
    if not active:
        return None
    pos = [e for e in active if e.polarity]
    neg = [e for e in active if not e.polarity]
    for group in (pos, neg):
        if group:
            steps.append(
                Step(
                    "dir.fact",
                    group[0].statement(),
                    fact_ids(group),
                    sources(group),
                    round(max(e.confidence for e in group), 4),
                )
            )
    if pos and neg:
        return Outcome.CONFLICTING, max(e.confidence for e in active)
    if pos:
        return Outcome.SUPPORTED, max(e.confidence for e in pos)
    return Outcome.REFUTED, max(e.confidence for e in neg)
