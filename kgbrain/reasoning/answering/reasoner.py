"""The Reasoner: one object that answers checks and questions over a store with all four modes.

It owns the caches the modes share (predicate declarations, the hierarchy mirror, the term index, the
analogy index) and drops them after every load (its `on_load` is registered in `Brain.load_hooks`).
`check`/`check_many` are the semantic entry points for verification; `ask` parses a question, links it
(nlu/understanding.py, through the `ConceptLinks` protocol this class satisfies) and answers it with the handler
its intent has in the registry of intents.py, an `Answer` whose text starts with the content, hedged by confidence.
A yes/no question and a claim are decided by one method, `Reasoner.decide`, so `ask` and `verify` agree.

Rule ids added here on top of the deductive and causal ones: `ded.has-part` (y part_of x => x has y),
`link.unknown-concept`.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from kgbrain.errors import AmbiguousConcept, AmbiguousRelation, InputError
from kgbrain.language import detect_language
from kgbrain.memory.linking import Linker
from kgbrain.memory.persisted import code_key, data_key, load_or_build
from kgbrain.reasoning import rule_ids as R
from kgbrain.reasoning.answering.assembly import source_refs
from kgbrain.reasoning.answering.authority import NORMATIVE, by_authority
from kgbrain.reasoning.answering.intents import answer
from kgbrain.reasoning.answers import Answer, SourceRef
from kgbrain.reasoning.modes import associative, causal
from kgbrain.reasoning.modes.analogical import Analogies, Analogy
from kgbrain.reasoning.modes.deductive import Claim, Deducer
from kgbrain.reasoning.nlu.lexicon import BROADER, KbLexicon
from kgbrain.reasoning.nlu.question import Intent, Question, parse_question
from kgbrain.reasoning.nlu.sentences import ATTRIBUTE_PHRASE, VERB_PHRASE
from kgbrain.reasoning.nlu.understanding import claim_ties, link_attribute, read_claim, understand
from kgbrain.reasoning.results import Check, Mode, Outcome, Step, Trace
from kgbrain.reasoning.uncertainty import uncertainty_level
from kgbrain.reasoning.views.cache_files import CORRUPT, read_cache
from kgbrain.reasoning.views.evidence_rows import statement
from kgbrain.reasoning.views.graph import FactGraph, fingerprint
from kgbrain.reasoning.views.hierarchy import Hierarchy
from kgbrain.reasoning.views.lookups import DecisionLookups
from kgbrain.reasoning.views.predicates import HIERARCHY, PredicateTable
from kgbrain.reasoning.views.reach import ReachIndex
from kgbrain.reasoning.views.timed import TimedStore
from kgbrain.store.delta import FactDelta
from kgbrain.store.protocol import GraphStore, Lookups

# A claim for check_many: (subject, predicate, object) or (subject, predicate, object, polarity).
ClaimTuple = tuple[str, str, str] | tuple[str, str, str, bool]


class Reasoner:
    """Answers checks and questions over one store; caches are rebuilt lazily after loads."""

    def __init__(
        self,
        store: GraphStore,
        *,
        index_dir: Path | None = None,
        lookups: Lookups | None = None,
        mirror: Callable[[], FactGraph] | None = None,
    ) -> None:
        """Reason over `store`; the fact mirror and analogy index are persisted in `index_dir` (None: memory).

        `decide` reads its views and `lookups` only (views/lookups.py): by default the store answers them.
        `mirror`, when given, makes the fact mirror instead of reading the store (the knowledge base as of a time
        masks the full mirror: views/timed.py).
        """
        self.store = store
        self._mirror = mirror
        self.lookups: Lookups = lookups if lookups is not None else DecisionLookups(store)
        self.index_dir = index_dir
        self.linker = Linker(store, known=lambda: self.graph().index, index_dir=index_dir)
        self._predicates: PredicateTable | None = None
        self._graph: FactGraph | None = None
        self._stamp: dict[str, float] | None = None  # the fingerprint of the data the mirror was read from
        self._hierarchy: Hierarchy | None = None
        self._causal: causal.CausalGraph | None = None
        self._parts: tuple[np.ndarray, np.ndarray] | None = None  # see _part_test
        self._vocabulary: KbLexicon | None = None
        self.deducer = Deducer(store, self.predicates, self.hierarchy, self.graph, self.lookups)
        self.analogies = Analogies(store, self.graph, self.hierarchy, index_dir)

    # -- caches --------------------------------------------------------------------------------

    def predicates(self) -> PredicateTable:
        """The loaded predicate declarations (cached)."""
        if self._predicates is None:
            self._predicates = PredicateTable.load(self.store)
        return self._predicates

    def graph(self) -> FactGraph:
        """The in-memory mirror of every active concept-to-concept fact (cached)."""
        if self._graph is None and self._mirror is not None:
            self._graph = self._mirror()
        if self._graph is None:
            # Persisted beside the database: a new process reuses it while the data's fingerprint matches.
            stamp = self._stamp = fingerprint(self.store)
            found = read_cache(partial(FactGraph.open, self.index_dir, stamp)) if self.index_dir is not None else None
            if found is None:
                found = FactGraph.load(self.store)
                if self.index_dir is not None:
                    with contextlib.suppress(OSError):  # a read-only location: it still works from memory
                        found.save(self.index_dir, stamp)
            self._graph = found
        return self._graph

    def vocabulary(self) -> KbLexicon:
        """Every stored predicate and attribute by the words that name it (cached with the linker's derived data,
        persisted with the indexes)."""
        if self._vocabulary is None:
            key = data_key(self.store)
            key = f"{key}:{code_key(KbLexicon)}" if key is not None else None
            names = load_or_build(self.index_dir, "kb_lexicon", key, self._predicate_names)
            self._vocabulary = KbLexicon(names)
        return self._vocabulary

    def _predicate_names(self) -> dict[str, list[str]]:
        # Only the names are persisted (marshal keeps plain data); the word keys are recomputed from them.
        from kgbrain.reasoning.nlu.lexicon import said_names

        known = sorted({*self.predicates().declared, *self.graph().pred_names})
        return {p: [*self.linker.names(p), *said_names(p)] for p in known}

    def hierarchy(self) -> Hierarchy:
        """The in-memory is_a/instance_of mirror (cached)."""
        if self._hierarchy is None:
            h = Hierarchy(self.graph())
            if self.index_dir is not None and self._stamp is not None:
                # The reachability labels are persisted beside the mirror, for the same data.
                folder = self.index_dir / "reach"
                found = ReachIndex.open(folder, self._stamp)
                if found is None:
                    found = h.reach
                    with contextlib.suppress(OSError):
                        found.save(folder, self._stamp)
                h.use_reach(found)
            self._hierarchy = h
        return self._hierarchy

    def causal_graph(self) -> causal.CausalGraph:
        """The in-memory mirror of active causal edges (cached)."""
        if self._causal is None:
            self._causal = causal.CausalGraph(self.graph())
        return self._causal

    def warm(self) -> None:
        """Build (or load) every view verification reads, so processes forked afterwards share them.

        Raises:
            StoreError: the store failed.
        """
        self.predicates()
        h = self.hierarchy()
        h.warm()
        self.deducer.exclusions()
        self.causal_graph()
        self._part_test()

    def persist_views(self) -> None:
        """Make sure the mirror and reachability labels are saved beside the database for the data as it is, so a
        new process (a Spark executor) opens them instead of building them: built (and saved) only when they are
        missing or stale; nothing is loaded when they are current.

        Raises:
            StoreError: the store failed.
        """
        # In memory, or a view as of a time (its mirror is derived from another's): built here, as before.
        if self.index_dir is None or self._mirror is not None or not self._saved(fingerprint(self.store)):
            self.warm()

    def _saved(self, stamp: dict[str, float]) -> bool:
        assert self.index_dir is not None
        try:
            graph = FactGraph.saved_for(self.index_dir, stamp)
        except CORRUPT:
            return False
        return graph and ReachIndex.saved_for(self.index_dir / "reach", stamp)

    def adopt(self, other: Reasoner) -> None:
        """Use the views `other` built over the same data (a forked verification worker reuses its parent's
        mirror instead of reading and building its own); this reasoner keeps its own store connection."""
        self._predicates, self._graph, self._stamp = other._predicates, other._graph, other._stamp
        self._hierarchy, self._causal, self._parts = other._hierarchy, other._causal, other._parts
        self.deducer.adopt(other.deducer)

    def on_load(self, brain: object, report: Any) -> None:
        """Load hook: forget caches and update the analogy index for the concepts the load touched."""
        del brain
        self._predicates = None
        self._graph = None
        self._hierarchy = None
        self._causal = None
        self._parts = None
        self._vocabulary = None
        self.deducer.invalidate()
        self.linker.invalidate()
        touched = {f.subject for f in report.added} | {f.object for f in report.added if f.object is not None}
        self.analogies.update(touched)

    def refresh(self, delta: FactDelta | None, report: Any) -> None:
        """After a write another connection committed: apply what it did to the facts (`delta`, see
        mirror_delta) to the mirror instead of dropping it; None (not recorded), or no mirror yet, is `on_load`.

        Raises:
            StoreError: the store failed.
        """
        graph = self._graph
        if delta is None or delta.unknown or graph is None:
            self.on_load(None, report)
            return
        from kgbrain.reasoning.views.mirror_delta import applied

        before = self._hierarchy
        self._graph = applied(graph, self.store, delta) if not delta.empty else graph
        self._stamp = fingerprint(self.store)
        self._predicates = None
        self._hierarchy = None
        self._causal = None
        self._parts = None
        self._vocabulary = None
        self.deducer.invalidate()
        self.linker.invalidate()
        if before is not None and before._reach is not None:
            # The reachability labels depend on the is_a/instance_of edges alone: kept when those did not change.
            after = Hierarchy(self._graph)
            if np.array_equal(after.offsets, before.offsets) and np.array_equal(after.targets, before.targets):
                after.use_reach(before._reach)
                self._hierarchy = after
        touched = {f.subject for f in report.added} | {f.object for f in report.added if f.object is not None}
        self.analogies.update(touched)

    def persist(self) -> None:
        """Save the mirror for the data it was refreshed to (a later process then opens it instead of reading every
        fact); nothing without an index folder or a mirror.

        Raises:
            StoreError: the store failed.
        """
        if self.index_dir is None or self._graph is None or self._stamp is None:
            return
        if self._stamp == fingerprint(self.store):
            with contextlib.suppress(OSError):
                self._graph.save(self.index_dir, self._stamp)
                reach = self._hierarchy._reach if self._hierarchy is not None else None
                folder = self.index_dir / "reach"
                if reach is not None and ReachIndex.open(folder, self._stamp) is None:
                    reach.save(folder, self._stamp)  # labels kept across writes that left the hierarchy alone
            self.analogies.persist()

    # -- checks --------------------------------------------------------------------------------

    def check(self, subject: str, predicate: str, obj: str, polarity: bool = True) -> Check:
        """Decide the statement `subject predicate obj` (names or ids) with its trace.

        Unknown names give an UNKNOWN check whose explanation lists close names; an object that names
        no concept is compared as an attribute value.

        Raises:
            StoreError: the store failed.
        """
        return self.check_many([(subject, predicate, obj, polarity)])[0]

    def check_many(self, claims: Sequence[ClaimTuple]) -> list[Check]:
        """`check` for many claims; names are linked in one pass and caches are shared.

        Raises:
            AmbiguousConcept: a name means concepts of several ontologies.
            StoreError: the store failed.
        """
        names = {c[0] for c in claims if c[1] not in (ATTRIBUTE_PHRASE, VERB_PHRASE)} | {c[2] for c in claims}
        linked = self.linker.lookup_many(sorted(names))
        out: list[Check | None] = []
        todo: list[Claim] = []
        where: list[int] = []
        for c in claims:
            read = self._claim_of(c, linked)
            if isinstance(read, Claim):
                todo.append(read)
                where.append(len(out))
                out.append(None)
            else:
                out.append(read)
        for i, check in zip(where, self.decide(todo), strict=True):
            out[i] = check
        self._decide_broader(todo, where, out)
        return [c for c in out if c is not None]

    def _claim_of(self, c: ClaimTuple, linked: Mapping[str, str | None]) -> Claim | Check:
        """The claim to decide for one claim tuple, or the UNKNOWN check of a name that links to nothing.

        Raises:
            AmbiguousConcept: a name means concepts of several ontologies.
            InputError: a verb phrase names no stored relation.
        """
        subject, predicate, obj = c[0], c[1], c[2]
        polarity = bool(c[3]) if len(c) > 3 else True
        if predicate == ATTRIBUTE_PHRASE:  # "the resting potential of a neuron is -70 mV"
            found, missing = link_attribute(self, subject)
            if missing:
                return _unknown_check(subject, predicate, obj, polarity, missing, self.linker.suggest(missing))
            return Claim(found[0], found[1], obj, polarity, literal=True)
        if predicate == VERB_PHRASE:  # "Neurons consume energy"
            return self._verb_claim(subject, polarity)
        for name in (subject, obj):
            candidates = self.linker.ambiguous(name)
            if candidates:
                raise AmbiguousConcept(name, [self.linker.describe(c) for c in candidates])
        s = linked.get(subject)
        o = linked.get(obj)
        if s is None and predicate in HIERARCHY:  # "The director of Acme is Petrov": a role, not a class
            read = read_claim(self, f"{subject} {obj}", detect_language(f"{subject} {obj}"))
            if read is not None:
                return Claim(read[0], read[1], read[2], read[3] == polarity)
        if s is None:
            return _unknown_check(subject, predicate, obj, polarity, subject, self.linker.suggest(subject))
        if o is None and predicate in HIERARCHY:
            # "Bordeaux is located in France", "Minors are permitted to buy alcohol": no class, a statement
            read = read_claim(self, f"{subject} {obj}", detect_language(f"{subject} {obj}"))
            if read is not None:
                return Claim(read[0], read[1], read[2], read[3] == polarity)
            return _unknown_check(subject, predicate, obj, polarity, obj, self.linker.suggest(obj))
        # An object that names no concept is compared as an attribute value.
        return Claim(s, predicate, o if o is not None else obj, polarity, o is None)

    def _decide_broader(self, todo: Sequence[Claim], where: Sequence[int], out: list[Check | None]) -> None:
        """Claims `x contains y` left UNKNOWN (nothing states `contains`): decided again as the broader has_property."""
        again = [(i, c) for i, c in zip(where, todo, strict=True) if c.predicate in BROADER]
        again = [(i, c) for i, c in again if (decided := out[i]) is not None and decided.outcome is Outcome.UNKNOWN]
        if again:
            broader = [Claim(c.subject, BROADER[c.predicate], c.object, c.polarity, c.literal) for _, c in again]
            for (i, _), check in zip(again, self.decide(broader), strict=True):
                out[i] = check

    def _verb_claim(self, sentence: str, polarity: bool) -> Claim:
        """The claim of a sentence, read as the yes/no question that asks it is read (nlu read_claim).

        Raises:
            InputError: no verb of the sentence names a relation between concepts it names.
        """
        found = read_claim(self, sentence, detect_language(sentence))
        if found is None:
            raise InputError(
                f"cannot read {sentence!r} as a claim; write it like 'X is a Y', 'X has Y', 'X can Y', 'X causes Y' "
                "or with a verb the knowledge base stores a relation for (or 'X — это Y', 'X имеет Y', 'X может Y', "
                "'X вызывает Y'), or give subject/predicate/object"
            )
        subject, predicate, obj, stated = found
        # "Tin melts at 232 °C" reads an attribute (a declared predicate no relation uses): its object is a value
        literal = predicate in self.predicates().declared and predicate not in self.graph().pred_names
        tied = claim_ties(self, sentence, detect_language(sentence), predicate)
        if tied:  # read as the question is read: readings that decide it differently are not picked between
            checks = self.decide([Claim(subject, p, obj, stated == polarity, literal) for p in tied])
            if len({c.outcome for c in checks}) > 1:
                raise AmbiguousRelation(sentence, tied)
        return Claim(subject, predicate, obj, stated == polarity, literal)

    def decide(self, claims: Sequence[Claim]) -> list[Check]:
        """THE semantics of a statement about linked concepts: `check`, `check_many` and `ask`'s yes/no
        questions all end here, so a verdict and an answer to the same question cannot disagree.

        The deducer decides first (lookup, hierarchy, inheritance, negation, disjointness). What it leaves
        UNKNOWN gets the readings a question is answered by as well, each batched over the claims:
        `x has_property y` by parts (`y part_of x`: a neuron has an axon), and a causal predicate by a
        causal chain (`neuron causes signal_transmission enables thinking`). Sources that disagree about a
        normative statement (`permitted`, `requires`, `obliged_to`) are ranked by authority tier (seed 003).

        Raises:
            StoreError: the store failed.
        """
        checks = self.deducer.check_many(claims)
        for i, k in enumerate(checks):
            if k.outcome is Outcome.CONFLICTING and claims[i].predicate in NORMATIVE:
                checks[i] = by_authority(k, self.graph(), self.hierarchy(), self.sources)
        unknown = [i for i, k in enumerate(checks) if k.outcome is Outcome.UNKNOWN and not claims[i].literal]
        may_be_part = self._part_test()
        parts = [i for i in unknown if claims[i].predicate == "has_property" and may_be_part(claims[i])]
        if parts:
            found = self.deducer.check_many(
                [Claim(claims[i].object, "part_of", claims[i].subject, claims[i].polarity) for i in parts]
            )
            for i, part in zip(parts, found, strict=True):
                if part.outcome is not Outcome.UNKNOWN:
                    checks[i] = _has_part(claims[i], checks[i], part)
        for i in unknown:
            c = claims[i]
            # Most causal claims have no path at all: the in-memory reachability test spares them a Kùzu query.
            if c.predicate in causal.CAUSAL and causal.reachable(self.causal_graph(), c.subject, c.object) is not False:
                chains = self.paths(c.subject, c.object, limit=1)
                if chains:
                    checks[i] = _causal_check(c, checks[i], chains[0])
        from kgbrain.reasoning.tms.proof_steps import with_derivations_many

        checks = with_derivations_many(self.lookups, checks)  # derived evidence shows its rule steps
        if isinstance(self.store, TimedStore):  # as of a time: the proof shows each fact's interval
            timeline = self.store.timeline
            checks = [
                dataclasses.replace(k, intervals=tuple(timeline.described(k.trace.fact_ids).items())) for k in checks
            ]
        return checks

    def _part_test(self) -> Callable[[Claim], bool]:
        """Whether `y part_of x` can decide the claim `x has_property y` at all (False: skip the check).

        Only active facts decide, and the mirror holds them all: the part must state a part_of (or sub-
        property) fact, or the whole an inverse one. An inheritable part_of would bring in the part's
        ancestors, so then every claim is checked. The two node masks are cached until the next load.
        """
        table = self.predicates()
        decl = table.get("part_of")
        if decl.inheritable:
            return lambda claim: True
        g = self.graph()
        if self._parts is None:

            def subjects_of(names: Sequence[str]) -> np.ndarray:
                mask = np.zeros(len(g.names), dtype=bool)
                ids = [i for i in map(g.predicate_id, names) if i >= 0]
                if ids:
                    mask[g.subject[np.isin(g.predicate, ids)]] = True
                return mask

            inverse = [*table.inverses("part_of"), *(["part_of"] if decl.symmetric else [])]
            self._parts = (subjects_of(table.sub_properties("part_of")), subjects_of(inverse))
        from_part, from_whole = self._parts

        def test(claim: Claim) -> bool:
            part, whole = g.index.get(claim.object), g.index.get(claim.subject)
            return (part is not None and bool(from_part[part])) or (whole is not None and bool(from_whole[whole]))

        return test

    # -- modes ---------------------------------------------------------------------------------

    def resolve(self, name: str) -> str | None:
        """The concept a name refers to, or None."""
        return self.linker.lookup(name)

    def neighbourhood(self, concept: str, limit: int = 8) -> associative.Neighbourhood:
        """Associative mode: the ranked neighbourhood and concept chain of a concept id.

        Raises:
            StoreError: the store failed.
        """
        return associative.explore(self.graph(), self.hierarchy(), concept, limit=limit)

    def causes_of(self, concept: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: ranked causal chains ending at `concept` (what causes it).

        Raises:
            StoreError: the store failed.
        """
        return causal.causes_of(self.causal_graph(), concept, limit=limit)

    def effects_of(self, concept: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: ranked causal chains starting at `concept` (what it leads to).

        Raises:
            StoreError: the store failed.
        """
        return causal.effects_of(self.causal_graph(), concept, limit=limit)

    def paths(self, source: str, target: str, limit: int = 5) -> list[causal.CausalPath]:
        """Causal mode: ranked causal paths from `source` to `target` (concept ids), cycle-safe.

        Raises:
            StoreError: the store failed.
        """
        found = causal.paths_between(self.causal_graph(), source, target, limit=limit)
        if found:
            return found
        # Longer than the best-first bound (causal.MAX_HOPS): Kùzu's BFS form finds one shortest path up to 12. As of
        # a time, a path through a fact out of time is none (the statement reads the stored statuses).
        outside: frozenset[str] = getattr(self.store, "outside", frozenset())
        return [
            path
            for row in self.lookups.run("cau_shortest", source=source, target=target)
            if not outside.intersection(row["fact_ids"] or ())
            for path in causal.from_row(source, row)
        ]

    def ancestors_cypher(self, concept: str) -> set[str]:
        """Ancestors through Kùzu's BFS form (`-[:IS_A|INSTANCE_OF* SHORTEST 1..30]->`), capped at 30 hops.

        The reasoner uses the in-memory mirror (no depth cap, microseconds); this is the Cypher
        cross-check the tests and bench/reasoning.py compare it with.

        Raises:
            StoreError: the store failed.
        """
        return {r["ancestor"] for r in self.store.run("ded_ancestors_shortest", id=concept)}

    def connection(self, source: str, target: str) -> associative.Connection | None:
        """Associative mode: the shortest chain of facts (either direction) linking two concept ids.

        Raises:
            StoreError: the store failed.
        """
        return associative.connect(self.graph(), source, target)

    def like(self, concept: str, limit: int = 5) -> list[Analogy]:
        """Analogical mode: structurally similar concepts with the structure they share.

        Raises:
            StoreError: the store failed.
        """
        return self.analogies.similar(concept, limit=limit)

    # -- questions -----------------------------------------------------------------------------

    def ask(self, question: str) -> Answer:
        """Answer a natural-language question (Russian or English).

        Raises:
            StoreError: the store failed.
        """
        return self.answer(self.understand(question))

    def understand(self, question: str) -> Question:
        """Parse a question once and link its slots: the typed question every later stage receives.

        Raises:
            StoreError: the store failed.
        """
        return understand(self, parse_question(question))

    def answer(self, q: Question) -> Answer:
        """Answer a typed question with its intent's handler (intents.py); `Answer.data["kind"]` says what was
        found.

        Kinds: `define`, `check`, `causal_path`, `causes`, `effects`, `analogy`, `relation`, `value`, `list`,
        `count`, `unknown_concept`, `not_understood`, `no_answer`.

        Raises:
            StoreError: the store failed.
        """
        if not q.linked:
            q = understand(self, q)
        return answer(self, q)

    def sources(self, names: Sequence[str]) -> tuple[SourceRef, ...]:
        """The named sources with their trust and authority tier, in the given order.

        Raises:
            StoreError: the store failed.
        """
        return source_refs(self.lookups, names)


def _has_part(claim: Claim, unknown: Check, part: Check) -> Check:
    # RULE ded.has-part: y part_of x => x has_property y (a whole has its parts)
    # `part` is relative to the claimed polarity; the step states what the knowledge base says.
    denied = part.outcome is not Outcome.CONFLICTING and (part.outcome is Outcome.SUPPORTED) != claim.polarity
    conclusion = statement(claim.subject, "has_property", claim.object, not denied)
    steps = (
        *(st for st in unknown.trace.steps if st.rule == R.CTX_INACTIVE_FACT),
        *part.trace.steps,
        Step(R.DED_HAS_PART, conclusion, (), (), part.confidence, f"{claim.object} part_of {claim.subject}"),
    )
    return _replace_check(unknown, part.outcome, part.confidence, Mode.DEDUCTIVE, steps)


def _causal_check(claim: Claim, unknown: Check, chain: causal.CausalPath) -> Check:
    # A causal chain decides a causal claim: a chain that works for the effect supports causes/enables/
    # leads_to and refutes prevents; a chain with a prevents link (it works against the effect) the reverse.
    holds = chain.polarity != (claim.predicate == "prevents")
    outcome = Outcome.SUPPORTED if holds == claim.polarity else Outcome.REFUTED
    steps = (*(st for st in unknown.trace.steps if st.rule == R.CTX_INACTIVE_FACT), *chain.steps())
    return _replace_check(unknown, outcome, chain.confidence, Mode.CAUSAL, steps)


def _replace_check(base: Check, outcome: Outcome, confidence: float, mode: Mode, steps: Sequence[Step]) -> Check:
    explanation = "; ".join(st.conclusion for st in steps if st.rule != R.CTX_INACTIVE_FACT)
    return Check(
        subject=base.subject,
        predicate=base.predicate,
        object=base.object,
        polarity=base.polarity,
        outcome=outcome,
        confidence=round(confidence, 4),
        mode=mode,
        trace=Trace(tuple(steps)),
        conflicts=base.conflicts,
        explanation=explanation,
    )


def _unknown_check(subject: str, predicate: str, obj: str, polarity: bool, name: str, close: list[str]) -> Check:
    hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
    return Check(
        subject=subject,
        predicate=predicate,
        object=obj,
        polarity=polarity,
        outcome=Outcome.UNKNOWN,
        confidence=0.0,
        mode=Mode.DEDUCTIVE,
        trace=Trace((Step(R.LINK_UNKNOWN_CONCEPT, f"unknown concept {name!r}", note=", ".join(close)),)),
        explanation=f"unknown concept {name!r}{hint}",
    )


__all__ = ["Answer", "Intent", "Reasoner", "SourceRef", "uncertainty_level"]
